"""The one root driver every bound search runs under (`framework.kernel.binding.Bound.run`).

A decision of any search is the same frame around a different root call: the budget turned into limits, the
search's `work` made (its node limit and the game's option in its slots), the root searched at each depth of
an iterative deepening (a search that does not deepen: one depth) until the budget runs out in one (its
`work[aborted]`: that one is dropped, those completed answer) or deeper ones cannot change the answer, and
the statistics read back (nodes from `work`, wall and CPU time, the binding). The root call is the search's
own (`iteration`); for searches that search the root's moves in Python, `root_moves` is that loop.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from framework.kernel.api import BUDGET, counted
from framework.protocols import Game, SearchStats, State
from framework.search import SearchLimits, Stopwatch, deepen

T = TypeVar("T")
INF = float("inf")


@dataclass
class Run(Generic[T]):
    """One decision of a bound search: its limits, its `work`, its clocks and the root searches it completed."""

    limits: SearchLimits
    work: Any
    recorded: dict[str, str]                        # how the search ran (`Bound.recorded`)
    watch: Stopwatch = field(default_factory=Stopwatch)
    done: list[T] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        return int(self.work[BUDGET.nodes])

    def stats(self, extra: dict[str, Any] | None = None, **fields: Any) -> SearchStats:
        """The decision's statistics: `fields`, the nodes counted in `work`, the clocks and (in `extra`, after
        the search's own) the binding."""
        return SearchStats(nodes=self.nodes, wall_time=self.watch.wall(), cpu_time=self.watch.cpu(),
                           extra={**(extra or {}), **self.recorded}, **fields)


def drive(run: Run[T], iteration: Callable[[Run[T], int, T | None], T | None], depths: Iterable[int],
          stop: Callable[[T], bool] | None = None, anytime: bool = False) -> Run[T]:
    """`iteration(run, depth, previous)` at each of `depths` (`framework.search.deepen`), an iteration whose
    search ran out of budget (`work[aborted]`) dropped unless the search is `anytime` (what it found when the
    budget ran out answers: MCTS); `run.done` the completed ones."""
    def each(depth: int, previous: T | None) -> T | None:
        found = iteration(run, depth, previous)
        return None if found is None or (run.work[BUDGET.aborted] and not anytime) else found

    run.done = deepen(each, depths, stop)
    return run


def root_moves(run: Run[Any], game: Game, state: State, to_kernel: Callable[[State], Any],
               child: Callable[[Any, float], float], maximise: bool = True) -> tuple[float, Hashable] | None:
    """One root search over the game's moves: the root counted as a node, each move's child made by the game
    and valued by `child(kernel_child, best so far)`, the best (the first on ties; the least when not
    `maximise`) and its move; None when the budget ran out.

    Each child is made by the game, then converted: a compiled `apply_move` called from Python returns a
    uint64 bitboard as a Python int, which an int64 refuses at 2**63 and above (LOA's)."""
    if not counted(run.work, run.limits.deadline):
        return None
    best, best_move = (-INF if maximise else INF), None
    for move in game.legal_moves(state):
        value = child(to_kernel(game.apply(state, move)), best)
        if run.work[BUDGET.aborted]:
            return None
        if (value > best) if maximise else (value < best):
            best, best_move = value, move
    return best, best_move
