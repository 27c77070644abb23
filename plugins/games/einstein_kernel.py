"""EinStein würfelt nicht!'s rules and heuristics as a kernel (framework/kernel/api.py): plain functions over
ints that `framework.kernel` runs as they are (interpreted) or compiles with numba, so that expectiminimax,
max^n and paranoid run compiled on EinStein.

The rules are `einstein.py`'s restated over a packed board: four bits a cell (0 empty, 1-6 Red's cubes,
7-12 Blue's, as `einstein.State`'s cells), cells 0-12 in the first word and 13-24 in the second, so a state
is four ints: `(low, high, player, die)` (`die` 0 at a chance node). Moves: a die's face 1-6 at a chance node,
else `FIRST_STEP + 32 * from + to` (`move_id` / `move_of` turn the game's `(from, to)` into it and back). The
tests check every count against `einstein.EinStein`: perft, random playouts and the searches' nodes and values.
"""

from __future__ import annotations

from typing import Any

from framework.kernel.api import CHANCE, LOSS, ONGOING, WIN, draw_index

SIZE = 5
CELLS = 25
FACES = 6
LOW_CELLS = 13
#: A cube's move id: FIRST_STEP + 32 * from + to (above every face of the die).
FIRST_STEP = 32
#: Bit 0 of each cell's nibble in the first word (cells 0-12) and the second (13-24).
LOW_ONES = sum(1 << 4 * at for at in range(LOW_CELLS))
HIGH_ONES = sum(1 << 4 * at for at in range(CELLS - LOW_CELLS))
#: Each player's goal corner (einstein.TARGET).
TARGET = (CELLS - 1, 0)
#: STEP_CELLS[player][cell]: the cells a cube of `player` on `cell` can move to, in einstein.STEPS' order, -1 padded.
STEP_CELLS = tuple(tuple(tuple([(r + dr) * SIZE + c + dc for dr, dc in steps
                                if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE] + [-1, -1, -1])[:3]
                         for r, c in (divmod(cell, SIZE) for cell in range(CELLS)))
                   for steps in (((0, 1), (1, 0), (1, 1)), ((0, -1), (-1, 0), (-1, -1))))


def cell(state, at: int) -> int:
    """The piece on cell `at` (0 empty, 1-6 Red's cubes, 7-12 Blue's)."""
    if at < LOW_CELLS:
        return state[0] >> 4 * at & 15
    return state[1] >> 4 * (at - LOW_CELLS) & 15


def with_cell(low: int, high: int, at: int, piece: int) -> tuple[int, int]:
    """The two words with cell `at` holding `piece`."""
    if at < LOW_CELLS:
        shift = 4 * at
        return (low & ~(15 << shift)) | piece << shift, high
    shift = 4 * (at - LOW_CELLS)
    return low, (high & ~(15 << shift)) | piece << shift


def nonzero_cells(word: int, ones: int) -> int:
    """Bit 0 of each nibble of `word` that is not zero (`ones`: bit 0 of each of its nibbles), all at once."""
    return (word | word >> 1 | word >> 2 | word >> 3) & ones


def has_cubes(word: int, ones: int) -> tuple[bool, bool]:
    """Whether the cells of a word hold a Red cube (1-6) and a Blue one (7-12): a nibble plus one reaches 8 (its
    bit 3) exactly when it is Blue's (no carry: 13 at most)."""
    blue = (word + ones) >> 3 & ones
    return nonzero_cells(word, ones) & ~blue != 0, blue != 0


def winner(state) -> int:
    """The player who has won (0 Red, 1 Blue), or -1 (einstein.winner)."""
    red_low, blue_low = has_cubes(state[0], LOW_ONES)
    red_high, blue_high = has_cubes(state[1], HIGH_ONES)
    red, blue = red_low or red_high, blue_low or blue_high
    corner = cell(state, TARGET[0])
    if (corner and corner <= FACES) or not blue:
        return 0
    if cell(state, TARGET[1]) > FACES or not red:
        return 1
    return -1


def to_move(state) -> int:
    if state[3] == 0 and winner(state) < 0:
        return CHANCE
    return state[2]


def cube_cell(state, piece: int) -> int:
    """The cell holding `piece` (1-12), or -1: the nibbles equal to it are those the XOR with it leaves zero."""
    for word, ones, first in ((state[0], LOW_ONES, 0), (state[1], HIGH_ONES, LOW_CELLS)):
        equal = ones & ~nonzero_cells(word ^ piece * ones, ones)
        if equal:
            return first + (equal.bit_length() - 1) // 4     # one cube of each number: one nibble at most
    return -1


