"""Lines of Action rules on 64-bit bitboards: move generation, moves, connection, outcome.

Rules as played at the ICGA Computer Olympiad (described in Winands, "Informed Search in
Complex Games", PhD thesis, Universiteit Maastricht 2004): a piece moves in a straight line
exactly as many squares as there are pieces of either colour on that whole line; it may
jump its own pieces but not the opponent's, and captures by landing on an opponent piece.
A player whose pieces form one 8-connected group wins.

Squares are numbered 0-63, a1 = 0, h1 = 7, a8 = 56 (rank * 8 + file); bit i of a
bitboard is square i. A move is the int `from * 64 + to`; `PASS` is the move of a player
who has none. Everything here is a plain function over ints and flat tuples of ints, so
the same code can be compiled later (numba) instead of rewritten.
"""

from __future__ import annotations

FULL = (1 << 64) - 1
FILE_A = 0x0101010101010101
FILE_H = FILE_A << 7
NOT_FILE_A = FULL ^ FILE_A
NOT_FILE_H = FULL ^ FILE_H

#: The move of a player without a legal move (from == to never occurs in a real move).
PASS = 64 * 64

#: Outcome codes of `winner`: the winning player, DRAW, or ONGOING.
BLACK, WHITE, DRAW, ONGOING = 0, 1, 2, -1

#: Directions (rank step, file step); direction d and d + 4 are opposite and share line d % 4
#: (0 file, 1 rank, 2 a1-h8 diagonal, 3 a8-h1 diagonal).
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1), (-1, 0), (0, -1), (-1, -1), (-1, 1))

#: SQUARE_BIT[s] is the bit of square s (a table, so compiled code builds bitboards as uint64).
SQUARE_BIT = tuple(1 << s for s in range(64))

#: Longest possible move plus one: a line holds at most 8 pieces.
STRIDE = 9


def _ray(square: int, direction: int) -> tuple[int, ...]:
    """The squares from `square` (exclusive) to the board edge in `direction`."""
    dr, df = DIRECTIONS[direction]
    r, f = divmod(square, 8)
    out = []
    r, f = r + dr, f + df
    while 0 <= r < 8 and 0 <= f < 8:
        out.append(r * 8 + f)
        r, f = r + dr, f + df
    return tuple(out)


def _bits(squares) -> int:
    mask = 0
    for s in squares:
        mask |= 1 << s
    return mask


