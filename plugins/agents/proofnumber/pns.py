"""Proof-number search (Allis 1994) and its two-level form PN² (Breuker 1998) as solvers and agents.

The searches themselves are `search.pn_search` and `search.pn2_search` (written once, run compiled,
interpreted or through a `PassThroughAdapter`: `framework.kernel.binding.bind`, as the agent's `kernel`
option says); here they meet the Game protocol and the solver's answer.

A proof found by PN search reports its length in `extra["proof_length"]` (`search.proof_length`): the
prover wins within that many plies, an upper bound read off the proof tree (None in the rare proof that
rests on itself through transpositions). PN² does not: its first-level tree keeps only the root children
of each second-level search, not a whole proof; it reports `second_level_nodes` and `second_level_searches`.

Memory is bounded by `tree_limit`. A tree never holds more than `tree_limit` nodes: an expansion that
would pass it stops the search with the answer unknown (`stopped_by: tree_limit`). PN search's table holds
only states of its tree, so at most as many entries. PN²'s second-level tree is limited to as many nodes
as the first-level tree holds (plus the last expansion's children) and is freed after each search, as
Breuker's PN² does; the table they share outlives the second-level trees, so it is bounded at `tree_limit`
entries (a full table drops its older half). So PN² holds at most about 3 x `tree_limit` entries.
"""

from __future__ import annotations

from typing import Any

from framework.errors import ConfigError
from framework.protocols import Budget, Game, State
from framework.search import SearchAborted, SearchLimits
from plugins.agents.proofnumber import search
from plugins.agents.proofnumber.common import BinaryResult, ProofNumberAgent, Spend, bind, node_allowance

_REASONS = {search.SOLVED: "solved", search.BUDGET: "budget", search.TREE_FULL: "tree_limit"}


def pn_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int,
              two_level: bool = False, kernel: str = "auto") -> BinaryResult:
    """Allis' PN search (Breuker's PN² when `two_level`) for "does `prover` win from `state`?", bound as
    `kernel` says; raises SearchAborted when the budget cannot pay for the root."""
    bound, cyclic = bind(game, kernel)
    run = bound.functions.pn2_search if two_level else bound.functions.pn_search
    result = run(bound.to_kernel(state), prover, bound.option, tree_limit, node_allowance(spend),
                 spend.limits.deadline, cyclic)
    if result.status == search.ROOT_OVER_BUDGET:
        raise SearchAborted
    spend.nodes += int(result.nodes)
    extra: dict[str, Any] = {"tree_nodes": int(result.tree_nodes), "stopped_by": _REASONS[result.status]}
    if two_level:
        extra.update(second_level_nodes=int(result.second_level_nodes),
                     second_level_searches=int(result.second_level_searches))
    elif result.proved:
        extra["proof_length"] = int(result.proof_length) if result.proof_length >= 0 else None
    return BinaryResult(bool(result.proved) if result.status == search.SOLVED else None,
                        bound.move(result.move) if result.tree_nodes > 1 else None, bool(result.drawn), extra,
                        int(result.peak_entries))


def pn2_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int) -> BinaryResult:
    """Breuker's PN²: each first-level expansion is a second-level PN search as large as the first tree."""
    return pn_search(game, state, prover, spend, tree_limit, two_level=True)


class PNSAgent(ProofNumberAgent):
    """Allis' proof-number search as a solver and agent (see the module docstring)."""

    def __init__(self, game: Game, seed: int = 0, fallback: Any = None, solve_share: float = 0.5,
                 tree_limit: int = 1_000_000, kernel: str = "auto") -> None:
        super().__init__(game, seed, fallback, solve_share, kernel)
        if tree_limit < 2:
            raise ConfigError(f"tree_limit must be at least 2 nodes, got {tree_limit!r}")
        self.tree_limit = tree_limit
        if self.compiled:
            # Compile (or load) its own compiled search (PN or PN², not both) now, so no timed move pays for it.
            pn_search(game, game.initial_state(), 0, Spend(SearchLimits.start(Budget(nodes=2))), 2,
                      isinstance(self, PN2Agent), kernel)

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return pn_search(game, state, prover, spend, self.tree_limit, kernel=self.kernel)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(tree_limit={self.tree_limit}, fallback={self.fallback!r})"


class PN2Agent(PNSAgent):
    """Breuker's PN² as a solver and agent; `tree_limit` bounds the first-level tree."""

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return pn_search(game, state, prover, spend, self.tree_limit, True, self.kernel)
