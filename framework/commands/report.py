"""`plyground report RESULTS`: standings and crosstable in the terminal; Markdown, PNG and tables on disk."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    # Imported here: pandas and matplotlib take a second to load, which other commands need not pay.
    from framework.analysis.report import terminal_summary, write_report
    from framework.analysis.tables import Results

    results = Results(args.results)
    print(terminal_summary(results))
    path = write_report(results)
    if args.parquet:
        results.export(results.folder / "tables", ("parquet",))
    print(f"\nreport: {path} (plots and tables/*.csv{' and *.parquet' if args.parquet else ''} beside it)")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("report", help="print standings and crosstable; write a Markdown report with plots")
    p.add_argument("results", help="results folder of a tournament run")
    p.add_argument("--parquet", action="store_true", help="also export every table as Parquet (needs pyarrow)")
    p.set_defaults(func=run)
