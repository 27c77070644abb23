"""The proof-number family: `pns` (Allis), `pn2` (Breuker), `dfpn` and `pds` (Nagai), `pdspn` (Winands et al.),
as solvers and agents.

`search` is the five searches, written once over the kernel interface (it cites its sources and states
the node convention); `framework.kernel.binding.bind` runs them compiled, interpreted or through an adapter (the
`kernel` option); `pns` and `dfpn` meet the Game protocol; `common` holds the binary-to-three-valued
solving; `agent` the agents, which play proven moves and otherwise defer to a fallback agent; the
registration below.
"""

from __future__ import annotations

from framework.hookspecs import hookimpl
from framework.kernel.binding import KERNEL_PARAM
from framework.params import AgentRef, Param
from framework.specs import AgentSpec, MemoryBound
from plugins.agents.proofnumber.agent import DFPNAgent, PDSAgent, PDSPNAgent, PN2Agent, PNSAgent
from plugins.agents.proofnumber.common import GROWTH

#: Most tree nodes or table entries: both grow on demand to at most this (tens of GB at a few hundred bytes
#: each), and the compiled df-pn takes `tt_size` as a 64-bit integer.
MAX_ENTRIES = 1 << 26

SHARED = (
    Param("fallback", AgentRef, None, "agent that moves when no win or draw is proven "
          "(NAME or NAME:key=value; null plays the solver's most promising move)"),
    Param("solve_share", float, 0.5, "share of each move's budget given to the solver before the fallback",
          minimum=0.0, maximum=1.0),
    KERNEL_PARAM,
)


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    tree = Param("tree_limit", int, 1_000_000, "most nodes the (first-level) tree may hold", minimum=2,
                 maximum=MAX_ENTRIES)
    table = Param("tt_size", int, 1_000_000, "most transposition-table entries", minimum=1,
                  maximum=MAX_ENTRIES)
    share = Param("tree_share", float, None, "bound the tree at this share of each decision's node budget too "
                  "(the smaller bound holds; null: tree_limit alone)", minimum=0.0, maximum=1.0, nullable=True)
    growth = Param("growth", str, "published", "how large a second-level tree may grow: published (Breuker's "
                   "growth function y = min(x f(x), N - x), the paper's (a, b)) or tree-size (y = x, as large as "
                   "the first level)", choices=tuple(GROWTH))
    return [
        AgentSpec("pns", PNSAgent, "proof-number search (Allis 1994): solves, plays proven wins",
                  (*SHARED, tree, share),
                  algorithm="proof-number search", nodes="a generated state",
                  memory_bound=MemoryBound("tree_limit", "tree nodes; its table holds only states of the tree"),
                  default_for=("make-endgames --solver", "solve --solver")),
        AgentSpec("pn2", PN2Agent, "two-level proof-number search PN² (Breuker 1998)",
                  (*SHARED, tree, share, growth), algorithm="PN²",
                  nodes="a generated state, its second-level trees' included",
                  memory_bound=MemoryBound("tree_limit", "tree nodes N: the first-level tree and one second-level "
                                           "tree (freed after its search) together, the shared table as many: "
                                           "about 2 x tree_limit in all (3 x with growth: tree-size)")),
        AgentSpec("dfpn", DFPNAgent, "depth-first proof-number search df-pn (Nagai 2002), bounded table",
                  (*SHARED, table), algorithm="df-pn", nodes="a generated state, re-expansions included",
                  memory_bound=MemoryBound("tt_size", "table entries, plus the children of the frames on the "
                                           "current path")),
        AgentSpec("pds", PDSAgent, "proof-disproof search PDS (Nagai 1999): depth-first, multiple iterative "
                  "deepening, bounded table", (*SHARED, table), algorithm="PDS",
                  nodes="a generated state, re-expansions included",
                  memory_bound=MemoryBound("tt_size", "table entries, plus the children of the frames on the "
                                           "current path")),
        AgentSpec("pdspn", PDSPNAgent, "two-level PDS-PN (Winands, Uiterwijk & van den Herik 2002): PDS whose "
                  "expansions are PN searches", (*SHARED, table, growth), algorithm="PDS-PN",
                  nodes="a generated state, re-expansions and second-level trees included",
                  memory_bound=MemoryBound("tt_size", "first-level table entries, plus the children of the frames "
                                           "on the current path, and one second-level tree (freed after its "
                                           "search) of at most tt_size less the table's entries (tt_size with "
                                           "growth: tree-size)")),
    ]
