"""The refereed set's section of the thesis page: Table 4.2 with every solver, memory-bounded PN and PN², the
budget search.

The set (`plyground make-endgames --referee ...`) is labelled by two agreeing referees and kept by its
distance from the game's end only, as Winands, Uiterwijk & van den Herik ("PDS-PN: A New Proof-Number
Search Algorithm", Computers and Games 2002) chose theirs without reference to the compared solvers.
The budget search is a run of alpha-beta alone at a budget far above the comparison's on the same set:
alpha-beta's solve is deterministic under a node budget, so the positions it solves within any smaller
budget B are those whose solve took at most B nodes, and one run gives the whole curve.
`plugins/reports/thesis.py` writes the page.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from framework.analysis import plots
from framework.analysis.tables import Results
from framework.registry import Registry
from plugins.reports.table42 import (
    FIRST,
    PAPER,
    PAPER_POSITIONS,
    budget_text,
    by_algorithm,
    check_values,
    common_table,
    conclusions,
    memory_table,
    note_fields,
    paper_table,
    ratios_text,
    run_minutes,
    run_time,
    solver_list,
    solver_specs,
    spec_of,
    stopped,
    thesis_table,
)

#: The prefix of the section's plots and CSV tables in the page's folder.
PREFIX = "refereed_"

#: The share of the paper's 488 positions alpha-beta solved (383): the comparison budget aims at it.
PAPER_SHARE = PAPER["alpha-beta"][0] / PAPER_POSITIONS


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
        fields = note_fields(note)
        if "referees" in fields:
            out.append(max(int(named.split()[-1]) for named in fields["referees"].split(",")))
    return out


def _scaled(results: Results, positions: int) -> str:
    """The run's wall time scaled to `positions` positions (the same workers, the same mix of positions)."""
    solves = results.solves
    done = solves["position_index"].nunique()
    if not done or done >= positions:
        return ""
    return (f"Scaled to {positions} positions like these, the run would take about "
            f"{run_minutes(solves) * positions / done:.0f} minutes with the same workers on the same machine.")


