"""Table 4.2 on the refereed LOA set: every solver beside the paper, memory-bounded PN and PN², the budget search.

    python -m plugins.reports.thesis_hard RESULTS [--budget-search RESULTS] [--out FOLDER]

The set (`plyground make-endgames --referee ...`) is labelled by two agreeing referees and kept by its
distance from the game's end only, as Winands, Uiterwijk & van den Herik ("PDS-PN: A New Proof-Number
Search Algorithm", Computers and Games 2002) chose theirs without reference to the compared solvers.
`--budget-search` names the results of a run of alpha-beta alone at a budget far above the comparison's
on the same set: alpha-beta's solve is deterministic under a node budget, so the positions it solves within
any smaller budget B are those whose solve took at most B nodes, and one run gives the whole curve.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import pandas as pd

from framework.analysis import plots
from framework.analysis.tables import Results
from framework.registry import Registry
from plugins.reports.thesis import (
    FIRST,
    PAPER,
    PAPER_POSITIONS,
    _budget_text,
    _memory_table,
    _ratio,
    _ratios,
    _run_time,
    _spec,
    check_values,
    thesis_table,
)

#: The share of the paper's 488 positions alpha-beta solved (383): the comparison budget aims at it.
PAPER_SHARE = PAPER["alpha-beta"][0] / PAPER_POSITIONS
COMMAND = ("plyground run tournaments/thesis-loa-refereed.yaml && "
           "plyground run tournaments/thesis-loa-refereed-budget.yaml && "
           "python -m plugins.reports.thesis_hard results/thesis-refereed "
           "--budget-search results/thesis-refereed-budget")


def budget_curve(solves: pd.DataFrame, solver: str, positions: int,
                 share: float = PAPER_SHARE) -> tuple[int | None, pd.DataFrame]:
    """The smallest node budget within which `solver` solves at least `share` of `positions` (None: not even
    within the run's budget), and its solved count at budgets around it: a solve is deterministic under a
    node budget, so it succeeds within B exactly when it took at most B nodes."""
    nodes = solves[(solves["solver"] == solver) & (solves["status"] == "solved")]["nodes"].sort_values().to_numpy()
    need = math.ceil(share * positions)
    budget = int(nodes[need - 1]) if len(nodes) >= need else None
    marks = sorted({int(b) for b in (1e5, 1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 2e8, 5e8)
                    if not len(nodes) or b <= nodes[-1] * 10} | ({budget} if budget else set()))
    curve = pd.DataFrame([{"node budget": f"{b:,}", "solved": int((nodes <= b).sum()),
                           "share": f"{100 * (nodes <= b).sum() / positions:.0f}%"} for b in marks])
    return budget, curve


def referee_nodes(notes: list[str]) -> list[int]:
    """Per position, the most nodes a referee needed to label it (the `referees=NAME N, NAME N` note field;
    positions without one are left out)."""
    out = []
    for note in notes:
        fields = dict(part.strip().split("=", 1) for part in note.split(";") if "=" in part)
        if "referees" in fields:
            out.append(max(int(named.split()[-1]) for named in fields["referees"].split(",")))
    return out


def conclusions(table: pd.DataFrame, solves: pd.DataFrame, by_algorithm: dict[str, str]) -> list[str]:
    """The paper's and its abstract's conclusions, each decided from the numbers (or marked untested)."""
    row = table.set_index("solver")
    ab, pn = by_algorithm.get("alpha-beta"), by_algorithm.get("proof-number search")
    pn2, pds, pdspn = by_algorithm.get("PN²"), by_algorithm.get("PDS"), by_algorithm.get("PDS-PN")
    most = table["solved"].max()

    def absent(*names: str | None) -> bool:
        return any(n is None for n in names)

    def mark(holds: bool) -> str:
        return "**holds**." if holds else "**does not hold**."

    def untested(what: str) -> str:
        return f"**not tested**: the run has no {what} solver."

    def rate(solver: str) -> float:
        r = row.loc[solver]
        return 1000 * r["nodes"] / r["time_ms"] if r["time_ms"] else float("nan")

    out = []
    if absent(ab, pn):
        return ["(the run has no alpha-beta or no proof-number search solver: nothing to compare)"]
    a, p = row.loc[ab], row.loc[pn]
    nodes = _ratio(a["common_nodes_first"], p["common_nodes"])
    seconds = _ratio(a["common_time_ms"], p["common_time_ms"])
    out.append(f"- *PN needs far fewer nodes than alpha-beta.* On the {int(a['common'])} positions every solver "
               f"solved, alpha-beta used {nodes:.2f}x PN's nodes (paper's convention): " + mark(nodes > 1))
    out.append(f"- *PN is faster.* There alpha-beta took {seconds:.2f}x PN's time: " + mark(seconds > 1))
    out.append(f"- *Alpha-beta solves more than PN* (paper: 383 against 356, with PN's memory bounded). Here "
               f"{int(a['solved'])} against {int(p['solved'])}: " + mark(a["solved"] > p["solved"]))
    for name, solver in (("PN²", pn2), ("PDS", pds)):
        out.append(f"- *{name} solves the most.* " + (untested(name) if solver is None else
                   f"{int(row.loc[solver]['solved'])} against the most of any solver, {int(most)}: "
                   + mark(row.loc[solver]["solved"] == most)))
    if pn2 is None:
        out.append("- *PN² is limited by memory.* " + untested("PN²"))
    else:
        stopped = _stopped(solves, pn2)
        out.append(f"- *PN² is limited by memory.* Its tree limit stopped {stopped} of its solves "
                   f"(PN's stopped {_stopped(solves, pn)}): " + mark(stopped > 0))
    if pds is None:
        out.append("- *PDS is relatively slow.* " + untested("PDS"))
    else:
        slowest = min(rate(s) for s in table["solver"])
        out.append(f"- *PDS is relatively slow* (in nodes per second, from its re-searches). {rate(pds):,.0f} nodes/s, "
                   f"the slowest of any solver {slowest:,.0f}: " + mark(rate(pds) == slowest))
    if pdspn is None or pds is None or pn2 is None:
        out.append("- *PDS-PN is competitive with PDS in speed and with PN² in solutions.* "
                   + untested("PDS-PN, PDS or PN²"))
    else:
        q, d, t = row.loc[pdspn], row.loc[pds], row.loc[pn2]
        out.append(f"- *PDS-PN is competitive with PDS in speed.* Over the common positions PDS-PN took "
                   f"{q['common_time_ms']:,} ms against PDS's {d['common_time_ms']:,}: "
                   + mark(q["common_time_ms"] <= d["common_time_ms"]))
        out.append(f"- *PDS-PN is competitive with PN² in solutions.* It solved {int(q['solved'])} against PN²'s "
                   f"{int(t['solved'])}: " + mark(q["solved"] >= t["solved"]))
    return out


def _scaled(results: Results, positions: int) -> str:
    """The run's wall time scaled to `positions` positions (the same workers, the same mix of positions)."""
    solves = results.solves
    done = solves["position_index"].nunique()
    if not done or done >= positions:
        return ""
    minutes = (solves["finished_at"].max() - results.meta.get("created_at", solves["finished_at"].min())) / 60
    return (f"Scaled to {positions} positions like these, the run would take about {minutes * positions / done:.0f} "
            f"minutes with the same workers on the same machine.")


def _stopped(solves: pd.DataFrame, solver: str | None) -> int:
    column = "extra_stopped_by"
    if solver is None or column not in solves:
        return 0
    return int(((solves["solver"] == solver) & (solves[column] == "tree_limit")).sum())


def write_report(results: Results, budget_search: Results | None = None, folder: Path | None = None,
                 registry: Registry | None = None) -> Path:
    """Write README.md, plots and CSV tables of the refereed set's solve run into `folder` (default: its results)."""
    folder = Path(folder or results.folder)
    folder.mkdir(parents=True, exist_ok=True)
    registry = registry or Registry()
    check_values(results)       # every proven value against every other and against the referees' label
    table = thesis_table(results)
    config = results.config
    solvers_config = config["participants"]
    positions = len(config["start_positions"])
    specs = {s["id"]: _spec(registry, s["agent"]) for s in solvers_config}
    by_algorithm = {spec.algorithm: sid for sid, spec in reversed(specs.items()) if spec is not None}
    ab, pn = by_algorithm.get("alpha-beta"), by_algorithm.get("proof-number search")
    solves = results.solves
    plots.solved_by_nodes(solves, results.ids, folder / "solved_by_nodes.png")
    plots.solved_by_time(solves, results.ids, folder / "solved_by_time.png")
    if ab and pn:
        plots.nodes_scatter(solves, pn, ab, folder / "nodes_scatter.png", y_nodes=FIRST if FIRST in solves else "nodes")

    unsolved = solves[solves["status"] == "solved"].groupby("position_index")["solver"].nunique()
    nobody = positions - len(unsolved)
    budget = solvers_config[0]["budget"]
    labelled = referee_nodes(list(config.get("position_notes") or []))
    referees = (f"The referees' proofs took up to {max(labelled):,} nodes per position (the larger of the two); "
                f"{sum(n > (budget.get('nodes') or 0) for n in labelled)} of the {len(labelled)} positions needed more "
                f"than the comparison's node budget." if labelled and budget.get("nodes") else "")
    paper = pd.DataFrame([{"source": f"paper ({PAPER_POSITIONS} positions)", "algorithm": name,
                           "solved": f"{solved} of {PAPER_POSITIONS}", "total nodes": f"{nodes:,}",
                           "total time (ms)": f"{ms:,}"} for name, (solved, nodes, ms) in PAPER.items()])
    memory = _memory_table(table, solvers_config, specs)
    algorithms = {sid: spec.algorithm if spec is not None else "-" for sid, spec in specs.items()}
    ours = pd.DataFrame([{"algorithm": algorithms[r.solver], "solver": r.solver,
                          "memory bound": m["bounded by"], "stopped by memory": _stopped(solves, r.solver),
                          "solved": f"{r.solved} of {r.of}",
                          "total nodes": (f"{r.nodes_first:,} ({r.nodes:,} all iterations)" if r.solver == ab
                                          else f"{r.nodes:,}"),
                          "total time (ms)": f"{r.time_ms:,}",
                          "nodes/s": f"{1000 * r.nodes / r.time_ms:,.0f}" if r.time_ms else "-"}
                         for r, m in zip(table.itertuples(), memory.to_dict("records"))])
    common = table[["solver", "common", "common_nodes_first", "common_nodes", "common_time_ms"]].rename(columns={
        "common": "positions", "common_nodes_first": "nodes (alpha-beta: first iteration reaching each depth)",
        "common_nodes": "nodes (all iterations)", "common_time_ms": "time (ms)"})
    budget_text = ""
    if budget_search is not None and ab:
        search_ab = next(s["id"] for s in budget_search.config["participants"]
                         if (spec := _spec(registry, s["agent"])) is not None and spec.algorithm == "alpha-beta")
        high = budget_search.config["participants"][0]["budget"]
        found, curve = budget_curve(budget_search.solves, search_ab, positions)
        budget_text = (f"""## How the comparison budget was found

Alpha-beta alone was given {_budget_text(high)} per position (`tournaments/thesis-loa-refereed-budget.yaml`).
Its solve is deterministic under a node budget, so within a smaller budget B it solves exactly the positions its
solve took at most B nodes for. The paper's alpha-beta solved {PAPER['alpha-beta'][0]} of {PAPER_POSITIONS}
({100 * PAPER_SHARE:.0f}%); the smallest budget at which ours solves that share is """
                       + (f"**{found:,} nodes**." if found else f"beyond {_budget_text(high)}: not found.")
                       + f"\n\n{curve.to_markdown(index=False)}\n")
    held = conclusions(table, solves, by_algorithm)
    tables = folder / "tables"
    tables.mkdir(exist_ok=True)
    table.to_csv(tables / "table_4_2.csv", index=False)
    solves.to_csv(tables / "solves.csv", index=False)
    solvers = "\n".join(f"- `{s['id']}`: agent `{s['agent']}`"
                        + (f", {', '.join(f'{k}={v}' for k, v in s['params'].items() if v is not None)}"
                           if s["params"] else "") for s in solvers_config)
    text = f"""# Table 4.2 on a refereed LOA endgame set: {positions} positions chosen without reference to the solvers

Regenerate everything on this page with one command:

```bash
{COMMAND}
```

Every solver was given {_budget_text(budget)} per position (`tournaments/thesis-loa-refereed.yaml`).
{_run_time(results)} {_scaled(results, PAPER_POSITIONS)}

**The set** (`{config.get('name', '')}`, see the set's README beside its positions file) is made by
`plyground make-endgames --referee ...`: positions sampled from seeded self-play at a spread of distances from
the game's end, labelled a win for the side to move by two referees agreeing (named, with their node budget,
in the positions file's header), and kept by label and distance only, never by how cheaply a compared solver
proves them. It is not the set of Winands et al., which is not public.
{nobody} of its {positions} positions no solver proved within the comparison budget. {referees}

Solvers:

{solvers}

## Table 4.2, the paper's and ours

The paper's (Winands et al. 2002, as the thesis quotes it):

{paper.to_markdown(index=False)}

Ours, each solver's totals over the positions *it* solved, as in the paper; *memory bound* is the YAML key
that bounds the solver's memory (`tree_limit` of PN and PN² is a node count, as the paper's working memory
was), *stopped by memory* how many of its solves that bound ended (they count as unsolved):

{ours.to_markdown(index=False)}

The same totals over the positions **every** solver solved (equal work):

{common.to_markdown(index=False)}

{_ratios(table, ab, pn)}

{budget_text}
## Which of the paper's and its abstract's conclusions hold on this set

{chr(10).join(held)}

Every position a solver proved got the value the referees agreed on, and every two solvers agreed
(checked before this report is written; a disagreement stops it with SolveDisagreementError).

**Caveats, so the comparison is read fairly.**

- *A set of {positions} positions, not {PAPER_POSITIONS}.* Every count above moves by whole positions; a
  conclusion decided by one or two of them is a hint, not a finding.
- *The referees are compared solvers too*, and what they could not label within their budget is not in the
  set: the hardest positions of these games are missing, so a solver that fails only where the referees
  would fail cannot show it here. Where the referees' largest proof is below the comparison budget (see
  above), the comparison cannot contain a position no solver proves except by a solver's own limits.
- *Memory bounds are ours.* PN's and PN²'s `tree_limit` is a node count we chose (the paper's machine had
  its own working memory); at another bound "PN² is limited by memory" may come out the other way.
- *Nodes are not equal work*: an alpha-beta node is a visited state, a PN-family node a generated one
  (df-pn, PDS and PDS-PN count re-expansions, PN² and PDS-PN their second-level trees).

## Memory

{memory.to_markdown(index=False)}

## Per position and over time

![alpha-beta nodes against PN nodes](nodes_scatter.png)

*Per position both solved: alpha-beta's nodes (the paper's convention) against PN's; above the diagonal
alpha-beta needed more.*

![positions solved against time](solved_by_time.png)

*Positions solved within a time per position, per solver.*

![positions solved against node budget](solved_by_nodes.png)

*Positions solved within a node budget, per solver (all iterations).*

Tables as CSV: `tables/table_4_2.csv`, `tables/solves.csv` (every task).
"""
    path = folder / "README.md"
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m plugins.reports.thesis_hard", description=__doc__.splitlines()[0])
    parser.add_argument("results", help="results folder of the solve run "
                                        "(plyground run tournaments/thesis-loa-refereed.yaml)")
    parser.add_argument("--budget-search", help="results folder of alpha-beta alone at a high budget on the same set")
    parser.add_argument("--out", help="folder to write into (default: the results folder)")
    args = parser.parse_args(argv)
    search = Results(args.budget_search) if args.budget_search else None
    print(f"report: {write_report(Results(args.results), search, Path(args.out) if args.out else None)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
