"""English checkers rules as plain functions over integer bitboards and tuples.

The board uses the "ghost square" layout of 32-square draughts bitboards (described in
Jonathan Kreuzer's and Martin Fierz's bitboard notes): square s (1-32, Black's side
first) sits at bit `i + i // 8` with `i = s - 1`, leaving bits 8, 17 and 26 unused. Every
diagonal step is then a shift by 4 or 5 (towards square 32 for Black, towards square 1
for White); a step off the board lands on a ghost bit or beyond bit 34, which `VALID`
removes, so the whole side moves with two shifts and no per-row masks.

State: `(black, white, kings, mover, quiet)` — the bitboards of Black's and White's
pieces, the kings among them, the side to move (0 Black, 1 White) and the number of plies
since the last capture or man move (the draw counter, so the draw rule is a function of
the state). Moves are tuples of square numbers: `(11, 15)` for a step, `(15, 24, 31)` for
a capture with every landing square, so distinct capture paths are distinct moves.

Rules (American/English, as played by ACF and EDA): men step and capture diagonally
forward; kings one square in any diagonal direction; capturing is compulsory but any
capture sequence may be chosen; a sequence continues until the piece cannot jump again;
a man reaching the far row is crowned and the move ends. Jumped pieces stay on the board
until the move ends and cannot be jumped twice; a jumping piece never lands on a jumped
square (landing and jumped squares lie on different rows mod 2), so removing them at once
is equivalent.
"""

from __future__ import annotations

State = tuple[int, int, int, int, int]
Move = tuple[int, ...]

BLACK, WHITE = 0, 1


def _bit_index(square: int) -> int:
    i = square - 1
    return i + i // 8


SQUARES = tuple(range(1, 33))
#: SQUARE_BIT[s] is the bit of square s (index 0 unused).
SQUARE_BIT = (0,) + tuple(1 << _bit_index(s) for s in SQUARES)
#: BIT_SQUARE[i] is the square at bit index i (0 for a ghost bit), for i up to 44.
BIT_SQUARE = tuple(next((s for s in SQUARES if _bit_index(s) == i), 0) for i in range(45))
VALID = sum(SQUARE_BIT)
ROWS = tuple(sum(SQUARE_BIT[s] for s in range(4 * r + 1, 4 * r + 5)) for r in range(8))
BLACK_CROWN = ROWS[7]   # squares 29-32: Black's men crown here
WHITE_CROWN = ROWS[0]   # squares 1-4: White's men crown here
BLACK_START = sum(SQUARE_BIT[s] for s in range(1, 13))
WHITE_START = sum(SQUARE_BIT[s] for s in range(21, 33))


