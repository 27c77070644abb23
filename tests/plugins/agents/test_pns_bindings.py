"""PN and PN² (plugins.agents.proofnumber.search, written once) give the recorded answers, moves, node counts
and tree sizes in every binding: compiled, interpreted over the rules, and through the kernel adapter. Each
golden set is one test per binding that runs every position and tables every mismatch (tests/golden.py)."""

import time
from pathlib import Path

import pytest

from framework.playouts import final_positions, playout_positions, random_positions
from framework.protocols import Budget, Proof
from framework.search import SearchAborted, SearchLimits
from plugins.agents.proofnumber import pns
from plugins.agents.proofnumber.common import Spend
from plugins.games.checkers import Checkers
from plugins.games.loa.game import SCRAMBLED_START, LinesOfAction
from tests.golden import assert_each_equal, assert_each_holds
from tests.plugins.agents.conftest import PN_FIGURES

GAME = LinesOfAction()
MOVER_WINS = LinesOfAction(simultaneous="mover_wins")


#: Midgame states, and the last 10 before the end of random games (where proofs are found).
STARTS = (GAME.initial_state(), GAME.from_text(SCRAMBLED_START))
POSITIONS = ([s for s in playout_positions(GAME, 130, seed=6, starts=STARTS) if not GAME.is_terminal(s)][:100]
             + final_positions(GAME, 100, seed=6))


def run(search, game, state, prover, nodes, tree_limit, **options):
    spend = Spend(SearchLimits.start(Budget(nodes=nodes)))
    result = search(game, state, prover, spend, tree_limit, **options)
    return [result.proved, result.move, result.drawn, result.extra, spend.nodes, result.peak_entries]


def test_pns_gives_the_recorded_answer_move_nodes_and_tree(binding):
    def pair(index):
        state = POSITIONS[index]
        game = binding(MOVER_WINS if index % 7 == 0 else GAME)
        prover = state[2] if index % 2 else 1 - state[2]
        tree_limit = 400 if index % 5 == 0 else 100_000          # every fifth search fills its tree
        return run(pns.pn_search, game, state, prover, 800, tree_limit), PN_FIGURES["pns_loa"][index]
    assert_each_equal(range(len(POSITIONS)), pair, what="LOA positions", expected="recorded")


def test_pn2_gives_the_recorded_answer_move_nodes_tree_and_second_level(binding):
    # the figures of this project's first PN², second levels as large as the first (growth: tree-size)
    def pair(index):
        state = POSITIONS[index]
        game = binding(MOVER_WINS if index % 7 == 0 else GAME)
        prover = state[2] if index % 4 else 1 - state[2]
        tree_limit = 100 if index % 3 == 0 else 100_000          # every third first-level tree fills up
        return (run(pns.pn2_search, game, state, prover, 800, tree_limit, growth="tree-size"),
                PN_FIGURES["pn2_loa"][str(index)])
    assert_each_equal(range(0, len(POSITIONS), 4), pair, what="LOA positions", expected="recorded")


def test_published_pn2_on_trees_under_a_thousand_nodes_expands_as_pn_search(binding):
    """Breuker's growth gives a first-level tree of x < 1,000 nodes second levels of x f(x) < 1 node beyond
    their root (`search.second_level_size`): each second-level search only expands its root, so PN² takes the
    very children PN search generates, node for node: same answer, move, tree, nodes and stop."""
    def check(index):
        state = POSITIONS[index]
        game = binding(MOVER_WINS if index % 7 == 0 else GAME)
        prover = state[2] if index % 4 else 1 - state[2]
        tree_limit = 100 if index % 3 == 0 else 100_000
        pn = run(pns.pn_search, game, state, prover, 800, tree_limit)
        pn2 = run(pns.pn2_search, game, state, prover, 800, tree_limit)
        assert pn2[:3] + pn2[4:5] == pn[:3] + pn[4:5]
        assert {k: pn2[3][k] for k in ("tree_nodes", "stopped_by")} == \
            {k: pn[3][k] for k in ("tree_nodes", "stopped_by")}
        assert pn2[3]["second_level_nodes"] == pn2[4] - 1       # every node but the root, one search an expansion
    assert_each_holds(range(0, len(POSITIONS), 4), check, what="LOA positions")


CHECKERS = Checkers()
QUICK_DRAW = Checkers(quiet_moves=2)      # 4 quiet plies draw: draws inside small trees
CHECKERS_POSITIONS = random_positions(CHECKERS, 60, seed=8, min_plies=40, max_plies=140)


