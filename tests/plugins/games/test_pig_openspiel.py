"""Cross-check against OpenSpiel's `pig` (test-only peer; skipped when pyspiel is absent): the same rules,
chance probabilities and returns, move by move along seeded random games of 2, 3 and 4 players.

OpenSpiel's actions are 0 roll and 1 stop (our "hold"); its chance outcome a is the face a + 1. At a win
it passes the turn on (its current player is the next seat), where ours stays with the winner; it also
ends a game after `horizon` moves, far beyond the games played here.
"""

import random

import pytest

from framework.protocols import CHANCE
from plugins.games.pig import Pig

pyspiel = pytest.importorskip("pyspiel")

ACTION = {"roll": 0, "hold": 1}


def spiel_scores(spiel_state) -> tuple[tuple[int, ...], int]:
    """The scores and the turn total, read from OpenSpiel's text ("Scores: 3 0, Turn total: 5...")."""
    head = str(spiel_state).split("\n")[0]
    scores, total = head.split(", Turn total: ")
    return tuple(int(n) for n in scores.removeprefix("Scores: ").split()), int(total)


@pytest.mark.parametrize("players, goal, games", [(2, 30, 40), (3, 20, 30), (4, 15, 20)])
def test_every_state_of_seeded_games_agrees_with_openspiel(players, goal, games):
    ours = Pig(players=players, goal=goal)
    theirs = pyspiel.load_game("pig", {"players": players, "winscore": goal})
    rng = random.Random(players)
    states = 0
    for _ in range(games):
        state, spiel = ours.initial_state(), theirs.new_initial_state()
        while True:
            states += 1
            assert ours.is_terminal(state) == spiel.is_terminal()
            assert (state[0], state[1]) == spiel_scores(spiel)
            if spiel.is_terminal():
                assert ours.returns(state) == pytest.approx(tuple(spiel.returns()))
                break
            if spiel.is_chance_node():
                assert ours.to_move(state) == CHANCE
                outcomes, expected = ours.chance_outcomes(state), spiel.chance_outcomes()
                assert [face - 1 for face, _ in outcomes] == [action for action, _ in expected]
                assert [float(p) for _, p in outcomes] == pytest.approx([p for _, p in expected])
                face = rng.randint(1, 6)
                state, _ = ours.apply(state, face), spiel.apply_action(face - 1)
            else:
                assert ours.to_move(state) == spiel.current_player()
                assert sorted(ACTION[m] for m in ours.legal_moves(state)) == spiel.legal_actions()
                move = rng.choice(["roll"] * 4 + ["hold"])
                state, _ = ours.apply(state, move), spiel.apply_action(ACTION[move])
    assert states > 500