def refereed_section(results: Results, folder: Path, budget_search: Results | None = None,
                     registry: Registry | None = None) -> str:
    """The refereed set's section of the page (markdown); its plots and CSV tables go into `folder`."""
    registry = registry or Registry()
    check_values(results)       # every proven value against every other and against the referees' label
    table = thesis_table(results)
    config = results.config
    positions = len(config["start_positions"])
    specs = solver_specs(results, registry)
    solvers = by_algorithm(specs)
    ab, pn = solvers.get("alpha-beta"), solvers.get("proof-number search")
    solves = results.solves
    plots.solved_by_nodes(solves, results.ids, folder / f"{PREFIX}solved_by_nodes.png")
    plots.solved_by_time(solves, results.ids, folder / f"{PREFIX}solved_by_time.png")
    if ab and pn:
        plots.nodes_scatter(solves, pn, ab, folder / f"{PREFIX}nodes_scatter.png",
                            y_nodes=FIRST if FIRST in solves else "nodes")

    unsolved = solves[solves["status"] == "solved"].groupby("position_index")["solver"].nunique()
    nobody = positions - len(unsolved)
    budget = config["participants"][0]["budget"]
    labelled = referee_nodes(list(config.get("position_notes") or []))
    beyond = sum(n > (budget.get("nodes") or 0) for n in labelled) if budget.get("nodes") else 0
    referees = (f"The referees' proofs took up to {max(labelled):,} nodes per position (the larger of the two); "
                f"{beyond} of the {len(labelled)} positions needed more "
                f"than the comparison's node budget." if labelled and budget.get("nodes") else "")
    caveats = []
    if positions < PAPER_POSITIONS:
        caveats.append(f"- *A set of {positions} positions, not {PAPER_POSITIONS}.* Every count above moves by whole "
                       "positions; a\n  conclusion decided by one or two of them is a hint, not a finding.")
    caveats.append("- *The referees are compared solvers too*, and what they could not label within their budget is "
                   "not in the\n  set: the hardest positions of these games are missing, so a solver that fails only "
                   "where the referees\n  would fail cannot show it here."
                   + ("" if beyond else " As the referees' largest proof is below the comparison budget, the\n  "
                      "comparison cannot contain a position no solver proves except by a solver's own limits."))
    memory = memory_table(table, results, specs)
    algorithms = {sid: spec.algorithm if spec is not None else "-" for sid, spec in specs.items()}
    ours = pd.DataFrame([{"algorithm": algorithms[r.solver], "solver": r.solver,
                          "memory bound": m["bounded by"], "stopped by memory": stopped(solves, r.solver),
                          "solved": f"{r.solved} of {r.of}",
                          "total nodes": (f"{r.nodes_first:,} ({r.nodes:,} all iterations)" if r.solver == ab
                                          else f"{r.nodes:,}"),
                          "total time (ms)": f"{r.time_ms:,}",
                          "nodes/s": f"{1000 * r.nodes / r.time_ms:,.0f}" if r.time_ms else "-"}
                         for r, m in zip(table.itertuples(), memory.to_dict("records"))])
    search = ""
    if budget_search is not None and ab:
        search_ab = next(s["id"] for s in budget_search.config["participants"]
                         if (spec := spec_of(registry, s["agent"])) is not None and spec.algorithm == "alpha-beta")
        high = budget_search.config["participants"][0]["budget"]
        found, curve = budget_curve(budget_search.solves, search_ab, positions)
        search = (f"""### How the comparison budget was found

Alpha-beta alone was given {budget_text(high)} per position (`tournaments/thesis-loa-refereed-budget.yaml`).
Its solve is deterministic under a node budget, so within a smaller budget B it solves exactly the positions its
solve took at most B nodes for. The paper's alpha-beta solved {PAPER['alpha-beta'][0]} of {PAPER_POSITIONS}
({100 * PAPER_SHARE:.0f}%); the smallest budget at which ours solves that share is """
                  + (f"**{found:,} nodes**." if found else f"beyond {budget_text(high)}: not found.")
                  + f"\n\n{curve.to_markdown(index=False)}\n")
    held = conclusions(table, solves, solvers)
    tables = folder / "tables"
    tables.mkdir(exist_ok=True)
    table.to_csv(tables / f"{PREFIX}table_4_2.csv", index=False)
    solves.to_csv(tables / f"{PREFIX}solves.csv", index=False)
    return f"""## The refereed set: {positions} positions chosen without reference to the solvers

Every solver was given {budget_text(budget)} per position (`tournaments/thesis-loa-refereed.yaml`, results in
`{results.folder}`). {run_time(results)} {_scaled(results, PAPER_POSITIONS)}

**The set** (`{config.get('name', '')}`, see the set's README beside its positions file) is made by
`plyground make-endgames --referee ...`: positions sampled from seeded self-play at a spread of distances from
the game's end, labelled a win for the side to move by two referees agreeing (named, with their node budget,
in the positions file's header), and kept by label and distance only, never by how cheaply a compared solver
proves them. It is not the set of Winands et al., which is not public.
{nobody} of its {positions} positions no solver proved within the comparison budget. {referees}

Solvers:

{solver_list(results)}

### Table 4.2, the paper's and ours

The paper's (Winands et al. 2002, as the thesis quotes it):

{paper_table().to_markdown(index=False)}

Ours, each solver's totals over the positions *it* solved, as in the paper; *memory bound* is the YAML key
that bounds the solver's memory (`tree_limit` of PN and PN² is a node count, as the paper's working memory
was), *stopped by memory* how many of its solves that bound ended (they count as unsolved):

{ours.to_markdown(index=False)}

The same totals over the positions **every** solver solved (equal work):

{common_table(table).to_markdown(index=False)}

{ratios_text(table, ab, pn)}

{search}
### Which of the paper's and its abstract's conclusions hold on the refereed set

{chr(10).join(held)}

Every position a solver proved got the value the referees agreed on, and every two solvers agreed
(checked before this report is written; a disagreement stops it with SolveDisagreementError).

**Caveats, so the comparison is read fairly.**

{chr(10).join(caveats)}
- *Memory bounds are ours.* PN's and PN²'s `tree_limit` is a node count we chose (the paper's machine had
  its own working memory); at another bound "PN² is limited by memory" may come out the other way.
- *Nodes are not equal work*: an alpha-beta node is a visited state, a PN-family node a generated one
  (df-pn, PDS and PDS-PN count re-expansions, PN² and PDS-PN their second-level trees).

### Memory on the refereed set

{memory.to_markdown(index=False)}

### Per position and over time

![alpha-beta nodes against PN nodes, refereed set]({PREFIX}nodes_scatter.png)

*Per position both solved: alpha-beta's nodes (the paper's convention) against PN's; above the diagonal
alpha-beta needed more.*

![positions solved against time, refereed set]({PREFIX}solved_by_time.png)

*Positions solved within a time per position, per solver.*

![positions solved against node budget, refereed set]({PREFIX}solved_by_nodes.png)

*Positions solved within a node budget, per solver (all iterations).*

Tables as CSV: `tables/{PREFIX}table_4_2.csv`, `tables/{PREFIX}solves.csv` (every task).
"""
