"""Proof-number search (Allis 1994) and its two-level form PN² (Breuker 1998) as solvers (their agents are in `agent`).

The searches themselves are `search.pn_search` and `search.pn2_search` (written once, run compiled,
interpreted or through a `PassThroughAdapter`: `framework.kernel.binding.bind`, as the agent's `kernel`
option says); here they meet the Game protocol and the solver's answer.

A proof found by PN search reports its length in `extra["proof_length"]` (`search.proof_length`): the
prover wins within that many plies, an upper bound read off the proof tree (None in the rare proof that
rests on itself through transpositions). PN² does not: its first-level tree keeps only the root children
of each second-level search, not a whole proof; it reports `second_level_nodes` and `second_level_searches`.

Memory is bounded by `tree_limit` N, and by `tree_share` of the decision's node budget when that is set
(the smaller of the two): a bound relative to the budget, so a larger budget does not leave it unreachable.
A tree never holds more than N nodes: an expansion that would pass it stops the search with the answer
unknown (`stopped_by: tree_limit`). PN search's table holds only states of its tree, so at most as many
entries. PN²'s second-level tree holds at most y = min(x f(x), N - x) nodes beyond its root for a
first-level tree of x nodes (Breuker's growth function, `search.second_level_size`; plus the last
expansion's children), so both trees together hold about N at most; `growth: tree-size` keeps this
project's first PN² instead, y = x (f = 1, no memory term: up to 2N). The second-level tree is freed after
each search, as Breuker's PN² does; the table both levels share outlives it and is bounded at N entries (a
full table drops its older half). So PN² holds at most about 2N entries (3N with `growth: tree-size`).
"""

from __future__ import annotations

from typing import Any

from framework.protocols import Game, State
from framework.search import SearchAborted
from plugins.agents.proofnumber import common, search
from plugins.agents.proofnumber.common import BinaryResult, Spend, bind, node_allowance

_REASONS = {search.SOLVED: "solved", search.BUDGET: "budget", search.TREE_FULL: "tree_limit"}


def pn_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int,
              two_level: bool = False, kernel: str = "auto", growth: str = "published") -> BinaryResult:
    """Allis' PN search (Breuker's PN² when `two_level`, its second level sized as `growth` says) for "does
    `prover` win from `state`?", bound as `kernel` says; raises SearchAborted when the budget cannot pay for
    the root."""
    bound, cyclic = bind(game, kernel)
    args = (bound.to_kernel(state), prover, bound.option, tree_limit, node_allowance(spend), spend.limits.deadline,
            cyclic)
    if two_level:
        result = bound.functions.pn2_search(*args, common.GROWTH[growth])
    else:
        result = bound.functions.pn_search(*args)
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


def pn2_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int,
               growth: str = "published") -> BinaryResult:
    """Breuker's PN²: each first-level expansion is a second-level PN search sized as `growth` says."""
    return pn_search(game, state, prover, spend, tree_limit, two_level=True, growth=growth)
