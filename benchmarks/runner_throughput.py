"""The referee's throughput: `plyground run` against a plain in-process loop, and against an earlier revision.

Run: `python benchmarks/runner_throughput.py [--games 2000] [--checkers-games 200] [--revision 4264574]`.

1. `--games` random-vs-random tic-tac-toe games: a plain loop calling `framework.match.play_game` in this
   process with the same seeded agents, then `plyground run` of the same tournament on 2 workers as a whole
   command (every participant in its own engine process, the referee in the workers, SQLite per game). Prints
   games/s of both and the ratio (issue 36's bar: at most 15x).
2. `--checkers-games` games of alpha-beta at depth 2 against itself at checkers (English draughts): `plyground
   run` on 2 workers in this tree and in `--revision`'s (checked out beside it: benchmarks/revision.py), each
   tree first warmed by a run of 2 games (a fresh checkout compiles its searches), then paired run by run,
   `--repeat` pairs; prints each run's wall time and the median ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from framework.tournament.config import load_config

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import runner_overhead  # noqa: E402  (beside this file)
from revision import worktree  # noqa: E402

RANDOM = """\
name: throughput
game: tictactoe
games_per_pairing: {games}
workers: 2
results: {results}
participants: [{{id: a, agent: random}}, {{id: b, agent: random}}]
"""
CHECKERS = """\
name: checkers-ab2
game: checkers
games_per_pairing: {games}
workers: 2
results: {results}
participants:
  - {{id: ab2, agent: alphabeta, params: {{depth: 2}}}}
  - {{id: ab2b, agent: alphabeta, params: {{depth: 2}}}}
"""


def plain_loop(path: Path) -> float:
    """Seconds to play the tournament's games in this process, without the runner (runner_overhead.py's loop)."""
    return runner_overhead.plain_loop(load_config(path))


def plyground_run(tree: Path, path: Path) -> float:
    """Wall seconds of `plyground run` of `path` with `tree`'s code, as a whole command."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "framework.cli", "run", str(path), "--quiet"], cwd=tree, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def write(folder: Path, name: str, template: str, games: int) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(template.format(games=games, results=folder / f"{name}-results"))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random tic-tac-toe games (even)")
    parser.add_argument("--checkers-games", type=int, default=200, help="checkers alpha-beta games (even; 0: skip)")
    parser.add_argument("--revision", default="4264574", help="the revision the checkers games are paired against")
    parser.add_argument("--repeat", type=int, default=3, help="paired runs of the checkers games")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        path = write(tmp, "plain", RANDOM, args.games)
        plain = plain_loop(path)
        run = plyground_run(ROOT, write(tmp, "run", RANDOM, args.games))
        print(f"{args.games} random-vs-random tic-tac-toe games")
        print(f"  plain loop            {plain:8.3f} s {args.games / plain:9.1f} games/s")
        print(f"  plyground run, 2 wkrs {run:8.3f} s {args.games / run:9.1f} games/s   {run / plain:6.1f}x the loop")
        if not args.checkers_games:
            return 0
        print(f"{args.checkers_games} checkers games, alpha-beta depth 2 against itself, 2 workers")
        ratios = []
        with worktree(args.revision) as old:
            for tree in (old, ROOT):   # unpaired warm-up runs
                plyground_run(tree, write(tmp, f"warm-{tree.name}", CHECKERS, 2))
            for i in range(args.repeat):
                then = plyground_run(old, write(tmp, f"old{i}", CHECKERS, args.checkers_games))
                now = plyground_run(ROOT, write(tmp, f"new{i}", CHECKERS, args.checkers_games))
                ratios.append(now / then)
                print(f"  pair {i + 1}: {args.revision} {then:7.2f} s   this tree {now:7.2f} s   "
                      f"ratio {now / then:5.2f}")
        print(f"  median ratio this tree / {args.revision}: {statistics.median(ratios):.2f} (below 1: faster)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
