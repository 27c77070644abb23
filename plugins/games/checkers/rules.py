"""English checkers rules as plain functions over integer bitboards and ints.

The board uses the "ghost square" layout of 32-square draughts bitboards (described in
Jonathan Kreuzer's and Martin Fierz's bitboard notes): square s (1-32, Black's side
first) sits at bit `i + i // 8` with `i = s - 1`, leaving bits 8, 17 and 26 unused. Every
diagonal step is then a shift by 4 or 5 (towards square 32 for Black, towards square 1
for White); a step off the board lands on a ghost bit or beyond bit 34, which `VALID`
removes, so the whole side moves with two shifts and no per-row masks.

State: `(black, white, kings, mover, quiet)` — the bitboards of Black's and White's
pieces, the kings among them, the side to move (0 Black, 1 White) and the number of plies
since the last capture or man move (the draw counter, so the draw rule is a function of
the state).

Move: one int, `from | jumps << 6 | directions << 10` — the bit index the piece starts on,
the number of pieces it jumps (0 for a step) and two bits per step or jump naming its
direction (`DELTA[d]`, d = 0..3). A capture path is thus spelled out, so distinct paths are
distinct moves; `notation` turns a move into `11-15` / `15x24x31` and back.

Rules (American/English, as played by ACF and EDA): men step and capture diagonally
forward; kings one square in any diagonal direction; capturing is compulsory but any
capture sequence may be chosen; a sequence continues until the piece cannot jump again;
a man reaching the far row is crowned and the move ends. Jumped pieces stay on the board
until the move ends and cannot be jumped twice; a jumping piece never lands on a jumped
square (landing and jumped squares lie on different rows mod 2), so removing them at once
is equivalent.

The functions use only ints, flat int tuples and lists of ints, and build no bitboard from
an int literal (bitboards come from the tables and `NO_SQUARES`), so `framework.kernel` can
compile them unchanged.
"""

from __future__ import annotations

State = tuple[int, int, int, int, int]
Move = int

BLACK, WHITE = 0, 1
N_BITS = 45                      # bit indices a shift can reach (34 + 2 * 5 + 1)
DELTA = (4, 5, -4, -5)           # bit-index change of a diagonal step, by direction
JUMP_ONE = 1 << 6                # one more jump in a move's jump count
DIRECTIONS_AT = 10               # first bit of a move's direction codes
NO_LIMIT = 1 << 62               # a quiet-ply limit that is never reached
MAX_QUIET_MOVES = 1000           # the largest `quiet_moves` option (the laws say 40); the counter never needs more
MAX_QUIET_PLIES = 2 * MAX_QUIET_MOVES


def _bit_index(square: int) -> int:
    i = square - 1
    return i + i // 8


SQUARES = tuple(range(1, 33))
#: BIT_SQUARE[i] is the square at bit index i (0 for a ghost or off-board bit).
BIT_SQUARE = tuple(next((s for s in SQUARES if _bit_index(s) == i), 0) for i in range(N_BITS))
#: BIT[i] is the bitboard of bit index i when it is a square, else 0 (so off-board steps match nothing).
BIT = tuple(1 << i if BIT_SQUARE[i] else 0 for i in range(N_BITS))
#: SQUARE_BIT[s] is the bitboard of square s (index 0 unused).
SQUARE_BIT = (0,) + tuple(1 << _bit_index(s) for s in SQUARES)
NO_SQUARES = 0
VALID = sum(SQUARE_BIT)
ROWS = tuple(sum(SQUARE_BIT[s] for s in range(4 * r + 1, 4 * r + 5)) for r in range(8))
BLACK_CROWN = ROWS[7]   # squares 29-32: Black's men crown here
WHITE_CROWN = ROWS[0]   # squares 1-4: White's men crown here
BLACK_START = sum(SQUARE_BIT[s] for s in range(1, 13))
WHITE_START = sum(SQUARE_BIT[s] for s in range(21, 33))


