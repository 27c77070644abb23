"""Lines of Action in play: each heuristic steers alpha-beta to beat a random mover, they rank, and
the match runner draws on the third occurrence of a position."""

import pytest

from framework.match import Termination, play_game
from framework.protocols import Decision


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


class Scripted:
    """Plays the given notations in turn, round and round."""

    def __init__(self, notations):
        self.notations, self.played = notations, 0

    def select_move(self, game, state, budget):
        move = game.parse_move(state, self.notations[self.played % len(self.notations)])
        self.played += 1
        return Decision(move)


def test_the_third_occurrence_of_a_position_draws(registry):
    game = registry.create_game("loa")
    record = play_game(game, [Scripted(["b1-b3", "b3-b1"]), Scripted(["a7-c7", "c7-a7"])])
    # The start recurs after plies 4 and 8: its third occurrence, with Black to move again.
    assert record.termination is Termination.REPETITION and record.plies == 8 and record.result == (0.0, 0.0)
