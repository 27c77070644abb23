"""`plyground export RESULTS --format pgn|pdn|jsonl [--out FILE]`: every stored game as a record (records.py)."""

from __future__ import annotations

import argparse
import sys

from framework.analysis.tables import Results
from framework.errors import ConfigError
from framework.records import FORMATS, export


def run(args: argparse.Namespace) -> int:
    results = Results(args.results)
    if results.mode == "solve":
        raise ConfigError(f"'{args.results}' holds solves, not games; there is nothing to export as game records")
    texts = export(results, args.format)
    if args.out is None:
        for text in texts:
            sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            count = sum(1 for text in texts if out.write(text) is not None)
    except OSError as exc:
        raise ConfigError(f"cannot write '{args.out}': {exc.strerror}") from None
    print(f"wrote {count} games to {args.out}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("export", help="write a results folder's games as PGN, PDN (draughts) or JSON lines")
    p.add_argument("results", help="results folder")
    p.add_argument("--format", choices=FORMATS, default="pgn", help="pgn (any game), pdn (draughts games) or jsonl")
    p.add_argument("--out", metavar="FILE", help="file to write (default: standard output)")
    p.set_defaults(func=run)
