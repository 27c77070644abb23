"""Toy agents for the tuning tests, loaded through a tournament's `plugins:` key (workers load it too).

`peaked` plays matches perfectly (a winning move whenever there is one, `winning_moves` from the game's theory)
with probability 1 - |x - PEAK| / WIDTH and a seeded random move otherwise, so its strength peaks at x = PEAK;
`deaf` declares the same parameter and ignores it.
"""

import random

from framework import AgentSpec, Decision, Param, SearchStats, hookimpl
from plugins.games.matches import winning_moves

PEAK = 70.0
WIDTH = 100.0
PEAK_LEVEL = 12
X = Param("x", float, 50.0, "the tuned knob", minimum=0.0, maximum=100.0)
LEVEL = Param("level", int, PEAK_LEVEL, "an integer knob the strength peaks at PEAK_LEVEL", minimum=0, maximum=20)


class Peaked:
    def __init__(self, game, seed=0, x=50.0, level=PEAK_LEVEL):
        self.rng = random.Random(seed)
        self.skill = max(0.0, 1 - abs(x - PEAK) / WIDTH - abs(level - PEAK_LEVEL) / 20)

    def select_move(self, game, state, budget):
        best = winning_moves(state[0], game.k)
        if best and self.rng.random() < self.skill:
            return Decision(best[0], SearchStats(nodes=1))
        return Decision(self.rng.choice(game.legal_moves(state)), SearchStats(nodes=1))


class Deaf:
    def __init__(self, game, seed=0, x=50.0):
        self.rng = random.Random(seed)

    def select_move(self, game, state, budget):
        return Decision(self.rng.choice(game.legal_moves(state)), SearchStats(nodes=1))


@hookimpl
def plyground_agents():
    return [AgentSpec("peaked", Peaked, "strongest at x = 70 (and level = 12)", (X, LEVEL), games=("matches",)),
            AgentSpec("deaf", Deaf, "ignores x", (X,), games=("matches",))]
