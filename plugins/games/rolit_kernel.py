"""Rolit's rules and heuristics as a kernel (framework/kernel/api.py): plain functions over ints that
`framework.kernel` runs as they are (interpreted) or compiles with numba, so that max^n, paranoid and
best-reply search run compiled on Rolit.

The rules are `rolit.py`'s restated for the compiler: a board is read by an if-chain (`board`), not by
indexing the state with a variable (numba cannot index a tuple of mixed types so), a direction's shift is
written with its constant (a uint64 shifted by a variable int64 types as a float under numba) and a single
bit comes from SQUARE_BIT (never `1 << s`, an int64 whose right shift sign-extends). The tests check
every count against `rolit.Rolit`: perft, random playouts and the searches' nodes and values.

State: `(red, yellow, green, blue, seats)`, the four colour bitboards as in `rolit.State`, then the seat to
move and the number of players in one word (`mover | players << 2`): five int64 compiled (what alpha-beta's
table compares, `search.STATE_WORDS`), each board kept as its 64 bits' int64 pattern (`as_int64`) and read
as a uint64 (`board`). One type throughout: a state a compiled search returns to Python
and passes back is the type its recursion takes (a second type would compile a second specialisation, one
numba cannot load from its cache, SEARCH_DESIGN.md). Moves: the square's index, as the game's.
"""

from __future__ import annotations

from framework.kernel.api import DRAW, LOSS, ONGOING, WIN, as_int64, as_uint64

FULL = (1 << 64) - 1
NOT_FILE_A = FULL & ~0x0101010101010101
NOT_FILE_H = FULL & ~(0x0101010101010101 << 7)
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
SQUARE_BIT = tuple(1 << square for square in range(64))
NO_SQUARES = 0
#: The tables and constants compiled code reads as uint64.
BITBOARDS = ("FULL", "NOT_FILE_A", "NOT_FILE_H", "CORNERS", "SQUARE_BIT", "NO_SQUARES")
#: `Rolit.hash_key` packs `search_key`'s words (occupied, yellow or blue, green or blue, mover) at these bits.
KEY_SHIFTS = (0, 64, 128, 192)
#: Every move (a square) is below this.
MOVE_SPACE = 64


def shifted(bits, d: int):
    """`bits` one step in direction d (E, W, N, S, NE, NW, SE, SW: `rolit.DIRECTIONS`' order), off-board dropped."""
    if d == 0:
        return bits << 1 & NOT_FILE_A
    if d == 1:
        return bits >> 1 & NOT_FILE_H
    if d == 2:
        return bits << 8 & FULL
    if d == 3:
        return bits >> 8
    if d == 4:
        return bits << 9 & NOT_FILE_A
    if d == 5:
        return bits << 7 & NOT_FILE_H
    if d == 6:
        return bits >> 7 & NOT_FILE_A
    return bits >> 9 & NOT_FILE_H


def board(state, colour: int):
    """The bitboard of `colour` (a uint64 compiled; interpreted, masked to 64 bits from its int64 pattern)."""
    return as_uint64(state[colour]) & FULL


def mover(state) -> int:
    return state[4] & 3


def players(state) -> int:
    return state[4] >> 2


def occupied_bits(state):
    return board(state, 0) | board(state, 1) | board(state, 2) | board(state, 3)


def move_bits(state):
    """The squares the mover may play: its captures, else every empty square next to a ball."""
    occupied = occupied_bits(state)
    empty = FULL & ~occupied
    own = board(state, mover(state))
    enemy = occupied & ~own
    found = NO_SQUARES
    near = NO_SQUARES
    for d in range(8):
        line = shifted(own, d) & enemy
        for _ in range(5):
            line |= shifted(line, d) & enemy
        found |= shifted(line, d) & empty
        near |= shifted(occupied, d)
    return found if found else near & empty


def legal_moves(state):
    bits = move_bits(state)
    moves = [0]
    moves.pop()  # an empty list of ints, typed for the compiled path
    while bits:
        low = bits & -bits
        bits ^= low
        moves.append(low.bit_length() - 1)
    return moves


