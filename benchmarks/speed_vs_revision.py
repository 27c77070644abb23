"""`benchmarks/speed.py` of this tree against an earlier revision's, in one run: every row's ratio.

    python benchmarks/speed_vs_revision.py [--revision 4264574] [--rounds 2] [--bar 0.95] [-- SPEED ARGS...]

Why: issue #27 rebuilt the kernel seam on the condition that every row of `speed.py` (perft, the solvers,
fixed-depth alpha-beta; interpreted and compiled) stays at least 95% of what revision 4264574, the last before
it, measures on the same machine in the same run. The revision is checked out in a temporary git worktree
(`revision.worktree`); the two trees run their own `speed.py` alternately as subprocesses (PYTHONPATH and
working directory set to each; each warms its kernels before timing), `--rounds` times, and each row keeps
its best rate per column. A row is marked below the bar when either its interpreted or its compiled rate is
below `--bar` times the revision's; a row whose check column says MISMATCH in either tree is marked too, and
one whose counts (speed.py's check column: nodes, leaves, solved) differ between the trees is marked as not
like for like: the default search changed.
Exit status 1 when any row is marked.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from revision import ROOT, worktree  # noqa: E402

#: The columns of speed.py's table compared here (the OpenSpiel column is the same peer in both trees).
COLUMNS = ("Python /s", "compiled /s")
MEASURE_WIDTH = 40


def parse(table: str) -> dict[str, tuple[float | None, float | None, str]]:
    """speed.py's printed table as {measure: (Python /s, compiled /s, check)} (None where a cell is "-")."""
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("measure"))
    rows = {}
    for line in lines[start + 1:]:
        if not line.strip():
            continue
        cells = line[MEASURE_WIDTH:].split(None, 6)
        py, jit = (None if cell == "-" else float(cell.replace(",", "")) for cell in cells[:2])
        rows[line[:MEASURE_WIDTH].rstrip()] = (py, jit, cells[6] if len(cells) > 6 else "")
    return rows


def measure(tree: Path, speed_args: list[str]) -> dict[str, tuple[float | None, float | None, str]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "benchmarks/speed.py", *speed_args], env=env, cwd=tree,
                          capture_output=True, text=True)
    if "measure" not in done.stdout:
        raise SystemExit(f"speed.py in {tree} printed no table (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return parse(done.stdout)


def best(kept: dict[str, list], rows: dict[str, tuple[float | None, float | None, str]]) -> None:
    """Keep per row the highest rate of each column and any MISMATCH."""
    for what, (py, jit, check) in rows.items():
        row = kept.setdefault(what, [py, jit, check])
        row[0] = max(filter(None, (row[0], py)), default=None)
        row[1] = max(filter(None, (row[1], jit)), default=None)
        if "MISMATCH" in check:
            row[2] = check


def ratio(now: float | None, then: float | None) -> str:
    return "-" if now is None or not then else f"{now / then:.2f}"


def row_marks(rev: str, then: list, now: list, bar: float) -> list[str]:
    """What is wrong with a row kept as (Python /s, compiled /s, check) at `rev` (`then`) and now: a rate below
    `bar` times the revision's, a MISMATCH (or a row missing now), or counts that differ (not like for like)."""
    low = [name for name, new, old in (("Python", now[0], then[0]), ("compiled", now[1], then[1]))
           if old and (new is None or new < bar * old)]
    marks = [f"{', '.join(low)} below {bar:.0%}"] * bool(low)
    marks += [f"{tree}: {check}" for tree, check in ((rev, then[2]), ("now", now[2]))
              if "MISMATCH" in check or check == "MISSING"]
    if now[2] != then[2] and not any("MISMATCH" in c or c == "MISSING" for c in (now[2], then[2])):
        # another search: the ratio is not like for like
        marks.append(f"counts differ: {rev} {then[2]}; now {now[2]}")
    return marks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revision", default="4264574", help="the earlier revision (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the two trees (default 2)")
    parser.add_argument("--bar", type=float, default=0.95, help="the lowest ratio now / then (default 0.95)")
    parser.add_argument("speed_args", nargs="*", help="passed to speed.py (after --), e.g. -- --quick")
    args = parser.parse_args()
    with worktree(args.revision) as before:
        kept: dict[Path, dict[str, list]] = {before: {}, ROOT: {}}
        for round_ in range(args.rounds):
            for tree in (before, ROOT) if round_ % 2 == 0 else (ROOT, before):
                best(kept[tree], measure(tree, args.speed_args))
    rev = args.revision
    print(f"| measure | {rev} Python /s | now Python /s | ratio | {rev} compiled /s | now compiled /s | ratio | |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    status = 0
    for what, then in kept[before].items():
        now = kept[ROOT].get(what, [None, None, "MISSING"])
        marks = row_marks(rev, then, now, args.bar)
        status |= bool(marks)
        print(f"| {what} | {then[0] or 0:,.0f} | {now[0] or 0:,.0f} | {ratio(now[0], then[0])} "
              f"| {then[1] or 0:,.0f} | {now[1] or 0:,.0f} | {ratio(now[1], then[1])} | {'; '.join(marks)} |")
    return status


if __name__ == "__main__":
    sys.exit(main())
