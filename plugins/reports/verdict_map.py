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
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from framework.analysis.tables import Results
from framework.registry import Registry
from plugins.reports.table42 import (
    FIRST,
    PAPER,
    by_algorithm,
    check_values,
    run_time,
    solver_specs,
    spec_of,
    stopped,
)

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
                  "# Written by `python -m plugins.reports.verdict_map positions` (plugins/reports/verdict_map.py).\n")
        path.write_text(header + "".join(line + "\n" for line in lines))
        written.append(path)
    return written


def solved_within(solves: pd.DataFrame, budget: int, tree: bool = False) -> set[str]:
    """The positions a deterministic solver's run solved within `budget` nodes (`tree`: within a PN tree of
    `budget` nodes, the root and every node it created)."""
    solved = solves[solves["status"] == "solved"]
    used = solved["nodes"] + (1 if tree else 0)
    return set(solved[used <= budget]["position"])


@dataclass(frozen=True)
class MapRuns:
    """The verdict map's three runs: alpha-beta at a larger budget and PN with a larger tree, each on what it
    left unsolved in the comparison, and PN² and PDS-PN at other memories (with alpha-beta's LMR row)."""

    deeper: Results
    pn_tree: Results
    memory_map: Results


def _solver(results: Results, algorithm: str, registry: Registry) -> str:
    """The id of the run's first solver of `algorithm` (as its agent declares it)."""
    found = by_algorithm(solver_specs(results, registry)).get(algorithm)
    if found is None:
        raise ValueError(f"{results.folder} has no {algorithm} solver")
    return found


def _mine(results: Results, solver: str) -> pd.DataFrame:
    return results.solves[results.solves["solver"] == solver]


@dataclass(frozen=True)
class Curve:
    """A deterministic solver's solves over the whole set, joined from a run and its re-run of what it left: per
    position solved, the nodes it took (`used`: for PN the tree it held, `nodes` + 1) and the nodes in the
    paper's convention (`first`); `limit` the largest budget (or tree) the joined runs cover."""

    used: pd.Series        # by position
    first: pd.Series
    limit: int

    def solved(self, budget: int) -> int:
        return int((self.used <= budget).sum())

    def reach(self, count: int) -> int | None:
        """The least budget within which at least `count` positions are solved (None: not within `limit`)."""
        ordered = self.used.sort_values().to_numpy()
        return int(ordered[count - 1]) if 0 < count <= len(ordered) else (0 if count <= 0 else None)


def joined_curve(first_run: pd.DataFrame, again: pd.DataFrame, limit: int, tree: bool = False) -> Curve:
    """`first_run`'s solves with `again`'s (the positions it left unsolved, at a larger budget) in their place."""
    solved = pd.concat([first_run[first_run["status"] == "solved"], again[again["status"] == "solved"]])
    solved = solved.drop_duplicates("position", keep="first").set_index("position")
    first = solved[FIRST] if FIRST in solved else solved["nodes"]
    return Curve(solved["nodes"] + (1 if tree else 0), first.fillna(solved["nodes"]), limit)


def cpu_text(results: Results) -> str:
    """The CPU time the run's solves took, summed (each search process's own)."""
    return f"Its solves took {results.solves['cpu_time'].sum() / 60:.1f} minutes of CPU time."


def _count(value: int | None, beyond: int) -> str:
    return f"{value:,}" if value is not None else f"beyond {beyond:,}"


def paper_budget(curve: Curve, paper_mean: float) -> int | None:
    """The least budget at which alpha-beta's mean nodes per solved position (the paper's convention) reach the
    paper's (None: not within the curve): a larger budget solves harder positions, so the mean only grows."""
    ordered = pd.DataFrame({"used": curve.used, "first": curve.first}).sort_values("used")
    means = ordered["first"].cumsum().to_numpy() / np.arange(1, len(ordered) + 1)
    reached = ordered["used"][means >= paper_mean]
    return int(reached.iloc[0]) if len(reached) else None


