"""The depth-first proof-number searches, df-pn (Nagai 2002), PDS (Nagai 1999) and PDS-PN (Winands et al.
2002), as solvers with a bounded table (their agents are in `agent`).

The searches themselves are `search.dfpn_search`, `search.pds_search` and `search.pdspn_search` (one MID,
written once, run compiled, interpreted or through an adapter: `framework.kernel.binding.bind`; its
docstring has the algorithms, the thresholds and the handling of cycles); here they meet the Game protocol.
All three count and bound alike (PDS-PN's nodes include its second-level trees'):

Every child generated counts one node, each time its parent is (re-)expanded (`extra["expansions"]`
counts the expansions). The table holds at most `tt_size` entries (full, the older half in insertion
order is dropped: deterministic, and solved entries are as likely to go as any, which costs re-search,
never correctness); a frame keeps its children's numbers locally, so an entry dropped does not change what
the frame knows. Besides the table, memory holds the children of the frames on the current path, at most
depth x branching factor; `peak_entries` is the table's largest size plus the most children held on the
path. MID runs on an explicit stack, so a path is bounded only by the node budget.
"""

from __future__ import annotations

from framework.protocols import Game, State
from plugins.agents.proofnumber import search
from plugins.agents.proofnumber.common import (
    GROWTH,
    BinaryResult,
    Spend,
    bind,
    node_allowance,
)


def dfpn_search(game: Game, state: State, prover: int, spend: Spend, tt_size: int,
                name: str = "dfpn_search", kernel: str = "auto", growth: str = "published") -> BinaryResult:
    """Nagai's df-pn (or the search of `search` called `name`: "pds_search", "pdspn_search") for "does
    `prover` win from `state`?", with a table of at most `tt_size` entries, bound as `kernel` says; `growth`
    sizes PDS-PN's second-level trees (`common.GROWTH`)."""
    bound, cyclic = bind(game, kernel)
    growth_arg = (GROWTH[growth],) if name == "pdspn_search" else ()
    result = getattr(bound.functions, name)(bound.to_kernel(state), prover, bound.option, tt_size,
                                            node_allowance(spend), spend.limits.deadline, cyclic, *growth_arg)
    if result.status == search.ROOT_OVER_BUDGET:       # the root itself was not paid for: nothing searched
        return BinaryResult(None, None, False, {"stopped_by": "budget", "expansions": 0, "tt_entries": 0})
    spend.nodes += int(result.nodes)
    solved = result.status == search.SOLVED
    extra = {"stopped_by": "solved" if solved else "budget", "expansions": int(result.expansions),
             "tt_entries": int(result.tt_entries)}
    return BinaryResult(bool(result.proved) if solved else None,
                        bound.move(result.move) if result.expansions else None, bool(result.drawn), extra,
                        int(result.peak_entries))
