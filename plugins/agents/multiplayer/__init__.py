"""Searches for n players, max^n, paranoid and best-reply search: `search` the algorithms (written once
against `framework.kernel.api`), `agent` the agents that drive them; the registration below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from framework.hookspecs import hookimpl
from framework.params import Param
from framework.specs import AgentSpec
from plugins.agents.multiplayer.agent import COMMON, BestReplyAgent, MaxnAgent, ParanoidAgent, SeatSearchAgent

__all__ = ["COMMON", "BestReplyAgent", "MaxnAgent", "ParanoidAgent", "SeatSearchAgent"]


def _spec(name: str, factory: Callable[..., Any], help: str, params: tuple[Param, ...], algorithm: str,
          chance: bool, needs: tuple[str, ...] = ()) -> AgentSpec:
    return AgentSpec(name, factory, help, params, algorithm=algorithm, chance=chance, multiplayer=True, needs=needs,
                     nodes="a state visited, the root and leaves included")


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [
        _spec("maxn", MaxnAgent, "max^n (Luckhardt & Irani 1986), shallow pruning (Korf 1991) as a switch", (
            *COMMON, Param("shallow", bool, False, "Korf's shallow pruning (needs vectors summing to <= max_sum)"),
            Param("max_sum", float, 0.0, "the most a value vector sums to (0: a zero-sum heuristic)",
                  minimum=-1e12, maximum=1e12),
            Param("floor", float, None, "the least any value is (default: -win_score)", minimum=-1e12, maximum=1e12,
                  nullable=True)), "max^n", chance=True),
        _spec("paranoid", ParanoidAgent, "paranoid search (Sturtevant & Korf 2000): alpha-beta against the coalition",
              COMMON, "paranoid", chance=True),
        _spec("brs", BestReplyAgent, "best-reply search (Schadd & Winands 2011): one opponent replies per layer",
              COMMON, "best-reply search", chance=False, needs=("pass_to",)),
    ]
