"""The thesis reproduction page: Table 4.2 on the refereed and on the easy LOA endgame set, and the thesis' examples.

    python -m plugins.reports.thesis RESULTS [--refereed RESULTS [--budget-search RESULTS]]
        [--hard RESULTS [--hard-curve RESULTS ...] [--hard-memory RESULTS]] [--out FOLDER]

`write_thesis_report(results, folder, refereed, budget_search, hard=...)` writes one `README.md` with PNG
plots and CSV tables: first the hard set's section when its results are given (the same section, with
solved-against-budget curves, the memory experiment and how the set differs from the paper's), then the
refereed set's section (`plugins/reports/thesis_hard.py`: all six solvers of
Winands, Uiterwijk & van den Herik, "PDS-PN: A New Proof-Number Search Algorithm", Computers and Games
2002, beside the paper's rows, with the budget search), then the easy set's (RESULTS: positions `pns`
proved cheaply; written here), each with which of the paper's conclusions hold (decided from the numbers
by `plugins/reports/table42.py`, not written by hand), then the thesis' tic-tac-toe example computed by
minimax with its `thesis` scoring, and nodes against depth with fitted effective branching factors.
"""

from __future__ import annotations

import argparse
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
from framework.protocols import Budget, Game, State  # noqa: E402
from framework.registry import Registry  # noqa: E402
from framework.specs import AgentSpec  # noqa: E402
from plugins.reports.branching import SEARCHES, branching_summary, nodes_by_depth  # noqa: E402
from plugins.reports.table42 import (  # noqa: E402
    budget_text,
    by_algorithm,
    check_values,
    common_table,
    conclusions,
    memory_bounds,
    memory_table,
    note_fields,
    paper_table,
    ratios_text,
    run_time,
    solver_list,
    solver_specs,
    stopped,
    thesis_table,
)
from plugins.reports.thesis_hard import HARD, refereed_section  # noqa: E402
from plugins.reports.verdict_map import MapRuns, verdict_section, wins_text  # noqa: E402

README = "README.md"
#: The prefix of the easy set's plots and CSV tables in the page's folder.
PREFIX = "easy_"
#: The one command that regenerates the page: the three runs (each resumes, so a finished one costs nothing),
#: then the report.
COMMAND = ("plyground run tournaments/thesis-loa-endgames.yaml \\\n"
           "  && plyground run tournaments/thesis-loa-refereed-budget.yaml \\\n"
           "  && plyground run tournaments/thesis-loa-refereed.yaml \\\n"
           "  && python -m plugins.reports.thesis results/thesis --refereed results/thesis-refereed \\\n"
           "     --budget-search results/thesis-refereed-budget")
#: The same with the hard set's three runs (comparison, budget curves, half memory) first.
HARD_COMMAND = ("plyground run tournaments/thesis-loa-hard.yaml \\\n"
                "  && python -m plugins.reports.verdict_map positions \\\n"
                "  && plyground run tournaments/thesis-loa-hard-curve.yaml \\\n"
                "  && plyground run tournaments/thesis-loa-hard-memory.yaml \\\n"
                "  && plyground run tournaments/thesis-loa-hard-alphabeta-64m.yaml \\\n"
                "  && plyground run tournaments/thesis-loa-hard-pn-4m.yaml \\\n"
                "  && plyground run tournaments/thesis-loa-hard-memory-map.yaml \\\n  && "
                + COMMAND.replace("--budget-search results/thesis-refereed-budget",
                                  "--budget-search results/thesis-refereed-budget \\\n"
                                  "     --hard results/thesis-hard --hard-curve results/thesis-hard-curve \\\n"
                                  "     --hard-memory results/thesis-hard-memory \\\n"
                                  "     --hard-deeper results/thesis-hard-alphabeta-64m "
                                  "--hard-pn-tree results/thesis-hard-pn-4m \\\n"
                                  "     --hard-memory-map results/thesis-hard-memory-map"))

#: The node budget `pns` proved each position of the easy set within (`plyground make-endgames --budget`).
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


def recorded_nodes_check(results: Results, solver: str | None) -> str:
    """How many of `solver`'s solved positions took exactly the nodes the positions file records for its proof."""
    if solver is None:
        return ""
    mine = results.solves[(results.solves["solver"] == solver) & (results.solves["status"] == "solved")]
    recorded = mine["note"].map(lambda note: note_fields(note).get("nodes"))
    comparable = mine[recorded.notna()]
    if not len(comparable):
        return ""
    same = int((comparable["nodes"] == recorded[recorded.notna()].astype(int)).sum())
    return (f"`{solver}` needed exactly the nodes the positions file records for its proof (made by the "
            f"generator's own proof-number search) on {same} of the {len(comparable)} positions it solved.")


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


