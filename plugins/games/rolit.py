"""Rolit (Goliath, 2009): Othello for 2 to 4 players, the test bed of best-reply search.

Rules (as Schadd & Winands, "Best Reply Search for Multiplayer Games", IEEE TCIAIG 3(1), 2011, describe
them): an 8x8 board whose four centre squares start with a ball of each colour, d4 Red, e4 Yellow, d5 Blue,
e5 Green, whatever the number of players (colours nobody plays stay on the board as anyone's enemy). Seats
play in the order Red, Yellow, Green, Blue (two players: Red and Yellow; three: Red, Yellow, Green). A move
places a ball of the mover's colour. If the mover can capture, it must: a capture flanks an unbroken line
of other colours' balls between the new ball and the nearest ball of the mover's colour in that direction
(horizontal, vertical, diagonal), and every such line turns to the mover's colour. A player who cannot
capture places a ball on any empty square next to a ball (in any of the eight directions). There is no
pass; the game ends when the board is full (60 moves). Returns: the seats with the most balls share a win
(+1 split between them), the others share -1 (each at 0 when all tie); two players: +1 / -1 / 0.

State: `(boards, mover)`: one bitboard per colour (bit `8 * (rank - 1) + file`, a1 = bit 0), the seat to
move. Move: the square's index; notation `d3`. Text: the ranks from 8 down to 1 separated by `/`, `.` for
empty and R, Y, G, B, then the mover's colour in lower case: the start is
`......../......../......../...BG.../...RY.../......../......../........ r`.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from framework.boardsvg import Cell, grid
from framework.errors import ConfigError, MoveParseError, PositionError, quoted
from framework.hookspecs import hookimpl
from framework.kernel import api, numba_backend
from framework.params import Param
from framework.protocols import BaseHeuristic
from framework.specs import GameSpec, HeuristicSpec
from plugins.games import rolit_kernel

State = tuple[tuple[int, int, int, int], int]

COLOURS = ("Red", "Yellow", "Green", "Blue")
LETTERS = "RYGB"
FULL = (1 << 64) - 1
FILE_A = 0x0101010101010101
FILE_H = FILE_A << 7
#: (shift, mask after shifting): E, W, N, S, NE, NW, SE, SW; the masks stop a line wrapping round a file.
DIRECTIONS = ((1, FULL & ~FILE_A), (-1, FULL & ~FILE_H), (8, FULL), (-8, FULL),
              (9, FULL & ~FILE_A), (7, FULL & ~FILE_H), (-7, FULL & ~FILE_A), (-9, FULL & ~FILE_H))
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
#: The rules and heuristics as a kernel (rolit_kernel.py), for compiled searches.
KERNEL = numba_backend.Kernel(rolit_kernel, bitboards=rolit_kernel.BITBOARDS)


def shift(bits: int, step: int, mask: int) -> int:
    return ((bits << step) if step > 0 else (bits >> -step)) & mask


def captures(own: int, enemy: int, empty: int) -> int:
    """The empty squares where a ball of `own`'s colour captures (Kogge-Stone-free fill, 6 steps a line)."""
    moves = 0
    for step, mask in DIRECTIONS:
        line = shift(own, step, mask) & enemy
        for _ in range(5):
            line |= shift(line, step, mask) & enemy
        moves |= shift(line, step, mask) & empty
    return moves


def neighbours(occupied: int) -> int:
    """The squares next to a ball."""
    near = 0
    for step, mask in DIRECTIONS:
        near |= shift(occupied, step, mask)
    return near


def flips(square: int, own: int, enemy: int) -> int:
    """The balls a ball placed on `square` turns: every enemy line ending at an own ball."""
    turned, bit = 0, 1 << square
    for step, mask in DIRECTIONS:
        line, x = 0, shift(bit, step, mask)
        while x & enemy:
            line |= x
            x = shift(x, step, mask)
        if x & own:
            turned |= line
    return turned


def move_bits(boards: tuple[int, ...], colour: int) -> int:
    """The squares the colour may play: its captures, else every empty square next to a ball."""
    occupied = boards[0] | boards[1] | boards[2] | boards[3]
    empty = FULL & ~occupied
    own = boards[colour]
    found = captures(own, occupied & ~own, empty)
    return found if found else neighbours(occupied) & empty


