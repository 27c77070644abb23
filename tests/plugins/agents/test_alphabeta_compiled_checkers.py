"""Compiled alpha-beta is the interpreted search node for node on checkers: every heuristic at fixed
depths 1-4 with each enhancement switched off in turn, deepening under node budgets, quiet-move
draws (states that differ only in the draw counter are different table entries), and the solver
on endgames: same scores, moves, PVs, nodes, nodes per ply and heuristic leaves. Each golden set is one test
that runs every position and tables every mismatch (tests/golden.py)."""

import pytest

from framework.playouts import final_positions, playout_positions
from framework.protocols import Budget, Proof
from plugins.agents.alphabeta.agent import AlphaBetaAgent
from plugins.games.checkers import Checkers
from plugins.games.checkers.heuristics import HEURISTICS
from tests.golden import assert_each_equal

#: Slow (tests/conftest.py): golden sets of compiled alpha-beta against the interpreted search.
pytestmark = pytest.mark.slow

GAME = Checkers()
#: The 40-move rule cut to 3 moves each: drawn ends and draw counters inside small trees.
QUICK_DRAW = Checkers(quiet_moves=3)
#: The defaults (quiescence on), quiescence off, a tiny table (replacements and collisions), each ordering
#: source off, no table, a shallow quiescence search, PVS with aspiration windows and late-move reductions and
#: singular extensions.
VARIANTS = ({}, {"quiescence": False}, {"tt_size": 61}, {"killers": False}, {"history": False},
            {"move_hints": False}, {"tt_move": False}, {"transposition_table": False},
            {"quiescence_depth": 1, "killers": False},
            {"pvs": True, "aspiration": True, "lmr": True, "lmr_min_depth": 2, "lmr_moves": 2, "singular": True,
             "singular_min_depth": 2, "singular_margin": 0.5})
#: Every other state of seeded random games: openings, kings, multi-jumps, king endgames.
POSITIONS = [s for s in playout_positions(GAME, 260, seed=17, every=2, max_plies=150) if not GAME.is_terminal(s)]


def run(game, state, heuristic, options, depth, budget, compiled, monkeypatch):
    """The search's whole record: iterations (score, move, PV, nodes, exhausted), nodes per ply, heuristic leaves."""
    monkeypatch.setenv("PLYGROUND_JIT", "1" if compiled else "0")
    agent = AlphaBetaAgent(game, depth=depth, heuristic=heuristic, **options)
    search = agent.new_search(game, heuristic, budget)
    assert search.compiled == compiled
    iterations = search.deepen(state, depth, budget.nodes is not None)
    per_ply = search.ply_nodes[:max(p for p, n in enumerate(search.ply_nodes) if n) + 1]
    return iterations, search.nodes, per_ply, search.horizon


def test_the_sample_holds_kings_multi_jumps_and_king_endgames():
    assert len(POSITIONS) >= 250
    assert sum(1 for s in POSITIONS if s[2]) >= 80
    assert any(m >> 6 & 15 >= 2 for s in POSITIONS for m in GAME.legal_moves(s))
    assert any((s[0] | s[1]) == s[2] for s in POSITIONS)


def test_fixed_depth_search_is_the_interpreted_search(monkeypatch):
    def pair(index):
        state = POSITIONS[index]
        game = QUICK_DRAW if index % 5 == 0 else GAME    # some roots are drawn ends there: no move, as interpreted
        heuristic = HEURISTICS[index % 3](game)
        options = VARIANTS[index % len(VARIANTS)]
        depth = 1 + index % 4
        python = run(game, state, heuristic, options, depth, Budget(), False, monkeypatch)
        return run(game, state, heuristic, options, depth, Budget(), True, monkeypatch), python
    assert_each_equal(range(len(POSITIONS)), pair, what="checkers positions", expected="interpreted")


def test_deepening_under_a_node_budget_is_the_interpreted_search(monkeypatch):
    """The budget stops both at the same node, mid-iteration; the completed iterations are the same."""
    def pair(index):
        state = POSITIONS[index]
        heuristic = HEURISTICS[index % 3](GAME)
        options = VARIANTS[index % len(VARIANTS)]
        budget = Budget(nodes=150 + 7 * index)
        python = run(GAME, state, heuristic, options, 12, budget, False, monkeypatch)
        return run(GAME, state, heuristic, options, 12, budget, True, monkeypatch), python
    assert_each_equal(range(0, len(POSITIONS), 5), pair, what="checkers positions", expected="interpreted")


def test_select_move_with_the_default_heuristic_is_the_interpreted_decision(monkeypatch):
    def decide(compiled):
        monkeypatch.setenv("PLYGROUND_JIT", "1" if compiled else "0")
        agent = AlphaBetaAgent(GAME, depth=4, heuristic=HEURISTICS[1](GAME))
        out = []
        for state in POSITIONS[::25]:
            decision = agent.select_move(GAME, state, Budget())
            extra = dict(decision.stats.extra)
            assert extra.pop("binding") == ("compiled" if compiled else "interpreted")
            extra.pop("binding_reason", None)     # interpreted: compiled kernels are off
            out.append((decision.move, decision.stats.nodes, decision.stats.score, decision.stats.pv,
                        extra, decision.stats.peak_entries))
        return out
    assert decide(True) == decide(False)


ENDGAMES = final_positions(GAME, 40, seed=3, first=10, last=1)


def endgame(index):
    """The game an endgame is solved in: every fourth under the quick draw rule, unless already drawn there."""
    state = ENDGAMES[index]
    return QUICK_DRAW if index % 4 == 0 and not QUICK_DRAW.is_terminal(state) else GAME


def test_the_endgame_sample_has_wins_losses_a_draw_and_unknowns(monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    values = {AlphaBetaAgent(endgame(i), **VARIANTS[i % len(VARIANTS)]).solve(endgame(i), s, Budget(nodes=5000)).value
              for i, s in enumerate(ENDGAMES)}
    assert values == {Proof.WIN, Proof.LOSS, Proof.DRAW, Proof.UNKNOWN}


def test_the_solver_on_endgames_is_the_interpreted_solver(monkeypatch):
    def pair(index):
        state, game = ENDGAMES[index], endgame(index)
        options = VARIANTS[index % len(VARIANTS)]

        def solve(compiled):
            monkeypatch.setenv("PLYGROUND_JIT", "1" if compiled else "0")
            agent = AlphaBetaAgent(game, **options)
            searches = []
            new_search = agent.new_search
            agent.new_search = lambda *a, **k: searches.append(search := new_search(*a, **k)) or search
            result = agent.solve(game, state, Budget(nodes=5000))
            assert [search.compiled for search in searches] == [compiled]
            return (result.value, result.move, result.stats.nodes, result.stats.depth, result.stats.pv,
                    result.stats.extra, result.stats.peak_entries)
        return solve(True), solve(False)
    assert_each_equal(range(len(ENDGAMES)), pair, what="checkers endgames", expected="interpreted")
