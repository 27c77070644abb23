"""pns, pn2, dfpn and mcts on every registered game they play (mcts: every one): a legal move within the node
budget, the same with the same seed."""

import pytest

from framework.protocols import Budget

#: Slow (tests/conftest.py): every game in every binding.
pytestmark = pytest.mark.slow

AGENTS = ["pns", "pn2", "dfpn", "mcts"]


@pytest.mark.parametrize("agent_name", AGENTS)
def test_a_legal_reproducible_move_within_the_node_budget_in_every_game(registry, agent_name):
    played = 0
    for game_name in sorted(registry.games):
        game = registry.create_game(game_name)
        if not registry.plays(registry.agent_spec(agent_name), game):
            continue
        played += 1
        state = game.initial_state()
        budget = Budget(nodes=300)
        moves = [registry.create_agent(agent_name, game, seed=3).select_move(game, state, budget) for _ in range(2)]
        assert moves[0].move in game.legal_moves(state), game_name
        assert moves[0].stats.nodes <= 300, game_name
        assert (moves[0].move, moves[0].stats.nodes) == (moves[1].move, moves[1].stats.nodes), game_name
    assert played == (len(registry.games) if agent_name == "mcts" else 4)   # the two-player games without dice
