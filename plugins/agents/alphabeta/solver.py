"""Alpha-beta as a solver: iterative deepening with a win/loss-only evaluation.

As in the alpha-beta baseline of Winands, Uiterwijk & van den Herik (2002, "PDS-PN: a new
proof-number search algorithm"): terminal states score +1 (win for the side to move), -1
(loss) or 0 (draw), every state at the depth limit scores 0, "unknown". Under minimax a
score of +1 or -1 can only come from terminal states, so a root score of +1 proves a win
and -1 a loss. A root score of 0 proves a draw only when the iteration was exhausted (it met
no depth-limit leaf, so every 0 in it is a real draw); otherwise the value is unknown.
Deepening stops at the first proof or when the budget runs out. The agent's enhancement
switches apply; entries that hold for the whole game (proven wins and losses, exhausted
subtrees) answer from the transposition table at any depth.

Node counts, both in `SolveResult.stats.extra`:
- `nodes_all_iterations`: every node of every iteration (equal to `stats.nodes`).
- `nodes_first_reaching_depth`: a node at ply p from the root is counted only in the first
  iteration that reached ply p — the convention of Winands et al. (2002) that the thesis'
  Table 4.2 reproduces. In plain iterative deepening this is the nodes at ply d of
  iteration d, summed over d (the root and ply 1 in iteration 1).
Also `proof` (the Proof value), `iteration_nodes` (all nodes per completed iteration) and
`complete` (the search ended with a proof rather than on its budget).

Memory: `stats.peak_entries` is the transposition-table entries the solve wrote, at most
`tt_size` (the table is allocated up front at the largest prime <= `tt_size` slots, `table.slot_count`:
88 bytes each on the compiled path; the interpreted table, a dict holding a row only for each slot
probed, is made only by a search that runs interpreted, as a root search deeper than
`settings.MAX_DEPTH` does). Killer moves (two per ply), history scores (one per distinct move of the game) and the
per-ply node counts and principal variations (one per ply of the deepest iteration) are the
only other structures, bounded by the depth and the game's move space, not by the budget.
"""

from __future__ import annotations

from typing import Protocol

from framework.errors import PositionError
from framework.protocols import Budget, Game, Heuristic, Proof, SearchStats, SolveResult, State
from framework.search import Stopwatch
from plugins.agents.alphabeta.driver import UNBOUNDED, AlphaBetaSearch, Iteration
from plugins.agents.alphabeta.settings import Settings


class Searcher(Protocol):
    """What a solve needs of the agent: its depth cap, its settings and a search for one decision."""

    depth: int | None
    settings: Settings

    def new_search(self, game: Game, heuristic: Heuristic | None, budget: Budget,
                   proof_score: float | None = None) -> AlphaBetaSearch: ...


class WinLossEvaluation:
    """The solver's evaluation: +1 / -1 / 0 at terminal states for the mover, 0 ("unknown") at the horizon."""

    name = "win-loss"
    #: No search calls its `evaluate` (0 at every horizon, solver mode): a compiled one binds any heuristic
    #: function in its place (`framework.kernel.binding.unscored`).
    UNSCORED = True

    def __init__(self, game: Game) -> None:
        self.game = game

    def evaluate(self, state: State, player: int) -> float:
        return 0.0

    def terminal(self, state: State, player: int, ply: int) -> float:
        outcome = self.game.returns(state)[player]
        return 1.0 if outcome > 0 else -1.0 if outcome < 0 else 0.0


class FirstReachCounter:
    """Adds up nodes at plies that no earlier iteration reached (Winands et al. 2002)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.reached = -1

    def __call__(self, iteration: Iteration | None, ply_nodes: list[int]) -> None:
        deepest = self.reached
        for ply, count in enumerate(ply_nodes):
            if count and ply > self.reached:
                self.nodes += count
                deepest = ply
        self.reached = deepest


def solve(agent: Searcher, game: Game, state: State, budget: Budget) -> SolveResult:
    """Prove `state` a win, loss or draw for the side to move within `budget` (`depth` caps the iterations)."""
    watch = Stopwatch()
    if game.is_terminal(state):
        raise PositionError(f"alphabeta cannot solve '{game.to_text(state)}': the game is already over")
    search = agent.new_search(game, WinLossEvaluation(game), budget, proof_score=1.0)
    counter = FirstReachCounter()
    max_depth = agent.depth if agent.depth is not None else UNBOUNDED
    iterations = search.deepen(state, max_depth, agent.settings.iterative_deepening,
                               proven=lambda score: score != 0.0, on_iteration=counter)
    last = iterations[-1] if iterations else None
    if last is None or (last.score == 0.0 and not last.exhausted):
        proof = Proof.UNKNOWN
    else:
        proof = Proof.WIN if last.score > 0 else Proof.LOSS if last.score < 0 else Proof.DRAW
    stats = SearchStats(
        nodes=search.nodes, depth=last.depth if last else 0, score=last.score if last else None,
        pv=last.pv if last else (), wall_time=watch.wall(), cpu_time=watch.cpu(),
        extra={"proof": proof.value, "complete": proof is not Proof.UNKNOWN,
               "nodes_all_iterations": search.nodes, "nodes_first_reaching_depth": counter.nodes,
               "iteration_nodes": tuple(i.nodes for i in iterations)},
        peak_entries=search.table_entries())
    return SolveResult(proof, last.move if last else None, stats)
