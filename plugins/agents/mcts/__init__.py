"""Monte-Carlo tree search (UCT with the MCTS-Solver): `agent.py` the agent, `search.py` the search written
once over `framework.kernel.api`."""

from __future__ import annotations

from framework.hookspecs import hookimpl
from framework.specs import AgentSpec, MemoryBound
from plugins.agents.mcts.agent import PARAMS, MCTSAgent

__all__ = ["MCTSAgent"]


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("mcts", MCTSAgent, "UCT Monte-Carlo tree search with the MCTS-Solver", PARAMS,
                      algorithm="Monte-Carlo tree search", nodes="a tree node (one per iteration)",
                      memory_bound=MemoryBound("iterations", "tree nodes: one per iteration"),
                      chance=True, multiplayer=True)]
