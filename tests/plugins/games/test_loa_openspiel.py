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


#: 119 plies of random play (seeded) after which the board repeats one seen before with the other side to move,
#: and none repeated earlier: OpenSpiel's rule draws there, ICGA's does not.
BOARD_REPEAT = (
    "d8-b6 a6xc8 c1xa3 a5-c5 f8xc5 h3-f5 e8-e6 f5xc5 b1-d3 a4-c4 a3-b2 h4-g5 b2-e2 h2xe2 g8-d8 c5xg1 "
    "e6-e3 g1-h2 e1-d2 c8-c6 d3-b3 c6-d5 d8-f8 d5-c6 b8-b5 c6-f6 d2-e1 f6-c6 d1-g1 a7-c7 e3-c3 c4-f7 "
    "e1-h1 e2-b2 g1-g3 h6-e6 f1-f4 e6-f5 b6-a7 g5xg3 a7-b8 c6-d6 b3-e3 a2-a3 f8-d8 h5-g4 c3-c5 d6-e6 "
    "d8-d7 f7-e8 b8-d8 h2-g1 b5-a6 b2-a2 f4-d4 h7-e7 h1-g2 c7xc5 a6-b5 c5-c6 b5-b4 c6-a8 b4-a5 f5-g6 "
    "d8-d5 g3-f2 e3-f4 g1-h1 g2-h3 g6-f5 d5-d8 f2-d2 f4-h6 e8-h8 d7-d3 e7-g5 a5-c3 g4-h5 d3-c4 a2-b1 "
    "c4xe6 h5-g6 h6-g7 f5-f4 c3-f3 a8-d5 d8-f8 f4-h4 h3-g2 g6-h5 f8xh8 d2-b2 f3-f4 d5-d7 e6-e5 b2-b4 "
    "g2xg5 d7-e8 h8-f8 h5-h8 f4-f2 b4-b6 g7-h7 h1-f1 d4-a1 b6-d4 f8-g7 f1-e2 f2-f3 e8-c8 h7-g8 b1-b2 "
    "f3-h5 d4-d3 e5-d6 a3-a5 d6-e7 a5-a3 e7-e5"
).split()


def test_with_the_board_rule_our_match_runner_draws_where_openspiel_does():
    from framework.match import Termination, play_game
    from framework.protocols import Decision

    class Script:
        def __init__(self, notations):
            self.notations = iter(notations)

        def select_move(self, game, state, budget):
            return Decision(game.parse_move(state, next(self.notations)))

    spiel = pyspiel.load_game("lines_of_action").new_initial_state()
    for notation in BOARD_REPEAT:
        assert not spiel.is_terminal()
        spiel.apply_action({spiel.action_to_string(a): a for a in spiel.legal_actions()}[notation])
    assert spiel.is_terminal() and spiel.returns() == [0.0, 0.0]
    for repetition, termination in (("board", Termination.REPETITION), ("third", Termination.MAX_PLIES)):
        game = LinesOfAction(repetition=repetition)
        record = play_game(game, [Script(BOARD_REPEAT[0::2]), Script(BOARD_REPEAT[1::2])], max_plies=119)
        assert (record.termination, record.plies) == (termination, 119), repetition
