"""Compiled alpha-beta (plugins.agents.alphabeta.compiled) is the interpreted search node for node on LOA:
the solver, and fixed-depth search with the `groups`, `concentration` and `mobility` heuristics. Each golden
set is one test that runs every position and tables every mismatch (tests/golden.py)."""

import dataclasses
import subprocess
import sys
import types

import pytest

from framework.errors import ConfigError
from framework.kernel import api, numba_backend
from framework.playouts import final_positions, playout_positions
from framework.protocols import Budget, Proof
from plugins.agents.alphabeta import binding
from plugins.agents.alphabeta.agent import AlphaBetaAgent
from plugins.agents.alphabeta.settings import Settings
from plugins.agents.alphabeta.solver import WinLossEvaluation
from plugins.games.checkers import Checkers
from plugins.games.checkers.heuristics import PositionalHeuristic
from plugins.games.loa import heuristics, kernel
from plugins.games.loa.game import SCRAMBLED_START, LinesOfAction
from plugins.games.loa.heuristics import ConcentrationHeuristic, GroupsHeuristic, MobilityHeuristic
from plugins.games.tictactoe import TicTacToe
from tests.golden import assert_each_equal

#: Slow (tests/conftest.py): golden sets of compiled alpha-beta against the interpreted search.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("compiled_kernels_on")]

GAME = LinesOfAction()
NO_WEIGHTS = ()
MOVER_WINS = LinesOfAction(simultaneous="mover_wins")
#: The thesis run's switches (tournaments/thesis-loa-endgames.yaml): every exact enhancement, no quiescence.
THESIS = {"quiescence": False}
#: Variations: a tiny table (replacements and collisions), each ordering source off, no table at all,
#: the defaults (quiescence on: captures searched past the horizon), a shallow quiescence search, and PVS,
#: aspiration windows, late-move reductions and singular extensions all on.
VARIANTS = (THESIS, {**THESIS, "tt_size": 61}, {**THESIS, "killers": False}, {**THESIS, "history": False},
            {**THESIS, "move_hints": False, "tt_move": False}, {**THESIS, "transposition_table": False},
            {}, {"quiescence_depth": 2, "killers": False},
            {"pvs": True, "aspiration": True, "lmr": True, "lmr_min_depth": 2, "singular": True,
             "singular_min_depth": 2})

#: Midgame states, and the last 10 before the end of random games (where proofs are found).
STARTS = (GAME.initial_state(), GAME.from_text(SCRAMBLED_START))
POSITIONS = ([s for s in playout_positions(GAME, 130, seed=7, starts=STARTS) if not GAME.is_terminal(s)][:100]
             + final_positions(GAME, 150, seed=7))


def solve(game, state, options, nodes, compiled, monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "1" if compiled else "0")
    agent = AlphaBetaAgent(game, **options)
    search_type = []
    new_search = agent.new_search
    agent.new_search = lambda *a, **k: search_type.append((s := new_search(*a, **k)).compiled) or s
    result = agent.solve(game, state, Budget(nodes=nodes))
    assert (search_type == [True]) == compiled
    return result.value, result.move, result.stats.nodes, result.stats.depth, result.stats.score, result.stats.pv, \
        result.stats.extra, result.stats.peak_entries


def test_same_value_move_pv_and_both_node_counts_as_the_interpreted_solver(monkeypatch):
    def pair(index):
        state = POSITIONS[index]
        game = MOVER_WINS if index % 7 == 0 else GAME
        options = VARIANTS[index % len(VARIANTS)]
        nodes = 300 if index % 3 == 0 else 1500
        python = solve(game, state, options, nodes, False, monkeypatch)
        return solve(game, state, options, nodes, True, monkeypatch), python
    assert_each_equal(range(len(POSITIONS)), pair, what="LOA positions", expected="interpreted")


