"""Compiled kernels vs the adapter for the searches of dice and seats: nodes/s on the same positions.

    python benchmarks/dice_seat_kernels.py [--repeat 5] [--positions 12]

Rows (issue 27's targets first): EinStein expectiminimax (Star2) depth 4 with `progress`, Rolit for three
paranoid depth 4 with `discs`; then Pig for three max^n depth 6 with `race` and Rolit for four best-reply search
depth 4. Each row searches the same positions (the start and seeded random positions, see `positions`) with
`kernel: compiled` and `kernel: adapter` (the same search code run as Python over the game's own methods); the
two must visit the same nodes and choose the same moves with the same scores (checked: a mismatch exits with
status 1). Each run of a row times all its positions, compiled then adapter; the row reports the median
nodes/s of each over `--repeat` runs and the median of the per-run ratios (the machine is shared: a ratio of
one run compares like with like). Kernels are compiled (or loaded from numba's cache) before any timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from framework.protocols import CHANCE, Budget  # noqa: E402
from plugins.agents.expectiminimax import ExpectiminimaxAgent  # noqa: E402
from plugins.agents.multiplayer import BestReplyAgent, MaxnAgent, ParanoidAgent  # noqa: E402
from plugins.games.einstein import EinStein, ProgressHeuristic  # noqa: E402
from plugins.games.pig import Pig  # noqa: E402
from plugins.games.pig.heuristics import RaceHeuristic  # noqa: E402
from plugins.games.rolit import DiscsHeuristic, Rolit  # noqa: E402

#: (label, game, heuristic, agent, options, the range of plies of the random positions)
ROWS: list[tuple[str, Callable[[], Any], Any, Any, dict[str, Any], tuple[int, int]]] = [
    ("einstein expectiminimax d4", EinStein, ProgressHeuristic, ExpectiminimaxAgent, {"depth": 4}, (2, 16)),
    ("rolit-3 paranoid d4", lambda: Rolit(3), DiscsHeuristic, ParanoidAgent, {"depth": 4}, (4, 40)),
    ("pig-3 maxn d6", lambda: Pig(3, goal=50), RaceHeuristic, MaxnAgent, {"depth": 6}, (4, 60)),
    ("rolit-4 brs d4", lambda: Rolit(4), DiscsHeuristic, BestReplyAgent, {"depth": 4}, (4, 40)),
]


def positions(game: Any, plies: tuple[int, int], count: int) -> list[Any]:
    """The start (after its roll, in a dice game) and `count` positions a seeded random number of random moves in
    (within `plies`), none over and none a chance node."""
    out = []
    for seed in range(count + 1):
        rng, state = random.Random(seed), game.initial_state()
        for _ in range(rng.randint(*plies) if seed else 0):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        while game.to_move(state) == CHANCE and not game.is_terminal(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            out.append(state)
    return out


def run(game: Any, heuristic: Any, agent: Any, options: dict[str, Any], kernel: str,
        states: list[Any]) -> tuple[float, list[tuple[Any, ...]]]:
    """Seconds over all positions, and each search's (move, score, nodes)."""
    results, seconds = [], 0.0
    for state in states:
        searcher = agent(game, heuristic=heuristic(game), kernel=kernel, **options)
        start = time.perf_counter()
        decision = searcher.select_move(game, state, Budget())
        seconds += time.perf_counter() - start
        assert decision.stats.extra["binding"] == kernel
        results.append((decision.move, decision.stats.score, decision.stats.nodes))
    return seconds, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per row (medians reported)")
    parser.add_argument("--positions", type=int, default=12, help="random positions per row besides the start")
    args = parser.parse_args()
    status = 0
    print(f"{'row':28} {'positions':>9} {'nodes':>10} {'compiled n/s':>13} {'adapter n/s':>12} {'ratio':>7}")
    for label, make, heuristic, agent, options, plies in ROWS:
        game = make()
        states = positions(game, plies, args.positions)
        run(game, heuristic, agent, options, "compiled", states[:1])    # compile or load before timing
        compiled_rates, adapter_rates, ratios, nodes = [], [], [], 0
        for _ in range(args.repeat):
            fast, fast_results = run(game, heuristic, agent, options, "compiled", states)
            slow, slow_results = run(game, heuristic, agent, options, "adapter", states)
            if fast_results != slow_results:
                print(f"{label}: MISMATCH compiled {fast_results} adapter {slow_results}")
                status = 1
            nodes = sum(r[2] for r in fast_results)
            compiled_rates.append(nodes / fast)
            adapter_rates.append(nodes / slow)
            ratios.append(slow / fast)
        print(f"{label:28} {len(states):>9} {nodes:>10,} {statistics.median(compiled_rates):>13,.0f} "
              f"{statistics.median(adapter_rates):>12,.0f} {statistics.median(ratios):>6.1f}x")
    return status


if __name__ == "__main__":
    sys.exit(main())
