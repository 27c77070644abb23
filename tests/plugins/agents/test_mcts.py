"""UCT with the MCTS-Solver: winning moves, proven positions kept, reproducibility, exact node counts and budgets."""

import random

import pytest

from framework import Budget, ConfigError
from framework.protocols import UNLIMITED, Proof
from plugins.agents.mcts import MCTSAgent
from plugins.games.matches import Matches, mover_loses
from plugins.games.tictactoe import LinesHeuristic, TicTacToe
from tests.plugins.agents.small_games import retrograde

TTT = TicTacToe()


def test_the_immediate_win_is_found_and_proven():
    state = TTT.from_text("XX./OO./... x")
    decision = MCTSAgent(TTT).select_move(TTT, state, Budget(nodes=2000))
    assert TTT.format_move(state, decision.move) == "c3"
    assert decision.stats.extra["proof"] == "win" and decision.stats.score == 1.0


def test_the_only_saving_move_is_found():
    state = TTT.from_text("OXX/.O./... x")  # O threatens c1; every other move loses
    oracle = retrograde(TTT, state)
    saving = [m for m in TTT.legal_moves(state) if oracle[TTT.apply(state, m)] != 1]
    assert [TTT.format_move(state, m) for m in saving] == ["c1"]
    assert MCTSAgent(TTT, seed=3).select_move(TTT, state, Budget(nodes=5000)).move == saving[0]


def test_a_won_tictactoe_position_is_never_thrown_away():
    oracle = retrograde(TTT, TTT.initial_state())
    won = sorted((s for s, v in oracle.items() if v == 1 and not TTT.is_terminal(s)), key=TTT.hash_key)
    for state in random.Random(3).sample(won, 25):
        decision = MCTSAgent(TTT, seed=1).select_move(TTT, state, Budget(nodes=20_000))
        assert oracle[TTT.apply(state, decision.move)] == -1, TTT.to_text(state)


def test_won_matches_positions_are_proven_and_kept():
    game = Matches((3, 4, 5), k=3)
    oracle = retrograde(game, game.initial_state())
    won = sorted(s for s, v in oracle.items() if v == 1 and not game.is_terminal(s))
    for state in random.Random(5).sample(won, 15):
        result = MCTSAgent(game, seed=2).solve(game, state, Budget(nodes=50_000))
        assert result.value is Proof.WIN, game.to_text(state)
        assert mover_loses(game.apply(state, result.move)[0], 3)


def test_a_lost_position_is_proven_lost():
    game = Matches((5,), k=3)  # 5 = 1 (mod 4): the mover loses
    assert MCTSAgent(game).solve(game, game.initial_state(), UNLIMITED).value is Proof.LOSS


def test_draws_are_not_proven_so_the_empty_board_stays_unknown():
    result = MCTSAgent(TTT).solve(TTT, TTT.initial_state(), Budget(nodes=3000))
    assert result.value is Proof.UNKNOWN and result.move is None


def test_same_seed_same_move_and_same_node_count():
    state = TTT.initial_state()
    runs = [MCTSAgent(TTT, seed=9).select_move(TTT, state, Budget(nodes=3000)) for _ in range(2)]
    assert runs[0].move == runs[1].move and runs[0].stats.nodes == runs[1].stats.nodes
    assert runs[0].stats.extra["iterations"] == runs[1].stats.extra["iterations"]


def test_two_hundred_iterations_from_the_empty_board_with_seed_9_visit_1693_nodes_and_take_the_centre():
    decision = MCTSAgent(TTT, seed=9, iterations=200).select_move(TTT, TTT.initial_state(), UNLIMITED)
    assert decision.stats.nodes == 1693 and TTT.format_move(TTT.initial_state(), decision.move) == "b2"


def test_nodes_count_every_state_each_iteration_visits():
    # One empty square, and filling it draws: iteration 1 visits the root and creates the only
    # child (2 nodes); each later iteration visits the root and selects that child (2 more).
    state = TTT.from_text("XOX/XOO/OX. x")
    decision = MCTSAgent(TTT, iterations=5).select_move(TTT, state, UNLIMITED)
    assert decision.stats.nodes == 10 and decision.stats.extra["iterations"] == 5
    assert decision.stats.extra["root_visits"] == 5


def test_heuristic_playouts_count_each_scored_successor():
    state = TTT.from_text("XO./.../... x")
    plain = MCTSAgent(TTT, iterations=1).select_move(TTT, state, UNLIMITED)
    guided = MCTSAgent(TTT, iterations=1, playout="heuristic", epsilon=0.0,
                       heuristic=LinesHeuristic(TTT)).select_move(TTT, state, UNLIMITED)
    # root + new child (2), then the random playout visits one state per ply while the greedy one
    # scores every legal successor at each ply, so it visits more
    assert plain.stats.nodes >= 3 and guided.stats.nodes > plain.stats.nodes


@pytest.mark.parametrize("limit", [1, 2, 50, 777])
def test_a_node_budget_is_never_exceeded(limit):
    decision = MCTSAgent(TTT).select_move(TTT, TTT.initial_state(), Budget(nodes=limit))
    assert decision.stats.nodes <= limit and decision.move in TTT.legal_moves(TTT.initial_state())


def test_a_time_budget_is_kept_within_ten_percent(keeps_time_budget):
    game = Matches((30, 30, 30, 30), k=3)
    agent = MCTSAgent(game)
    decision = keeps_time_budget(lambda budget: agent.select_move(game, game.initial_state(), budget), 0.5)
    assert decision.move in game.legal_moves(game.initial_state())


def test_mcts_is_built_by_the_registry_with_its_parameters(registry):
    game = registry.create_game("tictactoe")
    agent = registry.create_agent("mcts", game, {"exploration": 0.5, "playout": "heuristic"}, seed=4)
    assert agent.exploration == 0.5 and agent.heuristic.name == "lines"


def test_heuristic_playouts_need_a_heuristic():
    with pytest.raises(ConfigError, match="mcts with playout 'heuristic' needs a heuristic, and tictactoe has none"):
        MCTSAgent(TTT, playout="heuristic")


def test_epsilon_must_be_a_probability():
    with pytest.raises(ConfigError, match="'epsilon' must be between 0 and 1, got 1.5"):
        MCTSAgent(TTT, epsilon=1.5)