def _jump_bits(d: int, i: int, step: int) -> int:
    """The bitboard `step` diagonal steps from bit index i in direction d, 0 if off the board on the way."""
    for k in range(1, step + 1):
        j = i + k * DELTA[d]
        if not (BIT_SQUARE[i] and 0 <= j < N_BITS and BIT_SQUARE[j]):
            return 0
    return 1 << (i + step * DELTA[d])


#: JUMP_MID[d * N_BITS + i] / JUMP_LAND[...]: the jumped and landing square of a jump from bit i in
#: direction d (both 0 when the jump leaves the board).
JUMP_LAND = tuple(_jump_bits(d, i, 2) for d in range(4) for i in range(N_BITS))
JUMP_MID = tuple(_jump_bits(d, i, 1) if JUMP_LAND[d * N_BITS + i] else 0 for d in range(4) for i in range(N_BITS))

INITIAL: State = (BLACK_START, WHITE_START, NO_SQUARES, BLACK, 0)


def _jump_paths(index: int, opp: int, empty: int, first: int, last: int, crown: int, move: int,
                out: list) -> int:
    """Append to `out` every complete capture continuing `move` from bit `index`; return how many.

    Directions `first` to `last - 1` are the piece's; `crown` is the far row for a man (a man
    crowned by a jump stops there) and empty for a king.
    """
    found = 0
    shift = DIRECTIONS_AT + 2 * (move >> 6 & 15)
    for d in range(first, last):
        t = d * N_BITS + index
        mid = JUMP_MID[t]
        land = JUMP_LAND[t]
        if mid & opp and land & empty:
            longer = (move + JUMP_ONE) | d << shift
            if land & crown:
                out.append(longer)
                found += 1
            else:
                n = _jump_paths(index + 2 * DELTA[d], opp ^ mid, empty, first, last, crown, longer, out)
                if n == 0:
                    out.append(longer)
                    n = 1
                found += n
    return found


def _captures(men: int, kings: int, opp: int, empty: int, mover: int, out: list) -> int:
    """Append every capture of the mover's `men` and `kings` to `out`; return how many."""
    pieces = men | kings
    if mover == BLACK:
        origins = (((pieces << 4 & opp) << 4 & empty) >> 8) | (((pieces << 5 & opp) << 5 & empty) >> 10)
        origins |= (((kings >> 4 & opp) >> 4 & empty) << 8) | (((kings >> 5 & opp) >> 5 & empty) << 10)
        first, crown = 0, BLACK_CROWN
    else:
        origins = (((pieces >> 4 & opp) >> 4 & empty) << 8) | (((pieces >> 5 & opp) >> 5 & empty) << 10)
        origins |= (((kings << 4 & opp) << 4 & empty) >> 8) | (((kings << 5 & opp) << 5 & empty) >> 10)
        first, crown = 2, WHITE_CROWN
    found = 0
    while origins:
        low = origins & -origins
        origins ^= low
        index = low.bit_length() - 1
        if low & kings:
            found += _jump_paths(index, opp, empty | low, 0, 4, NO_SQUARES, index, out)
        else:
            found += _jump_paths(index, opp, empty | low, first, first + 2, crown, index, out)
    return found


def _append_steps(targets: int, d: int, out: list) -> None:
    """Append the steps in direction d that land on `targets`."""
    code = d << DIRECTIONS_AT
    while targets:
        low = targets & -targets
        targets ^= low
        out.append((low.bit_length() - 1 - DELTA[d]) | code)


def generate_moves(black: int, white: int, kings: int, mover: int) -> list[int]:
    """Every legal move of the side to move, ignoring draw rules: captures if any, else steps."""
    empty = VALID & ~(black | white)
    if mover == BLACK:
        own, opp = black, white
    else:
        own, opp = white, black
    own_kings = own & kings
    moves = [0]
    moves.pop()  # an empty list of ints, typed for the compiled path
    if _captures(own & ~kings, own_kings, opp, empty, mover, moves):
        return moves
    if mover == BLACK:
        _append_steps(own << 4 & empty, 0, moves)
        _append_steps(own << 5 & empty, 1, moves)
        _append_steps(own_kings >> 4 & empty, 2, moves)
        _append_steps(own_kings >> 5 & empty, 3, moves)
    else:
        _append_steps(own >> 4 & empty, 2, moves)
        _append_steps(own >> 5 & empty, 3, moves)
        _append_steps(own_kings << 4 & empty, 0, moves)
        _append_steps(own_kings << 5 & empty, 1, moves)
    return moves


