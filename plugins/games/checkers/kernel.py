"""The compiled twin of the checkers rules: `rules.py` itself, compiled by `framework.kernel`.

Nothing here restates a rule: `KERNEL.perft` is `rules.perft` compiled, with the bitboard
constants and tables below read as uint64. The Game plugin calls it when compiled kernels
are enabled and the interpreted `rules.perft` otherwise.
"""

from __future__ import annotations

from framework.kernel import api, numba_backend
from plugins.games.checkers import heuristics, rules

# --8<-- [start:declarations]
KERNEL = numba_backend.Kernel(rules, bitboards=("BIT", "SQUARE_BIT", "NO_SQUARES", "VALID", "ROWS", "BLACK_CROWN",
                                      "WHITE_CROWN", "BLACK_START", "WHITE_START", "JUMP_LAND", "JUMP_MID"))

#: The heuristics compiled over the compiled rules, and the function (scored for Black, given the
#: heuristic's `weights`) of each heuristic that compiled searches may call in its place.
HEURISTICS_KERNEL = numba_backend.Kernel(heuristics, rules=KERNEL, tag="checkers",
                               bitboards=("VALID", "CENTRE", "EDGE", "BLACK_BACK", "WHITE_BACK", "ADVANCE_BITS"))
SCORES = {heuristics.MaterialHeuristic: "material_score", heuristics.PositionalHeuristic: "positional_score",
          heuristics.MobilityHeuristic: "mobility_score"}
#: `hash_key` packs `search_key`'s words (black, white, kings, mover) at these bits.
KEY_SHIFTS = (0, 35, 70, 105)
#: Every quiet move (a step) is below this: a start bit below 64 and one direction code in bits 10-11.
#: Captures (jump count in bits 6-9, a direction per jump from bit 10) may be far larger.
MOVE_SPACE = 1 << 12


def kernel_state(state: tuple[int, int, int, int, int]) -> tuple:
    """A state as the kernel takes it: the three bitboards as uint64."""
    black, white, kings, mover, quiet = state
    return api.uint64(black), api.uint64(white), api.uint64(kings), int(mover), int(quiet)
# --8<-- [end:declarations]


def perft(state: tuple[int, int, int, int, int], depth: int, quiet_limit: int) -> int:
    """`rules.perft`, compiled."""
    return int(KERNEL.perft(kernel_state(state), depth, quiet_limit))


def warmup() -> None:
    """Compile (or load from the cache) the kernels perft calls, on a position with captures and kings."""
    perft(rules.INITIAL, 3, rules.NO_LIMIT)
    KERNEL.generate_moves(*kernel_state(rules.INITIAL)[:4])
