"""Expectiminimax: equal to a brute-force expectimax over the Game protocol, the same values and moves with
and without Ballard's Star1 and Star2 on hundreds of positions (a different move only where two root moves
tie to rounding), and optimal Pig at depth 1 over the exact heuristic."""


import pytest

from framework.errors import ConfigError
from framework.playouts import decision_positions
from framework.protocols import CHANCE, Budget
from plugins.agents.expectiminimax import ExpectiminimaxAgent
from plugins.games.einstein import EinStein, ProgressHeuristic
from plugins.games.pig import Pig
from plugins.games.pig.heuristics import OptimalHeuristic, RaceHeuristic
from plugins.games.pig.solver import solve

SWITCHES = [(False, False), (True, False), (True, True)]


def reference(game, heuristic, state, depth, ply=0):
    """Expectimax by the definition, for seat 0: no pruning, the Game protocol only; a win scores 1000 and the
    heuristic is clamped into +-1000 (the agent's default win_score)."""
    if game.is_terminal(state):
        return game.returns(state)[0] * 1000.0
    if depth == 0:
        return min(max(heuristic.evaluate(state, 0), -1000.0), 1000.0)
    mover = game.to_move(state)
    if mover == CHANCE:
        return sum(float(p) * reference(game, heuristic, game.apply(state, o), depth - 1, ply + 1)
                   for o, p in game.chance_outcomes(state))
    values = [reference(game, heuristic, game.apply(state, m), depth - 1, ply + 1) for m in game.legal_moves(state)]
    return max(values) if mover == 0 else min(values)


def decide(game, heuristic, state, depth, star1, star2):
    agent = ExpectiminimaxAgent(game, depth=depth, star1=star1, star2=star2, heuristic=heuristic)
    return agent.select_move(game, state, Budget())


@pytest.mark.parametrize("game, heuristic_class, depth, count", [
    (EinStein(), ProgressHeuristic, 3, 200), (Pig(goal=20), RaceHeuristic, 5, 100)])
def test_star1_and_star2_find_the_values_and_moves_of_plain_expectiminimax(game, heuristic_class, depth, count):
    heuristic = heuristic_class(game)
    nodes = dict.fromkeys(SWITCHES, 0)
    for state in decision_positions(game, count, seed=depth):
        decisions = {s: decide(game, heuristic, state, depth, *s) for s in SWITCHES}
        plain = decisions[(False, False)]
        for switches, decision in decisions.items():
            assert decision.stats.score == pytest.approx(plain.stats.score, rel=1e-9, abs=1e-6), (switches, state)
            if decision.move != plain.move:    # a tie at the root that rounding broke the other way
                values = [reference(game, heuristic, game.apply(state, m), depth - 1, 1)
                          for m in (decision.move, plain.move)]
                assert values[0] == pytest.approx(values[1], rel=1e-9, abs=1e-6), (switches, game.to_text(state))
            nodes[switches] += decision.stats.nodes
    assert nodes[(True, False)] < nodes[(False, False)]


@pytest.mark.parametrize("game, heuristic_class, depth", [(EinStein(), ProgressHeuristic, 3), (Pig(goal=20),
                                                                                               RaceHeuristic, 4)])
def test_the_value_is_expectimax_by_the_definition(game, heuristic_class, depth):
    heuristic = heuristic_class(game)
    for state in decision_positions(game, 30, seed=1):
        mover = game.to_move(state)
        value = reference(game, heuristic, state, depth)
        decision = decide(game, heuristic, state, depth, True, True)
        assert decision.stats.score == pytest.approx(value if mover == 0 else -value, rel=1e-9, abs=1e-6)


def test_depth_one_over_the_exact_heuristic_plays_optimal_pig():
    game = Pig(goal=30)
    solution, heuristic = solve(30), OptimalHeuristic(game)
    for state in decision_positions(game, 150, seed=5):
        scores, total, player, _ = state
        i, j = scores[player], scores[1 - player]
        roll = solution.roll_probability(i, j, total)
        hold = 1.0 - solution.win_probability(j, i + total, 0)
        if abs(roll - hold) < 1e-9 or i + total >= 30:
            continue
        assert decide(game, heuristic, state, 1, True, True).move == ("roll" if roll > hold else "hold")


def test_a_node_budget_keeps_the_last_complete_depth():
    game = EinStein()
    decision = ExpectiminimaxAgent(game, depth=8, heuristic=ProgressHeuristic(game)).select_move(
        game, game.apply(game.initial_state(), 3), Budget(nodes=500))
    assert decision.stats.nodes <= 500 and 1 <= decision.stats.depth < 8
    assert decision.move in game.legal_moves(game.apply(game.initial_state(), 3))


def test_star2_needs_star1_and_a_heuristic_is_needed():
    with pytest.raises(ConfigError, match="'star2' extends Star1"):
        ExpectiminimaxAgent(Pig(), star1=False, star2=True, heuristic=RaceHeuristic(Pig()))
    with pytest.raises(ConfigError, match="expectiminimax needs a heuristic, and pig names no default"):
        ExpectiminimaxAgent(Pig(), heuristic=None)


def test_expectiminimax_is_built_for_dice_games_but_not_for_three_players(registry):
    assert isinstance(registry.create_agent("expectiminimax", EinStein()), ExpectiminimaxAgent)
    with pytest.raises(ConfigError, match="'expectiminimax' plays two-player games only; pig has 3 players"):
        registry.create_agent("expectiminimax", Pig(players=3))
