"""`plyground report RESULTS`: standings and crosstable in the terminal; Markdown, PNG and tables on disk."""

from __future__ import annotations

import argparse
from pathlib import Path

from framework.errors import ConfigError


def run(args: argparse.Namespace) -> int:
    # Imported here: pandas and matplotlib take a second to load, which other commands need not pay.
    from framework.analysis.report import terminal_summary, write_report
    from framework.analysis.tables import Results
    from framework.tuning.report import TuneReport

    results = Results(args.results)
    tuning = TuneReport(results) if results.mode == "tune" else None
    print("\n".join(tuning.lines()) if tuning else terminal_summary(results))
    out = Path(args.out) if args.out else results.folder
    formats = tuple(fmt for fmt in ("parquet", "jsonl") if getattr(args, fmt))
    try:
        path = tuning.write(out) if tuning else write_report(results, out)
        if formats:
            results.export(out / "tables", formats, tables=tuning.tables() if tuning else None)
    except OSError as exc:
        raise ConfigError(f"cannot write the report into '{out}' ({exc.strerror or exc}); the results are untouched "
                          "and the summary above is complete; write it elsewhere with --out DIR") from None
    print(f"\nreport: {path} (plots and tables/*.csv{''.join(f' and *.{f}' for f in formats)} beside it)")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("report", help="print standings and crosstable; write a Markdown report with plots")
    p.add_argument("results", help="results folder of a tournament run")
    p.add_argument("--out", metavar="DIR", help="write the report, plots and tables here (default: the results "
                                                "folder)")
    p.add_argument("--parquet", action="store_true", help="also export every table as Parquet (needs pyarrow)")
    p.add_argument("--jsonl", action="store_true",
                   help="also export every table as JSON Lines, one object per row (games.jsonl, match.jsonl, ...)")
    p.set_defaults(func=run)