def _tables() -> tuple[tuple, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The precomputed tables of `generate_moves`.

    LINES[s]: for each of the 4 lines through s, (the whole line as a mask, the table index
    (s*8+k)*STRIDE of direction k along it); direction k + 4, the opposite one, is 4*STRIDE
    further on. At index (s*8+d)*STRIDE+n, for a move of n squares in direction d: MOVE is
    the move int, TARGET_BIT the landing square's bit (0 off the board), BETWEEN the squares
    strictly between (they must hold no enemy piece).
    """
    lines, move, target_bit, between = [], [], [], []
    for s in range(64):
        lines.append(tuple((1 << s | _bits(_ray(s, k)) | _bits(_ray(s, k + 4)), (s * 8 + k) * STRIDE)
                           for k in range(4)))
        for d in range(8):
            ray = _ray(s, d)
            for n in range(STRIDE):
                on_board = 1 <= n <= len(ray)
                move.append(s * 64 + ray[n - 1] if on_board else -1)
                target_bit.append(1 << ray[n - 1] if on_board else 0)
                between.append(_bits(ray[:n - 1]) if on_board else 0)
    return tuple(lines), tuple(move), tuple(target_bit), tuple(between)


LINES, MOVE, TARGET_BIT, BETWEEN = _tables()
OPPOSITE = 4 * STRIDE


def generate_moves(own: int, enemy: int) -> list[int]:
    """All moves of the side owning `own` (captures included), as `from * 64 + to` ints.

    Per piece and line: count the line's pieces (a popcount), then look up the landing square
    and the squares jumped in each direction. Profiled: iterating a per-square tuple of lines
    beat unrolled code and index arithmetic by a quarter.
    """
    occupied = own | enemy
    moves = []
    pieces = own
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        for line, base in LINES[low.bit_length() - 1]:
            i = base + (occupied & line).bit_count()
            bit = TARGET_BIT[i]
            if bit and not bit & own and not BETWEEN[i] & enemy:
                moves.append(MOVE[i])
            i += OPPOSITE
            bit = TARGET_BIT[i]
            if bit and not bit & own and not BETWEEN[i] & enemy:
                moves.append(MOVE[i])
    return moves


def is_connected(pieces: int) -> bool:
    """True when the pieces form one 8-connected group (one piece or none counts as one).

    Flood fill from the lowest piece by repeated 8-neighbour dilation, masked to `pieces`
    (the file masks stop a shift from wrapping round the board edge). Measured on positions
    from random and near-final play: 0.5 us per call, and testing the quad Euler number first
    (`heuristics.euler_number` > 1 proves two groups) made it slower (0.8 us), so it is not done.
    """
    group = pieces & -pieces
    if group == pieces:
        return True
    while True:
        grown = group | group << 8 | group >> 8
        grown = (grown | (grown & NOT_FILE_H) << 1 | (grown & NOT_FILE_A) >> 1) & pieces
        if grown == group:
            return group == pieces
        group = grown


def winner(black: int, white: int, mover: int, simultaneous_win: int) -> int:
    """BLACK or WHITE when that side is connected, DRAW, or ONGOING.

    `mover` is the side to move, so the side that just moved is `1 - mover`; when a move
    connects both sides at once it wins if `simultaneous_win`, otherwise the game is drawn.
    """
    black_done = is_connected(black)
    white_done = is_connected(white)
    if black_done:
        if white_done:
            return 1 - mover if simultaneous_win else DRAW
        return BLACK
    return WHITE if white_done else ONGOING


def outcome(state: tuple[int, int, int], player: int, simultaneous_win: int) -> int:
    """The state from `player`'s side in the codes compiled searches use (`framework.kernel`):
    1 won, -1 lost, 0 drawn, 2 not over."""
    result = winner(state[0], state[1], state[2], simultaneous_win)
    if result == ONGOING:
        return 2
    if result == DRAW:
        return 0
    return 1 if result == player else -1


def to_move(state: tuple[int, int, int]) -> int:
    """The side to move (0 Black, 1 White)."""
    return state[2]


def pass_to(state: tuple[int, int, int], seat: int) -> tuple[int, int, int]:
    """The state with `seat` to move and nothing else changed (`framework.kernel.api.pass_to`): the kernel's
    only, which the n-seat searches' module imports (max^n and paranoid never call it). The game offers no
    `pass_to` capability (a LOA player cannot pass by choice), so best-reply search does not play LOA."""
    return state[0], state[1], seat


def search_key(state: tuple[int, int, int]) -> tuple[int, int, int]:
    """What tells positions apart for searches (tables, repetitions): the whole state."""
    return state


def is_over(black: int, white: int) -> bool:
    """True when either side is connected: the game has ended (who won is `winner`'s business)."""
    return is_connected(black) or is_connected(white)


def legal_moves(state: tuple[int, int, int]) -> list[int]:
    """Moves of the side to move in `state = (black, white, mover)`: none once the game is over,
    `[PASS]` for a side that cannot move."""
    black, white, mover = state
    if is_connected(black) or is_connected(white):
        return generate_moves(0, 0)  # no pieces, no moves: an empty list of a type compiled code can infer
    moves = generate_moves(white, black) if mover else generate_moves(black, white)
    return moves if moves else [PASS]


#: `move_count` and `random_move` pay compiled only (46 table lookups a position compiled beat building the
#: list; as Python the loop is slower than `len` of the list): interpreted searches take the kernel
#: interface's defaults over `legal_moves` in their place (`framework.kernel.api`, "Compiled only").
COMPILED_ONLY = ("move_count", "random_move")


def move_count(state: tuple[int, int, int]) -> int:
    """`len(legal_moves(state))` without the list (`framework.kernel.api.move_count`: a proof-number search's
    mobility), the moves counted line by line (`count_moves`)."""
    black, white, mover = state
    if is_connected(black) or is_connected(white):
        return 0
    n = count_moves(white, black) if mover else count_moves(black, white)
    return n if n else 1


def random_move(state: tuple[int, int, int], draw: int) -> int:
    """`legal_moves(state)[draw * n >> 32]` of a state that is not over (n its moves, `draw` below 2**32),
    without the list: n counted line by line (`count_moves`), then the moves generated in their order up to
    the one drawn, from whichever end of the list is nearer. A random playout's move
    (`framework.kernel.api.random_move`): compiled, 106 ns a playout position against 416 ns to build the
    list (benchmarks/loa_playout.py); from the first move only and branching on each test, 187 ns."""
    black, white, mover = state
    own, enemy = (white, black) if mover else (black, white)
    n = count_moves(own, enemy)
    if not n:
        return PASS
    skip = (draw * n) >> 32
    if 2 * skip < n:
        return _nth_move(own, enemy, skip)
    return _nth_last_move(own, enemy, n - 1 - skip)


def _nth_move(own: int, enemy: int, skip: int) -> int:
    """`generate_moves(own, enemy)[skip]`, generated up to it (`skip` below the number of moves). Each move
    tested counts without a branch (a branch per test mispredicts often: measured a third slower)."""
    occupied = own | enemy
    pieces = own
    while True:
        low = pieces & -pieces
        pieces ^= low
        for line, base in LINES[low.bit_length() - 1]:
            i = base + (occupied & line).bit_count()
            for j in (i, i + OPPOSITE):
                bit = TARGET_BIT[j]
                skip -= (bit != 0) & (bit & own == 0) & (BETWEEN[j] & enemy == 0)
                if skip < 0:
                    return MOVE[j]


def _nth_last_move(own: int, enemy: int, skip: int) -> int:
    """`generate_moves(own, enemy)[-1 - skip]`, generated backwards down to it (`_nth_move` mirrored)."""
    occupied = own | enemy
    pieces = own
    while True:
        square = pieces.bit_length() - 1
        pieces ^= SQUARE_BIT[square]
        for line, base in LINES[square][::-1]:
            i = base + (occupied & line).bit_count()
            for j in (i + OPPOSITE, i):
                bit = TARGET_BIT[j]
                skip -= (bit != 0) & (bit & own == 0) & (BETWEEN[j] & enemy == 0)
                if skip < 0:
                    return MOVE[j]


def apply_move(state: tuple[int, int, int], move: int) -> tuple[int, int, int]:
    """The state after `move` (unchecked: the fast path for search), with the other side to move."""
    black, white, mover = state
    if move == PASS:
        return black, white, 1 - mover
    to = SQUARE_BIT[move & 63]
    if mover:
        return black & ~to, white ^ SQUARE_BIT[move >> 6] ^ to, 0
    return black ^ SQUARE_BIT[move >> 6] ^ to, white & ~to, 1


def is_capture(state: tuple[int, int, int], move: int) -> bool:
    """True when `move` lands on an enemy piece."""
    enemy = state[0] if state[2] else state[1]
    return move != PASS and bool(enemy >> (move & 63) & 1)


def move_rank(state: tuple[int, int, int], move: int) -> int:
    """The move's place in the game's move hints, lower first (ties keep generation order): captures, then the rest."""
    return 0 if is_capture(state, move) else 1


def _line_tables() -> tuple[tuple, ...]:
    """Tables of the 46 lines (8 ranks, 8 files, 15 diagonals each way) for counting moves per line.

    A line's pieces are gathered into a compact pattern (bit i = the line's i-th square) by
    `((x & mask) >> shift) * multiplier >> 56 & width`: a rank is shifted down to bit 0 and
    then to the top byte; a diagonal, shifted so it starts on the a-file, times the a-file
    collects one bit per file in the top byte, and a file, shifted to the a-file, times the
    long diagonal does the same rank by rank, with no carries since every partial product is a distinct power of
    two (the "kindergarten bitboard" trick, Chess Programming Wiki). Every product bit read
    lies below bit 64, so 64-bit (compiled) arithmetic gives the same patterns. MOVE_COUNT[base + (own
    pattern << length | enemy pattern)] is the number of moves the owner has along the line,
    CAPTURE_COUNT at the same index how many of them capture.
    AFFECTED[move] are the 7 lines through the move's two squares.
    """
    squares = [[r * 8 + f for f in range(8)] for r in range(8)] + [[r * 8 + f for r in range(8)] for f in range(8)]
    squares += [[r * 8 + r + d for r in range(8) if 0 <= r + d < 8] for d in range(-7, 8)]
    squares += [[r * 8 + a - r for r in range(8) if 0 <= a - r < 8] for a in range(15)]
    mask, multiplier, shift, width, length, base = [], [], [], [], [], []
    for line in squares:
        mask.append(_bits(line))
        if len({s // 8 for s in line}) == 1:
            multiplier.append(1 << 56)
            shift.append(line[0])
        elif len({s % 8 for s in line}) == 1:
            multiplier.append(0x8040201008040201)
            shift.append(line[0] % 8)
        else:
            multiplier.append(FILE_A)
            shift.append(min(s % 8 for s in line))
        width.append((1 << len(line)) - 1)
        length.append(len(line))
        base.append(sum(1 << 2 * n for n in range(len(line))))
    counts, captures = [], []
    for n in range(9):
        block = [0] * (1 << 2 * n)
        taking = [0] * (1 << 2 * n)
        jumped = [[(1 << max(i, j)) - (1 << min(i, j) + 1) for j in range(n)] for i in range(n)]  # strictly between
        for own in range(1 << n):
            pieces = [i for i in range(n) if own >> i & 1]
            free = ((1 << n) - 1) ^ own
            enemy = free
            while True:  # every enemy pattern on the squares `own` leaves free, down to none: 3^n pairs, not 4^n
                total = (own | enemy).bit_count()
                index = own << n | enemy
                for i in pieces:
                    for j in (i + total, i - total):
                        if 0 <= j < n and not own >> j & 1 and not enemy & jumped[i][j]:
                            block[index] += 1
                            taking[index] += enemy >> j & 1
                if not enemy:
                    break
                enemy = (enemy - 1) & free
        counts += block
        captures += taking
    lines_of = [frozenset(i for i, line in enumerate(squares) if s in line) for s in range(64)]
    affected = []
    for frm in range(64):
        for to in range(64):
            through = lines_of[frm] | lines_of[to]  # not on one line (or from == to): never a move
            affected.append(tuple(sorted(through)) if len(through) == 7 else (min(through),) * 7)
    return (tuple(mask), tuple(multiplier), tuple(shift), tuple(width), tuple(length), tuple(base),
            tuple(counts), tuple(captures), tuple(affected))


(LINE_MASK, LINE_MULTIPLIER, LINE_SHIFT, LINE_WIDTH, LINE_LENGTH, LINE_BASE, MOVE_COUNT, CAPTURE_COUNT,
 AFFECTED) = _line_tables()
N_LINES = 46
#: Per line, the six figures above as one tuple: one lookup instead of six in the hottest loop.
LINE = tuple(zip(LINE_MASK, LINE_MULTIPLIER, LINE_SHIFT, LINE_WIDTH, LINE_LENGTH, LINE_BASE))


def line_moves(line: int, own: int, enemy: int) -> int:
    """The number of moves the owner of `own` has along `line` (a table lookup on its pattern)."""
    mask, multiplier, shift, width = LINE_MASK[line], LINE_MULTIPLIER[line], LINE_SHIFT[line], LINE_WIDTH[line]
    return MOVE_COUNT[LINE_BASE[line] + ((((own & mask) >> shift) * multiplier >> 56 & width) << LINE_LENGTH[line]
                                         | (((enemy & mask) >> shift) * multiplier >> 56 & width))]


def count_moves(own: int, enemy: int) -> int:
    """`len(generate_moves(own, enemy))`, summed line by line from MOVE_COUNT (one lookup a line): compiled,
    42 ns a playout position against 404 ns to generate the list."""
    total = 0
    for mask, multiplier, shift, width, length, base in LINE:
        total += MOVE_COUNT[base + ((((own & mask) >> shift) * multiplier >> 56 & width) << length
                                    | (((enemy & mask) >> shift) * multiplier >> 56 & width))]
    return total


def perft(own: int, enemy: int, depth: int) -> int:
    """Move paths of `depth` >= 1 plies from a position that is not over, `own` to move.

    Terminal children end their paths; a side without moves passes (one path). The last two
    plies are counted by `_perft2`.
    """
    if depth == 1:
        return len(generate_moves(own, enemy)) or 1
    if depth == 2:
        return _perft2(own, enemy)
    moves = generate_moves(own, enemy)
    if not moves:
        return perft(enemy, own, depth - 1)
    total = 0
    for m in moves:
        after, remaining, over = _play_on(own, enemy, m)
        if not over:
            total += perft(remaining, after, depth - 1)
    return total


def _play_on(own: int, enemy: int, move: int) -> tuple[int, int, bool]:
    """(own, enemy) after `move` and whether it ends the game; the enemy's connection is tested
    only after a capture (a quiet move cannot connect a side that was not connected)."""
    to = SQUARE_BIT[move & 63]
    after = own ^ SQUARE_BIT[move >> 6] ^ to
    remaining = enemy & ~to
    return after, remaining, is_connected(after) or (remaining != enemy and is_connected(remaining))


def _perft2(own: int, enemy: int) -> int:
    """Perft(2) by counting the replies incrementally, line by line.

    The enemy's moves along a line depend only on that line's contents, and a move changes
    just the 7 lines through its two squares; so the enemy's reply count after each move is
    its count here, corrected on those 7 lines. Measured 3x faster than generating the replies.
    """
    moves = generate_moves(own, enemy)
    if not moves:
        return len(generate_moves(enemy, own)) or 1
    here = [line_moves(line, enemy, own) for line in range(N_LINES)]
    everywhere = sum(here)
    total = 0
    for m in moves:
        after, remaining, over = _play_on(own, enemy, m)
        if over:
            continue
        replies = everywhere
        for line in AFFECTED[m]:  # line_moves inlined: the call cost a quarter of the time
            mask, multiplier, shift, width, length, base = LINE[line]
            replies += MOVE_COUNT[base + ((((remaining & mask) >> shift) * multiplier >> 56 & width) << length
                                          | (((after & mask) >> shift) * multiplier >> 56 & width))] - here[line]
        total += replies or 1
    return total
