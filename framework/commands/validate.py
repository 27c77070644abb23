"""`plyground validate FILE`: check a tournament file without playing a game."""

from __future__ import annotations

import argparse

from framework.tournament.config import load_config
from framework.tournament.scheduler import pairings


def run(args: argparse.Namespace) -> int:
    config = load_config(args.file)
    tasks = config.task_count()   # counted, not built: a big run validates in the time a small one does
    if config.mode == "solve":
        print(f"{args.file}: ok — solve run '{config.name}', game {config.game}, {len(config.start_positions)} "
              f"positions x {len(config.participants)} solvers = {tasks} solves on {config.workers} "
              f"{config.executor.kind} worker(s); results in {config.results}")
        return 0
    if config.tune is not None:
        tune = config.tune
        match = f", then at most {tune.validate.games} validation games" if tune.validate else ""
        print(f"{args.file}: ok — tuning '{config.name}', game {config.game}, agent {tune.agent.agent}, "
              f"{len(tune.parameters)} parameter(s) ({', '.join(p.name for p in tune.parameters)}), "
              f"{tune.iterations} iterations = {2 * tune.iterations} games{match} on {config.workers} "
              f"{config.executor.kind} worker(s); results in {config.results}")
        for warning in tune.warnings():
            print(f"warning: {warning}")
        return 0
    games = ", ".join(name for name, _ in config.all_games())
    print(f"{args.file}: ok — tournament '{config.name}', game {games}, {config.format}, "
          f"{len(config.participants)} participants, {len(pairings(config))} pairings, {tasks} games "
          f"on {config.workers} {config.executor.kind} worker(s); results in {config.results}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("validate", help="check a tournament file and say what it would play")
    p.add_argument("file", help="tournament file")
    p.set_defaults(func=run)
