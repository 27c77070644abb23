"""Every search written against the kernel interface compiles over a toy kernel and loads again from numba's
disk cache in a second process, with the same nodes and results as the interpreted run.

numba cannot load some compiled recursions from its cache (numba issue 6061: a process that loads them dies
with SIGSEGV), while the first process, which compiled them, runs fine: only a second process with the same
cache shows it. Each case runs in two fresh processes sharing the suite's cache (the first compiles the case
where the cache is cold, so at least the second loads it: a warm run loads in both and compiles nothing); both
must exit cleanly and print what the same code printed interpreted in this one.

Run as a script (`python test_search_reload.py CASE`), it prints the case's figures as JSON, each agent's
binding chosen by `auto` (compiled, or interpreted with `PLYGROUND_JIT=0`) and recorded.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from framework.kernel import api, numba_backend
from framework.protocols import CHANCE, BaseHeuristic, Budget  # noqa: E402
from tests.framework import dice_race_sample as race  # noqa: E402

RULES = numba_backend.Kernel(race, tag="dice_race")


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


def _rolled(seats: int) -> Any:
    """The race's start with a 2 rolled: the first seat to move."""
    return race.apply_move(race.start(seats, True), 2)


def _played(agent: Any, game: DiceRace, state: Any) -> dict[str, Any]:
    decision = agent.select_move(game, state, Budget())
    stats = decision.stats
    return {"move": decision.move, "score": round(stats.score, 9), "nodes": stats.nodes, **stats.extra}


def expectimax() -> dict[str, Any]:
    """The expectiminimax agent with each of its pruning switches, on the race for two with dice."""
    from plugins.agents.expectiminimax import ExpectiminimaxAgent
    game = DiceRace(2, dice=True)
    return {f"star{star}": _played(ExpectiminimaxAgent(game, depth=6, star1=star >= 1, star2=star == 2,
                                                       heuristic=LeadHeuristic(game)), game, _rolled(2))
            for star in (0, 1, 2)}


def maxn() -> dict[str, Any]:
    """max^n on the race for three with dice, with and without shallow pruning."""
    from plugins.agents.multiplayer import MaxnAgent
    game = DiceRace(3, dice=True)
    return {f"shallow{shallow}": _played(MaxnAgent(game, depth=6, heuristic=LeadHeuristic(game), shallow=shallow,
                                                   max_sum=3000.0), game, _rolled(3))
            for shallow in (False, True)}


def paranoid() -> dict[str, Any]:
    from plugins.agents.multiplayer import ParanoidAgent
    game = DiceRace(3, dice=True)
    return _played(ParanoidAgent(game, depth=6, heuristic=LeadHeuristic(game)), game, _rolled(3))


def brs() -> dict[str, Any]:
    from plugins.agents.multiplayer import BestReplyAgent
    game = DiceRace(3, dice=False)
    return _played(BestReplyAgent(game, depth=6, heuristic=LeadHeuristic(game)), game, game.initial_state())


def loa() -> dict[str, Any]:
    """expectiminimax, max^n and paranoid on LOA near an end: a kernel without `player_return`, whose compiled
    searches score an end by `outcome` (with the game's option) and carry the unbound stub."""
    from framework.playouts import final_positions
    from plugins.agents.expectiminimax import ExpectiminimaxAgent
    from plugins.agents.multiplayer import MaxnAgent, ParanoidAgent
    from plugins.games.loa.game import LinesOfAction
    from plugins.games.loa.heuristics import GroupsHeuristic
    game = LinesOfAction(simultaneous="mover_wins")
    state = final_positions(game, 1, seed=7, first=2, last=2)[0]
    return {agent.__name__: _played(agent(game, depth=depth, heuristic=GroupsHeuristic(game)), game, state)
            for agent, depth in ((ExpectiminimaxAgent, 3), (MaxnAgent, 2), (ParanoidAgent, 3))}