def _jump_table(shifts: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each bit index: the jumps `(jumped bit, landing bit, landing index)` along `shifts`."""
    table = []
    for i in range(45):
        jumps = []
        if BIT_SQUARE[i]:
            for d in shifts:
                mid, land = i + d, i + 2 * d
                if 0 <= land < 45 and BIT_SQUARE[mid] and BIT_SQUARE[land]:
                    jumps.append((1 << mid, 1 << land, land))
        table.append(tuple(jumps))
    return tuple(table)


DOWN_JUMPS = _jump_table((4, 5))          # Black men: towards square 32
UP_JUMPS = _jump_table((-4, -5))          # White men: towards square 1
KING_JUMPS = _jump_table((4, 5, -4, -5))

#: STEP_FROM[d][i]: the step move landing on bit i that came from bit i - d (d in 4, 5, -4, -5),
#: built once so generating a step allocates nothing.
_STEP = {d: tuple((BIT_SQUARE[i - d], BIT_SQUARE[i]) if BIT_SQUARE[i] and 0 <= i - d < 45 and BIT_SQUARE[i - d]
                  else None for i in range(45)) for d in (4, 5, -4, -5)}
STEP_DOWN4, STEP_DOWN5, STEP_UP4, STEP_UP5 = _STEP[4], _STEP[5], _STEP[-4], _STEP[-5]

#: JUMPED[a][b]: the bit of the square jumped when going from square a to square b (0 for a step).
JUMPED = tuple(tuple(0 for _ in range(33)) if a == 0 else
               tuple(next((mid for mid, land, _ in KING_JUMPS[_bit_index(a)] if land == SQUARE_BIT[b]), 0)
                     if b else 0 for b in range(33))
               for a in range(33))

INITIAL: State = (BLACK_START, WHITE_START, 0, BLACK, 0)


def _jump_paths(index: int, opp: int, empty: int, table: tuple, crown: int, path: Move, out: list) -> None:
    """Append to `out` every complete capture path continuing `path` from bit `index`.

    `crown` is the far row for a man (a man crowned by a jump stops there) and 0 for a king.
    """
    for mid, land, land_index in table[index]:
        if mid & opp and land & empty:
            longer = path + (BIT_SQUARE[land_index],)
            if land & crown:
                out.append(longer)
                continue
            before = len(out)
            _jump_paths(land_index, opp ^ mid, empty, table, crown, longer, out)
            if len(out) == before:
                out.append(longer)


def _captures(men: int, kings: int, opp: int, empty: int, mover: int) -> list:
    """All capture paths of the mover's `men` and `kings` (empty list when there are none)."""
    out: list = []
    pieces = men | kings
    if mover == BLACK:
        origins = (((pieces << 4 & opp) << 4 & empty) >> 8) | (((pieces << 5 & opp) << 5 & empty) >> 10)
        origins |= (((kings >> 4 & opp) >> 4 & empty) << 8) | (((kings >> 5 & opp) >> 5 & empty) << 10)
        man_table, crown = DOWN_JUMPS, BLACK_CROWN
    else:
        origins = (((pieces >> 4 & opp) >> 4 & empty) << 8) | (((pieces >> 5 & opp) >> 5 & empty) << 10)
        origins |= (((kings << 4 & opp) << 4 & empty) >> 8) | (((kings << 5 & opp) << 5 & empty) >> 10)
        man_table, crown = UP_JUMPS, WHITE_CROWN
    while origins:
        low = origins & -origins
        origins ^= low
        index = low.bit_length() - 1
        if low & kings:
            _jump_paths(index, opp, empty | low, KING_JUMPS, 0, (BIT_SQUARE[index],), out)
        else:
            _jump_paths(index, opp, empty | low, man_table, crown, (BIT_SQUARE[index],), out)
    return out


def _append_steps(targets: int, steps: tuple, out: list) -> None:
    while targets:
        low = targets & -targets
        targets ^= low
        out.append(steps[low.bit_length() - 1])


def generate_moves(black: int, white: int, kings: int, mover: int) -> list:
    """Every legal move of the side to move, ignoring draw rules: captures if any, else steps."""
    empty = VALID & ~(black | white)
    if mover == BLACK:
        own, opp = black, white
    else:
        own, opp = white, black
    own_kings = own & kings
    moves = _captures(own & ~kings, own_kings, opp, empty, mover)
    if moves:
        return moves
    if mover == BLACK:
        _append_steps(own << 4 & empty, STEP_DOWN4, moves)
        _append_steps(own << 5 & empty, STEP_DOWN5, moves)
        _append_steps(own_kings >> 4 & empty, STEP_UP4, moves)
        _append_steps(own_kings >> 5 & empty, STEP_UP5, moves)
    else:
        _append_steps(own >> 4 & empty, STEP_UP4, moves)
        _append_steps(own >> 5 & empty, STEP_UP5, moves)
        _append_steps(own_kings << 4 & empty, STEP_DOWN4, moves)
        _append_steps(own_kings << 5 & empty, STEP_DOWN5, moves)
    return moves


def step_targets(own: int, own_kings: int, empty: int, mover: int) -> int:
    """How many steps the side has, by population counts (one per target bit and direction)."""
    if mover == BLACK:
        fwd4, fwd5, back4, back5 = own << 4, own << 5, own_kings >> 4, own_kings >> 5
    else:
        fwd4, fwd5, back4, back5 = own >> 4, own >> 5, own_kings << 4, own_kings << 5
    return ((fwd4 & empty).bit_count() + (fwd5 & empty).bit_count()
            + (back4 & empty).bit_count() + (back5 & empty).bit_count())


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
        return bool(((land << 4 & opp) << 4 | (land << 5 & opp) << 5) & empty)
    land = (((men >> 4 & opp) >> 4) | ((men >> 5 & opp) >> 5)) & empty & ~WHITE_CROWN
    return bool(((land >> 4 & opp) >> 4 | (land >> 5 & opp) >> 5) & empty)


def count_moves(black: int, white: int, kings: int, mover: int) -> int:
    """`len(generate_moves(...))` without building the moves: perft's bulk count of the last ply.

    Steps are counted by population counts; so are captures when only men capture and none
    can jump twice (each first jump is then a whole move); otherwise the paths are enumerated.
    """
    empty = VALID & ~(black | white)
    own, opp = (black, white) if mover == BLACK else (white, black)
    own_kings = own & kings
    jumps = jumper_count(own, own_kings, opp, empty, mover)
    if jumps:
        if not own_kings and not _men_jumps_continue(own, opp, empty, mover):
            return jumps
        return len(_captures(own & ~kings, own_kings, opp, empty, mover))
    return step_targets(own, own_kings, empty, mover)


def has_moves(black: int, white: int, kings: int, mover: int) -> bool:
    """Whether the side to move has any legal move (ignoring draw rules)."""
    empty = VALID & ~(black | white)
    own, opp = (black, white) if mover == BLACK else (white, black)
    own_kings = own & kings
    return bool(step_targets(own, own_kings, empty, mover) or jumper_count(own, own_kings, opp, empty, mover))


def apply_move(state: State, move: Move) -> State:
    """The state after `move` (assumed legal: the fast path; parse_move is the checked one)."""
    black, white, kings, mover, quiet = state
    start = move[0]
    frm = SQUARE_BIT[start]
    to = SQUARE_BIT[move[-1]]
    captured = 0
    for square in move[1:]:
        captured |= JUMPED[start][square]
        start = square
    if kings & frm:
        kings = (kings & ~frm & ~captured) | to
        quiet = 0 if captured else quiet + 1
    else:
        kings &= ~captured
        quiet = 0
        if to & (BLACK_CROWN if mover == BLACK else WHITE_CROWN):
            kings |= to
    if mover == BLACK:
        return ((black & ~frm) | to, white & ~captured, kings, WHITE, quiet)
    return (black & ~captured, (white & ~frm) | to, kings, BLACK, quiet)


def perft(state: State, depth: int, quiet_limit: int | None) -> int:
    """Move paths of exactly `depth` plies, the last ply counted in bulk (perft, Edwards 1995).

    A state whose quiet counter reached `quiet_limit` is a drawn end and has no moves.
    """
    black, white, kings, mover, quiet = state
    if quiet_limit is not None and quiet >= quiet_limit:
        return 1 if depth == 0 else 0
    if depth <= 1:
        return 1 if depth == 0 else count_moves(black, white, kings, mover)
    total = 0
    for move in generate_moves(black, white, kings, mover):
        total += perft(apply_move(state, move), depth - 1, quiet_limit)
    return total
