"""Lines of Action as a Game: start positions, options, text format and move notation.

A thin wrapper over the bitboard rules in `rules.py`. State: `(black, white, mover)`, two
64-bit bitboards (a1 = bit 0, h8 = bit 63) and the side to move (0 Black, 1 White).

Text format: the 8 ranks from rank 8 down to rank 1 separated by `/`, each 8 characters
of `b`, `w` or `.`, a space and the side to move (`b` or `w`); the standard start is
`.bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b`.
Notation: `b1-b3` for a move, `f8xh6` for a capture, `pass` for a side that cannot move.

There is no move-count draw: the ICGA rules have none, and a ply counter in the state
would split transpositions; the match runner's `max_plies` adjudicates long games.
"""

from __future__ import annotations

import re
from functools import partial

from framework.boardsvg import Cell, grid
from framework.errors import MoveParseError, PositionError
from framework.kernel import api, numba_backend
from framework.params import Param
from plugins.games.loa import kernel, rules
from plugins.games.loa.rules import (
    BLACK,
    DRAW,
    ONGOING,
    PASS,
    WHITE,
    apply_move,
    is_capture,
    is_over,
    legal_moves,
    move_rank,
    winner,
)

State = tuple[int, int, int]

FILES = "abcdefgh"
SQUARE_NAMES = tuple(f"{FILES[s % 8]}{s // 8 + 1}" for s in range(64))
SQUARE_INDEX = {name: s for s, name in enumerate(SQUARE_NAMES)}
MOVE_PATTERN = re.compile(r"([a-h][1-8])([-x])([a-h][1-8])")
SIDE_LETTERS = "bw"
MAX_PIECES = 12

STANDARD_START = ".bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b"
#: Soucie's Scrambled Eggs: the colours alternate round the edge, White on a2.
SCRAMBLED_START = ".wbwbwb./b......w/w......b/b......w/w......b/b......w/w......b/.bwbwbw. b"
STARTS = {"standard": STANDARD_START, "scrambled": SCRAMBLED_START}

PARAMS = (
    Param("start", str, "standard", "start position: the standard one or Soucie's Scrambled Eggs",
          choices=tuple(STARTS)),
    Param("simultaneous", str, "draw", "a move that connects both sides at once: a draw or a win for the mover",
          choices=("draw", "mover_wins")),
    Param("repetition", str, "third", "what draws by repetition: the third occurrence of a position with the same "
          "side to move (ICGA), or any board seen before, whoever is to move (OpenSpiel's lines_of_action)",
          choices=("third", "board")),
)

POSITION_EXPECTED = ("expected 8 ranks from rank 8 down to rank 1 separated by '/', each 8 characters of "
                     "'b', 'w' or '.', then a space and the side to move ('b' or 'w'), e.g. '"
                     + STANDARD_START + "'")


def parse_position(text: str) -> State:
    """Parse the text format into a state, or raise PositionError quoting the text."""
    parts = text.split()
    if len(parts) != 2:
        raise PositionError(f"'{text}' is not a Lines of Action position; {POSITION_EXPECTED}")
    board, side = parts
    if side not in ("b", "w"):
        raise PositionError(f"'{text}': the side to move is '{side}'; expected 'b' or 'w'")
    ranks = board.split("/")
    if len(ranks) != 8:
        raise PositionError(f"'{text}' has {len(ranks)} ranks; {POSITION_EXPECTED}")
    black = white = 0
    for i, rank in enumerate(ranks):
        number = 8 - i
        if len(rank) != 8:
            raise PositionError(f"'{text}': rank {number} '{rank}' has {len(rank)} characters; "
                                "expected 8 of 'b', 'w' or '.'")
        for f, c in enumerate(rank):
            bit = 1 << ((number - 1) * 8 + f)
            if c == "b":
                black |= bit
            elif c == "w":
                white |= bit
            elif c != ".":
                raise PositionError(f"'{text}': rank {number} '{rank}' contains '{c}'; "
                                    "expected only 'b', 'w' or '.'")
    for name, pieces in (("Black", black), ("White", white)):
        if not 1 <= pieces.bit_count() <= MAX_PIECES:
            raise PositionError(f"'{text}': {name} has {pieces.bit_count()} pieces; expected 1 to "
                                f"{MAX_PIECES} (pieces are never added)")
    return black, white, SIDE_LETTERS.index(side)


def format_position(state: State) -> str:
    black, white, mover = state
    ranks = []
    for r in range(7, -1, -1):
        ranks.append("".join("b" if black >> (r * 8 + f) & 1 else "w" if white >> (r * 8 + f) & 1 else "."
                             for f in range(8)))
    return "/".join(ranks) + " " + SIDE_LETTERS[mover]


def board_of(state: State) -> tuple[int, int]:
    """The pieces of a state without the side to move: what OpenSpiel's repetition rule compares."""
    return state[0], state[1]


