"""The conformance suite catches each way a game can break the Game protocol.

Each broken game below is tic-tac-toe with one rule broken; the suite must name that rule.
"""

from __future__ import annotations

import pytest

from framework import MoveParseError, PositionError
from framework import conformance as cf
from framework.conformance import ConformanceFailure, GameConformance
from plugins.games.tictactoe import NAMES, TicTacToe

GAME = TicTacToe()
START = GAME.initial_state()


class DropsSideToMove(TicTacToe):
    def to_text(self, state):
        return super().to_text(state)[:-1] + "x"

    def from_text(self, text):
        x, o, _ = super().from_text(text[:-1] + ("x" if text.count("X") == text.count("O") else "o"))
        return (x, o, 0)


class MovesAfterTheEnd(TicTacToe):
    def legal_moves(self, state):
        occupied = state[0] | state[1]
        return [i for i in range(9) if not occupied >> i & 1]


class StopsEarly(TicTacToe):
    def legal_moves(self, state):
        return [] if (state[0] | state[1]).bit_count() >= 4 else super().legal_moves(state)


class NotZeroSum(TicTacToe):
    def returns(self, state):
        x, o = super().returns(state)
        return (x, o) if x else (1.0, 1.0)


class HalfPointDraws(TicTacToe):
    def returns(self, state):
        x, o = super().returns(state)
        return (x, o) if x else (0.5, -0.5)


class ReturnsTriple(TicTacToe):
    def returns(self, state):
        return super().returns(state) + (0.0,)


class FileOnlyNotation(TicTacToe):
    def format_move(self, state, move):
        return NAMES[move][0]

    def parse_move(self, state, text):
        return next(m for m in self.legal_moves(state) if NAMES[m][0] == text)


class RejectsOwnNotation(TicTacToe):
    def format_move(self, state, move):
        return NAMES[move].upper() + "!"


class EmptyNotation(TicTacToe):
    def format_move(self, state, move):
        return ""


class ParsesToFirstMove(TicTacToe):
    def parse_move(self, state, text):
        return self.legal_moves(state)[0]


class DuplicateMoves(TicTacToe):
    def legal_moves(self, state):
        moves = super().legal_moves(state)
        return moves + moves[:1]


class BadOrderedMoves(TicTacToe):
    def ordered_moves(self, state):
        return self.legal_moves(state)[1:]


class UnstableHashKey(TicTacToe):
    def hash_key(self, state):
        return id(state)


class UnstableText(TicTacToe):
    calls = 0

    def to_text(self, state):
        UnstableText.calls += 1
        return super().to_text(state) + " " * (UnstableText.calls % 2)


class NonStringText(TicTacToe):
    def to_text(self, state):
        return list(super().to_text(state))

    def from_text(self, text):
        return super().from_text("".join(text))


class NonStringRender(TicTacToe):
    def render(self, state):
        return None


class MoverTwo(TicTacToe):
    def to_move(self, state):
        return 2


class ListStates(TicTacToe):
    def initial_state(self):
        return [0, 0, 0]

    def from_text(self, text):
        return list(super().from_text(text))


class Board:
    """A mutable state object with value equality, for the mutation check."""

    def __init__(self, x, o, mover):
        self.cells = [x, o, mover]

    def __eq__(self, other):
        return isinstance(other, Board) and self.cells == other.cells

    def __hash__(self):
        return hash(tuple(self.cells))

    def __repr__(self):
        return f"Board{tuple(self.cells)}"


class MutatingApply(TicTacToe):
    def _t(self, state):
        return tuple(state.cells) if isinstance(state, Board) else state

    def initial_state(self):
        return Board(0, 0, 0)

    def to_move(self, state):
        return state.cells[2]

    def legal_moves(self, state):
        return super().legal_moves(self._t(state))

    def is_terminal(self, state):
        return super().is_terminal(self._t(state))

    def returns(self, state):
        return super().returns(self._t(state))

    def render(self, state):
        return super().render(self._t(state))

    def to_text(self, state):
        return super().to_text(self._t(state))

    def from_text(self, text):
        return Board(*super().from_text(text))

    def hash_key(self, state):
        return super().hash_key(self._t(state))

    def apply(self, state, move):
        state.cells[:] = super().apply(self._t(state), move)
        return state


class LyingPerft(TicTacToe):
    def perft(self, state, depth):
        from framework.perft import generic_perft
        return generic_perft(self, state, depth) + (depth == 2)


@pytest.mark.parametrize("game_class, rule", [
    (DropsSideToMove, "from_text(to_text(state)) gives a different state"),
    (MovesAfterTheEnd, "legal moves; it must have none"),
    (StopsEarly, "a non-terminal state has no legal moves"),
    (NotZeroSum, "terminal returns must be zero-sum and each -1, 0 or 1, got (1.0, 1.0)"),
    (HalfPointDraws, "terminal returns must be zero-sum and each -1, 0 or 1, got (0.5, -0.5)"),
    (ReturnsTriple, "returns must be a tuple of 2 numbers (one per seat), got"),
    (FileOnlyNotation, "have the same notation 'a'"),
    (EmptyNotation, "format_move(0) must be a non-empty string"),
    (RejectsOwnNotation, "parse_move rejects 'A3!', the notation format_move gave for 0: 'A3!' is not"),
    (ParsesToFirstMove, "parse_move('b3') gives 0, not the move 1"),
    (DuplicateMoves, "legal_moves contains duplicates"),
    (BadOrderedMoves, "ordered_moves is not a permutation of legal_moves"),
    (UnstableHashKey, "hash_key differs between equal states"),
    (UnstableText, "to_text is not stable"),
    (NonStringText, "to_text returned list, not str"),
    (NonStringRender, "render must return a string"),
    (MoverTwo, "to_move must be a seat from 0 to 1 (or CHANCE at a chance node), got 2"),
    (ListStates, "state is not hashable"),
    (MutatingApply, "apply of 'a3' mutated its input state"),
])
def test_playouts_name_the_broken_rule(game_class, rule):
    game = game_class()
    with pytest.raises(ConformanceFailure) as failure:
        cf.check_playouts(game, game.initial_state(), playouts=20, seed=1, max_plies=20)
    assert rule in str(failure.value)


