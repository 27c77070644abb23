"""Nodes and time of the proof-number solvers (and alpha-beta's solver) on solved positions, in one run.

    python benchmarks/pn_solvers.py [--games GAME ...] [--solvers NAME ...] [--nodes N] [--time S]

Reads `benchmarks/positions/solver_endgames.txt` (game, position, known value), solves each
position with every solver under the same per-position budget, and prints one line per
position and a total per game and solver: positions solved, nodes and time summed over the
positions *every* solver solved (equal work), and the ratios to `pns` measured in this run.
Alpha-beta's nodes are also given in the thesis' convention (counted only in the first
iteration reaching each depth). A solver that proves a value other than the file's is
printed as a MISMATCH and makes the exit status 1. There is no peer library with these
algorithms (OpenSpiel and easyAI have none), so the ratios are between our solvers.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import cast

from framework.protocols import Budget, Proof, Solver
from framework.registry import Registry

POSITIONS = Path(__file__).parent / "positions" / "solver_endgames.txt"
SOLVERS = ("pns", "pn2", "dfpn", "alphabeta")


def read_positions(path: Path, games: set[str] | None) -> list[tuple[str, str, Proof]]:
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            game, position, value = line.split("\t")
            if games is None or game in games:
                rows.append((game, position, Proof(value)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", help="only these games")
    parser.add_argument("--solvers", nargs="*", default=list(SOLVERS))
    parser.add_argument("--nodes", type=int, default=500_000, help="node budget per position and solver")
    parser.add_argument("--time", type=float, default=30.0, help="time budget per position and solver (s)")
    args = parser.parse_args(argv)
    registry = Registry()
    budget = Budget(time=args.time, nodes=args.nodes)
    rows = read_positions(POSITIONS, set(args.games) if args.games else None)
    results: dict[tuple[str, str], dict[str, tuple[Proof, int, float, int]]] = {}
    bad = 0
    print(f"{'game':<10} {'position':<76} {'value':<6} " + " ".join(f"{s + ' nodes':>15} {'ms':>7}"
                                                                  for s in args.solvers))
    for game_name, text, expected in rows:
        game = registry.create_game(game_name)
        state = game.from_text(text)
        answers = {}
        for solver in args.solvers:
            agent = cast(Solver, registry.create_agent(solver, game))  # --solvers names solvers
            t0 = time.perf_counter()
            result = agent.solve(game, state, budget)
            elapsed = time.perf_counter() - t0
            first_reach = result.stats.extra.get("nodes_first_reaching_depth", result.stats.nodes)
            answers[solver] = (result.value, result.stats.nodes, elapsed, first_reach)
            if result.value not in (expected, Proof.UNKNOWN):
                bad += 1
                print(f"MISMATCH: {solver} says {result.value.value} for {game_name} {text!r}, "
                      f"expected {expected.value}")
        results[game_name, text] = answers
        cells = " ".join(f"{n if v is not Proof.UNKNOWN else '-':>15} {t * 1000:>7.0f}"
                         for v, n, t, _ in answers.values())
        print(f"{game_name:<10} {text:<76} {expected.value:<6} {cells}")
    print()
    by_game: dict[str, list[dict]] = defaultdict(list)
    for (game_name, _), answers in results.items():
        by_game[game_name].append(answers)
    print(f"{'game':<10} {'solver':<10} {'solved':>8} {'nodes (all solved)':>19} {'ms':>9} "
          f"{'nodes/pns':>10} {'time/pns':>9} {'thesis-count nodes':>19}")
    for game_name, answer_list in by_game.items():
        common = [a for a in answer_list if all(a[s][0] is not Proof.UNKNOWN for s in args.solvers)]
        totals = {s: (sum(a[s][1] for a in common), sum(a[s][2] for a in common), sum(a[s][3] for a in common))
                  for s in args.solvers}
        base = totals.get("pns")
        for solver in args.solvers:
            solved = sum(a[solver][0] is not Proof.UNKNOWN for a in answer_list)
            nodes, seconds, first_reach = totals[solver]
            ratio_n = f"{nodes / base[0]:.2f}" if base and base[0] else "-"
            ratio_t = f"{seconds / base[1]:.2f}" if base and base[1] else "-"
            print(f"{game_name:<10} {solver:<10} {solved:>4}/{len(answer_list):<3} {nodes:>19,} "
                  f"{seconds * 1000:>9.0f} {ratio_n:>10} {ratio_t:>9} {first_reach:>19,}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
