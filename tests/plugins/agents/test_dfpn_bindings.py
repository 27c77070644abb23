"""df-pn (plugins.agents.proofnumber.search.dfpn_search, written once) gives the recorded answers, moves, node
counts, expansions and table entries on LOA and checkers in every binding (the agent-level check is in
test_pns_bindings). Each golden set is one test per binding that runs every position and tables every
mismatch (tests/golden.py)."""

import subprocess
import sys
import time

import pytest

from framework.playouts import final_positions, playout_positions, random_positions
from framework.protocols import Budget
from framework.search import SearchLimits
from plugins.agents.proofnumber import dfpn
from plugins.agents.proofnumber.common import Spend
from plugins.games.checkers import Checkers
from plugins.games.loa.game import SCRAMBLED_START, LinesOfAction
from tests.golden import assert_each_equal
from tests.plugins.agents.conftest import PN_FIGURES

#: Slow (tests/conftest.py): golden sets of df-pn in every binding.
pytestmark = pytest.mark.slow

GAME = LinesOfAction()
MOVER_WINS = LinesOfAction(simultaneous="mover_wins")

#: Midgame states, and the last 10 before the end of random games (where proofs are found).
STARTS = (GAME.initial_state(), GAME.from_text(SCRAMBLED_START))
POSITIONS = ([s for s in playout_positions(GAME, 130, seed=7, starts=STARTS) if not GAME.is_terminal(s)][:100]
             + final_positions(GAME, 100, seed=7))


def run(search, game, state, prover, nodes, tt_size):
    spend = Spend(SearchLimits.start(Budget(nodes=nodes)))
    result = search(game, state, prover, spend, tt_size)
    return [result.proved, result.move, result.drawn, result.extra, spend.nodes, result.peak_entries]


def tt_size(index: int) -> int:
    return 40 if index % 5 == 0 else 1_000_000          # every fifth search evicts from a full table


def test_dfpn_gives_the_recorded_answer_move_nodes_expansions_and_table(binding):
    def pair(index):
        state = POSITIONS[index]
        game = binding(MOVER_WINS if index % 7 == 0 else GAME)
        prover = state[2] if index % 2 else 1 - state[2]
        return run(dfpn.dfpn_search, game, state, prover, 1500, tt_size(index)), PN_FIGURES["dfpn_loa"][index]
    assert_each_equal(range(len(POSITIONS)), pair, what="LOA positions", expected="recorded")


def test_the_sample_has_proofs_disproofs_drawn_leaves_budget_stops_and_full_tables():
    outcomes = PN_FIGURES["dfpn_loa"]
    assert {o[3]["stopped_by"] for o in outcomes} == {"solved", "budget"}
    assert any(o[0] is True for o in outcomes) and any(o[0] is False for o in outcomes) and any(o[2] for o in outcomes)
    assert any(o[3]["tt_entries"] < 40 and o[3]["expansions"] > 40 for o in outcomes)


CHECKERS = Checkers()
QUICK_DRAW = Checkers(quiet_moves=2)      # 4 quiet plies draw: draws and repetitions inside small searches
CHECKERS_POSITIONS = random_positions(CHECKERS, 40, seed=9, min_plies=40, max_plies=140)


def test_checkers_dfpn_gives_the_recorded_figures(binding):
    def pair(index):
        state = CHECKERS_POSITIONS[index]
        game = binding(QUICK_DRAW if index % 3 == 0 else CHECKERS)
        prover = state[3] if index % 2 else 1 - state[3]
        return run(dfpn.dfpn_search, game, state, prover, 800, tt_size(index)), PN_FIGURES["dfpn_checkers"][index]
    assert_each_equal(range(len(CHECKERS_POSITIONS)), pair, what="checkers positions", expected="recorded")


def test_a_time_budget_stops_the_compiled_search():
    state = POSITIONS[1]
    run(dfpn.dfpn_search, GAME, state, state[2], 10, 100)  # compiled before the clock starts
    spend = Spend(SearchLimits.start(Budget(time=0.05)))
    start = time.process_time()  # CPU time: a loaded machine stretches wall time, not this
    result = dfpn.dfpn_search(GAME, state, state[2], spend, 10_000_000)
    assert time.process_time() - start < 1.0
    assert result.extra["stopped_by"] in ("budget", "solved") and spend.nodes > 0


def test_an_exhausted_budget_stops_before_the_root(binding):
    spend = Spend(SearchLimits(node_limit=0, deadline=float("inf")))
    result = dfpn.dfpn_search(binding(GAME), POSITIONS[0], 0, spend, 100)
    assert (result.proved, result.move, result.drawn, result.extra, spend.nodes) == (
        None, None, False, {"stopped_by": "budget", "expansions": 0, "tt_entries": 0}, 0)


def test_a_fresh_process_loads_the_compiled_search_from_the_cache_and_runs_it():
    """df-pn's MID calls itself (numba's cache cannot load mutual recursion, so there is none):
    the second run here loads what the first compiled or loaded."""
    code = ("from plugins.games.loa.game import LinesOfAction\n"
            "from plugins.agents.proofnumber.agent import DFPNAgent\n"
            "from framework.protocols import Budget\n"
            "game = LinesOfAction()\n"
            "print(DFPNAgent(game).solve(game, game.initial_state(), Budget(nodes=300)).stats.nodes)\n")
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and 250 < int(run.stdout.strip()) <= 300, run.stderr[-2000:]
