"""`hoarder`: maps `mib` MiB (numpy.empty: address space, never touched, so cheap without a limit) before each move,
then plays the first legal one; for the workbench's per-search memory limit (loaded as a plugin file)."""

import numpy as np

from framework import AgentSpec, Decision, Param, SearchStats, hookimpl


class Hoarder:
    def __init__(self, game, seed=0, mib=256):
        self.mib = mib

    def select_move(self, game, state, budget):
        hoard = np.empty(self.mib << 20, dtype=np.uint8)
        return Decision(game.legal_moves(state)[0], SearchStats(nodes=len(hoard) >> 20))


@hookimpl
def plyground_agents():
    return [AgentSpec("hoarder", Hoarder, "maps mib MiB at each move",
                      (Param("mib", int, 256, "MiB mapped per move", minimum=1),))]
