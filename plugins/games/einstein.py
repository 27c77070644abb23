"""EinStein würfelt nicht! (Ingo Althöfer, 2004), a Computer Olympiad dice game on a 5x5 board.

Rules: Red and Blue each have six cubes numbered 1-6, Red's in the top-left corner triangle, Blue's in the
bottom-right one (this game's setup is fixed, see SETUP; a text position may place them otherwise). A turn
begins with a roll of the die (a chance node). If the mover has the cube of the number rolled, it must move
that cube; otherwise it moves either the cube with the next higher or the next lower number it has. Red
moves one square right, down or diagonally down-right; Blue left, up or diagonally up-left. A cube moving
onto an occupied square removes the cube there, the mover's own or the opponent's. Reaching the opposite
corner (Red e5, Blue a1) or removing all of the opponent's cubes wins. Every move brings a cube nearer its
corner, so games are short and acyclic: the natural home of expectiminimax.

State: `(cells, player, die)`: 25 cells row by row from a1 (0 empty, 1-6 Red's cubes, 7-12 Blue's cubes
1-6), the player to move (0 Red, 1 Blue), and the die (0 while it is to be rolled: a chance node, whose
outcomes are the faces 1-6, each 1/6). Moves: `(from, to)` cell indices; notation `b2c3` (files a-e, ranks
1-5 from Red's side); outcomes: the face's digit. Text: the five ranks from 5 down to 1 separated by `/`,
`.` for empty, `1`-`6` Red's cubes and `A`-`F` Blue's, then `r` or `b` and the die (`?` before the roll),
e.g. the start, `..CBA/...ED/6...F/45.../123.. r?`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from framework.boardsvg import Cell, grid
from framework.boardsvg import die as draw_die
from framework.errors import MoveParseError, PositionError
from framework.hookspecs import hookimpl
from framework.kernel import api, numba_backend
from framework.protocols import CHANCE, BaseHeuristic
from framework.specs import GameSpec, HeuristicSpec, doc_help
from plugins.games import einstein_kernel

State = tuple[tuple[int, ...], int, int]
Move = tuple[int, int]

SIZE = 5
CELLS = SIZE * SIZE
FACES = 6
RED, BLUE = 0, 1
#: Each player's corner: where it starts and what the opponent aims at.
TARGET = (CELLS - 1, 0)
#: Red's cubes 1-6 on a1 b1 c1 a2 b2 a3, Blue's mirrored on e5 d5 c5 e4 d4 e3.
SETUP = {0: 1, 1: 2, 2: 3, 5: 4, 6: 5, 10: 6}
STEPS = (((0, 1), (1, 0), (1, 1)), ((0, -1), (-1, 0), (-1, -1)))
_OUTCOMES = tuple((face, Fraction(1, FACES)) for face in range(1, FACES + 1))
_PIECES = ".123456ABCDEF"
#: The rules and heuristics as a kernel (einstein_kernel.py), for compiled searches.
KERNEL = numba_backend.Kernel(einstein_kernel)


def _step_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """table[player][cell]: the cells a cube of `player` on `cell` can move to."""
    return tuple(tuple(tuple((r + dr) * SIZE + c + dc for dr, dc in STEPS[player]
                             if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)
                       for r, c in (divmod(cell, SIZE) for cell in range(CELLS)))
                 for player in (RED, BLUE))


TARGETS = _step_table()


def owner(piece: int) -> int:
    """The player of a non-empty cell's cube."""
    return RED if piece <= FACES else BLUE


def cube_cells(cells: tuple[int, ...], player: int) -> dict[int, int]:
    """{cube number: cell} of the player's cubes on the board."""
    base = 0 if player == RED else FACES
    return {piece - base: cell for cell, piece in enumerate(cells) if piece and owner(piece) == player}


def movable(cubes: dict[int, int], die: int) -> list[int]:
    """The cube numbers the roll `die` lets the player move: that cube, else the nearest lower and higher."""
    if die in cubes:
        return [die]
    lower = [n for n in cubes if n < die]
    higher = [n for n in cubes if n > die]
    return ([max(lower)] if lower else []) + ([min(higher)] if higher else [])


