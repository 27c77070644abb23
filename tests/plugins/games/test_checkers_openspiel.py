"""Cross-check against OpenSpiel's `checkers` (test-only peer; skipped when pyspiel is absent).

OpenSpiel plays the same English rules but splits a multi-jump into one action per jump (the
same player moves again), so a full move here is an action sequence that ends when the player
changes. It draws after 40 *actions* without a capture (man moves do not reset it), where we
draw after `quiet_moves` moves each without a capture or man move; the walks below switch our
rule off and stop comparing terminal flags once OpenSpiel's counter runs out. Its first player
sits on ranks 1-3 with a1 dark: our square s (row r from Black's side, column c) is its square
at file `h - c`, rank `r + 1`, the board turned half a circle, so Black is its player 0.
"""

import random

import pytest

from plugins.games.checkers import Checkers
from plugins.games.checkers.notation import move_squares

pyspiel = pytest.importorskip("pyspiel")

GAME = Checkers(quiet_moves=None, repetition_limit=None)
OPENSPIEL_QUIET_LIMIT = 40


def spiel_square_names() -> dict[str, int]:
    names = {}
    for square in range(1, 33):
        row, pos = divmod(square - 1, 4)
        column = 2 * pos + (1 if row % 2 == 0 else 0)
        names[f"{'abcdefgh'[7 - column]}{row + 1}"] = square
    return names


SQUARE = spiel_square_names()


def full_moves(spiel_state) -> dict[tuple[int, ...], object]:
    """OpenSpiel's full moves as our square paths, each with the state after it."""
    player = spiel_state.current_player()
    out = {}

    def extend(state, path):
        for action in state.legal_actions():
            text = state.action_to_string(action)
            child = state.child(action)
            longer = (path or (SQUARE[text[:2]],)) + (SQUARE[text[2:]],)
            if not child.is_terminal() and child.current_player() == player:
                extend(child, longer)
            else:
                out[longer] = child

    extend(spiel_state, ())
    return out


def test_the_square_map_puts_black_on_openspiel_first_player_rows():
    assert sorted(name for name, square in SQUARE.items() if square <= 12) == \
        ["a1", "a3", "b2", "c1", "c3", "d2", "e1", "e3", "f2", "g1", "g3", "h2"]


def test_lockstep_tree_from_the_start():
    """Four plies, every node: the same full moves; 1 + 7 + 49 + 302 + 1,469 nodes compared."""
    def walk(spiel_state, state, depth):
        ours = {move_squares(m): m for m in GAME.legal_moves(state)}
        theirs = full_moves(spiel_state)
        assert set(ours) == set(theirs), GAME.to_text(state)
        if depth == 0:
            return 1
        return 1 + sum(walk(theirs[path], GAME.apply(state, m), depth - 1) for path, m in ours.items())

    assert walk(pyspiel.load_game("checkers").new_initial_state(), GAME.initial_state(), 4) == 1828


@pytest.mark.parametrize("seed", range(6))
def test_lockstep_random_games_to_the_end(seed):
    """Whole random games with kings: the same full moves at every ply and the same result."""
    rng = random.Random(seed)
    spiel_state = pyspiel.load_game("checkers").new_initial_state()
    state = GAME.initial_state()
    quiet_actions = plies = 0
    while quiet_actions < OPENSPIEL_QUIET_LIMIT:
        theirs = full_moves(spiel_state)
        ours = {move_squares(m): m for m in GAME.legal_moves(state)}
        assert set(ours) == set(theirs), GAME.to_text(state)
        if not theirs:
            assert GAME.is_terminal(state) and spiel_state.is_terminal()
            assert tuple(spiel_state.returns()) == GAME.returns(state)
            break
        path = rng.choice(sorted(theirs))
        quiet_actions = 0 if GAME.is_noisy(state, ours[path]) else quiet_actions + 1
        spiel_state, state = theirs[path], GAME.apply(state, ours[path])
        plies += 1
    assert plies > 20