# --8<-- [start:bitboard-function]
def step_targets(own: int, own_kings: int, empty: int, mover: int) -> int:
    """How many steps the side has, by population counts (one per target bit and direction)."""
    if mover == BLACK:
        fwd4, fwd5, back4, back5 = own << 4, own << 5, own_kings >> 4, own_kings >> 5
    else:
        fwd4, fwd5, back4, back5 = own >> 4, own >> 5, own_kings << 4, own_kings << 5
    return ((fwd4 & empty).bit_count() + (fwd5 & empty).bit_count()
            + (back4 & empty).bit_count() + (back5 & empty).bit_count())
# --8<-- [end:bitboard-function]


def jumper_count(own: int, own_kings: int, opp: int, empty: int, mover: int) -> int:
    """How many (piece, direction) first jumps the side has: 0 exactly when it has no capture."""
    if mover == BLACK:
        n = ((own << 4 & opp) << 4 & empty).bit_count() + ((own << 5 & opp) << 5 & empty).bit_count()
        if own_kings:
            n += ((own_kings >> 4 & opp) >> 4 & empty).bit_count() + ((own_kings >> 5 & opp) >> 5 & empty).bit_count()
    else:
        n = ((own >> 4 & opp) >> 4 & empty).bit_count() + ((own >> 5 & opp) >> 5 & empty).bit_count()
        if own_kings:
            n += ((own_kings << 4 & opp) << 4 & empty).bit_count() + ((own_kings << 5 & opp) << 5 & empty).bit_count()
    return n


def _men_jumps_continue(men: int, opp: int, empty: int, mover: int) -> bool:
    """Whether any first jump of these men (no kings) could be followed by a second one.

    A man jumps forward only, so the piece it jumped lies behind it and cannot matter; a man
    landing on the far row is crowned and stops.
    """
    if mover == BLACK:
        land = (((men << 4 & opp) << 4) | ((men << 5 & opp) << 5)) & empty & ~BLACK_CROWN
        return ((land << 4 & opp) << 4 | (land << 5 & opp) << 5) & empty != NO_SQUARES
    land = (((men >> 4 & opp) >> 4) | ((men >> 5 & opp) >> 5)) & empty & ~WHITE_CROWN
    return ((land >> 4 & opp) >> 4 | (land >> 5 & opp) >> 5) & empty != NO_SQUARES


def count_moves(black: int, white: int, kings: int, mover: int) -> int:
    """`len(generate_moves(...))` without building the steps: perft's bulk count of the last ply.

    Steps are counted by population counts; so are captures when only men capture and none
    can jump twice (each first jump is then a whole move); otherwise the paths are enumerated.
    """
    empty = VALID & ~(black | white)
    if mover == BLACK:
        own, opp = black, white
    else:
        own, opp = white, black
    own_kings = own & kings
    jumps = jumper_count(own, own_kings, opp, empty, mover)
    if jumps:
        if not own_kings and not _men_jumps_continue(own, opp, empty, mover):
            return jumps
        moves = [0]
        moves.pop()
        return _captures(own & ~kings, own_kings, opp, empty, mover, moves)
    return step_targets(own, own_kings, empty, mover)


def has_moves(black: int, white: int, kings: int, mover: int) -> bool:
    """Whether the side to move has any legal move (ignoring draw rules)."""
    empty = VALID & ~(black | white)
    if mover == BLACK:
        own, opp = black, white
    else:
        own, opp = white, black
    own_kings = own & kings
    return step_targets(own, own_kings, empty, mover) + jumper_count(own, own_kings, opp, empty, mover) > 0