def winner(cells: tuple[int, ...]) -> int | None:
    """The player who has won on this board, if any."""
    red = cells[TARGET[RED]]
    if (red and owner(red) == RED) or not any(p > FACES for p in cells):
        return RED
    blue = cells[TARGET[BLUE]]
    if (blue and owner(blue) == BLUE) or not any(0 < p <= FACES for p in cells):
        return BLUE
    return None


def square(cell: int) -> str:
    return "abcde"[cell % SIZE] + str(cell // SIZE + 1)


class EinStein:
    """EinStein würfelt nicht!: roll, move the cube rolled (or a neighbour in number), reach the far corner."""

    name = "einstein"
    player_names = ("Red", "Blue")
    default_heuristic = "progress"

    def __init__(self) -> None:
        #: The compiled rules, for compiled searches (see framework.kernel.api.GameKernel).
        self.kernel = api.GameKernel("einstein", KERNEL, einstein_kernel.kernel_state, heuristics=KERNEL,
                                     seat_scores={ProgressHeuristic: "progress", LeadHeuristic: "lead"},
                                     move_id=einstein_kernel.move_id, move=einstein_kernel.move_of)

    def initial_state(self) -> State:
        cells = [0] * CELLS
        for cell, cube in SETUP.items():
            cells[cell] = cube
            cells[CELLS - 1 - cell] = FACES + cube
        return (tuple(cells), RED, 0)

    def to_move(self, state: State) -> int:
        cells, player, die = state
        return CHANCE if die == 0 and winner(cells) is None else player

    def is_terminal(self, state: State) -> bool:
        return winner(state[0]) is not None

    def legal_moves(self, state: State) -> list:
        cells, player, die = state
        if winner(cells) is not None:
            return []
        if die == 0:
            return list(range(1, FACES + 1))
        cubes = cube_cells(cells, player)
        return [(cubes[n], to) for n in movable(cubes, die) for to in TARGETS[player][cubes[n]]]

    def chance_outcomes(self, state: State) -> tuple[tuple[int, Fraction], ...]:
        return _OUTCOMES

    def apply(self, state: State, move) -> State:
        cells, player, die = state
        if die == 0:
            return (cells, player, move)
        start, to = move
        board = list(cells)
        board[to], board[start] = board[start], 0
        return (tuple(board), 1 - player, 0)

    def returns(self, state: State) -> tuple[float, float]:
        won = winner(state[0])
        return (0.0, 0.0) if won is None else (1.0, -1.0) if won == RED else (-1.0, 1.0)

    def format_move(self, state: State, move) -> str:
        return str(move) if state[2] == 0 else square(move[0]) + square(move[1])

    def parse_move(self, state: State, text: str):
        word = text.strip()
        legal = self.legal_moves(state)
        for move in legal:
            if self.format_move(state, move) == word:
                return move
        expected = "a face of the die, 1 to 6" if state[2] == 0 else "FROMTO squares such as b2c3"
        raise MoveParseError(f"'{text}' is not a legal move here ({expected}); legal moves: "
                             f"{' '.join(self.format_move(state, m) for m in legal) or 'none'}")

    def render(self, state: State) -> str:
        cells, player, die = state
        rows = [f"{r + 1} " + " ".join(_PIECES[cells[r * SIZE + c]] for c in range(SIZE))
                for r in range(SIZE - 1, -1, -1)]
        rows.append("  a b c d e")
        won = winner(cells)
        rows.append(f"{self.player_names[won]} wins" if won is not None else
                    f"{self.player_names[player]} " + ("to roll" if die == 0 else f"rolled {die}, to move"))
        return "\n".join(rows)

    def to_text(self, state: State) -> str:
        cells, player, die = state
        ranks = ("".join(_PIECES[cells[r * SIZE + c]] for c in range(SIZE)) for r in range(SIZE - 1, -1, -1))
        return f"{'/'.join(ranks)} {'rb'[player]}{die or '?'}"

    def from_text(self, text: str) -> State:
        found = re.fullmatch(r"([.1-6A-F]{5}(?:/[.1-6A-F]{5}){4}) ([rb])([1-6?])", text.strip())
        if found is None:
            raise PositionError(f"'{text}' is not an EinStein position; expected five ranks of five cells from rank "
                                "5 down ('.', Red's cubes 1-6, Blue's A-F) separated by '/', then r or b and the "
                                "die (? before the roll), e.g. '..CBA/...ED/6...F/45.../123.. r?'")
        ranks = found[1].split("/")
        cells = tuple(_PIECES.index(ranks[SIZE - 1 - r][c]) for r in range(SIZE) for c in range(SIZE))
        pieces = [p for p in cells if p]
        if len(pieces) != len(set(pieces)):
            raise PositionError(f"'{text}' has a cube twice; each player has one cube of each number")
        player, die = "rb".index(found[2]), 0 if found[3] == "?" else int(found[3])
        if winner(cells) is not None and die:
            raise PositionError(f"'{text}' is a finished game: write the die as '?'")
        return (cells, player, die)

    def render_svg(self, state: State, flipped: bool = False) -> str:
        """Rank 5 at the top, the numbered cubes, each side's goal corner marked, the cubes the roll lets move
        outlined, and the die beside the board ("?" before the roll)."""
        cells, player, die_face = state
        won = winner(cells)
        cubes = cube_cells(cells, player)
        movers = {cubes[n] for n in movable(cubes, die_face)} if die_face and won is None else set()
        rows = []
        for r in range(SIZE - 1, -1, -1):
            row = []
            for c in range(SIZE):
                cell = r * SIZE + c
                piece = cells[cell]
                tags = " ".join(t for t, on in (("goal-0", cell == TARGET[RED]), ("goal-1", cell == TARGET[BLUE]),
                                                ("movable", cell in movers)) if on)
                row.append(Cell(square(cell), dark=(r + c) % 2 == 0, piece=owner(piece) if piece else None,
                                crown=str((piece - 1) % FACES + 1) if piece else "", cube=True, tags=tags))
            rows.append(row)
        name = self.player_names[player]
        caption = (f"{self.player_names[won]} wins" if won is not None else
                   f"{name} rolled {die_face}" if die_face else f"{name} to roll")
        side = draw_die(30, 30, die_face or None, caption=caption)
        return grid(rows, flipped=flipped, files="abcde", ranks=tuple("54321"), title="einstein", theme="einstein",
                    side=side, side_width=150)

    def move_clicks(self, state: State, move) -> tuple[str, ...]:
        """The cube's square, then where it goes; a roll is never clicked (chance draws it)."""
        return () if state[2] == 0 else (square(move[0]), square(move[1]))


class ProgressHeuristic(BaseHeuristic):
    """Progress: each cube's closeness to its goal corner weighted by the chance the die lets it move, summed
    for the player minus the opponent, times 100."""

    name = "progress"

    def evaluate(self, state: Any, player: int) -> float:
        cells = state[0]
        return 100.0 * (_progress(cells, player) - _progress(cells, 1 - player))


class LeadHeuristic(BaseHeuristic):
    """Lead: 10 per cube more than the opponent, plus 100 per step the player's most advanced cube
    is nearer its corner than the opponent's."""

    name = "lead"

    def evaluate(self, state: Any, player: int) -> float:
        cells = state[0]
        mine, theirs = cube_cells(cells, player), cube_cells(cells, 1 - player)
        return 10.0 * (len(mine) - len(theirs)) + 100.0 * (_nearest(theirs, 1 - player) - _nearest(mine, player))


def _distance(cell: int, player: int) -> int:
    r, c = divmod(cell, SIZE)
    tr, tc = divmod(TARGET[player], SIZE)
    return max(abs(r - tr), abs(c - tc))


def _nearest(cubes: dict[int, int], player: int) -> int:
    return min((_distance(cell, player) for cell in cubes.values()), default=SIZE)


def _progress(cells: tuple[int, ...], player: int) -> float:
    cubes = cube_cells(cells, player)
    chance = dict.fromkeys(cubes, 0)
    for die in range(1, FACES + 1):
        for n in movable(cubes, die):
            chance[n] += 1
    return sum(chance[n] / FACES * (SIZE - 1 - _distance(cell, player)) for n, cell in cubes.items())


@hookimpl
def plyground_games() -> list[GameSpec]:
    return [GameSpec("einstein", EinStein, "EinStein würfelt nicht!: 5x5, the die picks the cube to move; reach "
                                           "the far corner")]


@hookimpl
def plyground_heuristics() -> list[HeuristicSpec]:
    return [HeuristicSpec(h.name, "einstein", h, doc_help(h))
            for h in (ProgressHeuristic, LeadHeuristic)]
