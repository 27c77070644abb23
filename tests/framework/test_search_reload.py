"""Every search written against the kernel interface compiles over a toy kernel and loads again from numba's
disk cache in a second process, with the same nodes and results as the interpreted run.

numba cannot load some compiled recursions from its cache (numba issue 6061: a process that loads them dies
with SIGSEGV), while the first process, which compiled them, runs fine: only a second process with the same
cache shows it. Each case runs in two fresh processes sharing a new cache directory; both must exit cleanly and
print what the same code printed interpreted in this one.

Run as a script (`python test_search_reload.py CASE`), it prints the case's figures as JSON (compiled kernels
on, as the environment says).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from framework.kernel import api, numba_backend
from framework.protocols import CHANCE, BaseHeuristic, Budget  # noqa: E402
from tests.framework import dice_race_sample as race  # noqa: E402

RULES = numba_backend.Kernel(race, tag="dice_race")
NO_LIMIT = 1 << 62
DEADLINE = 1e300
LO, HI = -1000.0, 1000.0


class LeadHeuristic(BaseHeuristic):
    """`race.lead` for the first seat, negated for the others (as the kernel interface's `evaluate`)."""

    name = "lead"
    weights = (1.0,)

    def evaluate(self, state: Any, player: int) -> float:
        value = race.lead(state, self.weights)
        return -value if player else value


class DiceRace:
    """The race as a plain-Python game whose states are the kernel's, with its `kernel` capability."""

    name = "dice_race"

    def __init__(self, seats: int = 2, dice: bool = True) -> None:
        self.seats, self.dice, self.num_players = seats, dice, seats
        self.player_names = tuple(f"seat{s}" for s in range(seats))
        self.kernel = api.GameKernel(f"dice_race{seats}{int(dice)}", RULES, tuple, heuristics=RULES,
                                     scores={LeadHeuristic: "lead"}, key_shifts=(0, 16), move_space=4)

    def initial_state(self) -> Any:
        return race.start(self.seats, self.dice)

    def to_move(self, state: Any) -> int:
        mover = race.to_move(state)
        return CHANCE if mover == -1 else mover

    def legal_moves(self, state: Any) -> list[int]:
        return [] if self.is_terminal(state) else race.legal_moves(state)

    def apply(self, state: Any, move: int) -> Any:
        return race.apply_move(state, move)

    def is_terminal(self, state: Any) -> bool:
        return race.winner(state) >= 0

    def returns(self, state: Any) -> tuple[float, ...]:
        return tuple(race.player_return(state, s) for s in range(self.seats))

    def chance_outcomes(self, state: Any) -> list[tuple[int, Fraction]]:
        return [(m, Fraction((0, 3, 2, 1)[m], 6)) for m in race.legal_moves(state)]

    def pass_to(self, state: Any, seat: int) -> Any:
        return race.pass_to(state, seat)

    def hash_key(self, state: Any) -> int:
        key = race.search_key(state)
        return int(key[0] | key[1] << 16)

    def format_move(self, state: Any, move: int) -> str:
        return str(move)

    def parse_move(self, state: Any, text: str) -> int:
        return int(text)

    def render(self, state: Any) -> str:
        return repr(state)

    def to_text(self, state: Any) -> str:
        return ",".join(map(str, state))

    def from_text(self, text: str) -> Any:
        return tuple(int(w) for w in text.split(","))


def _search(module: Any, compiled: bool) -> Any:
    """`module` over the race's kernel, `score` bound to `lead`: compiled, or the same code interpreted."""
    kernel = numba_backend.Kernel(module, rules=RULES, tag="dice_race", aliases={"score": "lead"})
    return kernel if compiled else kernel.interpreted


def _work(size: int, compiled: bool) -> Any:
    work = np.zeros(size, np.int64) if compiled else [0] * size
    work[1] = NO_LIMIT         # BUDGET.limit
    return work


def expectimax(compiled: bool) -> dict[str, Any]:
    from plugins.agents.expectiminimax import search
    out = {}
    for star in (0, 1, 2):
        work = _work(search.WORK_SIZE, compiled)
        work[search.WORK.use_star1] = int(star >= 1)
        work[search.WORK.use_star2] = int(star == 2)
        value = _search(search, compiled).expectimax(race.start(2, True), 6, LO, HI, 0, work, LO, HI, (1.0,),
                                                     DEADLINE)
        out[f"star{star}"] = [round(float(value), 9), int(work[search.WORK.nodes])]
    return out


def maxn(compiled: bool) -> dict[str, Any]:
    from plugins.agents.multiplayer import search
    work = _work(search.WORK_SIZE, compiled)
    depth, seats = 6, 3
    values = np.zeros((depth + 1) * seats) if compiled else [0.0] * ((depth + 1) * seats)
    value = _search(search, compiled).maxn(race.start(seats, True), depth, seats, -np.inf, 0, work, LO, HI, LO, 0.0,
                                          (1.0,), DEADLINE, values, 0)
    return {"value": round(float(value), 9), "vector": [round(float(v), 9) for v in values[:seats]],
            "nodes": int(work[search.WORK.nodes])}


def paranoid(compiled: bool) -> dict[str, Any]:
    from plugins.agents.multiplayer import search
    work = _work(search.WORK_SIZE, compiled)
    value = _search(search, compiled).paranoid(race.start(3, True), 6, LO, HI, 0, work, LO, HI, (1.0,), DEADLINE)
    return {"value": round(float(value), 9), "nodes": int(work[search.WORK.nodes])}


def brs(compiled: bool) -> dict[str, Any]:
    from plugins.agents.multiplayer import search
    work = _work(search.WORK_SIZE, compiled)
    value = _search(search, compiled).brs(race.start(3, False), 6, LO, HI, 0, 3, True, work, LO, HI, (1.0,),
                                          DEADLINE)
    return {"value": round(float(value), 9), "nodes": int(work[search.WORK.nodes])}


def alphabeta(compiled: bool) -> dict[str, Any]:
    """The alpha-beta agent on the race without dice, over the game's kernel (compiled, or its rules
    interpreted): its binding's choice is the environment's (`PLYGROUND_JIT`)."""
    from plugins.agents.alphabeta import AlphaBetaAgent
    game = DiceRace(2, dice=False)
    agent = AlphaBetaAgent(game, depth=5, heuristic=LeadHeuristic(game))
    decision = agent.select_move(game, game.initial_state(), Budget())
    return {"move": decision.move, "score": decision.stats.score, "nodes": decision.stats.nodes}


def proof_numbers(compiled: bool) -> dict[str, Any]:
    """Every PN agent solves the race without dice from the start."""
    from plugins.agents.proofnumber.dfpn import DFPNAgent, PDSAgent, PDSPNAgent
    from plugins.agents.proofnumber.pns import PN2Agent, PNSAgent
    game = DiceRace(2, dice=False)
    out = {}
    for agent_class in (PNSAgent, PN2Agent, DFPNAgent, PDSAgent, PDSPNAgent):
        result = agent_class(game).solve(game, game.initial_state(), Budget())
        out[agent_class.__name__] = [result.value.value, result.move, result.stats.nodes]
    return out


CASES = {f.__name__: f for f in (expectimax, maxn, paranoid, brs, alphabeta, proof_numbers)}
#: The compiled functions each case must have left in the cache (so it ran compiled, not through an adapter).
COMPILED = {"expectimax": ("expectimax",), "maxn": ("maxn",), "paranoid": ("paranoid",), "brs": ("brs",),
            "alphabeta": ("negamax",), "proof_numbers": ("pn_search", "pn2_search", "dfpn_mid")}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_compiled_search_loads_from_the_cache_in_a_second_process_with_the_interpreted_figures(
        case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    interpreted = json.loads(json.dumps(CASES[case](False)))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PLYGROUND_JIT": "1"}
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, __file__, case], env=env, capture_output=True, text=True,
                              timeout=900, check=False)
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
        runs.append(json.loads(done.stdout))
    cached = {path.name for path in tmp_path.rglob("*.nbi")}
    for name in COMPILED[case]:
        assert any(f".{name}-" in file for file in cached), (name, sorted(cached))
    assert runs == [interpreted, interpreted]


if __name__ == "__main__":
    print(json.dumps(CASES[sys.argv[1]](numba_backend.enabled())))
