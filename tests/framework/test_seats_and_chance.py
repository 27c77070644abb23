"""Games with dice or more than two players: agents that cannot play them are refused when built (so at
`validate`), and the ones that can (random, mcts) play them through the match runner."""

import pytest

from framework.errors import ConfigError
from framework.match import play_game
from framework.protocols import CHANCE, Budget
from plugins.agents.mcts import MCTSAgent
from plugins.games.pig import Pig


@pytest.mark.parametrize("agent", ["alphabeta", "pns", "pn2", "dfpn", "minimax"])
def test_two_player_agents_refuse_dice_in_one_line(registry, agent):
    with pytest.raises(ConfigError, match=rf"^agent '{agent}' cannot search chance nodes and pig has them: "
                                          r"use one of .*mcts.*random"):
        registry.create_agent(agent, Pig())


@pytest.mark.parametrize("agent", ["alphabeta", "pns", "minimax"])
def test_two_player_agents_refuse_three_players(registry, agent):
    with pytest.raises(ConfigError, match=rf"'{agent}' plays two-player games only; pig has 3 players"):
        registry.create_agent(agent, Pig(players=3))


@pytest.mark.parametrize("agent", ["random", "mcts"])
def test_random_and_mcts_play_dice_and_more_players(registry, agent):
    for game in (Pig(goal=20), Pig(players=3, goal=20)):
        agents = [registry.create_agent(agent, game, {"iterations": 50} if agent == "mcts" else {}, seed=s)
                  for s in range(game.num_players)]
        record = play_game(game, agents, seed=1, max_plies=2000)
        assert record.termination.value == "normal" and max(record.result) == 1.0
        assert any(m.mover == CHANCE for m in record.moves)


def test_mcts_holds_a_turn_total_that_wins_and_rolls_from_nothing():
    game = Pig(goal=20)
    agent = MCTSAgent(game, seed=0, iterations=400)
    assert agent.select_move(game, game.from_text("15,18 t=5 p1 goal=20"), Budget()).move == "hold"
    assert agent.select_move(game, game.from_text("0,18 t=0 p1 goal=20"), Budget()).move == "roll"


def test_mcts_backs_up_each_seats_reward_in_three_player_pig():
    game = Pig(players=3, goal=10)
    decision = MCTSAgent(game, seed=2, iterations=300).select_move(game, game.from_text("0,0,9 t=0 p3 goal=10"),
                                                                  Budget())
    assert decision.stats.extra["proof"] == "unknown" and decision.stats.score > 0.5


def test_game_trees_for_game_theory_refuse_dice_and_more_players():
    from framework.gametheory.from_game import tree_from_game
    from plugins.games.rolit import Rolit
    for game in (Pig(goal=3), Rolit(3)):
        with pytest.raises(ConfigError, match="has dice or more than two players"):
            tree_from_game(game, game.initial_state())
