"""Table 4.2 of the thesis on one solve run: what the refereed set's and the easy set's sections share.

The paper's rows (Winands, Uiterwijk & van den Herik, "PDS-PN: A New Proof-Number Search Algorithm",
Computers and Games 2002, as the thesis quotes them), our table in both node conventions, the value
checks, the ratios, the memory table and the paper's conclusions decided from the numbers: one copy,
so both sets are judged alike (`plugins/reports/thesis.py` writes the page).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pandas as pd

from framework.analysis.tables import Results
from framework.errors import SolveDisagreementError
from framework.registry import Registry
from framework.specs import AgentSpec

PROVEN = ("win", "loss", "draw")
FIRST = "extra_nodes_first_reaching_depth"

#: Table 4.2 of the thesis (Winands et al. 2002): solved of 488, total nodes, total time (ms).
PAPER = {"alpha-beta": (383, 1_711_578_143, 22_172_320), "proof-number search": (356, 89_863_783, 830_367)}
PAPER_POSITIONS = 488
#: The algorithms the paper compared (its Table 4.2 and text); df-pn, which it did not run, is shown beside them.
PAPER_ALGORITHMS = ("alpha-beta", "proof-number search", "PN²", "PDS", "PDS-PN")
#: Alpha-beta over PN in nodes below which "far fewer nodes" holds only in direction: an order of magnitude.
FAR_FEWER = 10
#: A pause longer than this (s) between two stored solves separates two sessions of a run.
SESSION_GAP = 3600.0


def note_fields(note: str) -> dict[str, str]:
    """The `key=value; ...` fields of a position's note in a positions file."""
    return dict(part.strip().split("=", 1) for part in note.split(";") if "=" in part)


def check_values(results: Results) -> None:
    """Raise SolveDisagreementError when two solvers, or a solver and the file's `result=` claim, disagree."""
    found = [f"position {r.position_index}: {r.solver} {r.value}" for r in results.disagreements().itertuples()]
    for row in results.solves[results.solves["value"].isin(PROVEN)].itertuples():
        claim = note_fields(row.note).get("result")
        if claim in PROVEN and claim != row.value:
            found.append(f"position {row.position_index}: {row.solver} {row.value}, the file claims {claim}")
    if found:
        raise SolveDisagreementError(f"{results.folder}: solvers disagree on the value of positions (a bug in a "
                                     f"solver or a game): {'; '.join(found[:10])}")


def thesis_table(results: Results) -> pd.DataFrame:
    """Per solver: solved of N; nodes in both conventions, wall and CPU time over its solved and the commonly
    solved positions."""
    summary = results.solve_summary()
    cpu, common_cpu = cpu_ms(results.solves, list(summary["solver"]))
    first = summary[FIRST] if FIRST in summary else summary["nodes"]
    first_common = summary[f"{FIRST}_common"] if FIRST in summary else summary["nodes_common"]
    agents = {p["id"]: p["agent"] for p in results.config["participants"]}
    return pd.DataFrame({
        "solver": summary["solver"], "agent": summary["solver"].map(agents), "solved": summary["solved"],
        "of": summary["positions"], "nodes": summary["nodes"],
        "nodes_first": first.fillna(summary["nodes"]).astype(int), "time_ms": summary["time_ms"].round().astype(int),
        "common": summary["common"], "common_nodes": summary["nodes_common"],
        "common_nodes_first": first_common.fillna(summary["nodes_common"]).astype(int),
        "common_time_ms": summary["time_ms_common"].round().astype(int),
        "cpu_ms": cpu, "common_cpu_ms": common_cpu,
        "peak_entries": summary["peak_entries"], "peak_rss_mib": summary["peak_rss_mib"],
        "rss_added_mib": summary["rss_added_mib"]})


def cpu_ms(solves: pd.DataFrame, ids: list[str]) -> tuple[list[int], list[int]]:
    """Per solver (in `ids` order): the CPU time (ms) of the search process over its solved positions and over
    the positions every solver solved."""
    solved = solves[solves["status"] == "solved"]
    by_position = solved.groupby("position_index")["solver"].nunique()
    common = set(by_position[by_position == len(ids)].index)
    own = [round(1000 * float(solved[solved["solver"] == s]["cpu_time"].sum())) for s in ids]
    shared = [round(1000 * float(solved[(solved["solver"] == s) & solved["position_index"].isin(common)]["cpu_time"]
                                 .sum())) for s in ids]
    return own, shared


def spec_of(registry: Registry, agent: str) -> AgentSpec | None:
    """The agent's spec, where its memory bound and algorithm are declared (None: not registered here)."""
    return registry.agents[agent].spec if agent in registry.agents else None


