"""The alpha-beta agent: picks a move with `AlphaBetaSearch`, and can solve positions.

Depth and budget: under a time or node budget, iterative deepening searches depth 1, 2, ...
up to `depth` (with `depth` null, until an iteration is exhausted: it met no heuristic leaf,
so its value is the game-theoretic one under the heuristic's terminal scores). When the
budget runs out, the move and score are those of the deepest completed iteration (or, if
none completed, the first move in the game's order, its `ordered_moves` hints if any).
Without a budget the requested depth (null: the end of the game) is searched directly:
deepening would only buy move ordering, which on small trees costs more nodes than it
saves. Without a heuristic there is no horizon to stop at, so the search goes to the end.

Every decision starts from an empty transposition table and empty killer and history
tables, so a decision depends only on the state, the parameters and the budget.
"""

from __future__ import annotations

from framework.errors import ConfigError, PositionError
from framework.kernel import numba_backend
from framework.kernel.binding import bind
from framework.protocols import Budget, Decision, Game, Heuristic, SearchStats, SolveResult, State
from framework.search import SearchLimits, Stopwatch
from plugins.agents.alphabeta import search
from plugins.agents.alphabeta.binding import CompiledTable, refusal
from plugins.agents.alphabeta.driver import UNBOUNDED, AlphaBetaSearch, warmup
from plugins.agents.alphabeta.settings import Settings
from plugins.agents.alphabeta.solver import solve


class AlphaBetaAgent:
    """Fail-soft negamax alpha-beta with switchable enhancements (see `settings.py`)."""

    def __init__(self, game: Game, seed: int = 0, depth: int | None = None, heuristic: Heuristic | None = None,
                 **enhancements: object) -> None:
        if depth is not None and heuristic is None:
            raise ConfigError(f"alphabeta with depth {depth} needs a heuristic, and {game.name} has none")
        self.depth = depth
        self.heuristic = heuristic
        #: How the search runs (`framework.kernel.binding.BINDINGS`), the one option besides the enhancements.
        self.kernel = kernel = str(enhancements.pop("kernel", "auto"))
        self.settings = Settings.resolve(enhancements)
        self.compiled_table: CompiledTable | None = None    # made by the first compiled search, kept across decisions
        #: The last decision's search, renewed for the next of its kind, and whether compiled kernels were on for it.
        self._last: tuple[AlphaBetaSearch, bool] | None = None
        # A kernel that does not fit `kernel` is refused now; compile (or load) the compiled search now, so no
        # timed move pays for it.
        if kernel != "adapter" and bind(search, game, heuristic, kernel,
                                        refuse=refusal(self.settings)).binding == "compiled":
            warmup(game, heuristic)

    def new_search(self, game: Game, heuristic: Heuristic | None, budget: Budget,
                   proof_score: float | None = None) -> AlphaBetaSearch:
        """A search for one decision, from empty tables (the compiled table is reused, stamped anew): the last
        decision's search renewed when it ran the same game, heuristic and kind of search with compiled kernels on
        or off as now (`PLYGROUND_JIT`), so its set-up is not worked out again."""
        limits, jit = SearchLimits.start(budget), numba_backend.enabled()
        if self._last is not None:
            last, last_jit = self._last
            if (last.game is game and last.heuristic is heuristic and last.proof_score == proof_score
                    and last_jit == jit):
                last.renew(limits)
                return last
        search = AlphaBetaSearch(game, heuristic, self.settings, limits, proof_score, self.compiled_table, self.kernel)
        self.compiled_table = search.compiled_table
        if search.kernel:   # an adapter interns what a decision meets: one per decision
            self._last = (search, jit)
        return search

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        moves = game.legal_moves(state)
        if not moves:
            raise PositionError(f"alphabeta cannot choose a move in '{game.to_text(state)}': the game is over")
        search = self.new_search(game, self.heuristic, budget)
        max_depth = self.depth if self.depth is not None else UNBOUNDED
        iterate = (self.settings.iterative_deepening and self.heuristic is not None
                   and (budget.time is not None or budget.nodes is not None))
        iterations = search.deepen(state, max_depth, iterate)
        last = iterations[-1] if iterations else None
        complete = last is not None and (last.depth >= max_depth or last.exhausted)
        stats = SearchStats(
            # + 0.0 turns negamax's -0.0 into 0.0
            nodes=search.nodes, depth=last.depth if last else 0, score=last.score + 0.0 if last else None,
            pv=last.pv if last else (), wall_time=watch.wall(), cpu_time=watch.cpu(),
            extra={"complete": complete, "seldepth": _seldepth(search.ply_nodes),
                   "iteration_nodes": tuple(i.nodes for i in iterations),
                   **search.binding.recorded()},
            peak_entries=search.table_entries())
        return Decision(last.move if last else search.moves_of(state)[0], stats)

    def solve(self, game: Game, state: State, budget: Budget) -> SolveResult:
        """Prove the value of `state` for the side to move (see `solver.py`)."""
        return solve(self, game, state, budget)

    def __repr__(self) -> str:
        return f"AlphaBetaAgent(depth={self.depth}, heuristic={self.heuristic!r})"


def _seldepth(ply_nodes: list[int]) -> int:
    """The deepest ply any node was visited at (quiescence and extensions included)."""
    deepest = 0
    for ply, count in enumerate(ply_nodes):
        if count:
            deepest = ply
    return deepest
