"""A tiny rules-like module for tests/framework/test_jit.py: plain functions over bitboards."""

from framework.jit import float_of_bits

TOP = 1 << 63
MASKS = (TOP, 1, TOP | 1)
STEPS = (-1, 0, 7)


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
    """A float stored as its bits in an int64 array, read back (compiled: `jit.float_of_bits`)."""
    return float_of_bits(bits[0])