def legal_moves(state: State) -> list[int]:
    """The moves of a state that is not over (the quiet-move draw is `outcome`'s business)."""
    return generate_moves(state[0], state[1], state[2], state[3])


def to_move(state: State) -> int:
    return state[3]


def outcome(state: State, player: int, quiet_limit: int) -> int:
    """The state from `player`'s side in the codes compiled searches use (`framework.kernel`):
    1 won, -1 lost, 0 drawn, 2 not over. No legal move loses, even on the drawing quiet ply."""
    if not has_moves(state[0], state[1], state[2], state[3]):
        return -1 if player == state[3] else 1
    return 0 if state[4] >= quiet_limit else 2


def player_return(state: State, player: int) -> float:
    """`player`'s return at a state that is over (the searches of dice and seats score ends by it): no legal
    move loses, else the game ended by its draw rule."""
    if not has_moves(state[0], state[1], state[2], state[3]):
        return -1.0 if player == state[3] else 1.0
    return 0.0


def pass_to(state: State, seat: int) -> State:
    """The state with `seat` to move and nothing else changed (the game's `pass_to` capability)."""
    return state[0], state[1], state[2], seat, state[4]


# --8<-- [start:search-key]
def search_key(state: State) -> tuple[int, int, int, int]:
    """What tells positions apart for searches (tables, repetitions): the state without its draw counter."""
    return state[0], state[1], state[2], state[3]
# --8<-- [end:search-key]


def jumps(move: int) -> int:
    """How many pieces `move` jumps (0 for a step)."""
    return move >> 6 & 15


def is_capture(state: State, move: int) -> bool:
    """Whether `move` captures: the game's noisy moves (same signature as every game's `is_capture`)."""
    return jumps(move) != 0


def move_rank(state: State, move: int) -> int:
    """The move's place in the game's move hints, lower first (ties keep generation order): the longest
    captures, then steps that crown, then king steps, then man steps."""
    n = jumps(move)
    if n:
        return -n
    start = move & 63
    if state[2] & BIT[start]:
        return 2
    crown = BLACK_CROWN if state[3] == BLACK else WHITE_CROWN
    return 1 if BIT[start + DELTA[move >> DIRECTIONS_AT & 3]] & crown else 3


def apply_move(state: State, move: int) -> State:
    """The state after `move` (assumed legal: the fast path; parse_move is the checked one)."""
    black, white, kings, mover, quiet = state
    index = move & 63
    frm = BIT[index]
    jumps = move >> 6 & 15
    captured = NO_SQUARES
    if jumps == 0:
        index += DELTA[move >> DIRECTIONS_AT & 3]
    else:
        shift = DIRECTIONS_AT
        for _ in range(jumps):
            delta = DELTA[move >> shift & 3]
            captured |= BIT[index + delta]
            index += 2 * delta
            shift += 2
    to = BIT[index]
    if kings & frm:
        kings = (kings & ~frm & ~captured) | to
        quiet = 0 if jumps else quiet + 1
    else:
        kings &= ~captured
        quiet = 0
        if to & (BLACK_CROWN if mover == BLACK else WHITE_CROWN):
            kings |= to
    if mover == BLACK:
        return ((black & ~frm) | to, white & ~captured, kings, WHITE, quiet)
    return (black & ~captured, (white & ~frm) | to, kings, BLACK, quiet)


def perft(state: State, depth: int, quiet_limit: int) -> int:
    """Move paths of exactly `depth` plies, the last ply counted in bulk (perft, Edwards 1995).

    A state whose quiet counter reached `quiet_limit` (NO_LIMIT: never) is a drawn end and
    has no moves.
    """
    black, white, kings, mover, quiet = state
    if quiet >= quiet_limit:
        return 1 if depth == 0 else 0
    if depth <= 1:
        return 1 if depth == 0 else count_moves(black, white, kings, mover)
    total = 0
    for move in generate_moves(black, white, kings, mover):
        total += perft(apply_move(state, move), depth - 1, quiet_limit)
    return total
