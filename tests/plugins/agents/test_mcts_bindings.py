"""MCTS written once (`plugins/agents/mcts/search.py`): every binding makes the same tree from a seed.

The built-in games, each in every binding it offers, are test_mcts_every_game.py's; here a node budget stops
every binding at the same node, the dice race (chance nodes, three seats) agrees through its kernel and the
adapter, kernels that do not fit are refused naming why, and root-parallel searches merge and repeat."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from framework import Budget, ConfigError
from framework.protocols import UNLIMITED
from plugins.agents.mcts import MCTSAgent
from plugins.agents.mcts.agent import MAX_ITERATIONS
from tests.framework.test_binding import ThreeSeatLOA
from tests.framework.test_search_reload import DiceRace, LeadHeuristic, _rolled

#: Slow (tests/conftest.py): MCTS compared across bindings.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("compiled_kernels_on")]


def figures(agent: Any, game: Any, state: Any, budget: Budget = UNLIMITED) -> tuple[Any, ...]:
    stats = agent.select_move(game, state, budget).stats
    return (stats.pv, stats.nodes, stats.score, stats.peak_entries, stats.extra["iterations"],
            stats.extra["proof"], stats.extra["root_visits"])


@pytest.mark.parametrize("limit", [1, 2, 333])
def test_a_node_budget_stops_every_binding_at_the_same_node(registry, limit):
    game = registry.create_game("checkers")
    runs = {kernel: figures(registry.create_agent("mcts", game, {"kernel": kernel}, seed=1), game,
                            game.initial_state(), Budget(nodes=limit))
            for kernel in ("compiled", "interpreted", "adapter")}
    assert runs["compiled"] == runs["interpreted"] == runs["adapter"]
    assert runs["compiled"][1] <= limit


@pytest.mark.parametrize("seats", [2, 3])
def test_chance_nodes_and_more_seats_agree_through_the_kernel_and_the_adapter(seats):
    game = DiceRace(seats, dice=True)
    runs = [figures(MCTSAgent(game, seed=4, iterations=400, playout_depth=8, heuristic=LeadHeuristic(game),
                              kernel=kernel), game, _rolled(seats)) for kernel in ("interpreted", "adapter")]
    assert runs[0] == runs[1]


def test_compiled_is_refused_on_a_game_without_a_kernel(registry):
    game = registry.create_game("tictactoe")
    with pytest.raises(ConfigError, match="kernel: compiled does not fit plugins.agents.mcts.search on tictactoe: "
                                          "tictactoe has no kernel"):
        MCTSAgent(game, kernel="compiled")


def test_a_heuristic_without_a_compiled_function_is_refused_compiled_and_runs_through_the_adapter(registry):
    game = registry.create_game("pig", {"goal": 20})
    optimal = registry.create_heuristic(game, "optimal")
    with pytest.raises(ConfigError, match="kernel: compiled does not fit plugins.agents.mcts.search on pig: "
                                          "heuristic 'optimal' has no compiled function in the pig kernel"):
        MCTSAgent(game, heuristic=optimal, kernel="compiled")
    bound = MCTSAgent(game, heuristic=optimal).bind(game)
    assert (bound.binding, bound.reason) == ("adapter", "heuristic 'optimal' has no compiled function in the pig "
                                                        "kernel")
    assert MCTSAgent(game).bind(game).binding == MCTSAgent(game, kernel="compiled").bind(game).binding == "compiled"


def test_a_kernel_without_any_compiled_heuristic_is_refused_compiled():
    game = DiceRace(2, dice=True)
    game.kernel = copy.copy(game.kernel)
    game.kernel.scores = {}
    with pytest.raises(ConfigError, match=r"the dice_race kernel has no compiled heuristic \(a compiled MCTS binds "
                                          r"one, even unused\)"):
        MCTSAgent(game, kernel="compiled")
    assert MCTSAgent(game).bind(game).binding == "adapter"


def test_a_kernel_without_returns_is_refused_for_more_than_two_seats():
    game = ThreeSeatLOA()
    with pytest.raises(ConfigError, match="the loa kernel has no player_return"):
        MCTSAgent(game, kernel="interpreted")
    assert MCTSAgent(game).bind(game).binding == "adapter"


def test_the_dice_and_returns_primitives_are_optional_so_a_kernel_without_them_fits():
    from framework.kernel.binding import needs
    from plugins.agents.mcts import search
    assert {"chance_probability", "player_return"}.isdisjoint(needs(search))
    assert {"legal_moves", "apply_move", "to_move", "outcome", "score"} <= needs(search)


def test_root_parallel_merges_the_workers_visits_and_is_reproducible(registry):
    game = registry.create_game("checkers")
    state = game.initial_state()
    runs = [registry.create_agent("mcts", game, {"iterations": 301, "parallel": 3}, seed=5)
            .select_move(game, state, UNLIMITED) for _ in range(2)]
    assert runs[0].move == runs[1].move and runs[0].stats.nodes == runs[1].stats.nodes
    stats = runs[0].stats
    assert stats.extra["parallel"] == 3 and stats.extra["iterations"] == 301 and stats.extra["root_visits"] == 301
    assert runs[0].move in game.legal_moves(state)
    # the first worker is the sequential search with its share of the iterations
    alone = registry.create_agent("mcts", game, {"iterations": 101}, seed=5).select_move(game, state, UNLIMITED)
    assert alone.stats.nodes < stats.nodes


def test_root_parallel_keeps_the_node_budget_and_a_proof(registry):
    game = registry.create_game("matches")
    state = game.initial_state()
    decision = registry.create_agent("mcts", game, {"parallel": 2}, seed=1).select_move(game, state,
                                                                                        Budget(nodes=999))
    assert decision.stats.nodes <= 999 and decision.move in game.legal_moves(state)
    from plugins.games.matches import Matches
    small = Matches((5,), k=3)      # 5 = 1 (mod 4): the mover loses
    assert MCTSAgent(small, parallel=2).solve(small, small.initial_state(), UNLIMITED).value.value == "loss"


@pytest.mark.parametrize("parallel", [1, 2])
def test_a_time_budget_is_kept_compiled_and_root_parallel(registry, keeps_time_budget, parallel):
    game = registry.create_game("checkers")
    # iterations at their maximum: the clock, not the iteration cap (reached in 0.5 s on a fast machine), stops it
    agent = registry.create_agent("mcts", game, {"kernel": "compiled", "parallel": parallel,
                                                 "iterations": MAX_ITERATIONS}, seed=1)
    agent.select_move(game, game.initial_state(), Budget(nodes=50))     # compiled or loaded before the clock runs
    decision = keeps_time_budget(lambda budget: agent.select_move(game, game.initial_state(), budget), 0.5)
    assert decision.move in game.legal_moves(game.initial_state())


def test_a_compiled_agent_compiles_its_search_when_built(registry):
    game = registry.create_game("rolit", {"players": 3})
    bound = MCTSAgent(game, kernel="compiled").bind(game)
    assert bound.functions.run.signatures        # compiled (or loaded from the cache) before any move
