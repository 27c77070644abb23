"""`plyground run FILE`: play a tournament into its results folder, resuming where it stopped."""

from __future__ import annotations

import argparse
import importlib
import shlex
import signal
import sys
import threading
from dataclasses import replace
from pathlib import Path

from framework.commands import options
from framework.registry import Registry
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from framework.tournament.store import Store
from framework.tuning.runner import run_tuning


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _unit(config) -> str:
    return "solves" if config.mode == "solve" else "games"


def resume_command(args: argparse.Namespace) -> str:
    """The command line that continues this run (run-time options kept, --quiet too)."""
    argv = ["plyground", "run", args.file]
    if args.results:
        argv += ["--results", args.results]
    if args.workers:
        argv += ["--workers", str(args.workers)]
    if args.quiet:
        argv.append("--quiet")
    if args.report_every:
        argv += ["--report-every", str(args.report_every)]
    return shlex.join(argv)


def _match_lines(config) -> list[str]:
    """Each pairing's statistics so far (none in solve mode)."""
    if config.mode != "games":
        return []
    from framework.analysis.tables import match_lines  # pandas: only once there are games to sum up

    return match_lines(config.results)


def _import_tables_meanwhile(config) -> None:
    """Import the match lines' tables (pandas, a quarter of a second) in a thread while the workers start, when
    idle: the end of a run then prints at once (Python's import lock makes a later import wait for this one)."""
    if config.mode == "games":
        threading.Thread(target=importlib.import_module, args=("framework.analysis.tables",), daemon=True).start()


def run(args: argparse.Namespace) -> int:
    registry = Registry()
    config = load_config(args.file, registry)
    if args.results:
        config = replace(config, results=Path(args.results))
    if args.workers:
        config = replace(config, workers=args.workers)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        if config.mode == "tune":
            for warning in config.tune.warnings():
                print(f"warning: {warning}", file=sys.stderr)
            return _tuned(config, run_tuning(config, quiet=args.quiet, registry=registry))
        _import_tables_meanwhile(config)
        summary = run_tournament(config, quiet=args.quiet, registry=registry, report_every=args.report_every,
                                 report=lambda: _match_lines(config))
    except KeyboardInterrupt:
        store = Store(config.results)
        stored = len(store.done())
        store.close()
        print(f"\ninterrupted: {stored} {_unit(config)} are stored in {config.results}; resume with:\n"
              f"  {resume_command(args)}", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(f"{config.name}: {summary.total} {_unit(config)} in {config.results} ({summary.resumed} already stored, "
          f"{summary.played} played now)")
    if summary.retried or summary.void:
        print(f"{summary.retried} replays of {_unit(config)} whose worker was killed from outside; {summary.void} "
              f"stored void (no result, ignored by the standings)")
    for line in [*_match_lines(config), *summary.sprt]:
        print(line)
    tables = "solver table" if config.mode == "solve" else "standings, crosstable"
    print(f"{tables} and report: plyground report {shlex.quote(str(config.results))}")
    return 0


def _tuned(config, summary) -> int:
    print(f"{config.name}: {summary.iterations} iterations in {config.results} ({summary.resumed} already stored, "
          f"{summary.played} played now)")
    print("tuned values: " + ", ".join(f"{name} {value:.6g}" for name, value in summary.theta.items()))
    for line in (summary.validation, summary.warning and f"warning: {summary.warning}"):
        if line:
            print(line)
    print(f"trajectory plot and report: plyground report {shlex.quote(str(config.results))}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("run", help="run a tournament from a YAML file (resumes an interrupted run)")
    p.add_argument("file", help="tournament file, e.g. tournaments/tictactoe-quick.yaml")
    p.add_argument("--results", help="results folder (overrides the file's 'results' key)")
    p.add_argument("--workers", type=options.workers, help="parallel workers (overrides the file's 'workers' key)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (for CI and logs)")
    p.add_argument("--report-every", type=options.count(1, 1_000_000), metavar="N",
                   help="every N games, print each pairing's W-D-L, score, Elo +- error, LOS, draw ratio, "
                        "pentanomial counts (and SPRT)")
    p.set_defaults(func=run)
