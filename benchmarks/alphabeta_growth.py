"""Minimax vs alpha-beta nodes against depth, with good and with random move ordering.

    python benchmarks/alphabeta_growth.py [--tictactoe-depth N] [--checkers-depth N] [--loa-depth N]

The source lectures state that minimax visits O(b^d) nodes, alpha-beta with good move
ordering roughly O(b^(d/2)) (Knuth & Moore 1975: b^ceil(d/2) + b^floor(d/2) - 1 leaves in
the best case) and with random ordering roughly O(b^(3d/4)). From each start position this
counts, for depth 1..D: plain minimax; alpha-beta with good ordering (TT move, the game's
hints, killers, history, iterative deepening; every iteration counted); and plain
alpha-beta on the game with its moves shuffled (a fixed shuffle per state, seeded). It fits
the effective branching factor of each column (the slope of log nodes against depth, least
squares) and sets the alpha-beta ones against b, b^(1/2) and b^(3/4), b being minimax's.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from typing import Any

from framework.protocols import UNLIMITED, Budget
from framework.registry import Registry
from plugins.agents.alphabeta import ALL_OFF, EXACT_ONLY, AlphaBetaAgent
from plugins.agents.minimax import MinimaxAgent


class Shuffled:
    """A game whose moves come in a random order: the same order for the same state, from `seed`."""

    def __init__(self, game: Any, seed: int) -> None:
        self.game, self.seed = game, seed
        self.name, self.player_names = game.name, game.player_names
        self.to_move, self.apply, self.is_terminal, self.returns = (game.to_move, game.apply, game.is_terminal,
                                                                    game.returns)

    def legal_moves(self, state: Any) -> list:
        moves = list(self.game.legal_moves(state))
        random.Random(hash((self.seed, state))).shuffle(moves)
        return moves


def fitted_branching(nodes: list[int]) -> float:
    """exp of the least-squares slope of log(nodes) against depth 1, 2, ..."""
    xs = range(1, len(nodes) + 1)
    ys = [math.log(n) for n in nodes]
    mx, my = sum(xs) / len(nodes), sum(ys) / len(nodes)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(slope)


def run(name: str, max_depth: int) -> None:
    registry = Registry()
    game = registry.create_game(name)
    heuristic = registry.create_heuristic(game)
    start = game.initial_state()
    shuffled = Shuffled(game, seed=1)
    columns: dict[str, list[int]] = {"minimax": [], "alpha-beta, good ordering": [],
                                     "alpha-beta, random ordering": []}
    print(f"\n## {name} from the start\n")
    print("| depth | " + " | ".join(columns) + " |")
    print("|---:|" + "---:|" * len(columns))
    for depth in range(1, max_depth + 1):
        counts = (
            MinimaxAgent(game, depth=depth, heuristic=heuristic).select_move(game, start, UNLIMITED).stats.nodes,
            AlphaBetaAgent(game, depth=depth, heuristic=heuristic, **EXACT_ONLY).select_move(
                game, start, Budget(nodes=10**12)).stats.nodes,
            AlphaBetaAgent(shuffled, depth=depth, heuristic=heuristic, **ALL_OFF).select_move(
                shuffled, start, UNLIMITED).stats.nodes,
        )
        for column, count in zip(columns.values(), counts):
            column.append(count)
        print(f"| {depth} | " + " | ".join(f"{c:,}" for c in counts) + " |")
    b = fitted_branching(columns["minimax"])
    print(f"\nFitted effective branching factor (depths 1-{max_depth}); b = minimax's = {b:.2f}, "
          f"b^(1/2) = {b ** 0.5:.2f}, b^(3/4) = {b ** 0.75:.2f}\n")
    print("| search | fitted factor | as a power of b |")
    print("|---|---:|---:|")
    for label, column in columns.items():
        factor = fitted_branching(column)
        print(f"| {label} | {factor:.2f} | b^{math.log(factor) / math.log(b):.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tictactoe-depth", type=int, default=8)
    parser.add_argument("--checkers-depth", type=int, default=6)
    parser.add_argument("--loa-depth", type=int, default=3)
    args = parser.parse_args(argv)
    run("tictactoe", args.tictactoe_depth)
    run("checkers", args.checkers_depth)
    run("loa", args.loa_depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
