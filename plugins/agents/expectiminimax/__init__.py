"""Expectiminimax with Ballard's Star1/Star2 for two players and dice: `search` the algorithm (written
once against `framework.kernel.api`), `agent` the agent that drives it; the registration below.
"""

from __future__ import annotations

from framework.hookspecs import hookimpl
from framework.specs import AgentSpec
from plugins.agents.expectiminimax.agent import PARAMS, ExpectiminimaxAgent

__all__ = ["PARAMS", "ExpectiminimaxAgent"]


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("expectiminimax", ExpectiminimaxAgent,
                      "depth-limited expectiminimax with Ballard's Star1/Star2 pruning (two players, dice)", PARAMS,
                      algorithm="expectiminimax", nodes="a state visited, chance nodes and Star2 probes included",
                      chance=True)]
