"""Where Table 4.2's verdicts turn on the hard set: alpha-beta's node budget against PN's memory, and the other
verdicts against the limits they depend on (issue 40).

The runs behind it, and why so few positions need the larger budgets:

- alpha-beta's solve is deterministic under a node budget (the budget only ends it; its table holds 1,000,000
  entries whatever the budget), so a position it solved within 4,000,000 nodes it solves within any larger
  budget with the same nodes. Only the positions it left unsolved at 4,000,000 run again, once, at 64,000,000
  (`tournaments/thesis-loa-hard-alphabeta-64m.yaml`); its solved count at 8M, 16M and 32M is read off that run.
- PN search's tree only grows and its `tree_limit` only stops it (an expansion past the limit ends the search),
  so a run at limit T solves exactly the positions whose proof tree held at most T nodes in a run at a larger
  limit: one run at 4,000,000 of the positions PN left unsolved at 1,000,000
  (`tournaments/thesis-loa-hard-pn-4m.yaml`) gives PN at 2M and 4M. For PN nodes are tree nodes, so its
  tree limit is also its node cap: PN never had more nodes than its memory.
- PN² and PDS-PN size their second level from their memory, so each memory is a run of its own, at the
  comparison's 4,000,000 nodes (`tournaments/thesis-loa-hard-memory-map.yaml`, with alpha-beta's LMR row).

`python -m plugins.reports.verdict_map positions` writes the two subsets of positions from the comparison's
results (results/thesis-hard); the page's section is `verdict_section`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from framework.analysis.tables import Results

ROOT = Path(__file__).resolve().parents[2]
#: The comparison's run (every solver at 4,000,000 nodes) and the subsets of its positions run again.
COMPARISON = ROOT / "results" / "thesis-hard"
SUBSETS = {"alphabeta": ROOT / "tournaments" / "positions" / "loa-endgames-hard-alphabeta-4m-unsolved.txt",
           "pns": ROOT / "tournaments" / "positions" / "loa-endgames-hard-pns-1m-unsolved.txt"}
#: The budgets and memories of the map.
AB_BUDGETS = (4_000_000, 8_000_000, 16_000_000, 32_000_000, 64_000_000)
PN_MEMORIES = (250_000, 500_000, 1_000_000, 2_000_000, 4_000_000)


def unsolved_lines(results: Results, solver: str) -> list[str]:
    """The positions file lines (`POSITION | note`, in the set's order) of the positions `solver` left unsolved."""
    solves = results.solves[results.solves["solver"] == solver].sort_values("position_index")
    left = solves[solves["status"] != "solved"]
    return [f"{row.position} | {row.note}" for row in left.itertuples()]


def write_subsets(results: Results, subsets: dict[str, Path] = SUBSETS) -> list[Path]:
    """Write each solver's unsolved positions of the comparison to its subset file, with a header saying whence."""
    written = []
    for solver, path in subsets.items():
        lines = unsolved_lines(results, solver)
        header = (f"# {len(lines)} positions of loa-endgames-hard-488.txt that '{solver}' left unsolved in "
                  f"results/thesis-hard (the comparison at 4,000,000 nodes), in the set's order.\n"
                  f"# Written by `python -m plugins.reports.verdict_map positions`; see plugins/reports/verdict_map.py.\n")
        path.write_text(header + "".join(line + "\n" for line in lines))
        written.append(path)
    return written


def solved_within(solves: pd.DataFrame, budget: int, tree: bool = False) -> set[str]:
    """The positions a deterministic solver's run solved within `budget` nodes (`tree`: within a PN tree of
    `budget` nodes, the root and every node it created)."""
    solved = solves[solves["status"] == "solved"]
    used = solved["nodes"] + (1 if tree else 0)
    return set(solved[used <= budget]["position"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["positions"], help="positions: write the subsets of positions run again")
    parser.add_argument("--comparison", default=str(COMPARISON), help="the comparison's results folder")
    args = parser.parse_args(argv)
    for path in write_subsets(Results(args.comparison)):
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
