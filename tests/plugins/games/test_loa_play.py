"""Lines of Action heuristics in play: each steers alpha-beta to beat a random mover, and they rank."""

import pytest

from framework.match import Termination, play_game


@pytest.mark.parametrize("heuristic", ["groups", "concentration", "mobility"])
def test_alphabeta_at_depth_2_beats_the_random_agent_with_either_colour(registry, heuristic):
    game = registry.create_game("loa")
    for first in (0, 1):
        searcher = registry.create_agent("alphabeta", game, {"depth": 2, "heuristic": heuristic})
        agents = [registry.create_agent("random", game, {}, seed=first)]
        agents.insert(first, searcher)
        record = play_game(game, agents, max_plies=200)
        assert record.termination is Termination.NORMAL and record.winner == first, (heuristic, first, record.reason)


def test_concentration_beats_the_group_count_baseline_with_either_colour(registry):
    game = registry.create_game("loa")
    for first in (0, 1):
        agents = [registry.create_agent("alphabeta", game, {"depth": 2, "heuristic": "groups"})]
        agents.insert(first, registry.create_agent("alphabeta", game, {"depth": 2, "heuristic": "concentration"}))
        record = play_game(game, agents, max_plies=200)
        assert record.winner == first and record.reason.endswith("connected all pieces")