def shortest_wins(ab: pd.DataFrame, deeper: pd.DataFrame) -> pd.DataFrame:
    """Per position, the shortest win alpha-beta proved (`plies`) or, unproven at the largest budget, the deepest
    iteration it completed (`beyond`): iterative deepening in solver mode proves a win at the first depth that
    holds one, so the depth of its proof is the length of the shortest win."""
    last = pd.concat([deeper, ab[~ab["position"].isin(deeper["position"])]])
    return pd.DataFrame({"position": last["position"], "plies": last["depth"].where(last["status"] == "solved"),
                         "beyond": last["depth"].where(last["status"] != "solved")})


def wins_table(wins: pd.DataFrame, ab: pd.DataFrame, budget: int) -> pd.DataFrame:
    """Positions by the length of their shortest win, and how many alpha-beta solved at `budget` (the comparison)."""
    solved = set(ab[ab["status"] == "solved"]["position"])
    rows = []
    for plies, group in wins.dropna(subset=["plies"]).groupby("plies"):
        rows.append({"shortest win": f"{int(plies)} plies", "positions": len(group),
                     f"alpha-beta solved at {budget:,}": int(group["position"].isin(solved).sum())})
    unproven = wins[wins["plies"].isna()]
    if len(unproven):
        rows.append({"shortest win": f"longer than {int(unproven['beyond'].min())}-{int(unproven['beyond'].max())} "
                                     "plies (not proven)", "positions": len(unproven),
                     f"alpha-beta solved at {budget:,}": 0})
    return pd.DataFrame(rows)