def solver_specs(results: Results, registry: Registry) -> dict[str, AgentSpec | None]:
    """Each solver id of the run with its agent's spec."""
    return {s["id"]: spec_of(registry, s["agent"]) for s in results.config["participants"]}


def by_algorithm(specs: dict[str, AgentSpec | None]) -> dict[str, str]:
    """The first solver of each algorithm the agents declare (`alpha-beta`, `proof-number search`, `PN²`, ...)."""
    return {spec.algorithm: sid for sid, spec in reversed(specs.items()) if spec is not None}


def solver_list(results: Results) -> str:
    """A markdown list of the run's solvers: id, agent and the parameters set."""
    return "\n".join(f"- `{s['id']}`: agent `{s['agent']}`"
                     + (f", {', '.join(f'{k}={v}' for k, v in s['params'].items() if v is not None)}"
                        if s["params"] else "") for s in results.config["participants"])


def paper_table() -> pd.DataFrame:
    """The paper's two rows of Table 4.2."""
    return pd.DataFrame([{"source": f"paper (Winands et al. 2002, {PAPER_POSITIONS} positions)", "algorithm": name,
                          "solved": f"{solved} of {PAPER_POSITIONS}", "total nodes": f"{nodes:,}",
                          "total time (ms)": f"{ms:,}"} for name, (solved, nodes, ms) in PAPER.items()])


def common_table(table: pd.DataFrame) -> pd.DataFrame:
    """The totals over the positions every solver solved."""
    counts = ["common", "common_nodes_first", "common_nodes", "common_time_ms",
              *(["common_cpu_ms"] if "common_cpu_ms" in table else [])]
    return table[["solver", *counts]].assign(**{c: table[c].map("{:,}".format) for c in counts}).rename(columns={
        "common": "positions", "common_nodes_first": "nodes (alpha-beta: first iteration reaching each depth)",
        "common_nodes": "nodes (all iterations)", "common_time_ms": "wall time (ms)",
        "common_cpu_ms": "CPU time (ms)"})


def memory_table(table: pd.DataFrame, results: Results, specs: dict[str, AgentSpec | None]) -> pd.DataFrame:
    """Per solver: the bound that holds its memory (as its AgentSpec declares it), and its largest peak entries,
    RSS and RSS added."""
    configs = {s["id"]: s for s in results.config["participants"]}
    rows = []
    for r in table.itertuples():
        spec = specs[r.solver]
        bound = spec.memory_bound if spec is not None else None
        param, holds = (bound.param, bound.holds) if bound is not None else ("-", "-")
        limit = configs[r.solver]["params"].get(param)
        rows.append({"solver": r.solver, "bounded by": f"{param} = {limit:,}" if limit is not None else param,
                     "what it bounds": holds, "peak entries": _count(r.peak_entries),
                     "peak RSS (MiB)": _mib(r.peak_rss_mib), "added (MiB)": _mib(r.rss_added_mib)})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Bound:
    """A solver's memory bound in one run: the YAML key, its value, the largest the structure it bounds grew
    to on any position (`peak`; None: not reported) and how many solves it stopped."""

    param: str
    limit: int | None
    peak: int | None
    stopped: int

    @property
    def binds(self) -> bool:
        """True when the bound stopped a solve or the structure it bounds reached it: only then can a verdict
        that rests on the bound be decided."""
        return self.stopped > 0 or (self.limit is not None and self.peak is not None and self.peak >= self.limit)

    def untestable(self) -> str:
        """The verdict of a conclusion resting on a bound that never bound."""
        peak = "not reported" if self.peak is None else f"{self.peak:,}"
        limit = "none" if self.limit is None else f"{self.limit:,}"
        return f"**not testable** (the bound never bound: peak {peak} of {self.param} = {limit})."


#: What each memory bound's peak is measured by: the solve's own count of the structure the key bounds
#: (`SearchStats.extra`), else `peak_entries` (everything the solver held).
BOUNDED_BY = {"tree_limit": "extra_tree_nodes", "tt_size": "extra_tt_entries"}


def memory_bounds(results: Results, specs: dict[str, AgentSpec | None]) -> dict[str, Bound]:
    """Each solver's memory bound in the run (as its AgentSpec declares it), its peak and the solves it stopped."""
    solves = results.solves
    out = {}
    for entry in results.config["participants"]:
        spec = specs.get(entry["id"])
        if spec is None or spec.memory_bound is None:
            continue
        param = spec.memory_bound.param
        mine = solves[solves["solver"] == entry["id"]]
        column = BOUNDED_BY.get(param, "peak_entries")
        column = column if column in mine and mine[column].notna().any() else "peak_entries"
        peak = pd.to_numeric(mine[column]).max() if column in mine and len(mine) else float("nan")
        limit = entry["params"].get(param)
        out[entry["id"]] = Bound(param, None if limit is None else int(limit),
                                 None if pd.isna(peak) else int(peak), stopped(solves, entry["id"]))
    return out


