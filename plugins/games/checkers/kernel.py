"""The compiled twin of the checkers rules: `rules.py` itself, compiled by `framework.jit`.

Nothing here restates a rule: `KERNEL.perft` is `rules.perft` compiled, with the bitboard
constants and tables below read as uint64. The Game plugin calls it when compiled kernels
are enabled and the interpreted `rules.perft` otherwise.
"""

from __future__ import annotations

from framework import jit
from plugins.games.checkers import rules

KERNEL = jit.Kernel(rules, bitboards=("BIT", "SQUARE_BIT", "NO_SQUARES", "VALID", "ROWS", "BLACK_CROWN",
                                      "WHITE_CROWN", "BLACK_START", "WHITE_START", "JUMP_LAND", "JUMP_MID"))


def kernel_state(state: tuple[int, int, int, int, int]) -> tuple:
    """A state as the kernel takes it: the three bitboards as uint64."""
    black, white, kings, mover, quiet = state
    return jit.uint64(black), jit.uint64(white), jit.uint64(kings), int(mover), int(quiet)


def perft(state: tuple[int, int, int, int, int], depth: int, quiet_limit: int) -> int:
    """`rules.perft`, compiled."""
    return int(KERNEL.perft(kernel_state(state), depth, quiet_limit))


def warmup() -> None:
    """Compile (or load from the cache) the kernels perft calls, on a position with captures and kings."""
    perft(rules.INITIAL, 3, rules.NO_LIMIT)
    KERNEL.generate_moves(*kernel_state(rules.INITIAL)[:4])
