"""Alpha-beta search in negamax form, fail-soft (Knuth & Moore 1975, "An analysis of alpha-beta pruning").

Values are from the point of view of the player to move at each node; heuristics are
zero-sum (`evaluate(s, p) == -evaluate(s, 1 - p)`), so with the same depth and heuristic
this returns exactly minimax's value. Nodes are counted as in minimax: every state
visited, root and leaves included. Ties go to the first move in the game's move order.
"""

from __future__ import annotations

from framework.errors import ConfigError
from framework.hookspecs import hookimpl
from framework.params import HeuristicRef, Param
from framework.protocols import Budget, Decision, Game, Heuristic, SearchStats, State
from framework.search import SearchAborted, SearchLimits, Stopwatch, terminal_value
from framework.specs import AgentSpec

INF = float("inf")

PARAMS = (
    Param("depth", int, None, "plies to search; null searches to the end of the game", minimum=1, nullable=True),
    Param("heuristic", HeuristicRef, None, "evaluation at the depth limit (default: the game's default)"),
)


class AlphaBetaAgent:
    """Depth-limited fail-soft alpha-beta; the root searches with a full window."""

    def __init__(self, game: Game, seed: int = 0, depth: int | None = None,
                 heuristic: Heuristic | None = None) -> None:
        if depth is not None and heuristic is None:
            raise ConfigError(f"alphabeta with depth {depth} needs a heuristic, and {game.name} has none")
        self.depth = depth
        self.heuristic = heuristic

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        self.game, self.nodes = game, 1
        self.limits = SearchLimits.start(budget)
        depth = self.depth if self.depth is not None else 1 << 30
        moves = list(game.legal_moves(state))
        best_move, best_value, best_pv, complete = moves[0], -INF, (), True
        try:
            for move in moves:
                value, pv = self._negamax(game.apply(state, move), depth - 1, -INF, -best_value, 1)
                if -value > best_value:
                    best_move, best_value, best_pv = move, -value, pv
        except SearchAborted:
            complete = False
        stats = SearchStats(nodes=self.nodes, depth=depth if complete and self.depth else 0,
                            score=best_value if best_value > -INF else None, pv=(best_move, *best_pv),
                            wall_time=watch.wall(), cpu_time=watch.cpu(), extra={"complete": complete})
        return Decision(best_move, stats)

    def _negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> tuple[float, tuple]:
        if self.limits.exceeded(self.nodes):
            raise SearchAborted
        self.nodes += 1
        game = self.game
        mover = game.to_move(state)
        if game.is_terminal(state):
            return terminal_value(game, self.heuristic, state, mover, ply), ()
        if depth == 0:
            return self.heuristic.evaluate(state, mover), ()
        best, best_pv = -INF, ()
        for move in game.legal_moves(state):
            value, pv = self._negamax(game.apply(state, move), depth - 1, -beta, -max(alpha, best), ply + 1)
            if -value > best:
                best, best_pv = -value, (move, *pv)
                if best >= beta:
                    break
        return best, best_pv

    def __repr__(self) -> str:
        return f"AlphaBetaAgent(depth={self.depth}, heuristic={self.heuristic!r})"


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("alphabeta", AlphaBetaAgent, "depth-limited fail-soft alpha-beta (negamax)", PARAMS)]