def stopped(solves: pd.DataFrame, solver: str | None = None) -> int:
    """How many solves (of `solver`, default all) a tree limit stopped: they count as unsolved."""
    column = "extra_stopped_by"
    if column not in solves:
        return 0
    mine = solves if solver is None else solves[solves["solver"] == solver]
    return int((mine[column] == "tree_limit").sum())


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def ratios_text(table: pd.DataFrame, ab: str | None, pn: str | None) -> str:
    """Alpha-beta over PN in nodes, time and positions solved, ours beside the paper's."""
    if not (ab and pn):
        return ""
    row = table.set_index("solver")
    a, p = row.loc[ab], row.loc[pn]
    paper_ab, paper_pn = PAPER["alpha-beta"], PAPER["proof-number search"]
    ratios = pd.DataFrame([
        {"ratio (alpha-beta / PN)": "nodes, own solved positions",
         "paper": f"{paper_ab[1] / paper_pn[1]:.2f}", "ours": f"{ratio(a['nodes_first'], p['nodes']):.2f}"},
        {"ratio (alpha-beta / PN)": "nodes, positions every solver solved", "paper": "-",
         "ours": f"{ratio(a['common_nodes_first'], p['common_nodes']):.2f}"},
        {"ratio (alpha-beta / PN)": "time, own solved positions (ours: CPU time)",
         "paper": f"{paper_ab[2] / paper_pn[2]:.2f}",
         "ours": f"{ratio(_seconds(a, common=False), _seconds(p, common=False)):.2f}"},
        {"ratio (alpha-beta / PN)": "time, positions every solver solved (ours: CPU time)", "paper": "-",
         "ours": f"{ratio(_seconds(a), _seconds(p)):.2f}"},
        {"ratio (alpha-beta / PN)": "positions solved",
         "paper": f"{paper_ab[0] / paper_pn[0]:.2f}", "ours": f"{ratio(a['solved'], p['solved']):.2f}"},
    ])
    return ("Ratios, alpha-beta over PN (alpha-beta nodes in the paper's convention):\n\n"
            + ratios.to_markdown(index=False))


def mark(holds: bool) -> str:
    """A verdict decided from the numbers."""
    return "**holds**." if holds else "**does not hold**."


def untested(what: str) -> str:
    return f"**not tested**: the run has no {what} solver."


def _seconds(row: pd.Series, common: bool = True) -> float:
    """A solver's time (ms) over the commonly solved (or its own) positions: CPU time of the search process where
    the run recorded it, else wall time."""
    cpu, wall = ("common_cpu_ms", "common_time_ms") if common else ("cpu_ms", "time_ms")
    return float(row[cpu]) if cpu in row and row[cpu] > 0 else float(row[wall])


