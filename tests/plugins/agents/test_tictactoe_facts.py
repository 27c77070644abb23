"""Known facts of tic-tac-toe that the search agents must reproduce."""

import random

import pytest

from framework import Budget
from framework.protocols import UNLIMITED
from plugins.agents.alphabeta import AlphaBetaAgent
from plugins.agents.minimax import MinimaxAgent
from plugins.agents.random_agent import RandomAgent
from plugins.games.tictactoe import LinesHeuristic, ThesisScoring, TicTacToe

GAME = TicTacToe()


def test_full_minimax_from_the_empty_board_visits_the_549946_states_of_the_game_tree_and_draws():
    decision = MinimaxAgent(GAME).select_move(GAME, GAME.initial_state(), UNLIMITED)
    assert decision.stats.nodes == 549_946
    assert decision.stats.score == 0 and decision.stats.depth == 9 and len(decision.stats.pv) == 9


def _optimal_moves(state):
    agent = MinimaxAgent(GAME)
    values = {}
    for move in GAME.legal_moves(state):
        child = GAME.apply(state, move)
        values[move] = -GAME.returns(child)[GAME.to_move(child)] if GAME.is_terminal(child) else \
            -agent.select_move(GAME, child, UNLIMITED).stats.score
    best = max(values.values())
    return {m for m, v in values.items() if v == best}, best


def test_alphabeta_finds_the_draw_with_far_fewer_nodes_and_an_optimal_move():
    state = GAME.initial_state()
    decision = AlphaBetaAgent(GAME).select_move(GAME, state, UNLIMITED)
    optimal, value = _optimal_moves(state)
    assert decision.stats.score == value == 0
    assert decision.move in optimal
    assert decision.stats.nodes < 549_946 / 20


@pytest.mark.parametrize("agent_class", [MinimaxAgent, AlphaBetaAgent])
def test_in_the_thesis_position_every_o_move_loses_equally_and_the_first_is_chosen(agent_class):
    state = GAME.from_text("XXO/.X./O.. o")
    thesis = ThesisScoring(GAME)
    for move in GAME.legal_moves(state):  # each O move lets X win on the next ply: 9 - 2 = 7
        reply = agent_class(GAME, heuristic=thesis).select_move(GAME, GAME.apply(state, move), UNLIMITED)
        assert reply.stats.score == 9 - 1  # from X's side, one ply below: a win at ply 1 of X's search
    decision = agent_class(GAME, heuristic=thesis).select_move(GAME, state, UNLIMITED)
    assert decision.stats.score == -7
    assert decision.move == GAME.legal_moves(state)[0] and GAME.format_move(state, decision.move) == "a2"


def _random_positions(count, seed):
    rng, out = random.Random(seed), []
    while len(out) < count:
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 7)):
            if GAME.is_terminal(state):
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        if not GAME.is_terminal(state):
            out.append(state)
    return out


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alphabeta_returns_minimax_values_at_fixed_depth(depth):
    heuristic = LinesHeuristic(GAME)
    for state in _random_positions(60, seed=depth):
        mm = MinimaxAgent(GAME, depth=depth, heuristic=heuristic).select_move(GAME, state, UNLIMITED)
        ab = AlphaBetaAgent(GAME, depth=depth, heuristic=heuristic).select_move(GAME, state, UNLIMITED)
        assert ab.stats.score == mm.stats.score
        assert ab.stats.nodes <= mm.stats.nodes


@pytest.mark.parametrize("agent_class", [MinimaxAgent, AlphaBetaAgent])
def test_a_node_budget_is_never_exceeded(agent_class):
    decision = agent_class(GAME).select_move(GAME, GAME.initial_state(), Budget(nodes=500))
    assert decision.stats.nodes == 500 and decision.stats.extra["complete"] is False
    assert decision.move in GAME.legal_moves(GAME.initial_state())


def test_random_agent_is_reproducible_from_its_seed():
    state = GAME.initial_state()

    def picks(seed):
        return [RandomAgent(GAME, seed).select_move(GAME, state, UNLIMITED).move for _ in range(1)]

    assert picks(1) == picks(1)
    agent = RandomAgent(GAME, 4)
    assert len({agent.select_move(GAME, state, UNLIMITED).move for _ in range(40)}) > 3
