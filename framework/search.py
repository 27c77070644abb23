"""Shared pieces of search agents: budget checks, the iterative-deepening driver, terminal scores, timing.

Agents count a node each time they visit a state (root and leaves included) and call
`SearchLimits.exceeded(nodes)` before visiting another (a search over the kernel interface:
`framework.kernel.api.counted`, the node limit as `SearchLimits.nodes_left` gives it), so a node budget
is never overshot and a time budget is checked cheaply (the clock is read every 256 nodes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from framework.protocols import Budget, Game, Heuristic, State

#: The node limit a search keeps in an int64 when the budget sets none (or more).
NO_NODE_LIMIT = 1 << 62
T = TypeVar("T")


class SearchAborted(Exception):
    """Internal control flow: the budget ran out in the middle of a search."""


@dataclass
class SearchLimits:
    """A budget turned into absolute limits at the start of one decision."""

    node_limit: float
    deadline: float

    @classmethod
    def start(cls, budget: Budget) -> SearchLimits:
        now = time.perf_counter()
        return cls(node_limit=budget.nodes if budget.nodes is not None else float("inf"),
                   deadline=now + budget.time if budget.time is not None else float("inf"))

    def nodes_left(self, used: int = 0) -> int:
        """The nodes a search may still visit after `used`, as an int64 a compiled search keeps
        (NO_NODE_LIMIT for no limit)."""
        return int(min(self.node_limit - used, NO_NODE_LIMIT))

    def exceeded(self, nodes: int) -> bool:
        """True when visiting one more node would break the budget."""
        if nodes >= self.node_limit:
            return True
        return not nodes & 255 and time.perf_counter() >= self.deadline


def deepen(search: Callable[[int, T | None], T | None], depths: Iterable[int],
           stop: Callable[[T], bool] | None = None) -> list[T]:
    """Iterative deepening: `search(depth, previous)` at each of `depths` in order (`previous` the last
    completed iteration's result, None before the first), until one returns None (the budget ran out in
    it: the iterations completed so far answer) or `stop(result)` says deeper iterations cannot change it.
    Returns the completed iterations' results."""
    done: list[T] = []
    for depth in depths:
        found = search(depth, done[-1] if done else None)
        if found is None:
            break
        done.append(found)
        if stop is not None and stop(found):
            break
    return done


def terminal_value(game: Game, heuristic: Heuristic | None, state: State, player: int, ply: int) -> float:
    """Score of a terminal state for `player`: the heuristic's terminal score, or the raw returns."""
    if heuristic is None:
        return float(game.returns(state)[player])
    return heuristic.terminal(state, player, ply)


class Stopwatch:
    """Wall and CPU time of one decision."""

    def __init__(self) -> None:
        self.wall0 = time.perf_counter()
        self.cpu0 = time.process_time()

    def wall(self) -> float:
        return time.perf_counter() - self.wall0

    def cpu(self) -> float:
        return time.process_time() - self.cpu0
