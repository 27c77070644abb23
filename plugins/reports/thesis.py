"""The thesis reproduction report: Table 4.2 on our endgame set beside the paper's, and the thesis' small examples.

    python -m plugins.reports.thesis RESULTS [--out FOLDER]

`write_thesis_report(results, folder)` writes `README.md` with PNG plots and CSV tables:
our Table 4.2 beside the one the thesis quotes from Winands, Uiterwijk & van den Herik
("PDS-PN: A New Proof-Number Search Algorithm", Computers and Games 2002), the ratios, which of
the paper's conclusions hold on our set (decided from the numbers, not written by hand), the
cumulative solved-within-budget plot, the thesis' tic-tac-toe example computed by minimax with
its `thesis` scoring, and nodes against depth with fitted effective branching factors.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import pandas as pd  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from framework.analysis import plots  # noqa: E402
from framework.analysis.report import run_peak  # noqa: E402
from framework.analysis.tables import Results  # noqa: E402
from framework.capabilities import GameWrapper  # noqa: E402
from framework.errors import SolveDisagreementError  # noqa: E402
from framework.protocols import Budget, Game, State  # noqa: E402
from framework.registry import Registry  # noqa: E402
from framework.specs import AgentSpec  # noqa: E402
from plugins.reports.branching import SEARCHES, branching_summary, nodes_by_depth  # noqa: E402

PROVEN = ("win", "loss", "draw")
FIRST = "extra_nodes_first_reaching_depth"

README = "README.md"

#: Table 4.2 of the thesis (Winands et al. 2002): solved of 488, total nodes, total time (ms).
PAPER = {"alpha-beta": (383, 1_711_578_143, 22_172_320), "proof-number search": (356, 89_863_783, 830_367)}
PAPER_POSITIONS = 488
#: The node budget `pns` proved each position of our set within (`plyground make-endgames --budget`).
SET_BUDGET = 50_000

TICTACTOE_EXAMPLE = "XXO/.X./O.. o"

#: Depth ranges of the nodes-against-depth table: each search as deep as a few seconds allow.
DEPTHS = {
    "tictactoe": dict.fromkeys(SEARCHES, 9),
    "checkers": {"minimax": 6, "alphabeta good ordering": 8, "alphabeta random ordering": 8},
    "loa": {"minimax": 3, "alphabeta good ordering": 4, "alphabeta random ordering": 4},
}


class OneRootMove(GameWrapper):
    """A game whose root offers only `move`, so a search's score is that move's value.

    Overriding `legal_moves` hides, by rule, the capabilities that would offer the root's other
    moves again (`ordered_moves`, `kernel`, `perft`).
    """

    def __init__(self, game: Game, root: State, move: Any) -> None:
        super().__init__(game)
        self._root, self._move = root, move

    def legal_moves(self, state: State) -> list:
        return [self._move] if state == self._root else list(self._game.legal_moves(state))


def tictactoe_example(registry: Registry, position: str = TICTACTOE_EXAMPLE) -> tuple[pd.DataFrame, str, int]:
    """Every move's minimax value under the thesis scoring (a win at ply d scores 9 - d), the chosen move, its nodes."""
    game = registry.create_game("tictactoe")
    state = game.from_text(position)
    agent = registry.create_agent("minimax", game, {"heuristic": "thesis"})
    rows = []
    for move in game.legal_moves(state):
        stats = agent.select_move(OneRootMove(game, state, move), state, Budget()).stats
        rows.append({"move": game.format_move(state, move), "value for O": stats.score, "nodes": stats.nodes,
                     "principal variation": " ".join(game.format_move(s, m) for s, m in _walk(game, state, stats.pv))})
    decision = agent.select_move(game, state, Budget())
    return pd.DataFrame(rows), game.format_move(state, decision.move), decision.stats.nodes


def _walk(game: Game, state: State, pv: tuple) -> list[tuple[State, Any]]:
    out = []
    for move in pv:
        out.append((state, move))
        state = game.apply(state, move)
    return out


def check_values(results: Results) -> None:
    """Raise SolveDisagreementError when two solvers, or a solver and the file's `result=` claim, disagree."""
    found = [f"position {r.position_index}: {r.solver} {r.value}" for r in results.disagreements().itertuples()]
    for row in results.solves[results.solves["value"].isin(PROVEN)].itertuples():
        claim = _claim(row.note)
        if claim in PROVEN and claim != row.value:
            found.append(f"position {row.position_index}: {row.solver} {row.value}, the file claims {claim}")
    if found:
        raise SolveDisagreementError(f"{results.folder}: solvers disagree on the value of positions (a bug in a "
                                     f"solver or a game): {'; '.join(found[:10])}")


