"""OpenSpiel's search bots as agents: `openspiel-mcts` is OpenSpiel's C++ MCTSBot (`agent.py`), on the openspiel:NAME
games and on our games with an OpenSpiel twin, followed move by move (`twins.py`). Needs OpenSpiel
(`pip install -e '.[openspiel]'`)."""

from __future__ import annotations

from framework.hookspecs import hookimpl
from framework.specs import AgentSpec, MemoryBound
from plugins.agents.openspiel_bots.agent import PARAMS, OpenSpielMCTS

__all__ = ["OpenSpielMCTS"]


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("openspiel-mcts", OpenSpielMCTS, "OpenSpiel's MCTSBot (C++ UCT, random rollouts, MCTS-Solver) "
                      "on openspiel:NAME games and on loa, checkers, tictactoe, pig", PARAMS,
                      algorithm="Monte-Carlo tree search", nodes="a simulation (OpenSpiel's MCTSBot)",
                      memory_bound=MemoryBound("simulations", "tree nodes: at most one per simulation"),
                      chance=True, multiplayer=True)]