def test_a_failure_names_the_game_and_the_position():
    game = MovesAfterTheEnd()
    with pytest.raises(ConformanceFailure, match=r"^tictactoe at '(...|[XO.]{3})/[XO./]{7} [xo]': a terminal"):
        cf.check_playouts(game, game.initial_state(), playouts=20, seed=1, max_plies=20)


def test_tic_tac_toe_passes_every_check_on_playouts():
    assert cf.check_playouts(GAME, START, playouts=5, seed=3, max_plies=20) >= 5 * 6


def test_wrong_perft_counts_are_reported_with_the_depth():
    with pytest.raises(ConformanceFailure, match=r"perft\(2\) is 72, expected 73"):
        cf.check_perft(GAME, START, {1: 9, 2: 73}, cross_check_leaves=1000)


def test_a_fast_perft_capability_must_agree_with_the_generic_count():
    with pytest.raises(ConformanceFailure, match=r"the game's perft\(2\) = 73 disagrees with generic perft = 72"):
        cf.check_perft(LyingPerft(), START, {1: 9, 2: 73}, cross_check_leaves=1000)
    cf.check_perft(LyingPerft(), START, {1: 9, 2: 73}, cross_check_leaves=10)  # 73 leaves: not cross-checked


class Incomplete:
    name = "incomplete"
    player_names = ("A", "B")

    def initial_state(self):
        return 0


@pytest.mark.parametrize("game, rule", [
    (Incomplete(), "does not implement the Game protocol; missing: to_move, legal_moves"),
    (type("Nameless", (TicTacToe,), {"name": ""})(), "name must be a non-empty string, got ''"),
    (type("ThreePlayers", (TicTacToe,), {"player_names": ("X", "O", "Z")})(),
     "player_names must be a tuple of 2 strings"),
])
def test_the_game_object_must_implement_the_protocol(game, rule):
    with pytest.raises(ConformanceFailure) as failure:
        cf.check_game_object(game)
    assert rule in str(failure.value)


class AcceptsAnything(TicTacToe):
    def from_text(self, text):
        return (0, 0, 0)

    def parse_move(self, state, text):
        return 4


class Terse(TicTacToe):
    def from_text(self, text):
        raise PositionError("bad position")

    def parse_move(self, state, text):
        raise MoveParseError("bad move")


def test_malformed_input_must_be_rejected_with_an_error_quoting_it():
    cf.check_bad_positions(GAME, ["XXO/.X. o"])
    cf.check_bad_moves(GAME, [(None, "d4"), ("XXO/.X./O.. o", "a3")])
    with pytest.raises(ConformanceFailure, match="from_text accepted the malformed position 'XX' as"):
        cf.check_bad_positions(AcceptsAnything(), ["XX"])
    with pytest.raises(ConformanceFailure, match="parse_move accepted the bad move 'z9' as 4"):
        cf.check_bad_moves(AcceptsAnything(), [(None, "z9")])
    with pytest.raises(ConformanceFailure, match="the PositionError for 'XX' does not quote it: bad position"):
        cf.check_bad_positions(Terse(), ["XX"])
    with pytest.raises(ConformanceFailure, match="the MoveParseError for 'z9' does not quote it: bad move"):
        cf.check_bad_moves(Terse(), [(None, "z9")])


def test_a_subclass_without_a_game_factory_is_told_to_set_one():
    class TestNothing(GameConformance):
        pass

    with pytest.raises(TypeError, match="TestNothing must set game_factory to a callable returning the game"):
        TestNothing().make_game()


def test_the_factory_may_be_a_function_a_lambda_or_a_staticmethod():
    def build():
        return TicTacToe()

    for factory in (build, lambda: TicTacToe(), staticmethod(build), TicTacToe):
        suite = type("TestX", (GameConformance,), {"game_factory": factory})()
        assert suite.make_game().name == "tictactoe"


def test_a_sample_position_must_be_written_back_as_given():
    suite = type("TestX", (GameConformance,), {"game_factory": TicTacToe, "positions": ["xxo/.X./O.. o"]})()
    with pytest.raises(PositionError):
        suite.test_random_playouts_from_sample_positions()
    suite.positions = ["XXO/.X./O..  o"]
    with pytest.raises(ConformanceFailure, match="the sample position 'XXO/.X./O..  o' is written back as "
                                                 "'XXO/.X./O.. o'"):
        suite.test_random_playouts_from_sample_positions()


def test_a_state_that_cannot_be_written_is_named_by_its_repr():
    class Opaque(ListStates):
        def to_text(self, state):
            raise ValueError("no text for lists")

    game = Opaque()
    with pytest.raises(ConformanceFailure, match=r"^tictactoe at \[0, 0, 0\]: state is not hashable"):
        cf.check_state(game, game.initial_state())