def flips(square: int, own, enemy):
    """The balls a ball placed on `square` turns: every enemy line ending at an own ball."""
    turned = NO_SQUARES
    for d in range(8):
        line = NO_SQUARES
        x = shifted(SQUARE_BIT[square], d)
        while x & enemy:
            line |= x
            x = shifted(x, d)
        if x & own:
            turned |= line
    return turned


def recoloured(state, colour: int, mover: int, placed, turned) -> int:
    """The board of `colour` after the mover placed `placed` and turned `turned`, as its int64 pattern."""
    bits = board(state, colour)
    return as_int64(bits | placed if colour == mover else bits & ~turned)


def apply_move(state, move: int):
    seat = mover(state)
    own = board(state, seat)
    turned = flips(move, own, occupied_bits(state) & ~own)
    placed = turned | SQUARE_BIT[move]
    return (recoloured(state, 0, seat, placed, turned), recoloured(state, 1, seat, placed, turned),
            recoloured(state, 2, seat, placed, turned), recoloured(state, 3, seat, placed, turned),
            (seat + 1) % players(state) | state[4] & ~3)


def to_move(state) -> int:
    return mover(state)


def pass_to(state, seat: int):
    return (state[0], state[1], state[2], state[3], seat | state[4] & ~3)


def search_key(state):
    """Exact (`Rolit.hash_key` packs it, KEY_SHIFTS): the occupied squares, those whose colour index has bit 0
    set (yellow, blue), those whose index has bit 1 set (green, blue), and the mover; the boards are disjoint,
    so each colour's follows from the three."""
    yellow, green, blue = board(state, 1), board(state, 2), board(state, 3)
    return (occupied_bits(state), yellow | blue, green | blue, mover(state))


def is_capture(state, move: int) -> bool:
    """Never: Rolit has no noisy moves (the game offers no `is_noisy`)."""
    return False


def move_rank(state, move: int) -> int:
    """The move's place in `legal_moves` (the game offers no hints: its moves in square order)."""
    return (move_bits(state) & (SQUARE_BIT[move] - SQUARE_BIT[0])).bit_count()   # the squares below `move`


def chance_probability(state, outcome: int) -> float:
    """Never called: Rolit has no dice (the searches of dice and seats are compiled with it)."""
    return 0.0


def player_return(state, player: int) -> float:
    """`Rolit.returns` for one seat of a full board: the leaders share +1, the others -1, all tied 0."""
    n = players(state)
    best, leaders = -1, 0
    for seat in range(n):
        count = board(state, seat).bit_count()
        if count > best:
            best, leaders = count, 1
        elif count == best:
            leaders += 1
    if leaders == n:
        return 0.0
    if board(state, player).bit_count() == best:
        return 1.0 / leaders
    return -1.0 / (n - leaders)


def outcome(state, player: int, option: int) -> int:
    if occupied_bits(state) != FULL:
        return ONGOING
    value = player_return(state, player)
    return WIN if value > 0 else LOSS if value < 0 else DRAW


def discs(state, player: int, weights) -> float:
    """`rolit.DiscsHeuristic` for any seat."""
    n = players(state)
    total = 0
    for seat in range(n):
        total += board(state, seat).bit_count()
    return 1000.0 / 64 * (board(state, player).bit_count() - total / n)


def corners(state, player: int, weights) -> float:
    """`rolit.CornersHeuristic` for any seat."""
    n = players(state)
    total = 0
    for seat in range(n):
        bits = board(state, seat)
        total += bits.bit_count() + 10 * (bits & CORNERS).bit_count()
    bits = board(state, player)
    return 10.0 * (bits.bit_count() + 10 * (bits & CORNERS).bit_count() - total / n)


def discs_score(state, weights) -> float:
    """`rolit.DiscsHeuristic` for the first seat (alpha-beta's `score`; zero-sum, so the second's negated)."""
    return discs(state, 0, weights)


def corners_score(state, weights) -> float:
    """`rolit.CornersHeuristic` for the first seat."""
    return corners(state, 0, weights)


def kernel_state(state: tuple[tuple[int, int, int, int], int], players: int) -> tuple[int, ...]:
    """A `rolit.State` as the kernel takes it: the bitboards as their int64 patterns, the mover and the number
    of players in one word."""
    return (*(bits - (1 << 64) if bits >> 63 else bits for bits in state[0]), state[1] | players << 2)