def squares(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def name(square: int) -> str:
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


class Rolit:
    """Rolit: place a ball, capture if you can (else next to any ball); the most balls on the full board wins."""

    name = "rolit"
    default_heuristic = "discs"

    def __init__(self, players: int = 4) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ConfigError(f"game 'rolit': 'players' must be 2, 3 or 4, got {quoted(players)}")
        self.num_players = players
        self.player_names = COLOURS[:players]
        #: The compiled rules, for compiled searches (see framework.kernel.api.GameKernel).
        self.kernel = api.GameKernel("rolit", KERNEL, functools.partial(rolit_kernel.kernel_state, players=players),
                                     heuristics=KERNEL, scores=TWO_SEAT_SCORES if players == 2 else None,
                                     key_shifts=rolit_kernel.KEY_SHIFTS, move_space=rolit_kernel.MOVE_SPACE,
                                     seat_scores={DiscsHeuristic: "discs", CornersHeuristic: "corners"})

    def initial_state(self) -> State:
        d4, e4, d5, e5 = 27, 28, 35, 36
        return ((1 << d4, 1 << e4, 1 << e5, 1 << d5), 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def is_terminal(self, state: State) -> bool:
        boards = state[0]
        return (boards[0] | boards[1] | boards[2] | boards[3]) == FULL

    def hash_key(self, state: State) -> int:
        """Exact: the occupied squares, those of yellow or blue, those of green or blue and the mover packed
        into one int (the kernel's `search_key` packed at its KEY_SHIFTS, so compiled tables hash alike)."""
        red, yellow, green, blue = state[0]
        return (red | yellow | green | blue | (yellow | blue) << 64 | (green | blue) << 128
                | state[1] << 192)

    def legal_moves(self, state: State) -> list[int]:
        boards, mover = state
        return squares(move_bits(boards, mover))

    def apply(self, state: State, move: int) -> State:
        boards, mover = state
        own = boards[mover]
        occupied = boards[0] | boards[1] | boards[2] | boards[3]
        turned = flips(move, own, occupied & ~own)
        keep = ~turned
        new = tuple((b | turned | (1 << move)) if c == mover else (b & keep) for c, b in enumerate(boards))
        return (new, (mover + 1) % self.num_players)  # type: ignore[return-value]

    def counts(self, state: State) -> tuple[int, ...]:
        """Each seat's balls."""
        return tuple(state[0][seat].bit_count() for seat in range(self.num_players))

    def returns(self, state: State) -> tuple[float, ...]:
        n = self.num_players
        if not self.is_terminal(state):
            return (0.0,) * n
        counts = self.counts(state)
        leaders = [seat for seat in range(n) if counts[seat] == max(counts)]
        if len(leaders) == n:
            return (0.0,) * n
        share, rest = 1.0 / len(leaders), -1.0 / (n - len(leaders))
        return tuple(share if seat in leaders else rest for seat in range(n))

    def format_move(self, state: State, move: int) -> str:
        return name(move)

    def parse_move(self, state: State, text: str) -> int:
        word = text.strip().lower()
        found = re.fullmatch(r"([a-h])([1-8])", word)
        legal = self.legal_moves(state)
        if found is not None:
            square = "abcdefgh".index(found[1]) + 8 * (int(found[2]) - 1)
            if square in legal:
                return square
        raise MoveParseError(f"'{text}' is not a legal Rolit move here; legal moves: "
                             f"{' '.join(name(m) for m in legal) or 'none (the board is full)'}")

    def _grid(self, state: State) -> list[str]:
        boards = state[0]
        return ["".join(next((LETTERS[c] for c in range(4) if boards[c] >> (8 * r + f) & 1), ".")
                        for f in range(8)) for r in range(7, -1, -1)]

    def render(self, state: State) -> str:
        rows = [f"{8 - i} {' '.join(row)}" for i, row in enumerate(self._grid(state))]
        rows.append("  a b c d e f g h")
        counts = "  ".join(f"{self.player_names[s]} {c}" for s, c in enumerate(self.counts(state)))
        rows.append(counts + ("" if self.is_terminal(state) else f"; {self.player_names[state[1]]} to move"))
        return "\n".join(rows)

    def to_text(self, state: State) -> str:
        return "/".join(self._grid(state)) + " " + LETTERS[state[1]].lower()

    def from_text(self, text: str) -> State:
        found = re.fullmatch(r"([.RYGB]{8}(?:/[.RYGB]{8}){7}) ([rygb])", text.strip())
        if found is None:
            raise PositionError(f"'{text}' is not a Rolit position; expected eight ranks from 8 down of '.', R, Y, "
                                "G, B separated by '/', then the mover's colour (r, y, g or b)")
        mover = LETTERS.lower().index(found[2])
        if mover >= self.num_players:
            raise PositionError(f"'{text}' has {COLOURS[mover]} to move, but this game has {self.num_players} "
                                f"players ({', '.join(self.player_names)}); start it with the option players=4")
        boards = [0, 0, 0, 0]
        for i, row in enumerate(found[1].split("/")):
            for f, cell in enumerate(row):
                if cell != ".":
                    boards[LETTERS.index(cell)] |= 1 << (8 * (7 - i) + f)
        if not any(boards):
            raise PositionError(f"'{text}' has no ball: a Rolit position starts from the four centre balls")
        return (tuple(boards), mover)  # type: ignore[return-value]

    def pass_to(self, state: State, seat: int) -> State:
        """The same board with `seat` to move (best-reply search skips seats this way)."""
        return (state[0], seat)

    def render_svg(self, state: State, flipped: bool = False) -> str:
        """Rank 8 at the top, every ball in its colour (a colour nobody plays stays on the board), every square
        clickable by name (the legal ones lighter), and each colour's count beside the board, the mover marked."""
        boards, mover = state
        legal = move_bits(boards, mover)
        rows = [[Cell(name(sq), piece=next((c for c in range(4) if boards[c] >> sq & 1), None),
                      tags="legal" if legal >> sq & 1 else "")
                 for f in range(8) for sq in [8 * r + f]] for r in range(7, -1, -1)]
        counts = [board.bit_count() for board in boards]
        over = self.is_terminal(state)
        side = "".join(
            f'<g class="seat{" mover" if seat == mover and not over else ""}">'
            f'<circle class="piece piece-{seat}" cx="34" cy="{34 + 44 * seat}" r="14"/>'
            f'<text class="name" x="56" y="{40 + 44 * seat}">{"▶ " if seat == mover and not over else ""}'
            f'{COLOURS[seat]} {counts[seat]}{"" if seat < self.num_players else " (nobody)"}</text></g>'
            for seat in range(4))
        return grid(rows, flipped=flipped, files="abcdefgh", ranks=tuple("87654321"), title="rolit", theme="rolit",
                    side=side, side_width=190)

    def move_clicks(self, state: State, move: int) -> tuple[str, ...]:
        return (name(move),)


class DiscsHeuristic(BaseHeuristic):
    """Discs: the player's balls minus the players' mean, times 1000 / 64 (zero-sum over the seats)."""

    name = "discs"
    game: Any    # a Rolit

    def evaluate(self, state: Any, player: int) -> float:
        counts = self.game.counts(state)
        return 1000.0 / 64 * (counts[player] - sum(counts) / len(counts))


class CornersHeuristic(BaseHeuristic):
    """Corners: balls plus 10 per corner held (corners never turn), minus the players' mean, times 1000 / 100."""

    name = "corners"
    game: Any    # a Rolit

    def evaluate(self, state: Any, player: int) -> float:
        boards = state[0]
        worth = [boards[s].bit_count() + 10 * (boards[s] & CORNERS).bit_count() for s in range(self.game.num_players)]
        return 10.0 * (worth[player] - sum(worth) / len(worth))


#: The heuristics' functions for the first seat (`GameKernel.scores`), the second's being their negation: for
#: two players only (alpha-beta's and the proof-number family's Rolit), as more seats are not one score negated.
TWO_SEAT_SCORES = {DiscsHeuristic: "discs_score", CornersHeuristic: "corners_score"}


@hookimpl
def plyground_games() -> list[GameSpec]:
    return [GameSpec("rolit", Rolit, "Othello for 2-4 players: capture if you can, else play next to a ball", (
        Param("players", int, 4, "the number of players (2-4)", minimum=2, maximum=4),))]


@hookimpl
def plyground_heuristics() -> list[HeuristicSpec]:
    return [HeuristicSpec(h.name, "rolit", h, (h.__doc__ or "").splitlines()[0])
            for h in (DiscsHeuristic, CornersHeuristic)]
