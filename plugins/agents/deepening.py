"""What the depth-limited searches of expectiminimax and the n-seat family share as agents: a heuristic, a
depth, a win score and a search bound once (`framework.kernel.binding.bind`, warm-up included), each decision
run by the one root driver (`Bound.run`: iterative deepening one ply at a time up to `depth` while the budget
lasts, the root's moves searched by `Bound.root_moves`, a root search cut by the budget dropped and the last
complete one answering). A subclass names its search and says how a root move's child is valued.
"""

from __future__ import annotations

import types
from typing import Any, ClassVar

from framework.errors import ConfigError
from framework.kernel.binding import bind, warm_up
from framework.kernel.root import Run
from framework.protocols import Budget, Decision, Game, Heuristic, State

#: The deepest root search a depth parameter allows.
MAX_DEPTH = 64
#: The default score of a win: the built-in heuristics of these searches stay within it.
DEFAULT_WIN_SCORE = 1000.0


class DeepeningAgent:
    """An iteratively deepened search over a bound search module; see the module docstring."""

    search: types.ModuleType            # the search module bound
    algorithm: ClassVar[str] = ""

    def __init__(self, game: Game, seed: int = 0, depth: int = 3, heuristic: Heuristic | None = None,
                 win_score: float = DEFAULT_WIN_SCORE, kernel: str = "auto") -> None:
        if heuristic is None:
            raise ConfigError(f"{self.algorithm} needs a heuristic, and {game.name} names no default: give 'heuristic'")
        self.depth, self.heuristic, self.win_score, self.kernel = depth, heuristic, win_score, kernel
        self.bound = bind(self.search, game, heuristic, kernel)     # a kernel that does not fit is refused now
        if self.bound.binding == "compiled":
            warm_up(self, game)

    def child_value(self, run: Run[Any], child: Any, depth: int, best: float, mover: int) -> float:
        """The value of one root move's `child` searched `depth` plies deep, given the best so far."""
        raise NotImplementedError

    def maximises(self, mover: int) -> bool:
        """Whether the root's best move has the largest value (else the least)."""
        return True

    def score(self, value: float, mover: int) -> float:
        """The decision's score, for the mover, of the root's value."""
        return value

    def switches(self) -> dict[str, int]:
        """The search's switches: `work` slots by name."""
        return {}

    def extra(self, work: Any) -> dict[str, Any]:
        """The search's own statistics, read from `work` (refusing what it found unsound)."""
        return {}

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        mover, bound = game.to_move(state), self.bound

        def root(run: Run[Any], depth: int, _: Any) -> Any:
            return bound.root_moves(run, game, state, lambda child, best: self.child_value(
                run, child, depth - 1, best, mover), self.maximises(mover))

        run = bound.run(budget, root, range(1, self.depth + 1), switches=self.switches())
        move, score = game.legal_moves(state)[0], None
        if run.done:
            value, move = run.done[-1]
            score = self.score(value, mover)
        return Decision(move, run.stats(self.extra(run.work), depth=len(run.done), score=score, pv=(move,)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(depth={self.depth}, heuristic={self.heuristic!r})"
