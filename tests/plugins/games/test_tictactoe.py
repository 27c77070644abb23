"""Tic-tac-toe rules, text format and heuristics."""

import pytest

from framework import MoveParseError, PositionError
from plugins.games.tictactoe import LinesHeuristic, ThesisScoring, TicTacToe

GAME = TicTacToe()


def test_the_empty_board_has_nine_moves_in_reading_order():
    state = GAME.initial_state()
    assert [GAME.format_move(state, m) for m in GAME.legal_moves(state)] == \
        ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
    assert GAME.to_move(state) == 0 and not GAME.is_terminal(state)


def test_text_round_trips_and_keeps_the_side_to_move():
    for text in (".../.../... x", "XXO/.X./O.. o", "XOX/XOO/OXX o"):
        assert GAME.to_text(GAME.from_text(text)) == text
    assert GAME.to_move(GAME.from_text("XXO/.X./O.. o")) == 1


def test_three_in_a_row_wins_and_a_full_board_draws():
    assert GAME.returns(GAME.from_text("XXX/OO./... o")) == (1.0, -1.0)
    assert GAME.returns(GAME.from_text("OOO/XX./X.. x")) == (-1.0, 1.0)
    full = GAME.from_text("XOX/XOO/OXX o")
    assert GAME.is_terminal(full) and GAME.returns(full) == (0.0, 0.0) and GAME.legal_moves(full) == ()
    assert GAME.legal_moves(GAME.from_text("XXX/OO./... o")) == ()


@pytest.mark.parametrize("text, message", [
    ("XXO/.X. o", "'XXO/.X. o' is not a tic-tac-toe position; expected three rows"),
    ("XXO/.X./O.. z", "is not a tic-tac-toe position"),
    ("XXQ/.X./O.. o", "is not a tic-tac-toe position"),
    ("XXO/.X./O.. x", "cannot arise in play: with x to move X must have as many marks as O"),
    ("XXX/OOO/... x", "cannot arise in play: both sides have three in a row"),
    ("XXX/OO./O.. x", "cannot arise in play: X has three in a row, so the game ended on X's move"),
    ("OOO/XX./XX. o", "cannot arise in play: O has three in a row, so the game ended on O's move"),
    ("XXX/XXX/OOO x", "cannot arise in play"),
])
def test_malformed_positions_are_rejected_with_the_text(text, message):
    with pytest.raises(PositionError, match=message):
        GAME.from_text(text)


def test_a_win_by_the_side_that_just_moved_is_read():
    assert GAME.returns(GAME.from_text("XXX/OO./... o")) == (1.0, -1.0)
    assert GAME.returns(GAME.from_text("OOO/XX./X.. x")) == (-1.0, 1.0)


def test_moves_parse_and_bad_moves_say_what_is_legal():
    state = GAME.from_text("XXO/.X./O.. o")
    assert GAME.format_move(state, GAME.parse_move(state, "C1")) == "c1"
    with pytest.raises(MoveParseError, match="'d4' is not a tic-tac-toe square; expected a file a-c"):
        GAME.parse_move(state, "d4")
    with pytest.raises(MoveParseError, match="'a3' is not a legal move here; legal moves: a2 c2 b1 c1"):
        GAME.parse_move(state, "a3")


def test_apply_returns_a_new_state_and_leaves_the_input_alone():
    state = GAME.initial_state()
    after = GAME.apply(state, 4)
    assert state == (0, 0, 0) and after == (1 << 4, 0, 1)


def test_lines_heuristic_is_antisymmetric_and_counts_open_lines():
    state = GAME.from_text("X../.../... o")
    h = LinesHeuristic(GAME)
    assert h.evaluate(state, 0) == 3.0  # a corner lies on a row, a column and a diagonal
    assert h.evaluate(state, 1) == -3.0


def test_thesis_scoring_rewards_quick_wins():
    won = GAME.from_text("XXX/OO./... o")
    h = ThesisScoring(GAME)
    assert h.terminal(won, 0, 2) == 7 and h.terminal(won, 1, 2) == -7
    assert h.terminal(GAME.from_text("XOX/XOO/OXX o"), 0, 4) == 0


def test_render_shows_coordinates_and_the_side_to_move():
    assert GAME.render(GAME.from_text("XXO/.X./O.. o")) == "3 X X O\n2 . X .\n1 O . .\n  a b c\nO to move"
