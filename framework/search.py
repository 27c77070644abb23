"""Shared pieces of search agents: budget checks, terminal scores, timing.

Agents count a node each time they visit a state (root and leaves included) and call
`SearchLimits.exceeded(nodes)` before visiting another, so a node budget is never
overshot and a time budget is checked cheaply (the clock is read every 256 nodes).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from framework.protocols import Budget, Game, Heuristic, State


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

    def exceeded(self, nodes: int) -> bool:
        """True when visiting one more node would break the budget."""
        if nodes >= self.node_limit:
            return True
        return not nodes & 255 and time.perf_counter() >= self.deadline


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
