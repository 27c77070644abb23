"""The expectiminimax agent: iterative deepening over `search.expectimax` (Star1 / Star2 switches).

The search is written once against `framework.kernel.api` (search.py) and bound once per decision by
`framework.kernel.binding.bind` (the `kernel` option: compiled over a game's kernel that has the dice
primitives, else through a `KernelAdapter`; the binding is recorded in `extra["binding"]`). The driver
searches the root's moves itself, each with the window its best so far allows, deepening one ply at a time
up to `depth` while the budget lasts; a root search cut by the budget is dropped and the last complete one
answers (depth 1 always completes unless the budget is below its nodes). Two players; values
are the heuristic's clamped into +-`win_score`, an end scoring seat 0's return times `win_score` (the
bounds Star1 relies on; the built-in dice games' heuristics stay within 1000, the default).
"""

from __future__ import annotations

from typing import Any

from framework.errors import ConfigError
from framework.kernel.binding import KERNEL_PARAM, Bound, bind, warm_up
from framework.params import HeuristicRef, Param
from framework.protocols import WIN_SCORE, Budget, Decision, Game, Heuristic, SearchStats, State
from framework.search import SearchLimits, Stopwatch, deepen
from plugins.agents.expectiminimax import search
from plugins.agents.expectiminimax.search import WORK, WORK_SIZE

MAX_DEPTH = 64
#: The default score of a win: the built-in dice games' heuristics stay within it.
DEFAULT_WIN_SCORE = 1000.0

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


class ExpectiminimaxAgent:
    """Depth-limited expectiminimax with Star1 / Star2; see the module docstring."""

    def __init__(self, game: Game, seed: int = 0, depth: int = 4, star1: bool = True, star2: bool = True,
                 heuristic: Heuristic | None = None, win_score: float = DEFAULT_WIN_SCORE,
                 kernel: str = "auto") -> None:
        if heuristic is None:
            raise ConfigError(f"expectiminimax needs a heuristic, and {game.name} names no default: give 'heuristic'")
        if star2 and not star1:
            raise ConfigError("expectiminimax: 'star2' extends Star1 (its search phase is Star1's): "
                              "set star1: true, or star2: false")
        self.depth, self.star1, self.star2, self.heuristic = depth, star1, star2, heuristic
        self.win_score, self.kernel = win_score, kernel
        if bind(search, game, heuristic, kernel).binding == "compiled":   # a kernel that does not fit is refused now
            warm_up(self, game)

    def search(self, game: Game, state: State, depth: int, limits: SearchLimits, work: Any,
               bound: Bound) -> tuple[float, Any] | None:
        """One root search: (value for seat 0, best move), or None when the budget ran out."""
        mover = game.to_move(state)
        best, best_move = (-search.INF if mover == 0 else search.INF), None
        if not search.counted(work, limits.deadline):
            return None
        # each child made by the game, then converted: a compiled `apply_move` called from here returns a
        # uint64 bitboard as a Python int, refused as an int64 at 2**63 and above (LOA's)
        for move in game.legal_moves(state):
            alpha, beta = (best, search.INF) if mover == 0 else (-search.INF, best)
            v = bound.functions.expectimax(bound.to_kernel(game.apply(state, move)), depth - 1, alpha, beta, 1,
                                           work, -self.win_score, self.win_score, bound.weights, limits.deadline)
            if work[WORK.aborted]:
                return None
            if (v > best) if mover == 0 else (v < best):
                best, best_move = v, move
        return best, best_move

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        limits = SearchLimits.start(budget)
        bound = bind(search, game, self.heuristic, self.kernel)
        work = bound.work(WORK, WORK_SIZE, limits.nodes_left())
        work[WORK.use_star1], work[WORK.use_star2] = int(self.star1), int(self.star2)
        work[WORK.returns] = bound.returns()
        mover = game.to_move(state)
        move, score = game.legal_moves(state)[0], None
        done = deepen(lambda depth, _: self.search(game, state, depth, limits, work, bound), range(1, self.depth + 1))
        if done:
            value, move = done[-1]
            score = value if mover == 0 else -value
        completed = len(done)
        return Decision(move, SearchStats(
            nodes=int(work[WORK.nodes]), depth=completed, score=score, pv=(move,), wall_time=watch.wall(),
            cpu_time=watch.cpu(), extra={"star1_cutoffs": int(work[WORK.star1_cutoffs]),
                                         "star2_cutoffs": int(work[WORK.star2_cutoffs]), **bound.recorded()}))

    def __repr__(self) -> str:
        return f"ExpectiminimaxAgent(depth={self.depth}, star1={self.star1}, star2={self.star2})"
