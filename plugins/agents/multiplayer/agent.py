"""Agents for n players: `maxn`, `paranoid` and `brs` (best-reply search), over `search.py`.

Each search is written once against `framework.kernel.api` and bound once per decision by
`framework.kernel.binding.bind` (the `kernel` option: compiled over a game's kernel that has the primitives
it calls, else through a `KernelAdapter`; the binding is recorded in `extra["binding"]`).
The driver deepens one ply at a time up to `depth` while the budget lasts and searches the root's moves
itself (first best on ties); a root search cut by the budget is dropped and the last complete one
answers. Values are each seat's heuristic clamped into +-`win_score`, an end scoring each seat's return
times `win_score`. max^n and paranoid also search chance nodes (averaging); best-reply search needs the
game's `pass_to` (the opponents it skips pass) and no dice.
"""

from __future__ import annotations

from typing import Any

from framework.capabilities import player_count
from framework.errors import ConfigError
from framework.kernel.binding import KERNEL_PARAM, Bound, bind, warm_up
from framework.params import HeuristicRef, Param
from framework.protocols import WIN_SCORE, Budget, Decision, Game, Heuristic, SearchStats, State
from framework.search import SearchLimits, Stopwatch, deepen
from plugins.agents.multiplayer import search
from plugins.agents.multiplayer.search import INF, WORK, WORK_SIZE

MAX_DEPTH = 64
DEFAULT_WIN_SCORE = 1000.0

COMMON = (
    Param("depth", int, 3, "deepest root search in plies", minimum=1, maximum=MAX_DEPTH),
    Param("heuristic", HeuristicRef, None, "each seat's evaluation at the depth limit (default: the game's)"),
    Param("win_score", float, DEFAULT_WIN_SCORE, "score of a won end; heuristic values are clamped into "
          "+-win_score", minimum=1, maximum=WIN_SCORE),
    KERNEL_PARAM,
)


class SeatSearchAgent:
    """The driver shared by the n-player searches: iterative deepening, the root's moves, the budget."""

    algorithm = ""

    def __init__(self, game: Game, seed: int = 0, depth: int = 3, heuristic: Heuristic | None = None,
                 win_score: float = DEFAULT_WIN_SCORE, kernel: str = "auto") -> None:
        if heuristic is None:
            raise ConfigError(f"{self.algorithm} needs a heuristic, and {game.name} names no default: give 'heuristic'")
        self.depth, self.heuristic, self.win_score, self.kernel = depth, heuristic, win_score, kernel
        self.seats = player_count(game)
        if bind(search, game, heuristic, kernel).binding == "compiled":   # a kernel that does not fit is refused now
            warm_up(self, game)

    def child_value(self, bound: Bound, child: Any, depth: int, best: float, root: int,
                    work: Any, deadline: float) -> float:
        """The value for the root's seat of one root move's child, given the best so far."""
        raise NotImplementedError

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        limits = SearchLimits.start(budget)
        bound = bind(search, game, self.heuristic, self.kernel)
        work = bound.work(WORK, WORK_SIZE, limits.nodes_left())
        work[WORK.returns] = bound.returns()
        self.prepare(work)
        move, score = game.legal_moves(state)[0], None
        done = deepen(lambda depth, _: self.search(game, state, depth, limits, work, bound), range(1, self.depth + 1))
        if done:
            score, move = done[-1]
        completed = len(done)
        self.check(work)
        return Decision(move, SearchStats(nodes=int(work[WORK.nodes]), depth=completed, score=score, pv=(move,),
                                          wall_time=watch.wall(), cpu_time=watch.cpu(),
                                          extra={"cutoffs": int(work[WORK.cutoffs]), **bound.recorded()}))

    def search(self, game: Game, state: State, depth: int, limits: SearchLimits, work: Any,
               bound: Bound) -> tuple[float, Any] | None:
        """One root search: (value for the root's seat, best move), or None when the budget ran out."""
        if not search.counted(work, limits.deadline):
            return None
        root = game.to_move(state)
        best, best_move = -INF, None
        # each child made by the game, then converted: a compiled `apply_move` called from here returns a
        # uint64 bitboard as a Python int, refused as an int64 at 2**63 and above (LOA's)
        for m in game.legal_moves(state):
            v = self.child_value(bound, bound.to_kernel(game.apply(state, m)), depth - 1, best, root, work,
                                 limits.deadline)
            if work[WORK.aborted]:
                return None
            if v > best:
                best, best_move = v, m
        return best, best_move

    def prepare(self, work: Any) -> None:
        """Set the search's switches in `work`."""

    def check(self, work: Any) -> None:
        """Refuse what the search found unsound."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(depth={self.depth}, heuristic={self.heuristic!r})"


class MaxnAgent(SeatSearchAgent):
    """max^n, with Korf's shallow pruning as a switch (see search.py)."""

    algorithm = "maxn"

    def __init__(self, game: Game, seed: int = 0, depth: int = 3, heuristic: Heuristic | None = None,
                 win_score: float = DEFAULT_WIN_SCORE, shallow: bool = False, max_sum: float = 0.0,
                 floor: float | None = None, kernel: str = "auto") -> None:
        self.shallow, self.max_sum = shallow, max_sum
        self.floor = -win_score if floor is None else floor
        super().__init__(game, seed, depth, heuristic, win_score, kernel)

    def prepare(self, work: Any) -> None:
        work[WORK.shallow] = int(self.shallow)

    def child_value(self, bound: Bound, child: Any, depth: int, best: float, root: int, work: Any,
                    deadline: float) -> float:
        values = bound.array((depth + 1) * self.seats, float)     # a vector per level below the root's child
        return bound.functions.maxn(child, depth, self.seats, best, root, work, -self.win_score, self.win_score,
                                    self.floor, self.max_sum, bound.weights, deadline, values, 0)

    def check(self, work: Any) -> None:
        if work[WORK.over_sum]:
            raise ConfigError(f"maxn: shallow pruning needs every value >= floor ({self.floor:g}) and every vector "
                              f"summing to at most max_sum ({self.max_sum:g}), and {work[WORK.over_sum]} of "
                              f"heuristic '{getattr(self.heuristic, 'name', self.heuristic)}' did not: set floor and "
                              "max_sum to its bounds, or shallow: false")


class ParanoidAgent(SeatSearchAgent):
    """Paranoid: alpha-beta for the root's seat against the coalition of all the others."""

    algorithm = "paranoid"

    def child_value(self, bound: Bound, child: Any, depth: int, best: float, root: int, work: Any,
                    deadline: float) -> float:
        return bound.functions.paranoid(child, depth, best, INF, root, work, -self.win_score, self.win_score,
                                        bound.weights, deadline)


class BestReplyAgent(SeatSearchAgent):
    """Best-reply search: the root's seat against the single best reply of any opponent at each min layer (the
    game's `pass_to` lets the others pass: its spec `needs` it)."""

    algorithm = "brs"

    def child_value(self, bound: Bound, child: Any, depth: int, best: float, root: int, work: Any,
                    deadline: float) -> float:
        return bound.functions.brs(child, depth, best, INF, root, self.seats, False, work, -self.win_score,
                                   self.win_score, bound.weights, deadline)
