"""`benchmarks/speed.py` of this tree against an earlier revision's, in one run: every row's ratio.

    python benchmarks/speed_vs_revision.py [--revision 4264574] [--rounds 2] [--bar 0.95] [-- SPEED ARGS...]

Why: issue #27 rebuilt the kernel seam on the condition that every row of `speed.py` (perft, the solvers,
fixed-depth alpha-beta; interpreted and compiled) stays at least 95% of what revision 4264574, the last before
it, measures on the same machine in the same run. The revision is checked out in a temporary git worktree
(`revision.worktree`); the two trees run their own `speed.py` alternately as subprocesses (PYTHONPATH and
working directory set to each; each warms its kernels before timing), `--rounds` times, and each row keeps
its best rate per column. A row is marked below the bar when either its interpreted or its compiled rate is
below `--bar` times the revision's; a row whose check column says MISMATCH in either tree is marked too.
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
    for what, (py_then, jit_then, check_then) in kept[before].items():
        py_now, jit_now, check_now = kept[ROOT].get(what, [None, None, "MISSING"])
        low = [name for name, now, then in (("Python", py_now, py_then), ("compiled", jit_now, jit_then))
               if then and (now is None or now < args.bar * then)]
        marks = [f"{', '.join(low)} below {args.bar:.0%}"] * bool(low)
        marks += [f"{tree}: {check}" for tree, check in ((rev, check_then), ("now", check_now))
                  if "MISMATCH" in check or check == "MISSING"]
        status |= bool(marks)
        print(f"| {what} | {py_then or 0:,.0f} | {py_now or 0:,.0f} | {ratio(py_now, py_then)} "
              f"| {jit_then or 0:,.0f} | {jit_now or 0:,.0f} | {ratio(jit_now, jit_then)} | {'; '.join(marks)} |")
    return status


if __name__ == "__main__":
    sys.exit(main())