def alphabeta() -> dict[str, Any]:
    """The alpha-beta agent on the race without dice, over the game's kernel (compiled, or its rules
    interpreted): its binding's choice is the environment's (`PLYGROUND_JIT`)."""
    from plugins.agents.alphabeta import AlphaBetaAgent
    game = DiceRace(2, dice=False)
    agent = AlphaBetaAgent(game, depth=5, heuristic=LeadHeuristic(game))
    decision = agent.select_move(game, game.initial_state(), Budget())
    return {"move": decision.move, "score": decision.stats.score, "nodes": decision.stats.nodes,
            "binding": decision.stats.extra["binding"]}


def proof_numbers() -> dict[str, Any]:
    """Every PN agent plays the race without dice from the start (solving it)."""
    from plugins.agents.proofnumber.agent import DFPNAgent, PDSAgent, PDSPNAgent, PN2Agent, PNSAgent
    game = DiceRace(2, dice=False)
    out = {}
    for agent_class in (PNSAgent, PN2Agent, DFPNAgent, PDSAgent, PDSPNAgent):
        decision = agent_class(game).select_move(game, game.initial_state(), Budget())
        out[agent_class.__name__] = [decision.move, decision.stats.nodes, decision.stats.extra["proof"]]
        out["binding"] = decision.stats.extra["binding"]
    return out


def mcts() -> dict[str, Any]:
    """MCTS on the race for two and three with dice (sampled outcomes, each seat's return), random and heuristic
    playouts (cut short, scored by the heuristic), and for two without dice (the solver)."""
    from plugins.agents.mcts import MCTSAgent
    out = {}
    for seats, dice in ((2, True), (3, True), (2, False)):
        game = DiceRace(seats, dice=dice)
        state = _rolled(seats) if dice else game.initial_state()
        for playout in ("random", "heuristic"):
            agent = MCTSAgent(game, seed=5, iterations=300, playout=playout, epsilon=0.3, playout_depth=6,
                              heuristic=LeadHeuristic(game))
            decision = agent.select_move(game, state, Budget())
            out[f"{seats}{dice}{playout}"] = [decision.move, decision.stats.nodes, list(decision.stats.pv),
                                              round(decision.stats.score, 9), decision.stats.extra["proof"]]
            out["binding"] = decision.stats.extra["binding"]
    return out


CASES = {f.__name__: f for f in (expectimax, maxn, paranoid, brs, loa, alphabeta, proof_numbers, mcts)}
#: The compiled functions each case must have left in the cache (so it ran compiled, not through an adapter).
COMPILED = {"expectimax": ("expectimax",), "maxn": ("maxn",), "paranoid": ("paranoid",), "brs": ("brs",),
            "loa": ("expectimax", "maxn", "paranoid"),
            "alphabeta": ("negamax",), "mcts": ("run",), "proof_numbers": ("pn_search", "pn2_search", "dfpn_mid")}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_compiled_search_loads_from_the_cache_in_a_second_process_with_the_interpreted_figures(
        case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    interpreted = json.dumps(CASES[case]())
    assert '"binding": "interpreted"' in interpreted and '"adapter"' not in interpreted
    # compiled, the binding needs no reason (interpreted, it says compiled kernels are off)
    expected = json.loads(re.sub(r'"binding": "interpreted"(, "binding_reason": "[^"]*")?', '"binding": "compiled"',
                                 interpreted))
    env = {**os.environ, "PLYGROUND_JIT": "1"}
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, __file__, case], env=env, capture_output=True, text=True,
                              timeout=900, check=False)
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
        runs.append(json.loads(done.stdout))
    cached = {path.name for path in Path(os.environ["NUMBA_CACHE_DIR"]).rglob("*.nbi")
              if ".dice_race" in path.name or ".loa" in path.name}   # the race's twins, and LOA's
    for name in COMPILED[case]:
        assert any(f".{name}-" in file for file in cached), (name, sorted(cached))
    assert runs == [expected, expected]


if __name__ == "__main__":
    print(json.dumps(CASES[sys.argv[1]]()))
