"""Interpreted alpha-beta on plain-Python games against an earlier revision of Plyground, in one run.

    python benchmarks/interpreted_vs_revision.py [--revision 078bb74] [--rounds 4] [--repeat 7]

Why: a plain-Python game (no kernel) runs alpha-beta's one negamax through `framework.kernel.adapter`;
issue #14 bounds what that costs against the interpreted twin it replaced (revision 078bb74, the last
before alpha-beta was written once): at most 1.5x the time, with the same node counts.

Each row is `AlphaBetaAgent.select_move` from the start (node budget 10**12, so iterative deepening runs
where the settings allow): tic-tac-toe to the end and the matches game at depths 4, 6, 8, each with the
default switches (iterative deepening, table, TT move, hints, killers, history) and with every one off.
The revision is checked out in a temporary git worktree; the two trees run alternately as subprocesses
(PYTHONPATH set to each), `--rounds` times, each keeping the best CPU time of `--repeat` searches; a row
whose node count or score differs between the trees says MISMATCH and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from revision import ROOT, worktree  # noqa: E402


def rows(repeat: int) -> dict[str, tuple[int, float, float | None]]:
    """Every row's (nodes, best CPU seconds, score) under the tree on PYTHONPATH."""
    from framework.protocols import Budget
    from framework.registry import Registry
    from plugins.agents.alphabeta import ALL_OFF, AlphaBetaAgent

    registry, out = Registry(), {}
    for name, depths in (("tictactoe", (None,)), ("matches", (4, 6, 8))):
        game = registry.create_game(name)
        heuristic = registry.create_heuristic(game)
        for depth in depths:
            for label, options in (("default switches", {}), ("all off", dict(ALL_OFF))):
                best, decision = float("inf"), None
                for _ in range(repeat):
                    agent = AlphaBetaAgent(game, depth=depth, heuristic=heuristic, **options)
                    start = time.process_time()
                    decision = agent.select_move(game, game.initial_state(), Budget(nodes=10**12))
                    best = min(best, time.process_time() - start)
                assert decision is not None
                out[f"{name} {'to the end' if depth is None else f'depth {depth}'}, {label}"] = (
                    decision.stats.nodes, best, decision.stats.score)
    return out


def measure(tree: Path, repeat: int) -> dict[str, list]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, __file__, "--rows", str(repeat)], env=env, cwd=tree,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revision", default="078bb74", help="the earlier revision (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of the two trees (default 4)")
    parser.add_argument("--repeat", type=int, default=7, help="searches per row per round, best kept (default 7)")
    parser.add_argument("--rows", type=int, help=argparse.SUPPRESS)   # the child: print this tree's rows
    args = parser.parse_args()
    if args.rows:
        print(json.dumps(rows(args.rows)))
        return 0
    with worktree(args.revision) as before:
        best: dict[Path, dict[str, list]] = {before: {}, ROOT: {}}
        for round_ in range(args.rounds):
            for tree in (before, ROOT) if round_ % 2 == 0 else (ROOT, before):
                for row, (nodes, seconds, score) in measure(tree, args.repeat).items():
                    kept = best[tree].setdefault(row, [nodes, seconds, score])
                    kept[1] = min(kept[1], seconds)
    print(f"| row | nodes | {args.revision} (ms) | now (ms) | now / {args.revision} |")
    print("|---|---:|---:|---:|---:|")
    status = 0
    for row, (nodes, then, score) in best[before].items():
        now_nodes, now, now_score = best[ROOT][row]
        same = nodes == now_nodes and score == now_score
        status |= not same
        print(f"| {row} | {now_nodes:,} | {1000 * then:.1f} | {1000 * now:.1f} | {now / then:.2f}"
              + ("" if same else f" MISMATCH ({nodes:,} nodes, score {score} before)") + " |")
    return status


if __name__ == "__main__":
    sys.exit(main())