def verdict_section(comparison: Results, deeper: Results, pn_tree: Results, memory_map: Results,
                    registry: Registry, half: Results | None = None, curve: Results | None = None) -> str:
    """The page's "Where the verdicts turn" (markdown): alpha-beta's budget against PN's memory, the other
    verdicts against their limits, the LMR row and the paper's budget."""
    for run in (deeper, pn_tree, memory_map):
        check_values(run)
    ab_id, pn_id = (_solver(comparison, name, registry) for name in ("alpha-beta", "proof-number search"))
    ab_budget = int(comparison.config["participants"][0]["budget"]["nodes"])
    deep_budget = int(deeper.config["participants"][0]["budget"]["nodes"])
    again = _mine(deeper, _solver(deeper, "alpha-beta", registry))
    ab = joined_curve(_mine(comparison, ab_id), again, deep_budget)
    pn_limit = int(pn_tree.config["participants"][0]["params"]["tree_limit"])
    pn = joined_curve(_mine(comparison, pn_id), _mine(pn_tree, _solver(pn_tree, "proof-number search", registry)),
                      pn_limit, tree=True)
    budgets = [b for b in AB_BUDGETS if b <= deep_budget]
    memories = [m for m in PN_MEMORIES if m <= pn_limit]
    # the runs at a smaller tree limit, where there are, against what the curve reads off the larger one
    checks = []
    for run in (r for r in (curve, half) if r is not None):
        for entry in run.config["participants"]:
            spec = spec_of(registry, entry["agent"])
            if spec is None or spec.algorithm != "proof-number search":
                continue
            limit = int(entry["params"]["tree_limit"])
            actual = set(_mine(run, entry["id"]).query("status == 'solved'")["position"])
            read = set(pn.used[pn.used <= limit].index)
            checks.append(f"`{entry['id']}` (tree_limit {limit:,}: {len(actual)} solved, "
                          + ("the same positions" if actual == read else f"**{len(actual ^ read)} differ**") + ")")
    rows = []
    for memory in memories:
        row = {"PN tree_limit (= its node cap)": f"{memory:,}", "PN solved": pn.solved(memory)}
        for budget in budgets:
            a, p = ab.solved(budget), pn.solved(memory)
            row[f"alpha-beta {budget // 1_000_000}M: {a}"] = "**holds**" if a > p else "does not hold"
        rows.append(row)
    grid = pd.DataFrame(rows)
    flips = []
    for budget in budgets:
        a = ab.solved(budget)
        needed = pn.reach(a)
        flips.append(f"alpha-beta at {budget:,} nodes solves {a}: more than PN while PN's tree holds fewer than "
                     f"{_count(needed, pn.limit)} nodes")
    lmr_id = next(p["id"] for p in memory_map.config["participants"] if p["params"].get("lmr"))
    lmr = _mine(memory_map, lmr_id)
    lmr_solved = int((lmr["status"] == "solved").sum())
    paper_mean = PAPER["alpha-beta"][1] / PAPER["alpha-beta"][0]
    at_paper = paper_budget(ab, paper_mean)
    paper_text = (f"Alpha-beta's mean per solved position reaches the paper's {paper_mean / 1e6:.2f} million nodes "
                  f"(first iteration reaching each depth) at a budget of **{at_paper:,} nodes**, where it solves "
                  f"{ab.solved(at_paper)} of {len(comparison.config['start_positions'])}; there PN solves more with "
                  f"a tree of {_count(pn.reach(ab.solved(at_paper) + 1), pn.limit)} nodes or more."
                  if at_paper is not None else
                  f"Within {deep_budget:,} nodes alpha-beta's mean per solved position stays below the paper's "
                  f"{paper_mean / 1e6:.2f} million: its budget, if it had one, was above ours.")
    others = memory_rows(comparison, memory_map, half, registry)
    most = most_text(comparison, ab, pn, registry)
    return f"""### Where the verdicts turn: alpha-beta's budget against PN's memory

"Alpha-beta solves more than PN" is a statement about two limits, and each solver's limit is what it was:
alpha-beta stops at its **node budget** (its table holds 1,000,000 entries whatever the budget); PN stops at its
**tree_limit**, and as a PN node is a tree node, the tree limit is also PN's **node cap**: with tree_limit
1,000,000 PN never had the {ab_budget:,} nodes every solver was given. PN², PDS, PDS-PN and df-pn stopped at the
node budget (their memory never bound, table above). Both solves are deterministic, so the larger budgets ran
only on what the comparison left: alpha-beta at {deep_budget:,} nodes on the {len(again)} positions it
left unsolved (`{deeper.config.get('name', '')}`), PN with a tree of {pn_limit:,} nodes on its {len(pn_tree.solves)}
(`{pn_tree.config.get('name', '')}`); within a smaller budget or tree each solves exactly the positions it solved
within that many nodes. {("Checked against the runs at a smaller tree: " + "; ".join(checks) + ".") if checks else ""}
`{deeper.config.get('name', '')}`: {run_time(deeper)} {cpu_text(deeper)}
`{pn_tree.config.get('name', '')}`: {run_time(pn_tree)} {cpu_text(pn_tree)}

Each cell says whether alpha-beta at the column's budget (with the positions it solves) solves more than PN with
the row's tree:

{grid.to_markdown(index=False)}

Where it flips: {"; ".join(flips)}.

**The paper's budget.** No source here states the node or time limit of Winands et al. (the CG 2002 paper, the
TCS 2004 paper and the thesis' chapter 4 were reachable as abstracts only), nor more of their alpha-beta than the
enhancements named in tournaments/thesis-loa-hard.yaml. So the assumption: their budget was where their alpha-beta's
mean per solved position stands. {paper_text}

{most}

**Late-move reductions** (`{lmr_id}`, the comparison's alpha-beta with `lmr: true`, at {ab_budget:,} nodes): it
solves {lmr_solved} against the comparison's {ab.solved(ab_budget)}.
`{memory_map.config.get('name', '')}`: {run_time(memory_map)} {cpu_text(memory_map)}

**The other verdicts that depend on a limit**, PN² and PDS-PN at the comparison's node budget with memories from
{min(PN_MEMORIES):,} to {max(PN_MEMORIES):,} (`{memory_map.config.get('name', '')}`; 500,000 is the memory
experiment, 1,000,000 the comparison):

{others.to_markdown(index=False)}
"""


