"""The refereed and the hard set's sections of the thesis page: Table 4.2 with every solver, memory-bounded PN
and PN², the budget search; for the hard set also solved against budget and the memory experiment.

The set (`plyground make-endgames --referee ...`) is labelled by two agreeing referees and kept by its
distance from the game's end only, as Winands, Uiterwijk & van den Herik ("PDS-PN: A New Proof-Number
Search Algorithm", Computers and Games 2002) chose theirs without reference to the compared solvers.
The budget search is a run of alpha-beta alone at a budget far above the comparison's on the same set:
alpha-beta's solve is deterministic under a node budget, so the positions it solves within any smaller
budget B are those whose solve took at most B nodes, and one run gives the whole curve. The hard set
(`loa-endgames-hard-488.txt`: refereed, every shortest win at least 5 plies) is compared at one node budget,
with solved-against-budget curves (`budget_points`) and the paper's memory experiment (`memory_experiment`).
`plugins/reports/thesis.py` writes the page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
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
    memory_bounds,
    memory_conclusions,
    memory_experiment,
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


#: The node budgets a solved-against-budget table or curve reads off a run (those within the run's budget).
MARKS = (10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000,
         20_000_000, 50_000_000, 100_000_000, 200_000_000, 500_000_000)


def budget_curve(solves: pd.DataFrame, solver: str, positions: int, limit: int,
                 share: float = PAPER_SHARE) -> tuple[int | None, pd.DataFrame]:
    """The smallest node budget within which `solver` solves at least `share` of `positions` (None: not even
    within the run's budget `limit`), and its solved count at budgets up to `limit`: a solve is deterministic
    under a node budget, so it succeeds within B exactly when it took at most B nodes."""
    nodes = solves[(solves["solver"] == solver) & (solves["status"] == "solved")]["nodes"].sort_values().to_numpy()
    need = math.ceil(share * positions)
    budget = int(nodes[need - 1]) if len(nodes) >= need else None
    marks = sorted({b for b in MARKS if b <= limit} | {limit} | ({budget} if budget else set()))
    curve = pd.DataFrame([{"node budget": f"{b:,}", "solved": int((nodes <= b).sum()),
                           "share": f"{100 * (nodes <= b).sum() / positions:.0f}%"} for b in marks])
    return budget, curve


def referee_by_position(notes: list[str]) -> dict[int, int]:
    """Per position index, the most nodes a referee needed to label it (the `referees=NAME N, NAME N` note
    field; positions without one are left out)."""
    out = {}
    for index, note in enumerate(notes):
        fields = note_fields(note)
        if "referees" in fields:
            out[index] = max(int(named.split()[-1]) for named in fields["referees"].split(","))
    return out


def referee_nodes(notes: list[str]) -> list[int]:
    """Per position, the most nodes a referee needed to label it (positions without referees left out)."""
    return list(referee_by_position(notes).values())


#: The referee cost below which a position says little about a solver's cost against the referees'.
COSTLY = 10_000


def referee_cost(solves: pd.DataFrame, solver: str, notes: list[str], budget: int,
                 least: int = COSTLY) -> tuple[int, int, float, float, float] | None:
    """`solver`'s nodes over the larger referee's, per position the referee needed at least `least` nodes for:
    (positions, of them unsolved, lower quartile, median, upper quartile). A position the solver never solved
    counts at `budget` nodes, so the ratios are lower bounds there; None: no such position."""
    referee = {i: n for i, n in referee_by_position(notes).items() if n >= least}
    mine = solves[(solves["solver"] == solver) & solves["position_index"].isin(list(referee))]
    if not len(mine):
        return None
    solved = mine["status"] == "solved"
    nodes = mine["nodes"].where(solved, budget).astype(float)
    ratios = nodes.to_numpy() / mine["position_index"].map(referee).to_numpy()
    q1, median, q3 = np.quantile(ratios, [0.25, 0.5, 0.75])
    return len(mine), int((~solved).sum()), float(q1), float(median), float(q3)

def _scaled(results: Results, positions: int) -> str:
    """The run's wall time scaled to `positions` positions (the same workers, the same mix of positions)."""
    solves = results.solves
    done = solves["position_index"].nunique()
    if not done or done >= positions:
        return ""
    return (f"Scaled to {positions} positions like these, the run would take about "
            f"{run_minutes(solves) * positions / done:.0f} minutes with the same workers on the same machine.")


@dataclass(frozen=True)
class SetPage:
    """What differs between the sets' sections: the prefix of their plots and tables, the heading, the config
    and what the set is."""

    prefix: str
    heading: str
    config: str
    about: str


REFEREED = SetPage(PREFIX, "The refereed set: {positions} positions chosen without reference to the solvers",
                   "tournaments/thesis-loa-refereed.yaml",
                   "kept by label and distance only, never by how cheaply a compared solver proves them")
HARD = SetPage("hard_", "The hard set: {positions} positions whose shortest win needs at least 5 plies",
               "tournaments/thesis-loa-hard.yaml",
               "kept by label and by the length of the shortest forced win (at least 5 plies, as the positions "
               "file's header says how it was established), never by how cheaply a compared solver proves them")


def budget_points(runs: Sequence[Results], registry: Registry) -> pd.DataFrame:
    """Positions solved against the node budget, per algorithm, from solve runs on one set.

    An agent given one budget in all `runs` has its curve read off that run (`MARKS` up to the budget: its
    solve is deterministic under a node budget and its memory bound does not depend on the budget); an agent
    run at several budgets (its memory bound set from each budget) has one point per run, `read off` False."""
    entries = [(run, p) for run in runs for p in run.config["participants"]]
    per_agent: dict[str, int] = {}
    for _, p in entries:
        per_agent[p["agent"]] = per_agent.get(p["agent"], 0) + 1
    rows = []
    for run, p in entries:
        spec = spec_of(registry, p["agent"])
        limit = (p.get("budget") or {}).get("nodes")
        if not limit:
            continue
        mine = run.solves[(run.solves["solver"] == p["id"]) & (run.solves["status"] == "solved")]["nodes"]
        single = per_agent[p["agent"]] == 1
        for b in (sorted({m for m in MARKS if m <= limit} | {limit}) if single else [limit]):
            rows.append({"algorithm": spec.algorithm if spec is not None else p["agent"], "solver": p["id"],
                         "node budget": int(b), "solved": int((mine <= b).sum()), "read off": single})
    return pd.DataFrame(rows, columns=["algorithm", "solver", "node budget", "solved", "read off"])


def budget_plot(points: pd.DataFrame, positions: int, path: Path) -> Path:
    """Positions solved against the node budget, one line per algorithm (log x)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4))
    for algorithm, rows in points.groupby("algorithm", sort=False):
        rows = rows.sort_values("node budget")
        read_off = bool(rows["read off"].all())
        ax.plot(rows["node budget"], rows["solved"], marker="." if read_off else "o",
                linestyle="-" if read_off else "--", label=algorithm + ("" if read_off else " (a run per budget)"))
    ax.set_xscale("log")
    ax.set_ylim(0, positions)
    ax.set_xlabel("node budget per position")
    ax.set_ylabel(f"positions solved (of {positions})")
    ax.set_title("Positions solved against the node budget")
    ax.legend(fontsize=7)
    return plots._save(fig, path)


def budget_table(points: pd.DataFrame) -> pd.DataFrame:
    """The curve's points as a table: one row per node budget, one column per algorithm ('-': not run there)."""
    wide = points.pivot_table(index="node budget", columns="algorithm", values="solved", aggfunc="max", sort=False)
    wide = wide[list(dict.fromkeys(points["algorithm"]))].sort_index()
    return wide.apply(lambda c: c.map(lambda v: "-" if pd.isna(v) else str(int(v)))).reset_index().assign(
        **{"node budget": lambda t: t["node budget"].map("{:,}".format)})


def _agents(results: Results, registry: Registry) -> dict[str, str]:
    """The first solver of each algorithm of a run."""
    return by_algorithm(solver_specs(results, registry))


def memory_section(results: Results, half: Results, registry: Registry) -> str:
    """The paper's memory experiment: the bounded solvers again with half their memory (markdown)."""
    check_values(half)
    full_table, half_table = thesis_table(results), thesis_table(half)
    full_bounds = memory_bounds(results, solver_specs(results, registry))
    half_bounds = memory_bounds(half, solver_specs(half, registry))
    table = memory_experiment(full_table, half_table, full_bounds, half_bounds)
    held = memory_conclusions(full_table, half_table, full_bounds, half_bounds, _agents(results, registry),
                              _agents(half, registry))
    return f"""### The memory experiment: half the memory

As the paper did, the memory-bounded solvers ran again with half their memory (`{half.config.get('name', '')}`,
results in `{half.folder}`) and the solutions counted. {run_time(half)} Each cell is *full / half*; *peak* is
the most tree nodes (PN, PN²) or table entries (PDS-PN) the bounded structure held on any position.

{table.to_markdown(index=False) if len(table) else "(no solver of the half-memory run matches one of the comparison)"}

{chr(10).join(held)}
"""


def differences(results: Results, table: pd.DataFrame, ab: str | None, positions: int) -> str:
    """How the set and the run differ from the paper's (markdown list)."""
    budget = results.config["participants"][0]["budget"]
    solved = results.solves[results.solves["status"] == "solved"].groupby("position_index")["solver"].nunique()
    every = int((solved == len(results.ids)).sum())
    cost = ""
    if ab is not None:
        a = table.set_index("solver").loc[ab]
        cost = (f" Alpha-beta spent {a['nodes_first'] / max(int(a['solved']), 1) / 1e6:.2f} million nodes per "
                f"position it solved (the paper's convention) against the paper's "
                f"{PAPER['alpha-beta'][1] / PAPER['alpha-beta'][0] / 1e6:.2f} million.")
    return "\n".join([
        f"- *Positions:* ours are {positions} positions from seeded self-play of our own LOA program, labelled by "
        "two agreeing referees; the paper's 488 came from games of its own programs and are not public.",
        f"- *Difficulty:* every solver proved {every} of our {positions}; {positions - len(solved)} no solver "
        f"proved.{cost}",
        f"- *Budget:* every solver got {budget_text(budget)} per position. The paper does not state a node limit "
        "we could find; its alpha-beta spent 4.47 million nodes per solved position on average, so its limit was "
        "far above ours: the whole run had to fit 2 hours on 2 cores.",
        "- *Memory:* the paper bounded PN and PN² by its machine's working memory; ours are node counts set "
        "from the budget (the config says how), and every table has the same number of entries.",
        "- *Times* are CPU seconds of the search process on a shared machine, not the paper's 2002 hardware; "
        "only ratios compare.",
    ])


def refereed_section(results: Results, folder: Path, budget_search: Results | None = None,
                     registry: Registry | None = None, page: SetPage = REFEREED,
                     curves: Sequence[Results] = (), half: Results | None = None, about: str = "",
                     verdicts: str = "") -> str:
    """One set's section of the page (markdown); its plots and CSV tables go into `folder`.

    `budget_search` is alpha-beta alone at a high budget on the set (how the comparison budget was found),
    `curves` more runs on the set at other budgets (with `results`, the solved-against-budget curves), `half`
    the memory-bounded solvers with half their memory (the memory experiment); `about` more of the set's
    description, `verdicts` where the verdicts turn (plugins/reports/verdict_map.py), after the verdicts."""
    registry = registry or Registry()
    prefix = page.prefix
    check_values(results)       # every proven value against every other and against the referees' label
    for run in (*curves, *([budget_search] if budget_search is not None else [])):
        check_values(run)
    table = thesis_table(results)
    config = results.config
    positions = len(config["start_positions"])
    specs = solver_specs(results, registry)
    solvers = by_algorithm(specs)
    bounds = memory_bounds(results, specs)
    ab, pn = solvers.get("alpha-beta"), solvers.get("proof-number search")
    solves = results.solves
    plots.solved_by_nodes(solves, results.ids, folder / f"{prefix}solved_by_nodes.png")
    plots.solved_by_time(solves, results.ids, folder / f"{prefix}solved_by_time.png")
    if ab and pn:
        plots.nodes_scatter(solves, pn, ab, folder / f"{prefix}nodes_scatter.png",
                            y_nodes=FIRST if FIRST in solves else "nodes")

    unsolved = solves[solves["status"] == "solved"].groupby("position_index")["solver"].nunique()
    nobody = positions - len(unsolved)
    budget = config["participants"][0]["budget"]
    notes = list(config.get("position_notes") or [])
    labelled = referee_nodes(notes)
    beyond = sum(n > (budget.get("nodes") or 0) for n in labelled) if budget.get("nodes") else 0
    referees = (f"The referees' proofs took up to {max(labelled):,} nodes per position (the larger of the two); "
                f"{beyond} of the {len(labelled)} positions needed more "
                f"than the comparison's node budget." if labelled and budget.get("nodes") else "")
    cost_run = budget_search if budget_search is not None else results
    cost_ab = by_algorithm(solver_specs(cost_run, registry)).get("alpha-beta")
    cost_budget = cost_run.config["participants"][0]["budget"].get("nodes")
    cost = (referee_cost(cost_run.solves, cost_ab, notes, int(cost_budget))
            if cost_ab and cost_budget and labelled else None)
    cost_text = (f"Over the {cost[0]} positions the larger referee needed at least {COSTLY:,} nodes for, "
                 f"alpha-beta ({'alone at ' if budget_search is not None else 'in the comparison, at '}"
                 f"{cost_budget:,} nodes) took a median {cost[3]:.1f} times the referee's nodes (quartiles "
                 f"{cost[2]:.1f} and {cost[4]:.1f}), counting the {cost[1]} it never solved at its budget "
                 f"(so there a lower bound)." if cost else "")
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
                          "wall time (ms)": f"{r.time_ms:,}", "CPU time (ms)": f"{r.cpu_ms:,}",
                          "nodes/s": f"{1000 * r.nodes / r.time_ms:,.0f}" if r.time_ms else "-"}
                         for r, m in zip(table.itertuples(), memory.to_dict("records"))])
    search = ""
    if budget_search is not None and ab:
        search_ab = next(s["id"] for s in budget_search.config["participants"]
                         if (spec := spec_of(registry, s["agent"])) is not None and spec.algorithm == "alpha-beta")
        high = budget_search.config["participants"][0]["budget"]
        found, curve = budget_curve(budget_search.solves, search_ab, positions, int(high["nodes"]))
        search = (f"""### How the comparison budget was found

Alpha-beta alone was given {budget_text(high)} per position
(`tournaments/{budget_search.config.get('name', '')}.yaml`).
Its solve is deterministic under a node budget, so within a smaller budget B it solves exactly the positions its
solve took at most B nodes for. The paper's alpha-beta solved {PAPER['alpha-beta'][0]} of {PAPER_POSITIONS}
({100 * PAPER_SHARE:.0f}%); the smallest budget at which ours solves that share is """
                  + (f"**{found:,} nodes**." if found else f"beyond {budget_text(high)}: not found.")
                  + f"\n\n{curve.to_markdown(index=False)}\n")
    budget_curves = ""
    if curves:
        points = budget_points([results, *curves], registry)
        budget_plot(points, positions, folder / f"{prefix}solved_by_budget.png")
        (folder / "tables").mkdir(exist_ok=True)
        points.to_csv(folder / "tables" / f"{prefix}solved_by_budget.csv", index=False)
        budget_curves = f"""### Solved against the node budget

An algorithm run at one budget has its curve read off that run: its solve is deterministic under a node budget
and its memory bound (a table of fixed size) does not depend on the budget, so within B it solves exactly the
positions it solved within at most B nodes. PN and PN², whose memory is set from the budget, ran once per budget
(`{'`, `'.join(run.config.get('name', '') for run in curves)}`).

{budget_table(points).to_markdown(index=False)}

![positions solved against node budget, {page.prefix.rstrip('_')} set]({prefix}solved_by_budget.png)
"""
    held = conclusions(table, solves, solvers, bounds)
    tables = folder / "tables"
    tables.mkdir(exist_ok=True)
    table.to_csv(tables / f"{prefix}table_4_2.csv", index=False)
    solves.to_csv(tables / f"{prefix}solves.csv", index=False)
    experiment = memory_section(results, half, registry) if half is not None else ""
    differ = (f"### How our set differs from the paper's\n\n{differences(results, table, ab, positions)}\n"
              if page is HARD else "")
    return f"""## {page.heading.format(positions=positions)}

Every solver was given {budget_text(budget)} per position (`{page.config}`, results in
`{results.folder}`). {run_time(results)} {_scaled(results, PAPER_POSITIONS)}

**The set** (`{config.get('name', '')}`, see the set's README beside its positions file) is made by
`plyground make-endgames --referee ...`: positions sampled from seeded self-play at a spread of distances from
the game's end, labelled a win for the side to move by two referees agreeing (named, with their node budget,
in the positions file's header), and {page.about}. It is not the set of Winands et al., which is not public.
{nobody} of its {positions} positions no solver proved within the comparison budget. {referees} {cost_text}

{about}

Solvers:

{solver_list(results)}

### Table 4.2, the paper's and ours

The paper's (Winands et al. 2002, as the thesis quotes it):

{paper_table().to_markdown(index=False)}

Ours, each solver's totals over the positions *it* solved, as in the paper; *memory bound* is the YAML key
that bounds the solver's memory (`tree_limit` of PN and PN² is a node count, as the paper's working memory
was), *stopped by memory* how many of its solves that bound ended (they count as unsolved); *CPU time* is the
search process's:

{ours.to_markdown(index=False)}

The same totals over the positions **every** solver solved (equal work):

{common_table(table).to_markdown(index=False)}

{ratios_text(table, ab, pn)}

{search}{budget_curves}
### Which of the paper's and its abstract's conclusions hold on the {page.prefix.rstrip('_')} set

Each is decided from the numbers: **holds**, **does not hold**, or **not testable** where it rests on a memory
bound that never bound (no solve stopped by it and its peak below it). Times are CPU times over the positions
every solver solved.

{chr(10).join(held)}

Every position a solver proved got the value the referees agreed on, and every two solvers agreed
(checked before this report is written; a disagreement stops it with SolveDisagreementError).

{verdicts}
{experiment}
{differ}
**Caveats, so the comparison is read fairly.**

{chr(10).join(caveats)}
- *Memory bounds are ours.* PN's and PN²'s `tree_limit` is a node count we chose (the paper's machine had
  its own working memory); at another bound "PN² is limited by memory" may come out the other way.
- *Nodes are not equal work*: an alpha-beta node is a visited state, a PN-family node a generated one
  (df-pn, PDS and PDS-PN count re-expansions, PN² and PDS-PN their second-level trees).

### Memory on the {page.prefix.rstrip('_')} set

{memory.to_markdown(index=False)}

### Per position and over time

![alpha-beta nodes against PN nodes, {page.prefix.rstrip('_')} set]({prefix}nodes_scatter.png)

*Per position both solved: alpha-beta's nodes (the paper's convention) against PN's; above the diagonal
alpha-beta needed more.*

![positions solved against time, {page.prefix.rstrip('_')} set]({prefix}solved_by_time.png)

*Positions solved within a time per position, per solver.*

![positions solved against node budget, {page.prefix.rstrip('_')} set]({prefix}solved_by_nodes.png)

*Positions solved within a node budget, per solver (all iterations).*

Tables as CSV: `tables/{prefix}table_4_2.csv`, `tables/{prefix}solves.csv` (every task).
"""