def conclusions(table: pd.DataFrame, solves: pd.DataFrame, solvers: dict[str, str],
                bounds: dict[str, Bound] | None = None) -> list[str]:
    """The paper's and its abstract's conclusions, each decided from the numbers: "holds", "does not hold", or
    "not testable" where it rests on a memory bound that never bound (`bounds`, `memory_bounds`: none given,
    no verdict rests on a bound), or "not tested" where the run lacks the solver.

    `solvers` names the solver of each algorithm (`by_algorithm`). Times are CPU times of the search process
    over the positions every solver solved (wall time where the run did not record CPU time)."""
    row = table.set_index("solver")
    bounds = bounds or {}
    ab, pn = solvers.get("alpha-beta"), solvers.get("proof-number search")
    pn2, pds, pdspn = solvers.get("PN²"), solvers.get("PDS"), solvers.get("PDS-PN")

    def bound_of(solver: str) -> Bound | None:
        """The solver's bound when it never bound (a verdict resting on it is not testable), else None."""
        bound = bounds.get(solver)
        return bound if bound is not None and not bound.binds else None

    if ab is None or pn is None:
        return ["(the run has no alpha-beta or no proof-number search solver: nothing to compare)"]
    a, p = row.loc[ab], row.loc[pn]
    paper_ab, paper_pn = PAPER["alpha-beta"], PAPER["proof-number search"]
    nodes = ratio(a["common_nodes_first"], p["common_nodes"])
    seconds = ratio(_seconds(a), _seconds(p))
    loose = bound_of(pn)
    out = [f"- *PN needs far fewer nodes than alpha-beta* (paper: {paper_ab[1] / paper_pn[1]:.1f}x, each over its "
           f"own solved positions). On the {int(a['common'])} positions every solver solved, alpha-beta used "
           f"{nodes:.2f}x PN's nodes in the paper's convention "
           f"({ratio(a['common_nodes'], p['common_nodes']):.2f}x counting every iteration): "
           + (mark(True) if nodes >= FAR_FEWER else
              f"**holds in direction, not in size** (under {FAR_FEWER}x)." if nodes > 1 else mark(False)),
           f"- *PN is faster* (paper: {paper_ab[2] / paper_pn[2]:.1f}x). There alpha-beta took {seconds:.2f}x "
           f"PN's time: " + mark(seconds > 1),
           f"- *Alpha-beta solves more than PN* (paper: {paper_ab[0]} against {paper_pn[0]}, with PN's memory "
           f"bounded). Here {int(a['solved'])} against {int(p['solved'])}, PN's memory bound stopping "
           f"{stopped(solves, pn)} of its solves"
           + (f" (its tree_limit is also its node cap, a PN node being a tree node: PN had at most "
              f"{bounds[pn].limit:,} nodes per position)" if pn in bounds and bounds[pn].param == "tree_limit"
              and bounds[pn].limit else "") + ": "
           + (loose.untestable() if loose else mark(a["solved"] > p["solved"]))]
    if pn2 is None or pds is None:
        out.append("- *PN² and PDS solve the most.* " + untested("PN² or PDS"))
    else:
        # judged among the paper's five algorithms; a solver of another (df-pn) stands beside, not in, the claim
        paper = [solvers[name] for name in PAPER_ALGORITHMS if name in solvers]
        others = table[table["solver"].isin(paper) & ~table["solver"].isin([pn2, pds])]["solved"]
        rest = int(others.max()) if len(others) else 0
        least = min(int(row.loc[pn2]["solved"]), int(row.loc[pds]["solved"]))
        beside = [f"{name} ({solver}) solved {int(row.loc[solver]['solved'])}" for name, solver in solvers.items()
                  if name not in PAPER_ALGORITHMS and solver in row.index]
        out.append(f"- *PN² and PDS solve the most* (one claim: the two solve more than any other of the paper's "
                   f"five algorithms). PN² solved {int(row.loc[pn2]['solved'])}, PDS {int(row.loc[pds]['solved'])}, "
                   f"the most of the other three {rest}: " + mark(least >= rest)
                   + (f" Beside them, not in the paper: {'; '.join(beside)}." if beside else ""))
    if pn2 is None:
        out.append("- *PN² is limited by memory.* " + untested("PN²"))
    else:
        limited = stopped(solves, pn2)
        out.append(f"- *PN² is limited by memory.* Its memory bound stopped {limited} of its solves "
                   f"(PN's stopped {stopped(solves, pn)}): "
                   + (bound.untestable() if (bound := bound_of(pn2)) else mark(limited > 0)))
    if pds is None or pn2 is None:
        out.append("- *PDS is relatively slow.* " + untested("PDS or PN²"))
    else:
        d, t = _seconds(row.loc[pds]), _seconds(row.loc[pn2])
        out.append(f"- *PDS is relatively slow* (in solution time, against PN²). Over the {int(a['common'])} "
                   f"positions every solver solved PDS took {d:,.0f} ms against PN²'s {t:,.0f} "
                   f"({ratio(d, t):.2f}x): " + mark(d > t))
    if pdspn is None or pds is None or pn2 is None:
        out.append("- *PDS-PN is competitive with PDS in speed and with PN² in solutions.* "
                   + untested("PDS-PN, PDS or PN²"))
    else:
        q, d, t = row.loc[pdspn], row.loc[pds], row.loc[pn2]
        out.append(f"- *PDS-PN is competitive with PDS in speed.* Over the common positions PDS-PN took "
                   f"{_seconds(q):,.0f} ms against PDS's {_seconds(d):,.0f}: " + mark(_seconds(q) <= _seconds(d)))
        out.append(f"- *PDS-PN is competitive with PN² in solutions, since it is not restricted in working memory.* "
                   f"It solved {int(q['solved'])} against PN²'s {int(t['solved'])}: "
                   + (bound.untestable() if (bound := bound_of(pn2)) else mark(q["solved"] >= t["solved"])))
    return out