def _node_conventions(specs: dict[str, AgentSpec | None]) -> str:
    """What one node counts for each solver of the run, as its AgentSpec declares it."""
    return "; ".join(f"a `{solver}` node is {spec.nodes}" for solver, spec in specs.items()
                     if spec is not None and spec.nodes)


def _stopped_by_limit(results: Results) -> str:
    """How many solves a tree limit stopped (the bound that ends a solve; tables only replace entries)."""
    count = stopped(results.solves)
    return (f"A tree limit stopped {count} solve{'s' if count != 1 else ''}"
            + (" (they count as unknown)." if count else "; no solve needed more memory than its bound allows."))


def _example_text(example: pd.DataFrame, chosen: str, nodes: int) -> str:
    values = example["value for O"]
    best = values.max()
    text = f"Minimax chooses **{chosen}** ({nodes:,} nodes for the whole search), a move of value {best:g}."
    if values.nunique() == 1 and best < 0:
        text += (f" Every O move has the same value {best:g}: X has two threats and O can stop only one, so X "
                 f"wins at ply {9 - abs(int(best))} whatever O does, and the tie goes to the first move in move order.")
    return text


def easy_section(results: Results, folder: Path, registry: Registry) -> str:
    """The easy set's section of the page (markdown); its plot and CSV tables go into `folder`."""
    check_values(results)
    table = thesis_table(results)
    config = results.config
    positions = len(config["start_positions"])
    specs = solver_specs(results, registry)
    solvers = by_algorithm(specs)
    ab, pn = solvers.get("alpha-beta"), solvers.get("proof-number search")
    plots.solved_by_nodes(results.solves, results.ids, folder / f"{PREFIX}solved_by_nodes.png")
    ours = pd.DataFrame([{"source": f"ours ({positions} positions)", "algorithm": r.solver,
                          "solved": f"{r.solved} of {r.of}",
                          "total nodes": (f"{r.nodes_first:,} (first iteration reaching each depth); "
                                          f"{r.nodes:,} (all iterations)" if r.solver == ab else f"{r.nodes:,}"),
                          "wall time (ms)": f"{r.time_ms:,}",
                          "nodes/s": f"{1000 * r.nodes / r.time_ms:,.0f}" if r.time_ms else "-"}
                         for r in table.itertuples()])
    tables = folder / "tables"
    tables.mkdir(exist_ok=True)
    table.to_csv(tables / f"{PREFIX}table_4_2.csv", index=False)
    results.solves.to_csv(tables / f"{PREFIX}solves.csv", index=False)
    budget = config["participants"][0]["budget"]
    return f"""## The easy set: {positions} positions `pns` proved cheaply

The run solves every position of `tournaments/positions/loa-endgames-488.txt` ({positions} positions) with every
solver within a budget of {budget_text(budget)} per position (the `budget` key of
`tournaments/thesis-loa-endgames.yaml`; raise it there for a longer run; results in `{results.folder}`).
{run_time(results)}

**The test set is our own**, made by `plyground make-endgames` (see `tournaments/positions/loa-endgames-488.md`):
proven wins for the side to move from seeded self-play games, each kept only if `pns` proved it within
{SET_BUDGET:,} nodes. It is not the set of Winands et al., which is not public, so only the *shape* of the
comparison can be set beside the paper's, not the numbers; and since it favours proof-number search (see the
caveats), the refereed set above is the fairer comparison.

Solvers:

{solver_list(results)}

### Table 4.2 on the easy set, the paper's and ours

Each solver's totals are over the positions *it* solved, as in the paper. Alpha-beta nodes are given in the
paper's convention (a node counted only in the first iteration reaching its depth) and over all iterations.

{paper_table().to_markdown(index=False)}

{ours.to_markdown(index=False)}

The same totals over the positions **every** solver solved (equal work):

{common_table(table).to_markdown(index=False)}

{ratios_text(table, ab, pn)}

### Memory on the easy set

Each solver's memory is bounded by a parameter, so a position that needs more ends as unknown (or, for
the solvers bounded by a table size, `tt_size`, with entries replaced and searched again) instead of
exhausting the machine. Per solver, the largest over all {positions} positions, solved or not: *peak entries*
is the most tree nodes and table entries its own structures held on one position (each structure at its
largest, summed: `SearchStats.peak_entries`, the same on the compiled and the interpreted path); *peak RSS*
the resident memory of the worker process during that solve (the kernel's high-water mark, reset when the
solve starts, so it includes the worker's Python, numba and compiled code); *added* how much one solve
raised it (a lower bound: memory an earlier solve on the same worker freed can be reused without raising it).
{_stopped_by_limit(results)}

{memory_table(table, results, specs).to_markdown(index=False)}

{run_peak(results.solves)}

### Which of the paper's and its abstract's conclusions hold on the easy set

{chr(10).join(conclusions(table, results.solves, solvers, memory_bounds(results, specs)))}

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
  ran. Alpha-beta (with only exact enhancements, as here) and every proof-number solver have numba-compiled
  paths for games with a kernel such as LOA (`plugins/agents/alphabeta/search.py`,
  `plugins/agents/proofnumber/search.py`) that give identical values and node counts; a solver without
  one runs interpreted Python, so set the nodes/s column beside the node totals.
- *Our positions are easier.* The budget was {budget_text(budget)} per position, but the set was chosen
  by what `pns` proves within {SET_BUDGET:,} nodes, while the paper spent over 1.7 billion
  alpha-beta nodes in total on its 488 positions: our hardest positions are far easier than theirs.
- *Node conventions differ*, as each agent declares them: {_node_conventions(specs)}.

![positions solved against node budget, easy set]({PREFIX}solved_by_nodes.png)

*Positions solved within a node budget of x (each solver's own node count per position, all iterations).*

Tables as CSV: `tables/{PREFIX}table_4_2.csv`, `tables/{PREFIX}solves.csv` (every task).
"""


