"""The proof-number family: `pns` (Allis), `pn2` (Breuker) and `dfpn` (Nagai), as solvers and agents.

`search` is the three searches, written once over the kernel interface (it cites its sources and states
the node convention); `binding` runs them compiled, interpreted or through an adapter; `pns` and `dfpn`
meet the Game protocol; `common` holds the binary-to-three-valued solving and the agent that plays
proven moves and otherwise defers to a fallback agent.
"""

from __future__ import annotations

from framework.hookspecs import hookimpl
from framework.params import AgentRef, Param
from framework.specs import AgentSpec
from plugins.agents.proofnumber.dfpn import DFPNAgent
from plugins.agents.proofnumber.pns import PN2Agent, PNSAgent

SHARED = (
    Param("fallback", AgentRef, None, "agent that moves when no win or draw is proven "
          "(NAME or NAME:key=value; null plays the solver's most promising move)"),
    Param("solve_share", float, 0.5, "share of each move's budget given to the solver before the fallback"),
)


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    tree = Param("tree_limit", int, 1_000_000, "most nodes the (first-level) tree may hold", minimum=2)
    table = Param("tt_size", int, 1_000_000, "most transposition-table entries", minimum=1)
    return [
        AgentSpec("pns", PNSAgent, "proof-number search (Allis 1994): solves, plays proven wins", (*SHARED, tree)),
        AgentSpec("pn2", PN2Agent, "two-level proof-number search PN² (Breuker 1998)", (*SHARED, tree)),
        AgentSpec("dfpn", DFPNAgent, "depth-first proof-number search df-pn (Nagai 2002), bounded table",
                  (*SHARED, table)),
    ]
