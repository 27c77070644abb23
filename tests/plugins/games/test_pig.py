"""Pig: the conformance suite (2, 3 and 6 players), chance nodes, texts, and the exact solution of
Neller & Presser (2004)."""

import math
from fractions import Fraction

import pytest

from framework.conformance import GameConformance, check_chance_node
from framework.errors import ConfigError, MoveParseError, PositionError
from framework.match import play_game
from framework.protocols import CHANCE
from plugins.agents.random_agent import RandomAgent
from plugins.games.pig import Pig, heuristics
from plugins.games.pig.solver import hold_at, matchup, solve


class TestPig(GameConformance):
    game_factory = Pig
    # Counted by hand: roll or hold (2); the six faces after the roll and the two moves after hold, a pass (8);
    # two moves after each face (12) and the 8 of depth 2 after the pass (20); after each face, a roll's six faces
    # or a hold's two moves (6 * 8), and 20 after the pass (68).
    perft = {1: 2, 2: 8, 3: 20, 4: 68}
    positions = ["31,12 t=8 p2 goal=100", "31,12 t=8 p2 rolling goal=100", "99,98 t=0 p1 goal=100",
                 "100,3 t=0 p1 goal=100"]
    bad_positions = ["31,12 t=8 p3 goal=100", "31,12 t=8 p2 goal=50", "31 t=8 p1 goal=100", "31,12 t=8 goal=100",
                     "100,100 t=0 p1 goal=100", "100,3 t=5 p1 goal=100", "100,3 t=0 p2 goal=100",
                     "1,1 t=9999999 p1 goal=100", ""]
    bad_moves = [(None, "stay"), (None, "3"), ("31,12 t=8 p2 rolling goal=100", "hold"),
                 ("31,12 t=8 p2 rolling goal=100", "7"), ("100,3 t=0 p1 goal=100", "roll"),
                 ("95,12 t=5 p1 goal=100", "roll")]
    playouts = 20
    max_plies = 3000


class TestThreePlayerPig(GameConformance):
    game_factory = staticmethod(lambda: Pig(players=3, goal=20))
    positions = ["5,12,19 t=4 p3 rolling goal=20", "20,12,19 t=0 p1 goal=20"]
    perft = {1: 2, 2: 8, 3: 20}


class TestSixPlayerPig(GameConformance):
    game_factory = staticmethod(lambda: Pig(players=6, goal=10))


def test_a_roll_is_a_chance_node_with_six_faces_of_exactly_one_sixth():
    game = Pig()
    state = game.apply(game.initial_state(), "roll")
    assert game.to_move(state) == CHANCE
    assert game.chance_outcomes(state) == tuple((face, Fraction(1, 6)) for face in range(1, 7))
    assert math.fsum(p for _, p in game.chance_outcomes(state)) == 1
    check_chance_node(game, state, game.legal_moves(state))
    assert game.apply(state, 1) == ((0, 0), 0, 1, False)          # a 1 loses the turn
    assert game.apply(state, 5) == ((0, 0), 5, 0, False)


def test_holding_banks_the_turn_total_and_reaching_the_goal_wins():
    game = Pig(players=3, goal=20)
    state = game.from_text("5,12,16 t=4 p3 goal=20")
    won = game.apply(state, "hold")
    assert game.is_terminal(won) and game.to_text(won) == "5,12,20 t=0 p3 goal=20"
    assert game.returns(won) == (-0.5, -0.5, 1.0)


def test_options_out_of_range_are_refused():
    with pytest.raises(ConfigError, match="'players' must be an integer from 2 to 6, got 7"):
        Pig(players=7)
    with pytest.raises(ConfigError, match="'goal' must be an integer from 1 to 1000, got 0"):
        Pig(goal=0)


def test_a_position_of_another_goal_names_the_option():
    with pytest.raises(PositionError, match="start the game with the option goal=50"):
        Pig().from_text("1,2 t=0 p1 goal=50")


def test_moves_at_a_chance_node_are_faces():
    game = Pig()
    state = game.from_text("31,12 t=8 p2 rolling goal=100")
    assert game.parse_move(state, " 4 ") == 4
    with pytest.raises(MoveParseError, match="'roll' is not a face"):
        game.parse_move(state, "roll")


def test_the_same_seed_rolls_the_same_game_and_records_the_rolls():
    game = Pig(goal=20)
    records = [play_game(game, [RandomAgent(game, 1), RandomAgent(game, 2)], seed=seed) for seed in (7, 7, 8)]
    notation = [[m.move for m in r.moves] for r in records]
    assert notation[0] == notation[1] != notation[2]
    rolls = [m for m in records[0].moves if m.mover == CHANCE]
    assert rolls and all(m.move in "123456" for m in rolls)
    # the record replays: the same plies from the start reach the recorded final position
    state = game.initial_state()
    for m in records[0].moves:
        state = game.apply(state, game.parse_move(state, m.move))
    assert game.to_text(state) == records[0].final and records[0].result == game.returns(state)


def test_three_agents_play_three_player_pig_and_the_winner_is_the_seat_that_reached_the_goal():
    game = Pig(players=3, goal=15)
    record = play_game(game, [RandomAgent(game, s) for s in range(3)], seed=3)
    assert record.players == ("first", "second", "third")
    assert max(record.result) == 1.0 and sorted(record.result)[:2] == [-0.5, -0.5]
    assert record.winner == record.result.index(1.0)


