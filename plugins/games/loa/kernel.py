"""The compiled twin of the Lines of Action rules: `rules.py` itself, compiled by `framework.kernel`.

Nothing here restates a rule: `KERNEL.legal_moves` is `rules.legal_moves` compiled, with
the bitboard tables below read as uint64 and the move counts and line numbers as int8. The Game
plugin calls these when compiled kernels are enabled and the interpreted `rules` functions otherwise.
"""

from __future__ import annotations

from framework.kernel import api, numba_backend
from plugins.games.loa import heuristics, rules

KERNEL = numba_backend.Kernel(rules, bitboards=("FULL", "FILE_A", "FILE_H", "NOT_FILE_A", "NOT_FILE_H",
                                      "TARGET_BIT", "BETWEEN", "SQUARE_BIT", "LINE_MASK", "LINE_MULTIPLIER",
                                      "LINE_SHIFT", "LINE_WIDTH", "LINE_LENGTH", "LINE_BASE", "LINE"),
                    small=("MOVE_COUNT", "CAPTURE_COUNT", "AFFECTED"))

#: The heuristics compiled over the compiled rules, and the function (scored for Black) of each
#: heuristic, whose compiled twin compiled searches use in its place. `LINE` is a bitboard table here as in
#: the rules: read as int64, its masks with bit 63 set went negative and `>>` sign-extended the patterns.
HEURISTICS_KERNEL = numba_backend.Kernel(heuristics, rules=KERNEL, tag="loa",
                               bitboards=("NOT_FILE_A", "NOT_FILE_H", "RANK_8", "QUAD_ANCHORS", "EDGE_PAIRS_H",
                                          "EDGE_PAIRS_V", "CORNERS", "DISTANCE_BITS", "CENTRAL_BITS", "RANK_BITS",
                                          "FILE_BITS", "LINE"))
SCORES = {heuristics.GroupsHeuristic: "groups_score", heuristics.ConcentrationHeuristic: "concentration_score",
          heuristics.MobilityHeuristic: "mobility_score"}
#: `hash_key` packs `search_key`'s words (black, white, mover) at these bits.
KEY_SHIFTS = (0, 64, 128)
#: Every move is below this: from * 64 + to, and PASS = 4096.
MOVE_SPACE = rules.PASS + 1


def kernel_state(state: tuple[int, int, int]) -> tuple:
    """A state as the kernel takes it: the two bitboards as uint64."""
    return api.uint64(state[0]), api.uint64(state[1]), int(state[2])


def perft(own: int, enemy: int, depth: int) -> int:
    """`rules.perft`, compiled."""
    return int(KERNEL.perft(api.uint64(own), api.uint64(enemy), depth))


def warmup() -> None:
    """Compile (or load from the cache) every kernel a search or perft calls."""
    perft(rules.SQUARE_BIT[1] | rules.SQUARE_BIT[2], rules.SQUARE_BIT[8] | rules.SQUARE_BIT[63], 2)
    KERNEL.legal_moves(kernel_state((rules.SQUARE_BIT[1] | rules.SQUARE_BIT[2], rules.SQUARE_BIT[8], 0)))
