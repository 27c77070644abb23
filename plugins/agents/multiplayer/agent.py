"""Agents for n players: `maxn`, `paranoid` and `brs` (best-reply search), over `search.py`.

Each search is written once against `framework.kernel.api` and bound once per agent by
`framework.kernel.binding.bind` (the `kernel` option: compiled over a game's kernel that has the primitives
it calls, else through a `KernelAdapter`; the binding is recorded in `extra["binding"]`).
The root driver (`plugins.agents.deepening`) deepens one ply at a time up to `depth` while the budget lasts
and searches the root's moves (first best on ties); a root search cut by the budget is dropped and the last complete one
answers. Values are each seat's heuristic clamped into +-`win_score`, an end scoring each seat's return
times `win_score`. max^n and paranoid also search chance nodes (averaging); best-reply search needs the
game's `pass_to` (the opponents it skips pass) and no dice.
"""

from __future__ import annotations

from typing import Any

from framework.capabilities import player_count
from framework.errors import ConfigError
from framework.kernel.binding import KERNEL_PARAM
from framework.kernel.root import Run
from framework.params import HeuristicRef, Param
from framework.protocols import WIN_SCORE, Game, Heuristic
from plugins.agents.deepening import DEFAULT_WIN_SCORE, MAX_DEPTH, DeepeningAgent
from plugins.agents.multiplayer import search
from plugins.agents.multiplayer.search import INF, WORK

COMMON = (
    Param("depth", int, 3, "deepest root search in plies", minimum=1, maximum=MAX_DEPTH),
    Param("heuristic", HeuristicRef, None, "each seat's evaluation at the depth limit (default: the game's)"),
    Param("win_score", float, DEFAULT_WIN_SCORE, "score of a won end; heuristic values are clamped into "
          "+-win_score", minimum=1, maximum=WIN_SCORE),
    KERNEL_PARAM,
)


class SeatSearchAgent(DeepeningAgent):
    """What the n-player searches share: the seats, and the cutoffs they count."""

    search = search

    def __init__(self, game: Game, seed: int = 0, depth: int = 3, heuristic: Heuristic | None = None,
                 win_score: float = DEFAULT_WIN_SCORE, kernel: str = "auto") -> None:
        self.seats = player_count(game)
        super().__init__(game, seed, depth, heuristic, win_score, kernel)

    def extra(self, work: Any) -> dict[str, Any]:
        return {"cutoffs": int(work[WORK.cutoffs])}


class MaxnAgent(SeatSearchAgent):
    """max^n, with Korf's shallow pruning as a switch (see search.py)."""

    algorithm = "maxn"

    def __init__(self, game: Game, seed: int = 0, depth: int = 3, heuristic: Heuristic | None = None,
                 win_score: float = DEFAULT_WIN_SCORE, shallow: bool = False, max_sum: float = 0.0,
                 floor: float | None = None, kernel: str = "auto") -> None:
        self.shallow, self.max_sum = shallow, max_sum
        self.floor = -win_score if floor is None else floor
        super().__init__(game, seed, depth, heuristic, win_score, kernel)

    def switches(self) -> dict[str, int]:
        return {"shallow": int(self.shallow)}

    def child_value(self, run: Run[Any], child: Any, depth: int, best: float, mover: int) -> float:
        bound = self.bound
        values = bound.array((depth + 1) * self.seats, float)     # a vector per level below the root's child
        value: float = bound.functions.maxn(child, depth, self.seats, best, mover, run.work, -self.win_score,
                                            self.win_score, self.floor, self.max_sum, bound.weights,
                                            run.limits.deadline, values, 0)
        return value

    def extra(self, work: Any) -> dict[str, Any]:
        if work[WORK.over_sum]:
            raise ConfigError(f"maxn: shallow pruning needs every value >= floor ({self.floor:g}) and every vector "
                              f"summing to at most max_sum ({self.max_sum:g}), and {work[WORK.over_sum]} of "
                              f"heuristic '{getattr(self.heuristic, 'name', self.heuristic)}' did not: set floor and "
                              "max_sum to its bounds, or shallow: false")
        return super().extra(work)


class ParanoidAgent(SeatSearchAgent):
    """Paranoid: alpha-beta for the root's seat against the coalition of all the others."""

    algorithm = "paranoid"

    def child_value(self, run: Run[Any], child: Any, depth: int, best: float, mover: int) -> float:
        value: float = self.bound.functions.paranoid(child, depth, best, INF, mover, run.work, -self.win_score,
                                                     self.win_score, self.bound.weights, run.limits.deadline)
        return value


class BestReplyAgent(SeatSearchAgent):
    """Best-reply search: the root's seat against the single best reply of any opponent at each min layer (the
    game's `pass_to` lets the others pass: its spec `needs` it)."""

    algorithm = "brs"

    def child_value(self, run: Run[Any], child: Any, depth: int, best: float, mover: int) -> float:
        value: float = self.bound.functions.brs(child, depth, best, INF, mover, self.seats, False, run.work,
                                                -self.win_score, self.win_score, self.bound.weights,
                                                run.limits.deadline)
        return value
