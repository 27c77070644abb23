"""Compiled alpha-beta is the interpreted search node for node with the re-searching and selective switches:
principal-variation search, aspiration windows, late-move reductions and singular extensions, each alone
and all together, on LOA and checkers, at fixed depths and deepening under node budgets: same scores,
moves, PVs, nodes per iteration, nodes per ply and heuristic leaves. Each golden set is one test that runs
every position and tables every mismatch (tests/golden.py)."""

import pytest

from framework.playouts import final_positions, playout_positions
from framework.protocols import Budget
from plugins.agents.alphabeta.agent import AlphaBetaAgent
from plugins.games.checkers import Checkers
from plugins.games.checkers.heuristics import HEURISTICS as CHECKERS_HEURISTICS
from plugins.games.loa.game import SCRAMBLED_START, LinesOfAction
from plugins.games.loa.heuristics import HEURISTICS as LOA_HEURISTICS
from tests.golden import assert_each_equal

LOA, CHECKERS = LinesOfAction(), Checkers()
#: Each switch alone (LMR and singular extensions from depth 2, so small trees meet them), then all four.
ALONE = {"pvs": {"pvs": True},
         "aspiration": {"aspiration": True},
         "lmr": {"lmr": True, "lmr_min_depth": 2, "lmr_moves": 1},
         "singular": {"singular": True, "singular_min_depth": 2, "singular_margin": 5.0}}
ALL = {k: v for options in ALONE.values() for k, v in options.items()}
#: LOA midgames and endgames; checkers positions with kings and multi-jumps.
LOA_POSITIONS = ([s for s in playout_positions(LOA, 40, seed=11, starts=(LOA.initial_state(),
                                                                          LOA.from_text(SCRAMBLED_START)))
                  if not LOA.is_terminal(s)][:30] + final_positions(LOA, 30, seed=11))
CHECKERS_POSITIONS = [s for s in playout_positions(CHECKERS, 120, seed=5, every=2, max_plies=150)
                      if not CHECKERS.is_terminal(s)][:100]
CASES = [(game, i) for game, positions in (("loa", LOA_POSITIONS), ("checkers", CHECKERS_POSITIONS))
         for i in range(len(positions))]


def case(game_name, index):
    """The game, state, heuristic, depth and budget of one case (heuristics and depths rotate)."""
    if game_name == "loa":
        game, state, heuristics = LOA, LOA_POSITIONS[index], LOA_HEURISTICS
        depth = 2 + index % 2
    else:
        game, state, heuristics = CHECKERS, CHECKERS_POSITIONS[index], CHECKERS_HEURISTICS
        depth = 3 + index % 3
    budget = Budget(nodes=200 + 37 * index) if index % 4 == 3 else Budget()    # a budget spent mid-iteration
    return game, state, heuristics[index % len(heuristics)](game), depth, budget


def run(game, state, heuristic, options, depth, budget, compiled, monkeypatch):
    """The search's whole record: iterations (score, move, PV, nodes, exhausted), nodes per ply, heuristic leaves."""
    monkeypatch.setenv("PLYGROUND_JIT", "1" if compiled else "0")
    agent = AlphaBetaAgent(game, depth=depth, heuristic=heuristic, **options)
    search = agent.new_search(game, heuristic, budget)
    assert search.compiled == compiled
    iterations = search.deepen(state, depth, True)
    per_ply = search.ply_nodes[:max(p for p, n in enumerate(search.ply_nodes) if n) + 1]
    return iterations, search.nodes, per_ply, search.horizon


def test_each_switch_alone_searches_as_the_interpreted_search(monkeypatch):
    def pair(game_and_index):
        game_name, index = game_and_index
        game, state, heuristic, depth, budget = case(game_name, index)
        options = list(ALONE.values())[index % len(ALONE)]
        python = run(game, state, heuristic, options, depth, budget, False, monkeypatch)
        return run(game, state, heuristic, options, depth, budget, True, monkeypatch), python
    assert_each_equal(CASES, pair, what="positions", expected="interpreted")


def test_all_four_together_search_as_the_interpreted_search(monkeypatch):
    def pair(game_and_index):
        game, state, heuristic, depth, budget = case(*game_and_index)
        python = run(game, state, heuristic, ALL, depth, budget, False, monkeypatch)
        return run(game, state, heuristic, ALL, depth, budget, True, monkeypatch), python
    assert_each_equal(CASES, pair, what="positions", expected="interpreted")


@pytest.mark.parametrize("switch", ALONE)
def test_each_switch_changes_the_tree_searched_on_most_of_the_sample(switch, monkeypatch):
    """So the equality above is not of searches the switch left alone (measured: 96 to 124 of the 160)."""
    changed = 0
    for game_name, index in CASES:
        game, state, heuristic, depth, budget = case(game_name, index)
        on = run(game, state, heuristic, ALONE[switch], depth, budget, True, monkeypatch)
        off = run(game, state, heuristic, {}, depth, budget, True, monkeypatch)
        changed += on[1] != off[1]
    assert changed >= len(CASES) // 2
