"""Alpha-beta: the agent a serious engine would ship, every enhancement switchable.

One concept per module: `settings` (declared parameters), `table` (transposition-table sizing and
flags), `search` (the algorithm: negamax, written once, with every enhancement and the definition of a
node), `binding` (which binding runs it: compiled, interpreted rules, or an adapter), `driver` (iterative
deepening and aspiration over it), `solver` (win/loss proving with both node-count conventions) and
`agent` (the Agent and Solver the registry builds); the registration below.
"""

from __future__ import annotations

from framework.hookspecs import hookimpl
from framework.specs import AgentSpec, MemoryBound
from plugins.agents.alphabeta.agent import AlphaBetaAgent
from plugins.agents.alphabeta.settings import ALL_OFF, EXACT_ONLY, PARAMS

__all__ = ["ALL_OFF", "EXACT_ONLY", "PARAMS", "AlphaBetaAgent"]


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("alphabeta", AlphaBetaAgent,
                      "negamax alpha-beta: iterative deepening, transposition table, move ordering, PVS, "
                      "aspiration, quiescence, LMR, singular extensions (each switchable); also a solver", PARAMS,
                      algorithm="alpha-beta", nodes="a visited state (in every iteration, or in the first "
                                                     "iteration reaching its depth: extra_nodes_first_reaching_depth)",
                      memory_bound=MemoryBound("tt_size", "table slots (the largest prime <= tt_size), allocated "
                                               "up front (88 bytes each compiled); killers and history are bounded "
                                               "by the depth and the game's moves"),
                      default_for=("play --second", "make-endgames --player"), solve_ignores=("heuristic",))]
