"""Three Lines of Action evaluations, each a plain function of the state (and weights) scored for Black.

The terms are the classic ones of the LOA literature (concentration, centralisation, quads,
mobility, tempo; see Winands, "Informed Search in Complex Games", PhD thesis, 2004); the weights
are ours, and none of these is any published program's evaluator. Every function returns
a score from Black's point of view; the Heuristic classes negate it for White, so
`evaluate(s, 0) == -evaluate(s, 1)` (zero-sum), far inside WIN_SCORE.
"""

from __future__ import annotations

from framework.protocols import BaseHeuristic
from plugins.games.loa.rules import CAPTURE_COUNT, FILE_A, LINE, MOVE_COUNT, NOT_FILE_A, NOT_FILE_H

RANK_8 = 0xFF << 56
QUAD_ANCHORS = NOT_FILE_H & ~RANK_8          # lower-left squares of the 7x7 inner 2x2 windows
EDGE_PAIRS_H = 0x7F | 0x7F << 56              # a1-g1 and a8-g8: left square of a pair on rank 1 / rank 8
EDGE_PAIRS_V = (FILE_A | FILE_A << 7) & ~RANK_8  # a1-a7 and h1-h7: lower square of a pair on file a / h
CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63


def _chebyshev(a: int, b: int) -> int:
    return max(abs(a // 8 - b // 8), abs(a % 8 - b % 8))


def _weight_bits(weight, bits: int) -> tuple[int, ...]:
    """Masks m_j of the squares whose weight has bit j set, so sum(weight) = sum 2^j popcount(x & m_j)."""
    weights = [weight(s) for s in range(64)]  # once per square, not once per bit: these tables are built at import
    return tuple(sum(1 << s for s, w in enumerate(weights) if w >> j & 1) for j in range(bits))


#: DISTANCE_BITS[c*3+j]: bit j of the Chebyshev distance from square c.
DISTANCE_BITS = tuple(m for c in range(64) for m in _weight_bits(lambda s, c=c: _chebyshev(c, s), 3))
#: Bits of the centralisation weight: 3 on d4-e5, 2 on the ring round them, 1 on the next, 0 on the edge.
CENTRAL_BITS = _weight_bits(lambda s: 3 - (max(abs(2 * (s // 8) - 7), abs(2 * (s % 8) - 7)) - 1) // 2, 2)
#: Bits of the rank and of the file of each square.
RANK_BITS = _weight_bits(lambda s: s // 8, 3)
FILE_BITS = _weight_bits(lambda s: s % 8, 3)
#: MIN_DISTANCE_SUM[n]: the least sum of distances to a centre square n pieces can have (1 + 8 + 16 ... per ring).
MIN_DISTANCE_SUM = (0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14)


def _weighted_sum(pieces: int, masks: tuple[int, ...], i: int) -> int:
    return ((pieces & masks[i]).bit_count() + 2 * (pieces & masks[i + 1]).bit_count()
            + 4 * (pieces & masks[i + 2]).bit_count())


def count_groups(pieces: int) -> int:
    """The number of 8-connected groups, by repeated flood fill (one dilation per step)."""
    groups = 0
    while pieces:
        group = pieces & -pieces
        while True:
            grown = group | group << 8 | group >> 8
            grown = (grown | (grown & NOT_FILE_H) << 1 | (grown & NOT_FILE_A) >> 1) & pieces
            if grown == group:
                break
            group = grown
        pieces ^= group
        groups += 1
    return groups


def euler_number(pieces: int) -> int:
    """Groups minus holes of the pieces under 8-connectivity, from 2x2 quad counts.

    Gray's formula E = (Q1 - Q3 - 2 QD) / 4 over every 2x2 window of the board padded by an
    empty border (Gray, "Local properties of binary images in two dimensions", IEEE Trans.
    Computers 1971); a connected set has E <= 1. Windows on the border see one or two squares.
    """
    a = pieces & QUAD_ANCHORS
    b = pieces >> 1 & QUAD_ANCHORS
    c = pieces >> 8 & QUAD_ANCHORS
    d = pieces >> 9 & QUAD_ANCHORS
    odd = a ^ b ^ c ^ d
    pairs = (a & b) | (c & d)
    q1 = (odd & ~pairs).bit_count()
    q3 = (odd & pairs).bit_count()
    qd = ((a & d & ~b & ~c) | (b & c & ~a & ~d)).bit_count()
    q1 += ((pieces ^ pieces >> 1) & EDGE_PAIRS_H).bit_count() + ((pieces ^ pieces >> 8) & EDGE_PAIRS_V).bit_count()
    q1 += (pieces & CORNERS).bit_count()
    return (q1 - q3 - 2 * qd) // 4


def _centre_of_mass(pieces: int) -> int:
    """The square nearest the pieces' centre of mass (rank and file sums from weighted popcounts)."""
    n = pieces.bit_count()
    rank = (2 * _weighted_sum(pieces, RANK_BITS, 0) + n) // (2 * n)
    return rank * 8 + (2 * _weighted_sum(pieces, FILE_BITS, 0) + n) // (2 * n)


def concentration_terms(pieces: int) -> tuple[int, int, int]:
    """(excess distance to the centre of mass, centralisation, Euler number) of one side's pieces."""
    distance = _weighted_sum(pieces, DISTANCE_BITS, _centre_of_mass(pieces) * 3)
    central = (pieces & CENTRAL_BITS[0]).bit_count() + 2 * (pieces & CENTRAL_BITS[1]).bit_count()
    return distance - MIN_DISTANCE_SUM[pieces.bit_count()], central, euler_number(pieces)


def groups_score(state, weights) -> float:
    """100 per group White has beyond Black's count (no weights)."""
    black, white = state[0], state[1]
    return 100.0 * (count_groups(white) - count_groups(black))


def concentration_score(state, weights) -> float:
    """Concentration per piece (excess distance to the centre of mass), centralisation and quads, for Black
    (no weights)."""
    black, white = state[0], state[1]
    bd, bc, be = concentration_terms(black)
    wd, wc, we = concentration_terms(white)
    nb, nw = black.bit_count(), white.bit_count()
    return 100.0 * (wd / nw - bd / nb) + 10.0 * (bc / nb - wc / nw) + 20.0 * (we - be)


def _bounding_box_area(pieces: int) -> int:
    low, high = (pieces & -pieces).bit_length() - 1, pieces.bit_length() - 1
    files = pieces | pieces >> 32
    files |= files >> 16
    files = (files | files >> 8) & 0xFF
    width = files.bit_length() - (files & -files).bit_length() + 1
    return width * ((high >> 3) - (low >> 3) + 1)


def _mobility_balance() -> tuple[int, ...]:
    """MOBILITY_BALANCE[base + (black pattern << length | white pattern)]: along one line, Black's moves
    plus captures minus White's (same indexing as rules.MOVE_COUNT)."""
    table = [0] * len(MOVE_COUNT)
    for n in range(9):
        base = sum(1 << 2 * k for k in range(n))
        for black in range(1 << n):
            free = ((1 << n) - 1) ^ black
            white = free
            while True:  # every white pattern on the squares black leaves free, down to none (as in the rules)
                forward, backward = base + (black << n | white), base + (white << n | black)
                table[forward] = (MOVE_COUNT[forward] + CAPTURE_COUNT[forward]
                                  - MOVE_COUNT[backward] - CAPTURE_COUNT[backward])
                if not white:
                    break
                white = (white - 1) & free
    return tuple(table)


MOBILITY_BALANCE = _mobility_balance()


def mobility_balance(black: int, white: int) -> int:
    """Black's moves minus White's, captures counting double, summed line by line from one table.

    Profiled: one lookup per line for both sides is twice as fast as generating both move lists.
    """
    balance = 0
    for mask, multiplier, shift, width, length, base in LINE:
        balance += MOBILITY_BALANCE[base + ((((black & mask) >> shift) * multiplier >> 56 & width) << length
                                            | (((white & mask) >> shift) * multiplier >> 56 & width))]
    return balance


def mobility_score(state, weights) -> float:
    """Mobility (captures count double), bounding-box spread and a tempo bonus for the side to move, for Black
    (no weights)."""
    black, white, mover = state[0], state[1], state[2]
    spread = _bounding_box_area(white) - _bounding_box_area(black)
    return 4.0 * mobility_balance(black, white) + 3.0 * spread + (-15.0 if mover else 15.0)


class GroupsHeuristic(BaseHeuristic):
    """Group count: 100 per group the opponent has beyond yours (a baseline)."""

    name = "groups"
    #: The parameters its function takes (compiled searches pass them as this tuple, by value): none.
    weights = ()

    def evaluate(self, state, player: int) -> float:
        value = groups_score(state, self.weights)
        return -value if player else value


class ConcentrationHeuristic(BaseHeuristic):
    """Concentration round the centre of mass, centralisation and quads (Euler number)."""

    name = "concentration"
    weights = ()

    def evaluate(self, state, player: int) -> float:
        value = concentration_score(state, self.weights)
        return -value if player else value


class MobilityHeuristic(BaseHeuristic):
    """Mobility (captures double), bounding-box spread and tempo."""

    name = "mobility"
    weights = ()

    def evaluate(self, state, player: int) -> float:
        value = mobility_score(state, self.weights)
        return -value if player else value


HEURISTICS = (GroupsHeuristic, ConcentrationHeuristic, MobilityHeuristic)