def _note_fields(note: str) -> dict[str, str]:
    return dict(part.strip().split("=", 1) for part in note.split(";") if "=" in part)


def _claim(note: str) -> str | None:
    return _note_fields(note).get("result")


def recorded_nodes_check(results: Results, solver: str | None) -> str:
    """How many of `solver`'s solved positions took exactly the nodes the positions file records for its proof."""
    if solver is None:
        return ""
    mine = results.solves[(results.solves["solver"] == solver) & (results.solves["status"] == "solved")]
    recorded = mine["note"].map(lambda note: _note_fields(note).get("nodes"))
    comparable = mine[recorded.notna()]
    if not len(comparable):
        return ""
    same = int((comparable["nodes"] == recorded[recorded.notna()].astype(int)).sum())
    return (f"`{solver}` needed exactly the nodes the positions file records for its proof (made by the "
            f"generator's own proof-number search) on {same} of the {len(comparable)} positions it solved.")


def thesis_table(results: Results) -> pd.DataFrame:
    """Per solver: solved of N; nodes in both conventions and time over its solved and the commonly solved positions."""
    summary = results.solve_summary()
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
        "peak_entries": summary["peak_entries"], "peak_rss_mib": summary["peak_rss_mib"],
        "rss_added_mib": summary["rss_added_mib"]})


