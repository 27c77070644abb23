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
import sys

from framework.registry import Registry
from plugins.reports.branching import SEARCHES, fitted_branching, nodes_by_depth


def run(name: str, max_depth: int) -> None:
    table = nodes_by_depth(Registry(), name, dict.fromkeys(SEARCHES, max_depth), seed=1)
    columns = {search: table[table["search"] == search]["nodes"].tolist() for search in SEARCHES}
    print(f"\n## {name} from the start\n")
    print("| depth | " + " | ".join(columns) + " |")
    print("|---:|" + "---:|" * len(columns))
    for depth in range(1, max_depth + 1):
        print(f"| {depth} | " + " | ".join(f"{column[depth - 1]:,}" for column in columns.values()) + " |")
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