class LinesOfAction:
    """Lines of Action, ICGA rules; options choose the start, the simultaneous-connection rule and the repetition
    rule."""

    name = "loa"
    player_names = ("Black", "White")
    default_heuristic = "concentration"
    #: The third occurrence of a position with the same side to move draws (the match runner enforces it); with
    #: `repetition: board` the second occurrence of a board, whoever is to move (`repetition_key`).
    repetition_limit = 3

    def __init__(self, start: str = "standard", simultaneous: str = "draw", repetition: str = "third") -> None:
        self.start = start
        self.simultaneous_win = simultaneous == "mover_wins"
        if repetition == "board":
            self.repetition_limit = 2
            self.repetition_key = board_of
        self._initial = parse_position(STARTS[start])
        #: The compiled rules, for compiled searches (see framework.kernel.api.GameKernel).
        self.kernel = api.GameKernel("loa", kernel.KERNEL, kernel.kernel_state, int(self.simultaneous_win),
                                     kernel.HEURISTICS_KERNEL, kernel.SCORES,
                                     key_shifts=kernel.KEY_SHIFTS, move_space=kernel.MOVE_SPACE)

    def initial_state(self) -> State:
        return self._initial

    def to_move(self, state: State) -> int:
        return state[2]

    legal_moves = staticmethod(legal_moves)
    apply = staticmethod(apply_move)

    def perft(self, state: State, depth: int) -> int:
        """Leaf count at `depth` plies (the fast capability `framework.perft` uses): `rules.perft`,
        compiled (`framework.kernel`) unless `PLYGROUND_JIT=0`."""
        black, white, mover = state
        if depth == 0:
            return 1
        if is_over(black, white):
            return 0
        own, enemy = (white, black) if mover else (black, white)
        return kernel.perft(own, enemy, depth) if numba_backend.enabled() else rules.perft(own, enemy, depth)

    def ordered_moves(self, state: State) -> list[int]:
        """Legal moves with captures first, each group in generation order (`rules.move_rank`)."""
        return sorted(legal_moves(state), key=partial(move_rank, state))

    def warmup(self) -> None:
        """Compile or load the kernels now, so that no timed move pays for it."""
        if numba_backend.enabled():
            kernel.warmup()

    def is_noisy(self, state: State, move: int) -> bool:
        return is_capture(state, move)

    def is_terminal(self, state: State) -> bool:
        return is_over(state[0], state[1])

    def outcome(self, state: State) -> int:
        """BLACK, WHITE, DRAW or ONGOING (rules.py codes)."""
        return winner(state[0], state[1], state[2], self.simultaneous_win)

    def returns(self, state: State) -> tuple[float, float]:
        result = self.outcome(state)
        if result == BLACK:
            return (1.0, -1.0)
        if result == WHITE:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def end_reason(self, state: State) -> str:
        result = self.outcome(state)
        if result == DRAW:
            return "a move connected both sides at once"
        if result == ONGOING:
            return ""
        return f"{self.player_names[result]} connected all pieces"

    def hash_key(self, state: State) -> int:
        """The bitboards and the side to move packed into one int: exact, no collisions."""
        return state[0] | state[1] << 64 | state[2] << 128

    def format_move(self, state: State, move: int) -> str:
        if move == PASS:
            return "pass"
        return SQUARE_NAMES[move >> 6] + ("x" if is_capture(state, move) else "-") + SQUARE_NAMES[move & 63]

    def parse_move(self, state: State, text: str) -> int:
        legal = legal_moves(state)
        if not legal:
            raise MoveParseError(f"'{text}': the game is over, there is no move to make")
        word = text.strip().lower()
        if word == "pass":
            move = PASS
        else:
            match = MOVE_PATTERN.fullmatch(word)
            if match is None:
                raise MoveParseError(f"'{text}' is not a Lines of Action move; expected from-square, '-' or 'x' "
                                     "(capture) and to-square, e.g. 'b1-b3' or 'f8xh6', or 'pass'")
            move = SQUARE_INDEX[match[1]] * 64 + SQUARE_INDEX[match[3]]
            if move in legal and (match[2] == "x") != is_capture(state, move):
                raise MoveParseError(f"'{text}': write '{self.format_move(state, move)}', "
                                     "with 'x' exactly when the move captures")
        if move not in legal:
            names = " ".join(self.format_move(state, m) for m in legal)
            raise MoveParseError(f"'{text}' is not a legal move here; legal moves: {names}")
        return move

    def render(self, state: State) -> str:
        rows = [f"{8 - i} " + " ".join(rank) for i, rank in enumerate(format_position(state)[:71].split("/"))]
        rows.append("  " + " ".join(FILES))
        if not self.is_terminal(state):
            rows.append(f"{self.player_names[state[2]]} to move")
        return "\n".join(rows)

    def render_svg(self, state: State, flipped: bool = False) -> str:
        """Rank 8 at the top; squares are clicked by name (a pass is a button)."""
        black, white, _ = state
        cells = [[Cell(SQUARE_NAMES[s], dark=(r + c) % 2 == 1,
                       piece=0 if black >> s & 1 else 1 if white >> s & 1 else None)
                  for c in range(8) for s in [(7 - r) * 8 + c]] for r in range(8)]
        return grid(cells, flipped=flipped, files=FILES, ranks=tuple("87654321"), title="lines of action")

    def move_clicks(self, state: State, move: int) -> tuple[str, ...]:
        return () if move == PASS else (SQUARE_NAMES[move >> 6], SQUARE_NAMES[move & 63])

    def to_text(self, state: State) -> str:
        return format_position(state)

    def from_text(self, text: str) -> State:
        return parse_position(text)
