"""A search's heuristic as an argument: `score` calls the first-seat function of the heuristic that the weights
name, so a search compiles once per game, not once per heuristic (`seat_choice`: the same for `evaluate`).

The binding (`framework.kernel.binding`) compiles this module over a game's heuristics kernel, binding
`score_0` ... to the game's functions in the order the game declares them (slots past the last repeat the
first), and passes the heuristic's weights with its slot appended: the heuristic functions read their weights
from the front, so the extra last entry is theirs to ignore. A branch on a small int per evaluation costs less
than a search compiled per heuristic: `plyground warmup` from a cold cache 229 -> 175 s of CPU, and the
searches' speed rows are kept (benchmarks/speed_vs_revision.py).
"""

from __future__ import annotations

from typing import Any

#: How many heuristic functions a game may declare for `score` (or `evaluate`) to choose among; a game with more
#: has its searches compiled per heuristic (`binding.heuristic_slots`).
SLOTS = 4

# The functions chosen among, bound by the binding (never called as these placeholders).
score_0: Any = None
score_1: Any = None
score_2: Any = None
score_3: Any = None


def score(state: Any, weights: Any) -> Any:
    """The first seat's score of `state` by the heuristic in slot `weights[-1]`."""
    which = int(weights[len(weights) - 1])
    if which == 0:
        return score_0(state, weights)
    if which == 1:
        return score_1(state, weights)
    if which == 2:
        return score_2(state, weights)
    return score_3(state, weights)

