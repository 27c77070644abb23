"""Misbehaving agents for runner tests, loaded through a tournament's `plugins:` key (workers load it too)."""

import os
import random
import time

from framework import AgentSpec, ConfigError, Decision, Param, SearchStats, hookimpl
from framework.protocols import Proof, SolveResult


class Crasher:
    """Raises on its first move."""

    def __init__(self, game, seed=0):
        pass

    def select_move(self, game, state, budget):
        raise RuntimeError("deliberate crash")

    def solve(self, game, state, budget):
        raise RuntimeError("deliberate crash")


def spin(seconds=3600.0):
    """Compute (uselessly) for `seconds` of wall time: a search that never ends, judged on its CPU time."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


class Hanger:
    """Never answers: computes far beyond any budget."""

    def __init__(self, game, seed=0):
        pass

    def select_move(self, game, state, budget):
        spin()

    def solve(self, game, state, budget):
        spin()


class Dier:
    """Kills its own process, as a segfault in an extension would."""

    def __init__(self, game, seed=0):
        pass

    def select_move(self, game, state, budget):
        os._exit(3)


class Sleepy:
    """A seeded random mover that takes `delay` seconds per move (a stand-in for a slow search)."""

    def __init__(self, game, seed=0, delay=0.02):
        self.rng = random.Random(seed)
        self.delay = delay

    def select_move(self, game, state, budget):
        time.sleep(self.delay)
        return Decision(self.rng.choice(list(game.legal_moves(state))), SearchStats(nodes=1))


class Picky:
    """Refuses `mode: bad` when constructed, as agents that check parameter combinations do."""

    def __init__(self, game, seed=0, mode="good"):
        if mode == "bad":
            raise ConfigError("picky: mode 'bad' cannot be combined with this game")

    def select_move(self, game, state, budget):
        return Decision(game.legal_moves(state)[0])


class Liar:
    """A 'solver' that claims every position is a win for the side to move."""

    def __init__(self, game, seed=0):
        pass

    def solve(self, game, state, budget):
        return SolveResult(Proof.WIN, game.legal_moves(state)[0], SearchStats(nodes=1))

    def select_move(self, game, state, budget):
        return Decision(game.legal_moves(state)[0])


@hookimpl
def plyground_agents():
    return [AgentSpec("crasher", Crasher, "raises on its first move"),
            AgentSpec("hanger", Hanger, "never answers"),
            AgentSpec("dier", Dier, "kills its own process"),
            AgentSpec("sleepy", Sleepy, "slow seeded random mover",
                      (Param("delay", float, 0.02, "seconds per move", minimum=0),)),
            AgentSpec("liar", Liar, "claims every position is a win"),
            AgentSpec("picky", Picky, "checks its parameters when built", (Param("mode", str, "good", "good or bad"),))]
