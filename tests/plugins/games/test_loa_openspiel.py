"""Cross-check against OpenSpiel's `lines_of_action` (test-only peer; skipped when pyspiel is absent).

Where the two rule sets agree, both must give the same legal moves in the same notation, the same
terminal flags and the same returns at every node of a tree walked in lockstep. OpenSpiel differs in
three conventions, so the walk uses `simultaneous=mover_wins` (OpenSpiel checks the mover's connection
first) and allows exactly one difference: OpenSpiel draws at once when a board repeats any earlier board
of the game (ours: the third occurrence with the same side to move, enforced by the match runner). Its
third difference, a side without moves loses instead of passing, does not arise in these trees.
"""

import random

import pytest

from plugins.games.loa.game import LinesOfAction

pyspiel = pytest.importorskip("pyspiel")

GAME = LinesOfAction(simultaneous="mover_wins")


def board_text(spiel_state) -> str:
    rows = str(spiel_state).splitlines()[:8]
    return "/".join(row[1:].replace("x", "b").replace("o", "w") for row in rows)


def walk(spiel_state, state, depth: int, history: frozenset) -> int:
    """Compare the two trees to `depth` plies; return the number of nodes compared."""
    if spiel_state.is_terminal():
        if not GAME.is_terminal(state):
            assert board_text(spiel_state) in history, GAME.to_text(state)
            return 1
        assert tuple(spiel_state.returns()) == GAME.returns(state), GAME.to_text(state)
        return 1
    assert not GAME.is_terminal(state), GAME.to_text(state)
    actions = spiel_state.legal_actions()
    theirs = sorted(spiel_state.action_to_string(a) for a in actions)
    assert theirs == sorted(GAME.format_move(state, m) for m in GAME.legal_moves(state)), GAME.to_text(state)
    if depth == 0:
        return 1
    history = history | {board_text(spiel_state)}
    nodes = 1
    for action in actions:
        move = GAME.parse_move(state, spiel_state.action_to_string(action))
        nodes += walk(spiel_state.child(action), GAME.apply(state, move), depth - 1, history)
    return nodes


def test_lockstep_from_the_start():
    assert walk(pyspiel.load_game("lines_of_action").new_initial_state(), GAME.initial_state(), 2,
                frozenset()) == 1 + 36 + 1244


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_lockstep_from_random_midgame_positions(seed):
    rng = random.Random(seed)
    spiel_state = pyspiel.load_game("lines_of_action").new_initial_state()
    history = set()
    for _ in range(rng.randrange(10, 70)):
        if spiel_state.is_terminal():
            break
        history.add(board_text(spiel_state))
        spiel_state.apply_action(rng.choice(spiel_state.legal_actions()))
    text = board_text(spiel_state) + " " + "bw"[max(spiel_state.current_player(), 0)]
    assert walk(spiel_state, GAME.from_text(text), 2, frozenset(history)) > 1 or spiel_state.is_terminal()
