"""The tournament runner's overhead and parallel speed-up, measured against a plain loop in the same run.

Run: `python benchmarks/runner_overhead.py [--games 400] [--cpu-games 16] [--repeat 1]`.

1. Overhead: `--games` random-vs-random tic-tac-toe games, played (a) by a plain loop calling
   `framework.match.play_game` with the same seeded agents, and (b) through the runner
   (`run_tournament`: schedule, guarded worker process, progress beats to a shared file, pickling,
   SQLite commit per game), on 1 and 2 workers. Prints games/s and the ratio runner / plain loop, worker
   start-up included; then splits the runner's time into start-up (a run of 2 games: mostly the
   fresh worker process, which imports the framework and the plugins the tournament names) and the
   cost per further game, (time(games) - time(2 games)) / (games - 2), which is what a big tournament pays.
2. Speed-up: a CPU-bound tournament (`--cpu-games` games of full-depth minimax against random,
   ~0.5 s of search per game) on 1 and on 2 workers; prints both wall times and the ratio.
   On a 2-core machine shared with other jobs expect well under 2x.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from framework.match import play_game
from framework.registry import Registry
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from framework.tournament.scheduler import schedule
from framework.tournament.tasks import GameTask, derive_seed

RANDOM = """\
name: overhead
game: tictactoe
games_per_pairing: {games}
participants: [{{id: a, agent: random}}, {{id: b, agent: random}}]
"""
CPU = """\
name: cpu-bound
game: tictactoe
games_per_pairing: {games}
participants: [{{id: mm, agent: minimax}}, {{id: rnd, agent: random}}]
"""


def plain_loop(config) -> float:
    """Seconds to play the tournament's games in this process, without the runner."""
    registry = Registry()
    game = registry.create_game(config.game, config.game_options)
    tasks = schedule(config)
    start = time.perf_counter()
    for task in tasks:
        assert isinstance(task, GameTask)  # a tournament of games schedules game tasks
        agents = [registry.create_agent(p.agent, game, p.params, seed=derive_seed(task.seed, i))
                  for i, p in enumerate(task.players)]
        play_game(game, agents, players=(task.first.id, task.second.id))
    return time.perf_counter() - start


def through_runner(config, folder: Path, workers: int) -> float:
    config = replace(config, results=folder, workers=workers)
    start = time.perf_counter()
    summary = run_tournament(config, quiet=True)
    assert summary.played == len(schedule(config))
    return time.perf_counter() - start


def load(folder: Path, template: str, games: int):
    path = folder / "t.yaml"
    path.write_text(template.format(games=games))
    return load_config(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="random games for the overhead measurement (even)")
    parser.add_argument("--cpu-games", type=int, default=16, help="minimax games for the speed-up measurement (even)")
    parser.add_argument("--repeat", type=int, default=1, help="keep the best of N runs of each measurement")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        config = load(tmp, RANDOM, args.games)

        def best(f: Callable[[], float]) -> float:
            return min(f() for _ in range(args.repeat))

        runs = iter(range(1_000_000))
        n = args.games
        plain = best(lambda: plain_loop(config))
        print(f"overhead: {n} random-vs-random tic-tac-toe games")
        print(f"  {'plain loop':<22} {plain:8.3f} s {n / plain:10.1f} games/s   {plain / n * 1e3:6.3f} ms/game")
        start = load(tmp, RANDOM, 2)
        for workers in (1, 2):
            up = best(lambda: through_runner(start, tmp / f"r{next(runs)}", workers))
            run = best(lambda: through_runner(config, tmp / f"r{next(runs)}", workers))
            per = max((run - up) / (n - 2), 1e-9)
            label = f"runner, {workers} worker{'s' * (workers > 1)}"
            print(f"  {label:<22} {run:8.3f} s {n / run:10.1f} games/s   plain/runner {run / plain:6.1f}x slower")
            print(f"  {'':<22} start-up {up:6.3f} s, then {per * 1e3:6.3f} ms/game ({1 / per:8.1f} games/s, "
                  f"{per / (plain / n):5.1f}x the plain loop)")
        cpu = load(tmp, CPU, args.cpu_games)
        one = best(lambda: through_runner(cpu, tmp / f"r{next(runs)}", 1))
        two = best(lambda: through_runner(cpu, tmp / f"r{next(runs)}", 2))
        print(f"speed-up: {args.cpu_games} games of full-depth minimax vs random")
        print(f"  1 worker {one:8.3f} s   2 workers {two:8.3f} s   speed-up {one / two:5.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
