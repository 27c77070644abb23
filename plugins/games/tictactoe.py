"""Tic-tac-toe (noughts and crosses) on 9-bit bitboards, with two heuristics.

State: `(x_bits, o_bits, mover)`; bit i is square i in reading order (a3 = bit 0 at the
top left, c1 = bit 8 at the bottom right); mover 0 is X, who moves first. Moves are
square indices in reading order, so "first in move order" means top-left first.
Notation: file a-c and rank 1-3, rank 1 at the bottom (as in chess). Text format: the
rows top to bottom separated by `/`, `X`, `O` or `.` per square, a space, and the side to
move (`x` or `o`), e.g. `XXO/.X./O.. o`. Only positions that can arise in play are read: X has as many
marks as O (X to move) or one more (O to move), and a side with three in a row made the last move
(these conditions are also sufficient: two lines of one side need five of its marks, which only X
can have, and then they share the square played last).
"""

from __future__ import annotations

from framework.boardsvg import Cell, grid
from framework.errors import MoveParseError, PositionError
from framework.hookspecs import hookimpl
from framework.protocols import BaseHeuristic
from framework.specs import GameSpec, HeuristicSpec, first_line

State = tuple[int, int, int]
FULL = 0b111_111_111
LINES = (0b000_000_111, 0b000_111_000, 0b111_000_000,  # rows
         0b001_001_001, 0b010_010_010, 0b100_100_100,  # columns
         0b100_010_001, 0b001_010_100)                 # diagonals
SQUARES = tuple(range(9))
NAMES = tuple(f"{'abc'[i % 3]}{3 - i // 3}" for i in SQUARES)
INDEX = {name: i for i, name in enumerate(NAMES)}


#: LINE[bits] is 1 when the marks `bits` contain three in a row (one lookup instead of 8 tests).
LINE = bytes(any(bits & line == line for line in LINES) for bits in range(1 << 9))
#: FREE[occupied]: the empty squares in reading order, shared tuples so move generation allocates nothing.
FREE = tuple(tuple(i for i in SQUARES if not occupied >> i & 1) for occupied in range(1 << 9))


def has_line(bits: int) -> bool:
    return LINE[bits] == 1


def legal_moves(x: int, o: int) -> tuple[int, ...]:
    """The empty squares, or none once either side has three in a row (a full board has none left)."""
    return () if LINE[x] or LINE[o] else FREE[x | o]


def perft(x: int, o: int, mover: int, depth: int) -> int:
    """Move paths of exactly `depth` plies, counting the last ply in bulk (see framework.perft)."""
    moves = () if LINE[x] or LINE[o] else FREE[x | o]
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    if mover == 0:
        for square in moves:
            total += perft(x | 1 << square, o, 1, depth - 1)
    else:
        for square in moves:
            total += perft(x, o | 1 << square, 0, depth - 1)
    return total


