# --8<-- [start:game]
"""Race to 10 with a compiled kernel: the first game tutorial's Race, its rules also given as a kernel."""

import fastrace_rules
from plyground_race import Distance, Race

from framework import GameSpec, HeuristicSpec, hookimpl
from framework.kernel.api import GameKernel
from framework.kernel.numba_backend import Kernel


class FastDistance(Distance):
    weights = (100.0,)                                  # what the compiled `distance` takes


RULES = Kernel(fastrace_rules, tag="fastrace")


class FastRace(Race):
    name = "fastrace"
    kernel = GameKernel("fastrace", RULES, to_kernel=tuple, heuristics=RULES, scores={FastDistance: "distance"},
                        key_shifts=(0,), move_space=4)
# --8<-- [end:game]


# --8<-- [start:hooks]
@hookimpl
def plyground_games():
    return [GameSpec("fastrace", FastRace, "race to 10, with a compiled kernel")]


@hookimpl
def plyground_heuristics():
    return [HeuristicSpec("distance", "fastrace", FastDistance, "exact: multiples of 4 from the target lose")]
# --8<-- [end:hooks]