def wins_text(comparison: Results, deeper: Results, registry: Registry) -> str:
    """The set's positions by the length of their shortest win, and alpha-beta's solves of each in the comparison
    (for the set's description)."""
    ab = _mine(comparison, _solver(comparison, "alpha-beta", registry))
    budget = int(comparison.config["participants"][0]["budget"]["nodes"])
    wins = shortest_wins(ab, _mine(deeper, _solver(deeper, "alpha-beta", registry)))
    left = ab[ab["status"] != "solved"]["depth"]
    reach = (f"on the positions it left it completed depth {int(left.min())} to {int(left.max())} (most often "
             f"{int(left.mode().iloc[0])})" if len(left) else "it left none")
    return f"""**Shortest wins.** Every position's shortest win is at least 5 plies (the set's rule: an exhaustive
search found none shorter). The length of the shortest win, from alpha-beta's proofs at up to
{int(deeper.config["participants"][0]["budget"]["nodes"]):,} nodes (iterative deepening in solver mode proves a win
at the first depth that holds one), and how many of each alpha-beta solved in the comparison at {budget:,} nodes:
{reach}, so the longer wins were beyond it whatever PN did.

{wins_table(wins, ab, budget).to_markdown(index=False)}
"""


def most_text(comparison: Results, ab: Curve, pn: Curve, registry: Registry) -> str:
    """Where "PN² and PDS solve the most" (of the paper's five, at the comparison's limits) turns as alpha-beta's
    budget and PN's tree grow."""
    solved = comparison.solves[comparison.solves["status"] == "solved"].groupby("solver").size()
    pn2, pds = (_solver(comparison, name, registry) for name in ("PN²", "PDS"))
    least = int(min(solved.get(pn2, 0), solved.get(pds, 0)))
    return (f"*PN² and PDS solve the most* (of the paper's five; PN² {int(solved.get(pn2, 0))}, PDS "
            f"{int(solved.get(pds, 0))} at the comparison's limits) turns too: it holds while alpha-beta stays at or "
            f"below {least} solved, below a budget of {_count(ab.reach(least + 1), ab.limit)} nodes, and while PN's "
            f"tree holds fewer than {_count(pn.reach(least + 1), pn.limit)} nodes.")


def memory_rows(comparison: Results, memory_map: Results, half: Results | None, registry: Registry) -> pd.DataFrame:
    """Per memory, PN²'s and PDS-PN's solved and stopped-by-memory counts, and the two verdicts on them: PN² is
    limited by memory (a solve stopped by it), PDS-PN is competitive with PN² in solutions (solves as many)."""
    runs = [comparison, memory_map, *([half] if half is not None else [])]
    found: dict[tuple[str, int], tuple[int, int]] = {}
    for run in runs:
        for entry in run.config["participants"]:
            spec = spec_of(registry, entry["agent"])
            if spec is None or spec.algorithm not in ("PN²", "PDS-PN"):
                continue
            memory = entry["params"].get("tree_limit" if spec.algorithm == "PN²" else "tt_size")
            if memory is None:
                continue
            mine = _mine(run, entry["id"])
            found.setdefault((spec.algorithm, int(memory)), (int((mine["status"] == "solved").sum()),
                                                             stopped(run.solves, entry["id"])))
    rows = []
    for memory in sorted({m for _, m in found}):
        pn2, pdspn = found.get(("PN²", memory)), found.get(("PDS-PN", memory))
        rows.append({"memory (tree_limit / tt_size)": f"{memory:,}",
                     "PN² solved (stopped by memory)": f"{pn2[0]} ({pn2[1]})" if pn2 else "-",
                     "PDS-PN solved (stopped by memory)": f"{pdspn[0]} ({pdspn[1]})" if pdspn else "-",
                     "PN² is limited by memory": ("**holds**" if pn2[1] else "not testable (never bound)")
                     if pn2 else "-",
                     "PDS-PN solves as many as PN²": ("**holds**" if pdspn[0] >= pn2[0] else "does not hold")
                     if pn2 and pdspn else "-"})
    return pd.DataFrame(rows)


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
