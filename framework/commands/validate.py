"""`plyground validate FILE`: check a tournament file without playing a game."""

from __future__ import annotations

import argparse

from framework.tournament.config import load_config
from framework.tournament.scheduler import pairings, schedule
from framework.tournament.solve import is_solve_file, load_solve_config, schedule_solves


def run(args: argparse.Namespace) -> int:
    if is_solve_file(args.file):
        solve = load_solve_config(args.file)
        print(f"{args.file}: ok — solve run '{solve.name}', game {solve.game}, {len(solve.positions)} positions x "
              f"{len(solve.solvers)} solvers = {len(schedule_solves(solve))} tasks, budget {solve.budget} per "
              f"position, on {solve.workers} {solve.executor.kind} worker(s); results in {solve.results}")
        return 0
    config = load_config(args.file)
    games = len(schedule(config))
    print(f"{args.file}: ok — tournament '{config.name}', game {config.game}, {config.format}, "
          f"{len(config.participants)} participants, {len(pairings(config))} pairings, {games} games "
          f"on {config.workers} {config.executor.kind} worker(s); results in {config.results}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("validate", help="check a tournament file and say what it would play")
    p.add_argument("file", help="tournament file")
    p.set_defaults(func=run)
