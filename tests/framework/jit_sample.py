"""A tiny rules-like module for tests/framework/test_jit.py: plain functions over bitboards."""

from framework.kernel.api import as_int64, borrowed, float_of_bits, sort_by_scores, to_front
from framework.layout import layout

TOP = 1 << 63
MASKS = (TOP, 1, TOP | 1)
STEPS = (-1, 0, 7)
SLOTS, SLOT_COUNT = layout("Slots", "count scores*3")


def popcount(x: int) -> int:
    return x.bit_count()


def highest(x: int) -> int:
    return x.bit_length() - 1


def lowest_bit(x: int) -> int:
    return x & -x


def masked(x: int, i: int) -> int:
    return (x >> 1 | x << 1) & MASKS[i]


def step(i: int) -> int:
    return STEPS[i] + highest(TOP)


def margin(bits) -> float:
    """A float stored as its bits in an int64 array, read back (compiled: `api.float_of_bits`)."""
    return float_of_bits(bits[0])


def ordered(items, scores, bound: int, first: int, second: int):
    """`items` sorted by `scores[SLOTS.scores + item]` (0 from `bound`), then `first` and `second` to the front."""
    sort_by_scores(items, scores, SLOTS.scores, bound)
    front = to_front(items, first, 0)
    front = to_front(items, second, front)
    scores[SLOTS.count] = front
    return items


def slot_sum(x: int) -> int:
    """Layout slots and an identity conversion (folded to ints and `x` interpreted)."""
    return as_int64(x) + SLOTS.scores + 2 * SLOTS.count


def count_down(counts, depth: int) -> int:
    """Writes `depth` into counts[depth] and recurses to 0 over the array borrowed (`api.borrowed`), as a search
    does: the writes reach the caller's array and every level's view is dropped safely."""
    counts = borrowed(counts)
    counts[depth] = depth
    view = counts[depth:]          # a view of a borrowed array, dropped before the recursion returns
    return view[0] + (count_down(counts, depth - 1) if depth else 0)
