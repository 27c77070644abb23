"""The expectiminimax agent: iterative deepening over `search.expectimax` (Star1 / Star2 switches).

The search is written once against `framework.kernel.api` (search.py) and bound once per agent by
`framework.kernel.binding.bind` (the `kernel` option: compiled over a game's kernel that has the dice
primitives, else through a `KernelAdapter`; the binding is recorded in `extra["binding"]`). The root driver
(`plugins.agents.deepening`) searches the root's moves, each with the window its best so far allows,
deepening one ply at a time up to `depth` while the budget lasts; a root search cut by the budget is dropped
and the last complete one answers (depth 1 always completes unless the budget is below its nodes). Two players; values
are the heuristic's clamped into +-`win_score`, an end scoring seat 0's return times `win_score` (the
bounds Star1 relies on; the built-in dice games' heuristics stay within 1000, the default).
"""

from __future__ import annotations

from typing import Any

from framework.errors import ConfigError
from framework.kernel.binding import KERNEL_PARAM
from framework.kernel.root import Run
from framework.params import HeuristicRef, Param
from framework.protocols import WIN_SCORE, Game, Heuristic
from plugins.agents.deepening import DEFAULT_WIN_SCORE, MAX_DEPTH, DeepeningAgent
from plugins.agents.expectiminimax import search
from plugins.agents.expectiminimax.search import INF, WORK

PARAMS = (
    Param("depth", int, 4, "deepest root search in plies (an outcome of the dice is a ply)", minimum=1,
          maximum=MAX_DEPTH),
    Param("star1", bool, True, "Ballard's Star1: alpha-beta windows through chance nodes"),
    Param("star2", bool, True, "Ballard's Star2: probe each outcome's first move before Star1 (needs star1)"),
    Param("heuristic", HeuristicRef, None, "evaluation at the depth limit (default: the game's)"),
    Param("win_score", float, DEFAULT_WIN_SCORE, "score of a won end; heuristic values are clamped into "
          "+-win_score (Star1's bounds: tighter prunes more)", minimum=1, maximum=WIN_SCORE),
    KERNEL_PARAM,
)


class ExpectiminimaxAgent(DeepeningAgent):
    """Depth-limited expectiminimax with Star1 / Star2; see the module docstring. Values are seat 0's: the
    root's mover 0 maximises, 1 minimises."""

    search = search
    algorithm = "expectiminimax"

    def __init__(self, game: Game, seed: int = 0, depth: int = 4, star1: bool = True, star2: bool = True,
                 heuristic: Heuristic | None = None, win_score: float = DEFAULT_WIN_SCORE,
                 kernel: str = "auto") -> None:
        if star2 and not star1:
            raise ConfigError("expectiminimax: 'star2' extends Star1 (its search phase is Star1's): "
                              "set star1: true, or star2: false")
        self.star1, self.star2 = star1, star2
        super().__init__(game, seed, depth, heuristic, win_score, kernel)

    def child_value(self, run: Run[Any], child: Any, depth: int, best: float, mover: int) -> float:
        alpha, beta = (best, INF) if mover == 0 else (-INF, best)
        value: float = self.bound.functions.expectimax(child, depth, alpha, beta, 1, run.work, -self.win_score,
                                                       self.win_score, self.bound.weights, run.limits.deadline)
        return value

    def maximises(self, mover: int) -> bool:
        return mover == 0

    def score(self, value: float, mover: int) -> float:
        return value if mover == 0 else -value

    def switches(self) -> dict[str, int]:
        return {"use_star1": int(self.star1), "use_star2": int(self.star2)}

    def extra(self, work: Any) -> dict[str, Any]:
        return {"star1_cutoffs": int(work[WORK.star1_cutoffs]), "star2_cutoffs": int(work[WORK.star2_cutoffs])}

    def __repr__(self) -> str:
        return f"ExpectiminimaxAgent(depth={self.depth}, star1={self.star1}, star2={self.star2})"