def memory_experiment(full: pd.DataFrame, half: pd.DataFrame, full_bounds: dict[str, Bound],
                      half_bounds: dict[str, Bound]) -> pd.DataFrame:
    """The paper's memory experiment as a table: per solver of the half-memory run (ids matched to the full
    run's by agent), its bound, solved and stopped by memory at the full and at the halved bound."""
    full_by_agent = dict(zip(full["agent"], full["solver"]))
    rows = []
    for r in half.itertuples():
        sid = full_by_agent.get(r.agent)
        if sid is None or r.solver not in half_bounds or sid not in full_bounds:
            continue
        whole, halved = full_bounds[sid], half_bounds[r.solver]
        rows.append({"solver": f"{sid} / {r.solver}", "bound": whole.param,
                     "memory": f"{_count(whole.limit)} / {_count(halved.limit)}",
                     "solved": f"{int(full.set_index('solver').loc[sid]['solved'])} / {int(r.solved)}",
                     "stopped by memory": f"{whole.stopped} / {halved.stopped}",
                     "peak": f"{_count(whole.peak)} / {_count(halved.peak)}"})
    return pd.DataFrame(rows)


def memory_conclusions(full: pd.DataFrame, half: pd.DataFrame, full_bounds: dict[str, Bound],
                       half_bounds: dict[str, Bound], solvers: dict[str, str],
                       half_solvers: dict[str, str]) -> list[str]:
    """The paper's memory experiment decided: halving the memory costs PN² solutions, and PDS-PN fewer than PN²
    ("PDS-PN is not restricted in working memory"); not testable where the halved bound never bound."""
    out = []
    loss: dict[str, int] = {}
    for name in ("PN²", "PDS-PN"):
        sid, hid = solvers.get(name), half_solvers.get(name)
        if sid is None or hid is None:
            out.append(f"- *Halving {name}'s memory costs it solutions.* " + untested(name))
            continue
        solved, halved = (int(full.set_index("solver").loc[sid]["solved"]),
                          int(half.set_index("solver").loc[hid]["solved"]))
        loss[name] = solved - halved
        bound = half_bounds.get(hid)
        verdict = (bound.untestable() if bound is not None and not bound.binds else mark(halved < solved))
        out.append(f"- *Halving {name}'s memory costs it solutions.* {solved} solved with the full memory, "
                   f"{halved} with half: " + verdict)
    if len(loss) == 2:
        bound = half_bounds.get(half_solvers["PN²"])
        verdict = (bound.untestable() if bound is not None and not bound.binds
                   else mark(loss["PDS-PN"] < loss["PN²"]))
        out.append(f"- *PDS-PN is not restricted in working memory as PN² is.* Halving the memory cost PDS-PN "
                   f"{loss['PDS-PN']} solutions, PN² {loss['PN²']}: " + verdict)
    return out



def budget_text(budget: dict) -> str:
    parts = [f"{budget['nodes']:,} nodes" if budget.get("nodes") else "",
             f"{budget['time']:g} s" if budget.get("time") else ""]
    return " and ".join(p for p in parts if p)


def sessions(solves: pd.DataFrame) -> list[tuple[float, float]]:
    """(start, end) of each session of a run (it was resumed, or solvers were added): solves grouped where no
    solve finished for SESSION_GAP seconds; a session starts when its first solve started."""
    ordered = solves.sort_values("finished_at")
    group = (ordered["finished_at"].diff() > SESSION_GAP).cumsum()
    started = ordered["finished_at"] - ordered["wall_time"]
    return [(float(started[g.index].min()), float(g.max())) for _, g in ordered["finished_at"].groupby(group)]


def run_minutes(solves: pd.DataFrame) -> float:
    """The run's wall time in minutes, its sessions' summed."""
    return sum(end - start for start, end in sessions(solves)) / 60


def run_time(results: Results) -> str:
    """When the run started, how much of it is stored and how long it took."""
    solves = results.solves
    if not len(solves):
        return "No task has run yet."
    parts = sessions(solves)
    when = datetime.datetime.fromtimestamp(parts[0][0], datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    total = len(results.config["start_positions"]) * len(results.ids)
    done = f"all {total} tasks" if len(solves) == total else f"**{len(solves)} of {total} tasks (a partial run)**"
    took = (f"in {run_minutes(solves):.1f} minutes" if len(parts) == 1 else
            f"in {len(parts)} sessions (resumed, or solvers added) of "
            + ", ".join(f"{(end - start) / 60:.1f}" for start, end in parts) + " minutes")
    return (f"The run started {when} and stored {done} {took} of wall time "
            f"(summed solver time {solves['wall_time'].sum() / 60:.1f} minutes).")


def _count(value: float | None) -> str:
    return "-" if value is None or pd.isna(value) else f"{int(value):,}"


def _mib(value: float) -> str:
    return "-" if pd.isna(value) else f"{value:,.1f}"