def test_checkers_pns_and_pn2_give_the_recorded_figures(binding):
    def pair(index):
        state = CHECKERS_POSITIONS[index]
        game = binding(QUICK_DRAW if index % 3 == 0 else CHECKERS)
        prover = state[3] if index % 2 else 1 - state[3]
        return ([run(pns.pn_search, game, state, prover, 600, 100_000),
                 run(pns.pn2_search, game, state, prover, 600, 100_000, growth="tree-size")],
                PN_FIGURES["checkers"][index])
    assert_each_equal(range(len(CHECKERS_POSITIONS)), pair, what="checkers positions (PN, PN²)", expected="recorded")


def test_the_checkers_sample_has_proofs_and_drawn_leaves():
    outcomes = [pn for pn, _ in PN_FIGURES["checkers"]]
    assert any(o[0] is not None for o in outcomes) and any(o[2] for o in outcomes)


def test_the_sample_has_proofs_disproofs_drawn_leaves_and_every_stop_reason():
    outcomes = PN_FIGURES["pns_loa"]
    assert {o[3]["stopped_by"] for o in outcomes} == {"solved", "budget", "tree_limit"}
    assert any(o[0] is True for o in outcomes) and any(o[0] is False for o in outcomes) and any(o[2] for o in outcomes)


@pytest.mark.parametrize("name, params", [("pns", {"tree_limit": 5_000}), ("pn2", {"tree_limit": 5_000}),
                                          ("dfpn", {"tt_size": 5_000})])
def test_the_agent_solves_identically_compiled_and_interpreted(monkeypatch, registry, name, params):
    agent = registry.create_agent(name, GAME, params)
    fast = [agent.solve(GAME, s, Budget(nodes=3_000)) for s in POSITIONS[::20]]
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    slow = [agent.solve(GAME, s, Budget(nodes=3_000)) for s in POSITIONS[::20]]
    assert [(r.value, r.move, r.stats.nodes, r.stats.extra, r.stats.peak_entries) for r in fast] == \
           [(r.value, r.move, r.stats.nodes, r.stats.extra, r.stats.peak_entries) for r in slow]
    assert any(r.value is Proof.WIN for r in fast)


def test_a_time_budget_stops_the_compiled_search():
    state = POSITIONS[1]
    run(pns.pn_search, GAME, state, state[2], 10, 100)  # compiled before the clock starts
    spend = Spend(SearchLimits.start(Budget(time=0.05)))
    start = time.process_time()  # CPU time: a loaded machine stretches wall time, not this
    result = pns.pn_search(GAME, state, state[2], spend, 10_000_000)
    assert time.process_time() - start < 1.0
    assert result.extra["stopped_by"] in ("budget", "solved") and spend.nodes > 0


def test_an_exhausted_budget_aborts_before_the_root(binding):
    spend = Spend(SearchLimits(node_limit=0, deadline=float("inf")))
    for two_level in (False, True):
        with pytest.raises(SearchAborted):
            pns.pn_search(binding(GAME), POSITIONS[0], 0, spend, 100, two_level)


def test_the_first_timed_move_does_not_pay_for_compiling(registry):
    # The agent compiles (or loads) its kernel when it is built, not inside select_move.
    agent = registry.create_agent("pns", GAME)
    start = time.process_time()  # CPU time: compiling would cost seconds of it, load costs none
    decision = agent.select_move(GAME, GAME.initial_state(), Budget(time=0.5))
    assert time.process_time() - start < 1.5 and decision.move in GAME.legal_moves(GAME.initial_state())


ENDGAMES = Path(__file__).parents[3] / "tournaments" / "positions" / "loa-endgames-488.txt"


def cheapest_proof_of_each_length(most: int) -> dict[int, tuple[str, int]]:
    """From the shipped endgame set: length -> (position, nodes) of its cheapest proof, up to `most` plies."""
    cheapest: dict[int, tuple[str, int]] = {}
    for line in ENDGAMES.read_text().splitlines():
        if not line.startswith("#"):
            position, note = line.split(" | ")
            fields = dict(part.strip().split("=", 1) for part in note.split(";"))
            length, nodes = int(fields["length"]), int(fields["nodes"])
            if length <= most and (length not in cheapest or nodes < cheapest[length][1]):
                cheapest[length] = (position, nodes)
    return cheapest


def test_pns_reports_the_recorded_proof_lengths_of_1_to_11_plies_in_every_binding(binding):
    cheapest = cheapest_proof_of_each_length(11)
    assert sorted(cheapest) == [1, 3, 5, 7, 9, 11]
    for length, (position, nodes) in cheapest.items():
        state = GAME.from_text(position)
        figures = run(pns.pn_search, binding(GAME), state, state[2], 50_000, 1_000_000)
        assert figures[3]["proof_length"] == length and figures[4] == nodes