def examples_section(folder: Path, registry: Registry, depths: dict[str, dict[str, int]]) -> str:
    """The thesis' tic-tac-toe example and nodes against depth (markdown); the depth plot and table go into
    `folder`."""
    example, chosen, example_nodes = tictactoe_example(registry)
    depth_table = pd.concat([nodes_by_depth(registry, g, d) for g, d in depths.items()], ignore_index=True)
    depth_plot(depth_table, folder / "nodes_by_depth.png")
    wide = depth_table.pivot_table(index=["game", "depth"], columns="search", values="nodes", sort=False)
    wide = wide[list(SEARCHES)].apply(lambda c: c.map(lambda v: "-" if pd.isna(v) else f"{int(v):,}")).reset_index()
    ebf = branching_summary(depth_table).round(2)
    (folder / "tables").mkdir(exist_ok=True)
    depth_table.to_csv(folder / "tables" / "nodes_by_depth.csv", index=False)
    game = registry.create_game("tictactoe")
    return f"""## The thesis' tic-tac-toe example

Position `{TICTACTOE_EXAMPLE}`, O to move:

```
{game.render(game.from_text(TICTACTOE_EXAMPLE))}
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

Table as CSV: `tables/nodes_by_depth.csv`.
"""


def write_thesis_report(results: Results, folder: Path | None = None, refereed: Results | None = None,
                        budget_search: Results | None = None, registry: Registry | None = None,
                        depths: dict[str, dict[str, int]] | None = None, hard: Results | None = None,
                        hard_curves: tuple[Results, ...] = (), hard_memory: Results | None = None,
                        hard_map: MapRuns | None = None) -> Path:
    """Write the page (README.md), plots and CSV tables into `folder` (default: the easy set's results folder).

    `results` is the easy set's solve run, `refereed` the refereed set's (its section comes before the easy
    set's; none: the page has only the easy set), `budget_search` alpha-beta alone at a high budget on the
    refereed set; `hard` the hard set's comparison (its section first), `hard_curves` its runs at other node
    budgets, `hard_memory` its memory-bounded solvers with half the memory, `hard_map` the runs of where its
    verdicts turn (plugins/reports/verdict_map.py); `depths` gives, per game and search, the deepest search of
    the nodes-against-depth table (default DEPTHS).
    """
    folder = Path(folder or results.folder)
    folder.mkdir(parents=True, exist_ok=True)
    registry = registry or Registry()
    sections = []
    if hard is not None:
        about = verdicts = ""
        if hard_map is not None:
            about = wins_text(hard, hard_map.deeper, registry)
            verdicts = verdict_section(hard, hard_map.deeper, hard_map.pn_tree, hard_map.memory_map, registry,
                                       half=hard_memory, curve=next(iter(hard_curves), None))
        sections.append(refereed_section(hard, folder, registry=registry, page=HARD, curves=hard_curves,
                                         half=hard_memory, about=about, verdicts=verdicts))
    sections += ([refereed_section(refereed, folder, budget_search, registry)] if refereed is not None else [])
    sections += [easy_section(results, folder, registry), examples_section(folder, registry, depths or DEPTHS)]
    sets = ", then ".join(name for name, run in (("the hard set", hard), ("the refereed set", refereed),
                                                  ("the easy set", results)) if run is not None)
    text = f"""# Reproducing the thesis comparison: LOA endgames, alpha-beta against proof-number search

Regenerate everything on this page (tables, plots, examples) with one command (each run resumes, so a
finished one costs nothing):

```bash
{HARD_COMMAND if hard is not None else COMMAND}
```

Table 4.2 of the thesis, quoted from Winands, Uiterwijk & van den Herik ("PDS-PN: A New Proof-Number Search
Algorithm", Computers and Games 2002), set beside ours on LOA endgame positions: {sets}.
The **hard set** is the refereed procedure keeping only positions whose shortest win needs at least 5 plies
(nearer the paper's difficulty); the **refereed set** is chosen without reference to the compared solvers, as
the paper's was; the **easy set** holds only positions `pns` proved cheaply, so it favours proof-number
search, and is kept for comparison with earlier runs. Neither is the paper's set, which is not public.

""" + "\n".join(sections)
    path = folder / README
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m plugins.reports.thesis", description=__doc__.splitlines()[0])
    parser.add_argument("results", help="results folder of the easy set's solve run "
                                        "(plyground run tournaments/thesis-loa-endgames.yaml)")
    parser.add_argument("--refereed", help="results folder of the refereed set's solve run "
                                           "(plyground run tournaments/thesis-loa-refereed.yaml): its section first")
    parser.add_argument("--budget-search", help="results folder of alpha-beta alone at a high budget on the refereed "
                                                "set (plyground run tournaments/thesis-loa-refereed-budget.yaml)")
    parser.add_argument("--hard", help="results folder of the hard set's comparison "
                                       "(plyground run tournaments/thesis-loa-hard.yaml): its section first")
    parser.add_argument("--hard-curve", action="append", default=[],
                        help="results folder of a run on the hard set at other node budgets "
                             "(tournaments/thesis-loa-hard-curve.yaml); may be repeated")
    parser.add_argument("--hard-memory", help="results folder of the hard set's memory experiment "
                                              "(tournaments/thesis-loa-hard-memory.yaml)")
    parser.add_argument("--hard-deeper", help="results folder of alpha-beta at a larger budget on what it left "
                                              "unsolved (tournaments/thesis-loa-hard-alphabeta-64m.yaml)")
    parser.add_argument("--hard-pn-tree", help="results folder of PN with a larger tree on what it left unsolved "
                                               "(tournaments/thesis-loa-hard-pn-4m.yaml)")
    parser.add_argument("--hard-memory-map", help="results folder of PN² and PDS-PN at other memories "
                                                  "(tournaments/thesis-loa-hard-memory-map.yaml)")
    parser.add_argument("--out", help="folder to write into (default: the easy set's results folder)")
    args = parser.parse_args(argv)
    if args.budget_search and not args.refereed:
        parser.error("--budget-search belongs to the refereed set: give --refereed too")
    mapped = (args.hard_deeper, args.hard_pn_tree, args.hard_memory_map)
    if (args.hard_curve or args.hard_memory or any(mapped)) and not args.hard:
        parser.error("--hard-curve, --hard-memory and the verdict map's runs belong to the hard set: give --hard too")
    if any(mapped) and not all(mapped):
        parser.error("the verdict map needs its three runs: --hard-deeper, --hard-pn-tree and --hard-memory-map")
    refereed = Results(args.refereed) if args.refereed else None
    search = Results(args.budget_search) if args.budget_search else None
    path = write_thesis_report(Results(args.results), Path(args.out) if args.out else None, refereed, search,
                               hard=Results(args.hard) if args.hard else None,
                               hard_curves=tuple(Results(f) for f in args.hard_curve),
                               hard_memory=Results(args.hard_memory) if args.hard_memory else None,
                               hard_map=MapRuns(*map(Results, mapped)) if all(mapped) else None)
    print(f"thesis report: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
