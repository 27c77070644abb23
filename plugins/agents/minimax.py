"""Plain minimax (von Neumann 1928; Russell & Norvig, AIMA ch. 5): the textbook baseline.

MAX is the player to move at the root; every value is from MAX's point of view. Every
state visited counts as one node, root and leaves included, so a full-depth search of
tic-tac-toe from the empty board counts the 549,946 states of its game tree. Ties go
to the first move in the game's move order.
"""

from __future__ import annotations

from typing import cast

from framework.errors import ConfigError
from framework.hookspecs import hookimpl
from framework.params import HeuristicRef, Param
from framework.protocols import Budget, Decision, Game, Heuristic, SearchStats, State
from framework.search import SearchAborted, SearchLimits, Stopwatch, terminal_value
from framework.specs import AgentSpec

#: Deepest fixed-depth search: alpha-beta's bound, and far deeper than plain minimax finishes in any game here.
MAX_DEPTH = 256

PARAMS = (
    Param("depth", int, None, "plies to search; null searches to the end of the game", minimum=1,
          maximum=MAX_DEPTH, nullable=True),
    Param("heuristic", HeuristicRef, None, "evaluation at the depth limit (default: the game's default)"),
)


class MinimaxAgent:
    """Full-width minimax to a fixed depth (or to the end), no pruning."""

    def __init__(self, game: Game, seed: int = 0, depth: int | None = None,
                 heuristic: Heuristic | None = None) -> None:
        if depth is not None and heuristic is None:
            raise ConfigError(f"minimax with depth {depth} needs a heuristic, and {game.name} has none")
        self.depth = depth
        self.heuristic = heuristic

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        self.game, self.max_player, self.nodes, self.reached = game, game.to_move(state), 1, 0
        self.limits = SearchLimits.start(budget)
        depth = self.depth if self.depth is not None else 1 << 30
        moves = list(game.legal_moves(state))
        best_move, best_value, best_pv, complete = moves[0], None, (), True
        maximizing = game.to_move(state) == self.max_player
        try:
            for move in moves:
                value, pv = self._minimax(game.apply(state, move), depth - 1, 1)
                if best_value is None or (value > best_value if maximizing else value < best_value):
                    best_move, best_value, best_pv = move, value, pv
        except SearchAborted:
            complete = False
        stats = SearchStats(nodes=self.nodes, depth=self.reached if complete else 0,
                            score=best_value, pv=(best_move, *best_pv), wall_time=watch.wall(),
                            cpu_time=watch.cpu(), extra={"complete": complete})
        return Decision(best_move, stats)

    def _minimax(self, state: State, depth: int, ply: int) -> tuple[float, tuple]:
        if self.limits.exceeded(self.nodes):
            raise SearchAborted
        self.nodes += 1
        if ply > self.reached:
            self.reached = ply
        game = self.game
        if game.is_terminal(state):
            return terminal_value(game, self.heuristic, state, self.max_player, ply), ()
        if depth == 0:
            return cast(Heuristic, self.heuristic).evaluate(state, self.max_player), ()  # depth limits come with one
        maximizing = game.to_move(state) == self.max_player
        best, best_pv, best_move = None, (), None
        for move in game.legal_moves(state):
            value, pv = self._minimax(game.apply(state, move), depth - 1, ply + 1)
            if best is None or (value > best if maximizing else value < best):
                best, best_pv, best_move = value, pv, move
        return cast(float, best), (best_move, *best_pv)  # a state that is not over has a move

    def __repr__(self) -> str:
        return f"MinimaxAgent(depth={self.depth}, heuristic={self.heuristic!r})"


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("minimax", MinimaxAgent, "plain minimax, full-width, no pruning (the baseline)", PARAMS)]