class TicTacToe:
    """The 3x3 game: three in a row wins, a full board without a line is a draw."""

    name = "tictactoe"
    player_names = ("X", "O")
    default_heuristic = "lines"

    def initial_state(self) -> State:
        return (0, 0, 0)

    def to_move(self, state: State) -> int:
        return state[2]

    def legal_moves(self, state: State) -> tuple[int, ...]:
        return legal_moves(state[0], state[1])

    def apply(self, state: State, move: int) -> State:
        x, o, mover = state
        if mover == 0:
            return (x | 1 << move, o, 1)
        return (x, o | 1 << move, 0)

    def is_terminal(self, state: State) -> bool:
        x, o, _ = state
        return (x | o) == FULL or LINE[x] == 1 or LINE[o] == 1

    def returns(self, state: State) -> tuple[float, float]:
        if has_line(state[0]):
            return (1.0, -1.0)
        if has_line(state[1]):
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def perft(self, state: State, depth: int) -> int:
        """The Game protocol's fast perft capability: `perft` on the bitboards."""
        return perft(*state, depth)

    def hash_key(self, state: State) -> int:
        return state[0] | state[1] << 9 | state[2] << 18

    def format_move(self, state: State, move: int) -> str:
        return NAMES[move]

    def parse_move(self, state: State, text: str) -> int:
        move = INDEX.get(text.strip().lower())
        if move is None:
            raise MoveParseError(f"'{text}' is not a tic-tac-toe square; expected a file a-c and a rank 1-3, "
                                 "e.g. 'b2'")
        if move not in self.legal_moves(state):
            legal = " ".join(NAMES[m] for m in self.legal_moves(state)) or "none"
            raise MoveParseError(f"'{text}' is not a legal move here; legal moves: {legal}")
        return move

    def render(self, state: State) -> str:
        x, o, mover = state
        rows = []
        for r in range(3):
            cells = ["X" if x >> (3 * r + c) & 1 else "O" if o >> (3 * r + c) & 1 else "." for c in range(3)]
            rows.append(f"{3 - r} " + " ".join(cells))
        rows.append("  a b c")
        if not self.is_terminal(state):
            rows.append(f"{self.player_names[mover]} to move")
        return "\n".join(rows)

    def render_svg(self, state: State, flipped: bool = False) -> str:
        """The 3x3 grid; every square is clickable by its name (a1..c3)."""
        x, o, _ = state
        cells = [[Cell(NAMES[i], piece=0 if x >> i & 1 else 1 if o >> i & 1 else None,
                       mark="X" if x >> i & 1 else "O") for i in range(3 * r, 3 * r + 3)] for r in range(3)]
        return grid(cells, flipped=flipped, files="abc", ranks=("3", "2", "1"), title="tic-tac-toe", lines=True)

    def move_clicks(self, state: State, move: int) -> tuple[str, ...]:
        return (NAMES[move],)

    def to_text(self, state: State) -> str:
        x, o, mover = state
        cells = "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "." for i in SQUARES)
        return f"{cells[0:3]}/{cells[3:6]}/{cells[6:9]} {'xo'[mover]}"

    def from_text(self, text: str) -> State:
        parts = text.split()
        expected = "expected three rows of X, O or '.' separated by '/', a space and the side to move, " \
                   "e.g. 'XXO/.X./O.. o'"
        if len(parts) != 2 or parts[1] not in ("x", "o"):
            raise PositionError(f"'{text}' is not a tic-tac-toe position; {expected}")
        rows = parts[0].split("/")
        if len(rows) != 3 or any(len(row) != 3 or set(row) - set("XO.") for row in rows):
            raise PositionError(f"'{text}' is not a tic-tac-toe position; {expected}")
        cells = "".join(rows)
        x = sum(1 << i for i, c in enumerate(cells) if c == "X")
        o = sum(1 << i for i, c in enumerate(cells) if c == "O")
        mover = "xo".index(parts[1])
        if cells.count("X") - cells.count("O") != mover:
            raise PositionError(f"'{text}' cannot arise in play: with {parts[1]} to move X must have "
                                f"{'one more mark than' if mover else 'as many marks as'} O")
        if has_line(x) and has_line(o):
            raise PositionError(f"'{text}' cannot arise in play: both sides have three in a row")
        for winner, bits in enumerate((x, o)):
            if has_line(bits) and mover == winner:
                raise PositionError(f"'{text}' cannot arise in play: {self.player_names[winner]} has three in a "
                                    f"row, so the game ended on {self.player_names[winner]}'s move and "
                                    f"{self.player_names[winner]} cannot be to move")
        return (x, o, mover)


class LinesHeuristic(BaseHeuristic):
    """Open lines weighted by marks: 3 per line with two own marks and no enemy, 1 per line with one."""

    name = "lines"

    def evaluate(self, state: State, player: int) -> float:
        mine, theirs = (state[0], state[1]) if player == 0 else (state[1], state[0])
        score = 0
        for line in LINES:
            if not line & theirs:
                n = (mine & line).bit_count()
                score += 3 if n == 2 else n
            if not line & mine:
                n = (theirs & line).bit_count()
                score -= 3 if n == 2 else n
        return float(score)


class ThesisScoring(BaseHeuristic):
    """The thesis' scoring: a win at ply d from the search root scores 9 - d, a loss -9 + d, a draw 0.

    Meant for full-depth search; non-terminal leaves score 0.
    """

    name = "thesis"

    def evaluate(self, state: State, player: int) -> float:
        return 0.0

    def terminal(self, state: State, player: int, ply: int) -> float:
        outcome = self.game.returns(state)[player]
        return outcome * (9 - ply)


@hookimpl
def plyground_games() -> list[GameSpec]:
    return [GameSpec("tictactoe", TicTacToe, "Tic-tac-toe on a 3x3 board; X moves first")]


@hookimpl
def plyground_heuristics() -> list[HeuristicSpec]:
    return [
        HeuristicSpec("lines", "tictactoe", LinesHeuristic, first_line(LinesHeuristic)),
        HeuristicSpec("thesis", "tictactoe", ThesisScoring, first_line(ThesisScoring)),
    ]