def depth_plot(table: pd.DataFrame, path: Path) -> Path:
    """log nodes against depth, one panel per game."""
    games = list(dict.fromkeys(table["game"]))
    fig, axes = plt.subplots(1, len(games), figsize=(4 * len(games), 3.6), squeeze=False)
    axes = axes[0]
    for ax, game_name in zip(axes, games):
        for search in SEARCHES:
            rows = table[(table["game"] == game_name) & (table["search"] == search)]
            ax.plot(rows["depth"], rows["nodes"], marker="o", label=search)
        ax.set_yscale("log")
        ax.set_title(game_name)
        ax.set_xlabel("depth (plies)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # depths are whole plies, never 1.5
    axes[0].set_ylabel("nodes")
    axes[0].legend(fontsize=7)
    return plots._save(fig, path)


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def conclusions(table: pd.DataFrame, ab: str, pn: str, others: list[str]) -> list[str]:
    """The paper's conclusions, each marked as holding or not on our numbers."""
    row = table.set_index("solver")
    a, p = row.loc[ab], row.loc[pn]
    node_ratio = _ratio(a["common_nodes_first"], p["common_nodes"])
    time_ratio = _ratio(a["common_time_ms"], p["common_time_ms"])
    paper_nodes = PAPER["alpha-beta"][1] / PAPER["proof-number search"][1]
    paper_time = PAPER["alpha-beta"][2] / PAPER["proof-number search"][2]
    out = [
        f"- *PN search needs about an order of magnitude fewer nodes than alpha-beta* (paper: {paper_nodes:.1f}x, "
        f"each over its own solved positions). On the {int(a['common'])} positions both solved, alpha-beta used "
        f"{node_ratio:.2f}x the nodes of PN in the paper's convention "
        f"({_ratio(a['common_nodes'], p['common_nodes']):.2f}x counting every iteration): "
        + ("**holds**." if node_ratio >= 10 else "**holds in direction, not in size**." if node_ratio > 1
           else "**does not hold**."),
        f"- *PN search takes less time* (paper: {paper_time:.1f}x). On the common positions alpha-beta took "
        f"{time_ratio:.2f}x PN's time: " + ("**holds**." if time_ratio > 1 else "**does not hold**."),
        f"- *Alpha-beta solves somewhat more positions than PN* (paper: {PAPER['alpha-beta'][0]} against "
        f"{PAPER['proof-number search'][0]}). Here {int(a['solved'])} against {int(p['solved'])}: "
        + ("**holds**." if a["solved"] > p["solved"] else "**does not hold**."),
    ]
    for other in others:
        o = row.loc[other]
        beats = o["solved"] > max(a["solved"], p["solved"])
        out.append(f"- *{other} solves more than both* (the paper shows this for PN² and PDS; df-pn stands in "
                   f"for PDS, both depth-first PN variants). Here {int(o['solved'])}: "
                   + ("**holds**." if beats else "**does not hold**."))
    return out


def write_thesis_report(results: Results, folder: Path | None = None, registry: Registry | None = None,
                        depths: dict[str, dict[str, int]] | None = None) -> Path:
    """Write README.md, plots and CSV tables of a solve run into `folder` (default: the results folder).

    `depths` gives, per game and search, the deepest search of the nodes-against-depth table (default DEPTHS).
    """
    folder = Path(folder or results.folder)
    folder.mkdir(parents=True, exist_ok=True)
    registry = registry or Registry()
    check_values(results)
    table = thesis_table(results)
    config = results.config
    solvers_config = config["participants"]
    positions = len(config["start_positions"])
    specs = {s["id"]: _spec(registry, s["agent"]) for s in solvers_config}
    ab = next((i for i, spec in specs.items() if spec is not None and spec.algorithm == "alpha-beta"), None)
    pn = next((i for i, spec in specs.items() if spec is not None and spec.algorithm == "proof-number search"), None)
    others = [s["id"] for s in solvers_config if s["id"] not in (ab, pn)]
    plots.solved_by_nodes(results.solves, results.ids, folder / "solved_by_nodes.png")

    paper = pd.DataFrame([{"source": "paper (Winands et al. 2002, 488 positions)", "algorithm": name,
                           "solved": f"{solved} of {PAPER_POSITIONS}", "total nodes": f"{nodes:,}",
                           "total time (ms)": f"{ms:,}"} for name, (solved, nodes, ms) in PAPER.items()])
    ours = pd.DataFrame([{"source": f"ours ({positions} positions)", "algorithm": r.solver,
                          "solved": f"{r.solved} of {r.of}",
                          "total nodes": (f"{r.nodes_first:,} (first iteration reaching each depth); "
                                          f"{r.nodes:,} (all iterations)" if r.solver == ab else f"{r.nodes:,}"),
                          "total time (ms)": f"{r.time_ms:,}",
                          "nodes/s": f"{1000 * r.nodes / r.time_ms:,.0f}" if r.time_ms else "-"}
                         for r in table.itertuples()])
    common = table[["solver", "common", "common_nodes_first", "common_nodes", "common_time_ms"]].rename(columns={
        "common": "positions", "common_nodes_first": "nodes (first iteration reaching each depth)",
        "common_nodes": "nodes (all iterations)", "common_time_ms": "time (ms)"})
    memory = _memory_table(table, solvers_config, specs)
    ratios = _ratios(table, ab, pn)
    held = conclusions(table, ab, pn, others) if ab and pn else ["(the run has no alpha-beta or no pns solver)"]

    example, chosen, example_nodes = tictactoe_example(registry)
    depth_table = pd.concat([nodes_by_depth(registry, g, d) for g, d in (depths or DEPTHS).items()], ignore_index=True)
    depth_plot(depth_table, folder / "nodes_by_depth.png")
    wide = depth_table.pivot_table(index=["game", "depth"], columns="search", values="nodes", sort=False)
    wide = wide[list(SEARCHES)].apply(lambda c: c.map(lambda v: "-" if pd.isna(v) else f"{int(v):,}")).reset_index()
    ebf = branching_summary(depth_table).round(2)

    tables = folder / "tables"
    tables.mkdir(exist_ok=True)
    table.to_csv(tables / "table_4_2.csv", index=False)
    results.solves.to_csv(tables / "solves.csv", index=False)
    depth_table.to_csv(tables / "nodes_by_depth.csv", index=False)

    budget = solvers_config[0]["budget"]
    run_time = _run_time(results)
    solvers = "\n".join(f"- `{s['id']}`: agent `{s['agent']}`"
                        + (f", {', '.join(f'{k}={v}' for k, v in s['params'].items() if v is not None)}"
                           if s["params"] else "") for s in solvers_config)
    text = f"""# Reproducing the thesis comparison: LOA endgames, alpha-beta against proof-number search

Regenerate everything on this page (tables, plots, examples) with one command:

```bash
plyground run tournaments/thesis-loa-endgames.yaml && python -m plugins.reports.thesis {folder}
```

The run solves every position of `tournaments/positions/loa-endgames-488.txt` ({positions} positions) with every
solver within a budget of {_budget_text(budget)} per position (the `budget` key of the YAML; raise it there
for a longer run). {run_time}

**The test set is our own**, made by `plyground make-endgames` (see `tournaments/positions/loa-endgames-488.md`):
proven wins for the side to move from seeded self-play games. It is not the set of Winands et al., which
is not public, so only the *shape* of the comparison can be set beside the paper's, not the numbers.

Solvers:

{solvers}

## Table 4.2, the paper's and ours

Each solver's totals are over the positions *it* solved, as in the paper. Alpha-beta nodes are given in the
paper's convention (a node counted only in the first iteration reaching its depth) and over all iterations.

{paper.to_markdown(index=False)}

{ours.to_markdown(index=False)}

The same totals over the positions **every** solver solved (equal work):

{common.to_markdown(index=False)}

{ratios}

## Memory

Each solver's memory is bounded by a parameter, so a position that needs more ends as unknown (or, for
df-pn and alpha-beta, with entries replaced and searched again) instead of exhausting the machine.
Per solver, the largest over all {positions} positions, solved or not: *peak entries* is the most tree
nodes and table entries its own structures held on one position (each structure at its largest,
summed: `SearchStats.peak_entries`, the same on the compiled and the interpreted path); *peak RSS* the
resident memory of the worker process during that solve (the kernel's high-water mark, reset when the
solve starts, so it includes the worker's Python, numba and compiled code); *added* how much one solve
raised it (a lower bound: memory an earlier solve on the same worker freed can be reused without raising it).
{_stopped_by_limit(results)}

{memory.to_markdown(index=False)}

{run_peak(results.solves)}

## Which of the paper's conclusions hold on our set

{chr(10).join(held)}

Every position two solvers both solved got the same value from both, and the value the positions file
claims (checked before this report is written; a disagreement stops it with SolveDisagreementError).
{recorded_nodes_check(results, pn)}

**Caveats, so the comparison is read fairly.**

- *The set favours proof-number search.* A position entered the set only if `pns` proved it within
  {SET_BUDGET:,} nodes, so at any budget of that size or more `pns` solves every position by
  construction, and below it `pns` solves exactly the positions whose recorded proof fits the budget. The
  paper's positions were chosen independently of the solvers. "Alpha-beta solves more" cannot be expected
  to hold here; the node and time ratios on the positions every solver solved are the fairer comparison.
- *Times compare implementations as much as algorithms.* The nodes/s column shows how fast each solver
  ran. Alpha-beta (with only exact enhancements, as here), `pns`, `pn2` and `dfpn` have numba-compiled
  paths for games with a kernel such as LOA (`plugins/agents/alphabeta/negamax.py`,
  `plugins/agents/proofnumber/search.py`) that give identical values and node counts; a solver without
  one runs interpreted Python, so set the nodes/s column beside the node totals.
- *Our positions are easier.* The budget was {_budget_text(budget)} per position, but the set was chosen
  by what `pns` proves within {SET_BUDGET:,} nodes, while the paper spent over 1.7 billion
  alpha-beta nodes in total on its 488 positions: our hardest positions are far easier than theirs.
- *Node conventions differ*, as each agent declares them: {_node_conventions(specs)}.

![positions solved against node budget](solved_by_nodes.png)

*Positions solved within a node budget of x (each solver's own node count per position, all iterations).*

## The thesis' tic-tac-toe example

Position `{TICTACTOE_EXAMPLE}`, O to move:

```
{registry.create_game('tictactoe').render(registry.create_game('tictactoe').from_text(TICTACTOE_EXAMPLE))}
```

Scoring from the thesis: a win at ply d from the root scores 9 - d, a loss -(9 - d), a draw 0. The value of
every O move by full-depth minimax with the `thesis` heuristic (computed, not typed in):

{example.to_markdown(index=False)}

{_example_text(example, chosen, example_nodes)}

## Nodes against depth, and effective branching factors

Fixed-depth searches from each game's start position: minimax; alpha-beta with good move ordering (iterative
deepening, transposition table, TT move, the game's hints, killers, history; the nodes of every iteration
counted); alpha-beta with every
enhancement off on a seeded random move order. Tic-tac-toe uses its `lines` heuristic, checkers `positional`,
LOA `concentration`.

{wide.to_markdown(index=False)}

Effective branching factor: exp of the least-squares slope of log(nodes) against depth (depths 2 and up),
set against b (minimax's own EBF), b^(1/2) (perfect ordering, Knuth & Moore 1975) and b^(3/4) (random
ordering, Pearl 1982). In tic-tac-toe the game ends within 9 plies, so the deeper trees are cut by wins and
the fit understates b.

{ebf.to_markdown(index=False)}

![nodes against depth](nodes_by_depth.png)

Tables as CSV: `tables/table_4_2.csv`, `tables/solves.csv` (every task), `tables/nodes_by_depth.csv`.
"""
    path = folder / README
    path.write_text(text, encoding="utf-8")
    return path


def _spec(registry: Registry, agent: str) -> AgentSpec | None:
    """The agent's spec, where its memory bound and algorithm are declared (None: not registered here)."""
    return registry.agents[agent].spec if agent in registry.agents else None


def _memory_table(table: pd.DataFrame, solvers_config: list[dict], specs: dict[str, AgentSpec | None]) -> pd.DataFrame:
    """Per solver: the bound that holds its memory (as its AgentSpec declares it), and its largest peak entries,
    RSS and RSS added."""
    configs = {s["id"]: s for s in solvers_config}
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


def _node_conventions(specs: dict[str, AgentSpec | None]) -> str:
    """What one node counts for each solver of the run, as its AgentSpec declares it."""
    return "; ".join(f"a `{solver}` node is {spec.nodes}" for solver, spec in specs.items()
                     if spec is not None and spec.nodes)


def _stopped_by_limit(results: Results) -> str:
    """How many solves a tree limit stopped (the bound that ends a solve; tables only replace entries)."""
    column = "extra_stopped_by"
    stopped = int((results.solves[column] == "tree_limit").sum()) if column in results.solves else 0
    return (f"A tree limit stopped {stopped} solve{'s' if stopped != 1 else ''}"
            + (" (they count as unknown)." if stopped else "; no solve needed more memory than its bound allows."))


def _count(value: float) -> str:
    return "-" if pd.isna(value) else f"{int(value):,}"


def _mib(value: float) -> str:
    return "-" if pd.isna(value) else f"{value:,.1f}"


def _example_text(example: pd.DataFrame, chosen: str, nodes: int) -> str:
    values = example["value for O"]
    best = values.max()
    text = f"Minimax chooses **{chosen}** ({nodes:,} nodes for the whole search), a move of value {best:g}."
    if values.nunique() == 1 and best < 0:
        text += (f" Every O move has the same value {best:g}: X has two threats and O can stop only one, so X "
                 f"wins at ply {9 - abs(int(best))} whatever O does, and the tie goes to the first move in move order.")
    return text


def _ratios(table: pd.DataFrame, ab: str | None, pn: str | None) -> str:
    if not (ab and pn):
        return ""
    row = table.set_index("solver")
    a, p = row.loc[ab], row.loc[pn]
    paper_ab, paper_pn = PAPER["alpha-beta"], PAPER["proof-number search"]
    ratios = pd.DataFrame([
        {"ratio (alpha-beta / PN)": "nodes, own solved positions",
         "paper": f"{paper_ab[1] / paper_pn[1]:.2f}", "ours": f"{_ratio(a['nodes_first'], p['nodes']):.2f}"},
        {"ratio (alpha-beta / PN)": "nodes, positions both solved", "paper": "-",
         "ours": f"{_ratio(a['common_nodes_first'], p['common_nodes']):.2f}"},
        {"ratio (alpha-beta / PN)": "time, own solved positions",
         "paper": f"{paper_ab[2] / paper_pn[2]:.2f}", "ours": f"{_ratio(a['time_ms'], p['time_ms']):.2f}"},
        {"ratio (alpha-beta / PN)": "time, positions both solved", "paper": "-",
         "ours": f"{_ratio(a['common_time_ms'], p['common_time_ms']):.2f}"},
        {"ratio (alpha-beta / PN)": "positions solved",
         "paper": f"{paper_ab[0] / paper_pn[0]:.2f}", "ours": f"{_ratio(a['solved'], p['solved']):.2f}"},
    ])
    return ("Ratios, alpha-beta over PN (alpha-beta nodes in the paper's convention):\n\n"
            + ratios.to_markdown(index=False))


def _budget_text(budget: dict) -> str:
    parts = [f"{budget['nodes']:,} nodes" if budget.get("nodes") else "",
             f"{budget['time']:g} s" if budget.get("time") else ""]
    return " and ".join(p for p in parts if p)


def _run_time(results: Results) -> str:
    solves = results.solves
    if not len(solves):
        return "No task has run yet."
    start = results.meta.get("created_at", solves["finished_at"].min())
    minutes = (solves["finished_at"].max() - start) / 60
    when = datetime.datetime.fromtimestamp(start, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    total = len(results.config["start_positions"]) * len(results.ids)
    done = f"all {total} tasks" if len(solves) == total else f"**{len(solves)} of {total} tasks (a partial run)**"
    return (f"The run started {when} and stored {done} {minutes:.1f} minutes later "
            f"(summed solver time {solves['wall_time'].sum() / 60:.1f} minutes).")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m plugins.reports.thesis", description=__doc__.splitlines()[0])
    parser.add_argument("results", help="results folder of the solve run "
                                        "(plyground run tournaments/thesis-loa-endgames.yaml)")
    parser.add_argument("--out", help="folder to write into (default: the results folder)")
    args = parser.parse_args(argv)
    print(f"thesis report: {write_thesis_report(Results(args.results), Path(args.out) if args.out else None)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
