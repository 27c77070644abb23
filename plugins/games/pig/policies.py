"""Fixed Pig strategies as agents: "hold at N" (the rule of thumb Neller & Presser compare against) and the
optimal policy of the exact two-player solution (solver.py), for tournaments and the reproduction."""

from __future__ import annotations

from typing import Any

from framework.errors import ConfigError
from framework.params import Param
from framework.protocols import Budget, Decision, Game, SearchStats
from framework.search import Stopwatch
from framework.specs import AgentSpec
from plugins.games.pig import solver


class PigPolicyAgent:
    """Rolls or holds by a fixed policy: `hold_at` holds once the turn total reaches `total` (or the goal);
    `optimal` plays the exact solution's decision (two players)."""

    def __init__(self, game: Game, seed: int = 0, policy: str = "optimal", total: int = 20) -> None:
        if policy == "optimal" and game.num_players != 2:  # type: ignore[attr-defined]
            raise ConfigError(f"pig_policy 'optimal' is the two-player solution; this game has "
                              f"{game.num_players} players: use policy hold_at")  # type: ignore[attr-defined]
        if policy == "optimal":
            solver.require_memory(game.goal)  # type: ignore[attr-defined]
        self.policy, self.total, self.goal = policy, total, game.goal  # type: ignore[attr-defined]

    def select_move(self, game: Game, state: Any, budget: Budget) -> Decision:
        watch = Stopwatch()
        scores, total, player, _ = state
        if scores[player] + total >= self.goal:
            move = "hold"
        elif self.policy == "optimal":
            rolls = solver.solve(self.goal).should_roll(scores[player], scores[1 - player], total)
            move = "roll" if rolls else "hold"
        else:
            move = "roll" if total < self.total else "hold"
        return Decision(move, SearchStats(nodes=1, wall_time=watch.wall(), cpu_time=watch.cpu()))

    def __repr__(self) -> str:
        return f"PigPolicyAgent(policy={self.policy!r}, total={self.total})"


SPEC = AgentSpec("pig_policy", PigPolicyAgent, "Pig only: hold at a turn total, or the exact optimal policy", (
    Param("policy", str, "optimal", "optimal (the exact two-player solution) or hold_at",
          choices=("optimal", "hold_at")),
    Param("total", int, 20, "hold_at: the turn total to hold at", minimum=1, maximum=1000)),
    algorithm="fixed policy", nodes="one per decision", chance=True, multiplayer=True, games=("pig",))
