"""The random agent: a uniformly random legal move from a seeded generator."""

from __future__ import annotations

import random

from framework.hookspecs import hookimpl
from framework.protocols import Budget, Decision, Game, SearchStats, State
from framework.search import Stopwatch
from framework.specs import AgentSpec


class RandomAgent:
    """Picks uniformly among the legal moves; the same seed replays the same choices."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        move = self.rng.choice(list(game.legal_moves(state)))
        return Decision(move, SearchStats(nodes=1, wall_time=watch.wall(), cpu_time=watch.cpu()))

    def __repr__(self) -> str:
        return "RandomAgent()"


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("random", RandomAgent, "uniformly random legal move (seeded)", chance=True, multiplayer=True)]