def movable_cells(state) -> tuple[int, int]:
    """The cells of the cubes the roll lets the mover move (einstein.movable): the cube rolled, else the nearest
    lower then the nearest higher; -1 for none."""
    die, base = state[3], FACES * state[2]
    rolled = cube_cell(state, base + die)
    if rolled >= 0:
        return rolled, -1
    lower_cell = higher_cell = -1
    for number in range(die - 1, 0, -1):
        lower_cell = cube_cell(state, base + number)
        if lower_cell >= 0:
            break
    for number in range(die + 1, FACES + 1):
        higher_cell = cube_cell(state, base + number)
        if higher_cell >= 0:
            break
    return lower_cell, higher_cell


def legal_moves(state):
    moves = [0]
    moves.pop()  # an empty list of ints, typed for the compiled path
    if state[3] == 0:
        for face in range(1, FACES + 1):
            moves.append(face)
        return moves
    first, second = movable_cells(state)
    for start in (first, second):
        if start >= 0:
            for k in range(3):
                to = STEP_CELLS[state[2]][start][k]
                if to >= 0:
                    moves.append(FIRST_STEP + 32 * start + to)
    return moves


def apply_move(state, move: int):
    if state[3] == 0:
        return (state[0], state[1], state[2], move)
    start, to = (move - FIRST_STEP) >> 5, (move - FIRST_STEP) & 31
    low, high = with_cell(state[0], state[1], to, cell(state, start))
    low, high = with_cell(low, high, start, 0)
    return (low, high, 1 - state[2], 0)


def outcome(state, player: int, option: int) -> int:
    won = winner(state)
    return ONGOING if won < 0 else WIN if won == player else LOSS


def player_return(state, player: int) -> float:
    """+1 to the winner, -1 to the loser: the outcome's code (WIN, LOSS) as a float."""
    return float(outcome(state, player, 0))


def chance_probability(state, outcome: int) -> float:
    return 1.0 / FACES


def random_outcome(state, draw: int) -> int:
    """The face a uniform 32-bit `draw` rolls: the api's default's for every draw, without its list."""
    return 1 + draw_index(draw, FACES)


def pass_to(state, seat: int):
    """The same position with `seat` to move (the searches of seats are compiled with it)."""
    return (state[0], state[1], seat, state[3])


def distance(at: int, player: int) -> int:
    """Moves a cube on `at` needs to reach `player`'s goal corner at best."""
    r, c = divmod(at, SIZE)
    tr, tc = divmod(TARGET[player], SIZE)
    return max(abs(r - tr), abs(c - tc))


def chances(present: int, number: int) -> int:
    """On how many faces of the die the cube `number` may move, `present` having bit n for each cube n."""
    count = 0
    for face in range(1, FACES + 1):
        if face == number:
            count += 1
        elif not present >> face & 1:
            low, high = min(face, number), max(face, number)
            if not present & ((1 << high) - 1) & ~((1 << (low + 1)) - 1):
                count += 1
    return count


def progress_of(state, player: int) -> float:
    base, present = FACES * player, 0
    for at in range(CELLS):
        number = cell(state, at) - base
        if 1 <= number <= FACES:
            present |= 1 << number
    total = 0.0
    for at in range(CELLS):
        number = cell(state, at) - base
        if 1 <= number <= FACES:
            total += chances(present, number) / FACES * (SIZE - 1 - distance(at, player))
    return total


def progress(state, player: int, weights) -> float:
    """`einstein.ProgressHeuristic` for either seat."""
    return 100.0 * (progress_of(state, player) - progress_of(state, 1 - player))


def lead(state, player: int, weights) -> float:
    """`einstein.LeadHeuristic` for either seat."""
    count = [0, 0]
    nearest = [SIZE, SIZE]
    for at in range(CELLS):
        piece = cell(state, at)
        if piece:
            side = 1 if piece > FACES else 0
            count[side] += 1
            nearest[side] = min(nearest[side], distance(at, side))
    return 10.0 * (count[player] - count[1 - player]) + 100.0 * (nearest[1 - player] - nearest[player])


def kernel_state(state: tuple[tuple[int, ...], int, int]) -> tuple[int, int, int, int]:
    """An `einstein.State` as the kernel takes it."""
    cells = state[0]
    low = sum(piece << 4 * at for at, piece in enumerate(cells[:LOW_CELLS]))
    high = sum(piece << 4 * at for at, piece in enumerate(cells[LOW_CELLS:]))
    return (low, high, state[1], state[2])


def move_id(move: Any) -> int:
    """A game move (a face, or `(from, to)`) as the kernel's int."""
    return move if isinstance(move, int) else FIRST_STEP + 32 * move[0] + move[1]


def move_of(move: int) -> Any:
    """A kernel move as the game's."""
    return move if move < FIRST_STEP else ((move - FIRST_STEP) >> 5, (move - FIRST_STEP) & 31)
