"""Alpha-beta on every registered game: minimax's values at small depths, budgets, reproducibility."""

import pytest

from framework.playouts import random_positions
from framework.protocols import UNLIMITED, Budget, Proof
from framework.registry import Registry
from plugins.agents.alphabeta import ALL_OFF, EXACT_ONLY, AlphaBetaAgent
from plugins.agents.minimax import MinimaxAgent
from plugins.games.matches import Matches, mover_loses

#: The registered games alpha-beta plays: two players, no dice (it refuses the others at validate).
GAMES = sorted(name for name, r in Registry().games.items()
               if Registry().plays(Registry().agent_spec("alphabeta"), r.spec.factory()))
#: Every enhancement that keeps the value exact, PVS and aspiration windows included.
EXACT_ON = {**EXACT_ONLY, "pvs": True, "aspiration": True}


def _setup(registry, name):
    game = registry.create_game(name)
    return game, registry.create_heuristic(game)


@pytest.mark.parametrize("name", GAMES)
def test_alphabeta_returns_minimax_values_on_200_random_positions(registry, name):
    game, heuristic = _setup(registry, name)
    depths = (1, 2, 3) if len(game.legal_moves(game.initial_state())) <= 10 else (1, 2)
    minimax = [MinimaxAgent(game, depth=d, heuristic=heuristic) for d in depths]
    plain = [AlphaBetaAgent(game, depth=d, heuristic=heuristic, **ALL_OFF) for d in depths]
    exact_on = [AlphaBetaAgent(game, depth=d, heuristic=heuristic, **EXACT_ON) for d in depths]
    defaults = [AlphaBetaAgent(game, depth=d, heuristic=heuristic, quiescence=False) for d in depths]
    for i, state in enumerate(random_positions(game, 200, seed=len(name))):
        k = i % len(depths)
        expected = minimax[k].select_move(game, state, UNLIMITED)
        decision = plain[k].select_move(game, state, UNLIMITED)
        assert decision.stats.score == expected.stats.score, game.to_text(state)
        assert decision.stats.nodes <= expected.stats.nodes
        if i % 2 == 0:   # every exact enhancement, with iterative deepening (it needs a budget)
            decision = exact_on[k].select_move(game, state, Budget(nodes=10**9))
        else:            # the defaults, searched directly
            decision = defaults[k].select_move(game, state, UNLIMITED)
        assert decision.stats.score == expected.stats.score, game.to_text(state)


@pytest.mark.parametrize("name", GAMES)
def test_every_enhancement_on_plays_legal_moves_within_a_node_budget(registry, name):
    game, heuristic = _setup(registry, name)
    agent = AlphaBetaAgent(game, heuristic=heuristic, pvs=True, aspiration=True, lmr=True, singular=True)
    for nodes, state in zip((50, 300, 2000), random_positions(game, 3, seed=7)):
        decision = agent.select_move(game, state, Budget(nodes=nodes))
        assert decision.move in game.legal_moves(state)
        assert decision.stats.nodes <= nodes
        again = AlphaBetaAgent(game, seed=9, heuristic=heuristic, pvs=True, aspiration=True, lmr=True,
                               singular=True).select_move(game, state, Budget(nodes=nodes))
        assert (again.move, again.stats.nodes, again.stats.score) == (decision.move, decision.stats.nodes,
                                                                      decision.stats.score)


@pytest.mark.parametrize("name", [n for n in GAMES if n in ("checkers", "loa")])
def test_a_time_budget_is_kept_on_a_real_game(registry, name, keeps_time_budget):
    game, heuristic = _setup(registry, name)
    agent = AlphaBetaAgent(game, heuristic=heuristic)
    decision = keeps_time_budget(lambda budget: agent.select_move(game, game.initial_state(), budget), 0.5)
    assert decision.stats.depth >= 1 and decision.move in game.legal_moves(game.initial_state())


def test_the_solver_agrees_with_the_closed_form_theory_of_the_matches_game():
    game = Matches(heaps=(4, 5, 3), k=3)
    solver = AlphaBetaAgent(game)
    for a in range(5):
        for b in range(6):
            for c in range(4):
                if not a + b + c:
                    continue
                state = ((a, b, c), 0)
                result = solver.solve(game, state, UNLIMITED)
                assert result.value is (Proof.LOSS if mover_loses((a, b, c), 3) else Proof.WIN), (a, b, c)
                if result.value is Proof.WIN:   # the proven move leaves the opponent lost
                    assert mover_loses(game.apply(state, result.move)[0], 3)