def test_play_game_needs_one_agent_per_seat():
    game = Pig(players=3)
    with pytest.raises(ConfigError, match="pig is played by 3 players, got 2 agents"):
        play_game(game, [RandomAgent(game), RandomAgent(game)])


# -- the exact solution ----------------------------------------------------------------------------------


def test_the_optimal_first_player_wins_goal_100_with_probability_0_5306():
    """Neller & Presser (2004): 0.5306 for the first player of two at goal 100."""
    game = Pig()
    assert round(game.exact_values(game.initial_state())[0], 4) == 0.5306
    assert f"{solve(100).win_probability(0, 0, 0):.6f}" == "0.530593"


@pytest.mark.parametrize("goal", [10, 30])
def test_the_solution_satisfies_the_optimality_equations_everywhere(goal):
    """Every P(i, j, k) is the larger of rolling and holding, to 1e-12 (the Bellman residual)."""
    solution = solve(goal)
    worst = 0.0
    for i in range(goal):
        for j in range(goal):
            for k in range(goal - i):
                roll = solution.roll_probability(i, j, k)
                hold = 1.0 - solution.win_probability(j, i + k, 0)
                worst = max(worst, abs(solution.win_probability(i, j, k) - max(roll, hold)))
                assert solution.should_roll(i, j, k) == (roll >= hold) or abs(roll - hold) < 1e-12
    assert worst < 1e-12


def test_the_optimal_player_holds_at_the_turn_totals_of_the_paper():
    """From 0-0 the optimal player rolls at a turn total of 20 and holds at 25 (the paper's figure 2
    boundary starts near 21-25); at 99-99 any roll risks the game, a turn total of 1 holds and wins."""
    solution = solve(100)
    assert solution.should_roll(0, 0, 20) and not solution.should_roll(0, 0, 25)
    assert not solution.should_roll(99, 99, 1)


def test_exact_values_are_for_two_players_only():
    game = Pig(players=3)
    with pytest.raises(ConfigError, match="solved exactly for two players; this game has 3"):
        game.exact_values(game.initial_state())
    with pytest.raises(ConfigError, match="heuristic 'optimal' is exact for two players"):
        heuristics.OptimalHeuristic(game)


def test_the_heuristics_rate_a_lead_positive_for_the_leader():
    game = Pig()
    state = game.from_text("60,20 t=10 p1 goal=100")
    race, optimal = heuristics.RaceHeuristic(game), heuristics.OptimalHeuristic(game)
    assert race.evaluate(state, 0) == pytest.approx(500.0) and race.evaluate(state, 1) == pytest.approx(-500.0)
    assert optimal.evaluate(state, 0) > 0 > optimal.evaluate(state, 1)
    assert optimal.evaluate(state, 0) == pytest.approx(-optimal.evaluate(state, 1))


def test_a_matchup_of_the_optimal_policy_with_itself_is_the_solution():
    solution = solve(40)
    result = matchup(40, solution.rolls, solution.rolls)
    assert result.a_first == pytest.approx(solution.win_probability(0, 0, 0), abs=1e-12)
    assert result.b_first == pytest.approx(1 - solution.win_probability(0, 0, 0), abs=1e-12)


def evaluate_by_iteration(goal, a_rolls, b_rolls):
    """A's chance to win as first mover, by plain value iteration over dicts (no decomposition)."""
    values = {(who, i, j, k): 0.5 for who in (0, 1) for i in range(goal) for j in range(goal) for k in range(goal - i)}

    def value(who, i, j, k):
        return 1.0 if i + k >= goal else values[(who, i, j, k)]

    for _ in range(2000):
        change = 0.0
        for (who, i, j, k), old in values.items():
            rolls = (a_rolls if who == 0 else b_rolls)[i, j, k]
            if rolls:
                new = (1 - value(1 - who, j, i, 0) + sum(value(who, i, j, k + r) for r in range(2, 7))) / 6
            else:
                new = 1 - value(1 - who, j, i + k, 0)
            values[(who, i, j, k)] = new
            change = max(change, abs(new - old))
        if change < 1e-13:
            break
    return values[(0, 0, 0, 0)], 1 - values[(1, 0, 0, 0)]


def test_a_matchup_agrees_with_plain_value_iteration():
    goal = 12
    a, b = solve(goal).rolls, hold_at(goal, 4)
    result = matchup(goal, a, b)
    assert (result.a_first, result.b_first) == pytest.approx(evaluate_by_iteration(goal, a, b), abs=1e-10)


def test_the_policy_agent_plays_pig_only_and_optimal_for_two(registry):
    with pytest.raises(ConfigError, match="agent 'pig_policy' plays pig only, not tictactoe"):
        registry.create_agent("pig_policy", registry.create_game("tictactoe"))
    with pytest.raises(ConfigError, match="pig_policy 'optimal' is the two-player solution; this game has 3"):
        registry.create_agent("pig_policy", Pig(players=3))
    hold = registry.create_agent("pig_policy", Pig(players=3), {"policy": "hold_at", "total": 10})
    game = Pig(players=3)
    assert hold.select_move(game, game.from_text("1,2,3 t=9 p1 goal=100"), None).move == "roll"
    assert hold.select_move(game, game.from_text("1,2,3 t=10 p1 goal=100"), None).move == "hold"
