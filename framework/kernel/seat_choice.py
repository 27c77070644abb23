"""A search's heuristic as an argument, for any seat: `evaluate` calls the function of the heuristic that the
weights name (`choice` says how the binding sets it up; this is its twin for `GameKernel.seat_scores`)."""

from __future__ import annotations

from typing import Any

# The functions chosen among (as many as `choice.SLOTS`), bound by the binding (never called as these placeholders).
evaluate_0: Any = None
evaluate_1: Any = None
evaluate_2: Any = None
evaluate_3: Any = None


def evaluate(state: Any, seat: int, weights: Any) -> Any:
    """`seat`'s score of `state` by the heuristic in slot `weights[-1]`."""
    which = int(weights[len(weights) - 1])
    if which == 0:
        return evaluate_0(state, seat, weights)
    if which == 1:
        return evaluate_1(state, seat, weights)
    if which == 2:
        return evaluate_2(state, seat, weights)
    return evaluate_3(state, seat, weights)