def test_the_sample_has_wins_losses_unknowns_and_spent_budgets(monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    values = [AlphaBetaAgent(GAME, **THESIS).solve(GAME, s, Budget(nodes=1500)).value for s in POSITIONS]
    assert {Proof.WIN, Proof.LOSS, Proof.UNKNOWN} <= set(values)


def test_fixed_depth_without_deepening_is_the_interpreted_solver(monkeypatch):
    options = {**THESIS, "iterative_deepening": False, "depth": 3, "heuristic": GroupsHeuristic(GAME)}
    for state in POSITIONS[100:110]:
        python = solve(GAME, state, options, 5000, False, monkeypatch)
        assert solve(GAME, state, options, 5000, True, monkeypatch) == python


def decide(game, state, heuristic, options, budget, compiled, monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "1" if compiled else "0")
    agent = AlphaBetaAgent(game, heuristic=heuristic(game), **options)
    search_type = []
    new_search = agent.new_search
    agent.new_search = lambda *a, **k: search_type.append((s := new_search(*a, **k)).compiled) or s
    decision = agent.select_move(game, state, budget)
    assert (search_type == [True]) == compiled
    stats = decision.stats
    extra = dict(stats.extra)
    assert extra.pop("binding") == ("compiled" if compiled else "interpreted")     # recorded per move
    extra.pop("binding_reason", None)     # interpreted: compiled kernels are off
    return decision.move, stats.nodes, stats.depth, stats.score, stats.pv, extra, stats.peak_entries


def test_fixed_depth_with_a_compiled_heuristic_is_the_interpreted_search(monkeypatch):
    def pair(index):
        state = POSITIONS[index]
        game = MOVER_WINS if index % 7 == 0 else GAME
        options = {**VARIANTS[index % len(VARIANTS)], "depth": 2 + index % 2}
        budget = Budget(nodes=400) if index % 3 == 0 else Budget()      # deepening under a budget, else depth 2-3
        heuristic = (GroupsHeuristic, ConcentrationHeuristic, MobilityHeuristic)[index // 2 % 3]
        python = decide(game, state, heuristic, options, budget, False, monkeypatch)
        return decide(game, state, heuristic, options, budget, True, monkeypatch), python
    assert_each_equal(range(0, len(POSITIONS), 2), pair, what="LOA positions", expected="interpreted")


@pytest.mark.parametrize("name", ["groups_score", "concentration_score", "mobility_score"])
def test_the_compiled_heuristics_score_every_sampled_position_as_the_interpreted_ones(name):
    for state in POSITIONS:
        assert getattr(kernel.HEURISTICS_KERNEL, name)(kernel.kernel_state(state), NO_WEIGHTS) == \
            getattr(heuristics, name)(state, ())


WIN_LOSS = WinLossEvaluation(GAME)


def runs_compiled(game, heuristic, settings, proof_score):
    """Whether `kernel: auto` binds alpha-beta compiled for this game, heuristic and settings."""
    return binding.bind_negamax(game, heuristic, settings, proof_score, "auto", {}).binding == "compiled"


@pytest.mark.parametrize("switch", ["pvs", "aspiration", "lmr", "singular"])
def test_selective_and_re_searching_enhancements_run_compiled(switch):
    settings = Settings.resolve({**THESIS, switch: True})
    assert runs_compiled(GAME, WIN_LOSS, settings, 1.0)
    assert runs_compiled(GAME, GroupsHeuristic(GAME), settings, None)


def test_games_and_heuristics_without_a_compiled_twin_run_interpreted():
    thesis = Settings.resolve(THESIS)
    assert not runs_compiled(TicTacToe(), WinLossEvaluation(TicTacToe()), thesis, 1.0)
    assert runs_compiled(Checkers(), WinLossEvaluation(Checkers()), thesis, 1.0)
    class Tuned(MobilityHeuristic):            # a plugin's variant: its evaluate is not the compiled twin's
        pass
    assert not runs_compiled(GAME, Tuned(GAME), thesis, None)
    assert runs_compiled(GAME, MobilityHeuristic(GAME), thesis, None)
    assert runs_compiled(GAME, GroupsHeuristic(GAME), thesis, None)
    # configuration refuses such a table (tt_size <= 2^24); Settings built in code can still ask for one
    assert not runs_compiled(GAME, WIN_LOSS, dataclasses.replace(thesis, tt_size=1 << 31), 1.0)


def test_a_solve_to_the_end_without_deepening_runs_interpreted_below_the_root(monkeypatch):
    options = {**THESIS, "iterative_deepening": False}
    state = POSITIONS[-1]
    python = solve(GAME, state, options, 200, False, monkeypatch)       # 200 nodes: at most 200 plies deep
    assert solve(GAME, state, options, 200, True, monkeypatch) == python


def test_a_root_search_deeper_than_max_depth_runs_interpreted_and_each_decision_starts_from_empty_tables(
        monkeypatch):
    """A solve to the end without deepening runs the same negamax interpreted over the rules, its table a
    dict per decision; decisions before and after give what a fresh interpreted agent gives."""
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    options = {**THESIS, "iterative_deepening": False}
    agent = AlphaBetaAgent(GAME, heuristic=GroupsHeuristic(GAME), depth=3, **options)
    agent.solve(GAME, POSITIONS[-2], Budget(nodes=700))
    agent.select_move(GAME, POSITIONS[-2], Budget(nodes=300))
    assert agent.compiled_table is not None
    agent.depth = None                  # now each solve is one root search to the end
    runs = [agent.solve(GAME, state, Budget(nodes=200)) for state in (POSITIONS[-1], POSITIONS[-4], POSITIONS[-1])]
    expected = [solve(GAME, state, options, 200, False, monkeypatch)
                for state in (POSITIONS[-1], POSITIONS[-4], POSITIONS[-1])]
    assert [(r.value, r.move, r.stats.nodes, r.stats.depth, r.stats.score, r.stats.pv, r.stats.extra,
             r.stats.peak_entries) for r in runs] == expected
    assert runs[0].stats.peak_entries > 0


@pytest.mark.parametrize("game", ["plugins.games.loa.game import LinesOfAction as Game",
                                  "plugins.games.checkers import Checkers as Game"])
def test_a_fresh_process_loads_the_compiled_search_from_the_cache_and_runs_it(game):
    """numba's cache cannot hold mutually recursive functions (loading them crashed the process):
    the second run here loads what the first compiled or loaded."""
    code = (f"from {game}\n"
            "from plugins.agents.alphabeta.agent import AlphaBetaAgent\n"
            "from framework.protocols import Budget\n"
            "game = Game()\n"
            "print(AlphaBetaAgent(game).select_move(game, game.initial_state(), Budget(nodes=300)).stats.nodes)\n")
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and run.stdout.strip() == "300", run.stderr[-2000:]


@pytest.mark.parametrize("tt_size", [61, 1 << 16])
def test_one_agent_deciding_again_and_again_starts_each_decision_from_an_empty_table(tt_size, monkeypatch):
    """The compiled table outlives decisions (older rows are stamped stale); answers must not depend on them."""
    def run(compiled):
        monkeypatch.setenv("PLYGROUND_JIT", "1" if compiled else "0")
        agent = AlphaBetaAgent(GAME, heuristic=GroupsHeuristic(GAME), tt_size=tt_size)
        out = []
        for state in POSITIONS[95:125] * 2:
            solved = agent.solve(GAME, state, Budget(nodes=700))
            decided = agent.select_move(GAME, state, Budget(nodes=300))
            out.append((solved.value, solved.move, solved.stats.extra, decided.move, decided.stats.nodes,
                        decided.stats.peak_entries))
        return out
    assert run(True) == run(False)


def kernel_variant(**changes):
    """LOA with its GameKernel rebuilt, `changes` replacing some of what it offers."""
    game = LinesOfAction()
    k = game.kernel
    offer = dict(rules=k.rules, to_kernel=k.to_kernel, option=k.option, heuristics=k.heuristics, scores=k.scores,
                 key_shifts=k.key_shifts, move_space=k.move_space)
    game.kernel = api.GameKernel(k.tag, **{**offer, **changes})
    return game


#: Kernels beyond what `compiled` handles: no key shifts, more key words than it hashes, no move space (the
#: history rows would overlap the per-ply rows), a state longer than the words a table row compares, no
#: heuristics kernel, no compiled heuristic, and a heuristics kernel without the functions the search calls.
UNFIT = {"no key shifts": {"key_shifts": ()},
         "five key words": {"key_shifts": (0, 64, 128, 192, 256)},
         "no move space": {"move_space": 0},
         "six state words": {"to_kernel": lambda state: kernel.kernel_state(state) + (0, 0, 0)},
         "no heuristics kernel": {"heuristics": None},
         "no compiled heuristic": {"scores": {}},
         "no rule functions": {"heuristics": numba_backend.Kernel(types.ModuleType("empty"))}}


@pytest.mark.parametrize("case", UNFIT)
def test_a_kernel_compiled_cannot_hold_runs_interpreted_with_the_same_results(case, monkeypatch):
    game = kernel_variant(**UNFIT[case])
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    thesis = Settings.resolve(THESIS)
    assert runs_compiled(kernel_variant(), WIN_LOSS, thesis, 1.0)
    assert not runs_compiled(game, WinLossEvaluation(game), thesis, 1.0)
    with pytest.raises(ConfigError, match="kernel: compiled does not fit plugins.agents.alphabeta.search on loa: "):
        AlphaBetaAgent(game, kernel="compiled")
    state = POSITIONS[-3]
    interpreted = solve(GAME, state, THESIS, 1500, False, monkeypatch)
    options = {**THESIS, "depth": 2}
    decided = decide(GAME, state, GroupsHeuristic, options, Budget(), False, monkeypatch)
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    for _ in range(2):
        agent = AlphaBetaAgent(game, heuristic=GroupsHeuristic(game), **options)
        search = agent.new_search(game, WinLossEvaluation(game), Budget(nodes=1500), proof_score=1.0)
        assert not search.compiled
        result = AlphaBetaAgent(game, **THESIS).solve(game, state, Budget(nodes=1500))
        stats = result.stats
        assert (result.value, result.move, stats.nodes, stats.depth, stats.score, stats.pv, stats.extra,
                stats.peak_entries) == interpreted
        decision = agent.select_move(game, state, Budget())
        stats = decision.stats
        extra = dict(stats.extra)
        assert extra.pop("binding") == "adapter"        # `auto` chose it, and says so
        assert extra.pop("binding_reason")     # ... and why
        assert (decision.move, stats.nodes, stats.depth, stats.score, stats.pv, extra,
                stats.peak_entries) == decided


def test_an_agent_binds_each_decision_as_compiled_kernels_are_on_or_off_now(monkeypatch):
    """An agent renews its last search for the next decision only when compiled kernels are as they were."""
    game = Checkers()
    agent = AlphaBetaAgent(game, depth=4, heuristic=PositionalHeuristic(game))
    bindings = []
    for jit in ("0", "1", "1", "0"):
        monkeypatch.setenv("PLYGROUND_JIT", jit)
        bindings.append(agent.select_move(game, game.initial_state(), Budget(nodes=500)).stats.extra["binding"])
    assert bindings == ["interpreted", "compiled", "compiled", "interpreted"]
