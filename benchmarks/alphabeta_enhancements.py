"""What each alpha-beta enhancement buys, in nodes: every enhancement on, then each one switched off.

    python benchmarks/alphabeta_enhancements.py [--positions N] [--checkers-depth N] [--loa-depth N]

For tic-tac-toe (searched to the end), checkers and Lines of Action (fixed depths), the
searches run from the start and from N-1 positions of seeded random playouts, under a node
budget large enough never to stop them (so iterative deepening is in effect), and the table
sums their nodes and times. "values changed" counts positions whose score differs from the
all-on row: only the selective enhancements (quiescence, LMR, singular extensions) may do
that. Figures are from one run on a shared machine: compare rows, not runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from typing import Any

from framework.playouts import random_positions
from framework.protocols import Budget
from framework.registry import Registry
from plugins.agents.alphabeta import ALL_OFF, AlphaBetaAgent

ALL_ON = {name: True for name in ALL_OFF}
BUDGET = Budget(nodes=10**12)


def measure(game: Any, heuristic: Any, depth: int | None, options: Mapping[str, bool],
            states: list) -> tuple[int, float, list]:
    agent = AlphaBetaAgent(game, depth=depth, heuristic=heuristic, **options)
    nodes, elapsed, scores = 0, 0.0, []
    for state in states:
        start = time.perf_counter()
        decision = agent.select_move(game, state, BUDGET)
        elapsed += time.perf_counter() - start
        nodes += decision.stats.nodes
        scores.append(decision.stats.score)
    return nodes, elapsed, scores


def run(name: str, depth: int | None, count: int) -> None:
    registry = Registry()
    game = registry.create_game(name)
    heuristic = registry.create_heuristic(game)
    states = [game.initial_state(), *random_positions(game, count - 1, seed=1, min_plies=4, max_plies=16)]
    rows: list[tuple[str, Mapping[str, bool]]] = [("every enhancement on", ALL_ON)]
    rows += [(f"without {switch}", {**ALL_ON, switch: False}) for switch in ALL_OFF]
    rows.append(("every enhancement off", ALL_OFF))
    base_nodes, _, base_scores = measure(game, heuristic, depth, ALL_ON, states)
    reach = "to the end" if depth is None else f"depth {depth}"
    print(f"\n## {name}, {reach}, {len(states)} positions\n")
    print("| configuration | nodes | nodes / all on | time (s) | values changed |")
    print("|---|---:|---:|---:|---:|")
    for label, options in rows:
        nodes, elapsed, scores = measure(game, heuristic, depth, options, states)
        changed = sum(a != b for a, b in zip(scores, base_scores))
        print(f"| {label} | {nodes:,} | {nodes / base_nodes:.2f} | {elapsed:.2f} | {changed} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--checkers-depth", type=int, default=6)
    parser.add_argument("--loa-depth", type=int, default=3)
    args = parser.parse_args(argv)
    run("tictactoe", None, args.positions)
    run("checkers", args.checkers_depth, args.positions)
    run("loa", args.loa_depth, args.positions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
