"""What the proof-number solvers share: the budget, the three-valued answer built from binary searches
(the agents that play proven moves are in `agent`).

A proof-number search answers a *binary* question: "can the `prover` force a win from this state?"
(Allis 1994, "Searching for Solutions in Games and Artificial Intelligence", ch. 3). A draw counts as a
failure for the prover, so a disproof alone does not tell a loss from a draw; `solve_three_valued` runs a
second search for the other side when it must (see there). The searches, their node convention and their
handling of repetitions are in `search`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from framework.capabilities import capabilities
from framework.errors import ConfigError
from framework.kernel import binding
from framework.protocols import Budget, Game, Move, Proof, SearchStats, SolveResult, State
from framework.search import SearchLimits, Stopwatch
from plugins.agents.proofnumber import search


class Spend:
    """Nodes generated so far in one decision (the searches check them against its limits, `node_allowance`)."""

    __slots__ = ("limits", "nodes")

    def __init__(self, limits: SearchLimits) -> None:
        self.limits = limits
        self.nodes = 0


#: The `growth` option of PN² and PDS-PN: how large a second-level tree may grow (`search.second_level_size`).
GROWTH = {"published": search.GROWTH_PUBLISHED, "tree-size": search.GROWTH_TREE_SIZE}


def checked_growth(growth: str) -> str:
    """`growth` if it names a `GROWTH`, else a ConfigError naming the choices."""
    if growth not in GROWTH:
        raise ConfigError(f"growth must be one of {', '.join(GROWTH)}, got {growth!r}")
    return growth


def node_allowance(spend: Spend) -> int:
    """The nodes a search may still generate in this decision (an int64 for compiled code)."""
    return spend.limits.nodes_left(spend.nodes)


def bind(game: Game, kernel: str) -> tuple[binding.Bound, bool]:
    """The searches bound for `game` as `kernel` says (`framework.kernel.binding.bind`, as `search` declares),
    and whether the game can repeat a state."""
    return binding.bind(search, game, None, kernel), capabilities(game).offers("repetition_limit")


@dataclass
class BinaryResult:
    """The answer of one binary search: proved (True), disproved (False) or unknown (None).

    `move` is the root move that proves (at an OR root) or disproves (at an AND root) it;
    unsolved, it is the search's most promising root move. `drawn` says a drawn leaf was seen.
    `peak_entries`: `SearchStats.peak_entries` of this search.
    """

    proved: bool | None
    move: Move | None
    drawn: bool
    extra: dict[str, Any] = field(default_factory=dict)
    peak_entries: int = 0


#: A binary search: (game, state, prover, spend) -> BinaryResult. Each solver module provides one.
BinarySearch = Callable[[Game, State, int, Spend], BinaryResult]


def solve_three_valued(search: BinarySearch, game: Game, state: State, budget: Budget) -> SolveResult:
    """Win, loss or draw for the side to move, from one or two binary searches sharing the budget.

    First "the mover wins?". Proved: WIN. Disproved with no drawn leaf anywhere in the search:
    every leaf of the disproof is a loss, so the disproof is a proof of LOSS and no second
    search is needed (games without draws pay for one search only). Otherwise a second search
    asks "the opponent wins?": proved is LOSS, disproved is DRAW (its disproving root move is a
    drawing move). A budget that runs out gives UNKNOWN. The move is the winning move for WIN,
    a drawing move for DRAW, None for LOSS, and the first search's most promising move for UNKNOWN.
    """
    watch = Stopwatch()
    spend = Spend(SearchLimits.start(budget))
    mover = game.to_move(state)
    if game.is_terminal(state):
        result = game.returns(state)[mover]
        value = Proof.WIN if result > 0 else Proof.LOSS if result < 0 else Proof.DRAW
        return SolveResult(value, None, SearchStats(nodes=1, wall_time=watch.wall(), cpu_time=watch.cpu()))
    first = search(game, state, mover, spend)
    peak = first.peak_entries    # the first search's memory is freed before the second starts
    extra: dict[str, Any] = {"searches": 1, **first.extra}
    if first.proved is True:
        value, move = Proof.WIN, first.move
    elif first.proved is None:
        value, move = Proof.UNKNOWN, first.move
    elif not first.drawn:
        value, move = Proof.LOSS, None
    else:
        second = search(game, state, 1 - mover, spend)
        peak = max(peak, second.peak_entries)
        extra = {"searches": 2, **second.extra, "first_search": first.extra}
        if second.proved is True:
            value, move = Proof.LOSS, None
        elif second.proved is False:
            value, move = Proof.DRAW, second.move
        else:
            value, move = Proof.UNKNOWN, first.move
    extra["proof"] = value.value
    return SolveResult(value, move, SearchStats(nodes=spend.nodes, wall_time=watch.wall(), cpu_time=watch.cpu(),
                                                extra=extra, peak_entries=peak))


def split_budget(budget: Budget, share: float) -> Budget:
    """The part of a decision's budget the solver may use before the fallback agent moves."""
    return Budget(time=None if budget.time is None else budget.time * share,
                  nodes=None if budget.nodes is None else max(1, int(budget.nodes * share)))


def remaining_budget(budget: Budget, nodes_used: int, seconds_used: float) -> Budget:
    """What is left of `budget` after the solver spent `nodes_used` and `seconds_used`."""
    return Budget(time=None if budget.time is None else max(budget.time - seconds_used, 1e-3),
                  nodes=None if budget.nodes is None else max(1, budget.nodes - nodes_used))
