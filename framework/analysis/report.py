"""The tournament report: terminal tables, and a Markdown file with PNG plots in the results folder."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from framework.analysis import plots
from framework.analysis.markdown import markdown_table, rounded
from framework.analysis.solving import peak_mib, rss_scopes
from framework.analysis.standings import MATCH_LEGEND, elo_estimate
from framework.analysis.tables import Results

REPORT = "report.md"
SOLVE_COLUMNS = ["solver", "positions", "solved", "nodes", "time_ms", "common", "nodes_common", "time_ms_common",
                 "crashes", "timeouts", "peak_entries", "peak_rss_mib", "rss_added_mib"]


def run_peak(tasks: pd.DataFrame) -> str:
    """One sentence: the run's peak resident memory (the largest worker), and what the figure covers."""
    peak = peak_mib(tasks)
    if pd.isna(peak):
        return "Peak memory: not recorded (these results were stored before Plyground recorded it)."
    scope = ("each task's own peak, the high-water mark reset when it started" if rss_scopes(tasks) == {"task"}
             else "on some workers the peak of the worker process so far, over every task it ran")
    return (f"Peak memory of the run: {peak:.1f} MiB resident in the largest worker process ({scope}; "
            f"{tasks['rss_peak'].notna().sum()} of {len(tasks)} tasks recorded).")


def crash_lines(results: Results) -> list[str]:
    """Each crash with its reason and traceback, then the void tasks: plain text for the terminal."""
    lines = []
    for row in results.crashes().itertuples():
        lines += ["", f"{row.key}: {row.reason}", *(f"    {line}" for line in row.traceback.rstrip().splitlines())]
    if len(results.void):
        lines += ["", f"{len(results.void)} void (no result, left out of every table):"]
        lines += [f"{row.key}: {row.reason}" for row in results.void.itertuples()]
    return ["", "Crashes (with the agent's traceback where it raised):", *lines[1:]] if lines else []


def _crashmarkdown_table(results: Results) -> str:
    crashes = results.crashes()
    parts = [f"### {row.key}\n\n{row.reason}\n" + (f"\n```\n{row.traceback.rstrip()}\n```\n" if row.traceback else "")
             for row in crashes.itertuples()]
    void = (f"\nVoid (no result: the worker was killed from outside on every try; left out of every table):\n\n"
            f"{markdown_table(results.void)}\n") if len(results.void) else ""
    return ("\n".join(parts) if parts else "(none)\n") + void


def _estimates(table: pd.DataFrame, elo: str, error: str, los: str | None = None) -> pd.DataFrame:
    """The table rounded for reading, its Elo, error and LOS columns as text: "n/a (too few games)" where the
    games cannot estimate them (the CSV tables keep the numbers)."""
    shown = rounded(table).astype({column: object for column in (elo, error, los) if column})
    for i, row in table.iterrows():
        texts = elo_estimate(row[elo], row[error], row[los] if los else float("nan"))
        shown.at[i, elo], shown.at[i, error] = texts[0], texts[1]
        if los:
            shown.at[i, los] = texts[2].rstrip("%")
    return shown


SEARCH_HEADING = ("Search statistics (per participant: moves, mean and median nodes per move, nodes per second of "
                  "wall time, mean depth completed, mean time per move)")


def terminal_summary(results: Results) -> str:
    """Standings and crosstable as plain-text tables (solve mode: the solver table and any disagreement; a
    tuning's summary is framework.tuning.report's)."""
    if results.mode == "solve":
        lines = [f"{results.config['name']}: {results.solves['position_index'].nunique()} positions of "
                 f"{results.config['game']}", "", "Solvers (nodes and time over solved positions, and over "
                 "the positions every solver solved; peak_entries, peak_rss_mib and rss_added_mib are the largest "
                 "of any one position; report.md has every column)",
                 rounded(results.solve_summary()[SOLVE_COLUMNS]).to_string(index=False), "", run_peak(results.solves)]
        bad = results.disagreements()
        lines += ["", f"DISAGREEMENTS between solvers:\n{bad.to_string(index=False)}" if len(bad)
                  else "All solvers that solved a position agree on its value."]
        return "\n".join(lines)
    if results.multiplayer:
        return "\n".join([
            f"{results.config['name']}: {len(results.games)} games of {', '.join(results.game_names)}", "",
            "Standings (points: first places shared; wins: sole first places, 95% interval; win % from each seat)",
            rounded(results.seat_standings()).to_string(index=False), "",
            "Ratings (openskill Plackett-Luce: mu, sigma, ordinal = mu - 3 sigma)",
            rounded(results.seat_ratings()).to_string(index=False), "",
            "Finished ahead (% of shared games the row ranked above the column, ties half)",
            rounded(results.ahead()).to_string(), "", "Wins by seat",
            rounded(results.seat_wins()).to_string(index=False),
            "", run_peak(results.games), *crash_lines(results)])
    standings = results.standings()
    lines = [f"{results.config['name']}: {len(results.games)} games of {', '.join(results.game_names)}",
             "", "Standings (Elo: Bradley-Terry fit, field mean 0, ± 95% CI)",
             _estimates(standings, "elo", "elo_ci95").to_string(index=False), "",
             "Crosstable (W-D-L and score of row against column)",
             results.crosstable().to_string(), "", "Match (per pairing: the first-named participant's results; Elo, "
             "its 95% error and LOS from the pentanomial of complete pairs)",
             _estimates(results.match(), "elo", "elo_error", "los_pct").to_string(index=False), MATCH_LEGEND,
             *[""] * bool(results.sprt()), *results.sprt(), "", SEARCH_HEADING,
             rounded(results.search_stats()).to_string(index=False), "", run_peak(results.games), *crash_lines(results)]
    if standings.attrs.get("elo_prior_draws"):
        lines.insert(3, "(a group of participants won or lost every game against the rest, "
                        "so one virtual draw per pairing keeps the Elo finite)")
    return "\n".join(lines)


#: A parameter listing longer than this is wrapped onto several lines of its table cell.
CELL_WIDTH = 60


def _agent(participant: dict) -> str:
    """A participant's agent, or its program: the program's file name and arguments (and the protocol if not ours)."""
    command = participant.get("command")
    if not command:
        return str(participant["agent"])
    shown = " ".join([Path(command[0]).name, *command[1:]])
    protocol = participant.get("protocol", "plyground")
    return f"program `{shown}`" + (f" ({protocol})" if protocol != "plyground" else "")


def _listing(values: dict) -> str:
    """`key=value, ...` of the values that are set, wrapped with <br> so a long listing stays readable."""
    lines: list[str] = []
    for item in (f"{k}={v}" for k, v in values.items() if v is not None):
        if lines and len(lines[-1]) + len(item) + 2 <= CELL_WIDTH:
            lines[-1] += f", {item}"
        else:
            lines.append(item)
    return ",<br>".join(lines)


def _openers(games: pd.DataFrame) -> str:
    """Who moved first: `first` names seat 0, but a start position may give the other seat the move."""
    seat0 = int((games["moved_first"] == games["first"]).sum())
    seat1 = int((games["moved_first"] == games["second"]).sum())
    if not seat1:
        return "The participant in seat 0 (`first`) moved first in every game."
    return (f"The participant in seat 0 (`first`) moved first in {seat0} games and the one in seat 1 (`second`) in "
            f"{seat1} (start positions with seat 1 to move); `moved_first` in tables/games.csv says it per game.")


def write_report(results: Results, folder: Path | None = None) -> Path:
    """Write report.md, the PNG plots and every table as CSV into `folder` (default: the results folder)."""
    folder = Path(folder or results.folder)
    folder.mkdir(parents=True, exist_ok=True)
    if results.mode == "solve":
        return _write_solve_report(results, folder)
    if results.multiplayer:
        return _write_seats_report(results, folder)
    standings = results.standings()
    plots.crosstable_heatmap(results.crosstable_scores(), folder / "crosstable.png")
    plots.rating_bars(standings, folder / "ratings.png")
    plots.nodes_per_move(results.decisions(), folder / "nodes_per_move.png")
    config = results.config
    engines = results.engines()
    participants = pd.DataFrame([{"participant": p["id"], "agent": _agent(p), "params": _listing(p["params"]),
                                  "budget": _listing(p["budget"]), "engine": engines.get(p["id"], "")}
                                 for p in config["participants"]])
    prior = standings.attrs.get("elo_prior_draws")
    sprt = "".join(f"\n{line}\n" for line in results.sprt())
    if sprt:
        sprt = ("\n## SPRT\n\nThe sequential probability ratio test of each pairing: its log-likelihood ratio (LLR), "
                "the bounds (lower, upper) and the Elo hypotheses [elo0, elo1], over the pairs (or games) in index "
                "order until it was decided.\n" + sprt)
    per_game = "".join(f"""## {game}

{markdown_table(results.standings(game))}

{markdown_table(results.crosstable(game), index=True)}

""" for game in results.game_names) if len(results.game_names) > 1 else ""
    names = ", ".join(results.game_names)
    prior_note = (" One virtual draw per pairing was added because a group of participants won or lost every game "
                  "against the rest." if prior else "")
    text = f"""# {config['name']}

{len(results.games)} games of {names}, {config['format']}, {config['games_per_pairing']} games per pairing
in colour-swapped pairs, seed {config['seed']}. {_openers(results.games)}

## Participants

{markdown_table(participants)}

## Standings

Elo from a Bradley-Terry maximum-likelihood fit (draws count half), shifted so the field averages 0;
`elo_ci95` is the half-width of the 95% confidence interval.{prior_note}

{markdown_table(standings)}

![ratings](ratings.png)

## Crosstable

W-D-L and score of the row participant against the column participant.

{markdown_table(results.crosstable(), index=True)}

![crosstable](crosstable.png)

{per_game}## Match

Per pairing, the first-named participant's wins, draws and losses, score and draw ratio; Elo with its 95%
error and the likelihood of superiority (LOS) from the pentanomial counts of complete pairs, as fastchess
reports them.

{markdown_table(_estimates(results.match(), "elo", "elo_error", "los_pct"))}

{MATCH_LEGEND}.
{sprt}
## Game pairs (pentanomial)

Ptnml(0-2) counts colour-swapped pairs by the row participant's pair score [0, 0.5, 1, 1.5, 2].

{markdown_table(results.pairs())}

## Terminations

{markdown_table(results.terminations())}

Forfeits:

{markdown_table(results.forfeits())}

## Crashes

{_crashmarkdown_table(results)}
## Search statistics

{markdown_table(results.search_stats())}

![nodes per move](nodes_per_move.png)

{run_peak(results.games)}

Plugin versions: {', '.join(f'{k}: {v}' for k, v in results.meta.get('plugin_versions', {}).items())}.
"""
    path = folder / REPORT
    path.write_text(text, encoding="utf-8")
    results.export(folder / "tables")
    return path


def _write_seats_report(results: Results, folder: Path) -> Path:
    """The report of a run whose games seat more than two players: standings, ratings, finished-ahead, seats."""
    config = results.config
    text = f"""# {config['name']}

{len(results.games)} games of {', '.join(results.game_names)}, {config['format']}, \
{config['games_per_pairing']} games per group of players, every participant in every seat equally often, \
seed {config['seed']}.

## Standings

Points: the players with the best result share 1. Wins: sole first places, with a 95% Wilson interval.
`win_pct_seatS`: the share of its games from seat S the participant won.

{markdown_table(rounded(results.seat_standings()))}

## Ratings

openskill's Plackett-Luce model (Weng & Lin 2011), updated game by game in schedule order; ordinal = mu - 3 sigma.

{markdown_table(rounded(results.seat_ratings()))}

## Finished ahead

The share of the games two participants played together in which the row participant ranked above the
column one (ties count half), in %.

{markdown_table(rounded(results.ahead()), index=True)}

## Seats

{markdown_table(results.seat_wins().round(1))}

## Terminations

{markdown_table(results.terminations())}
"""
    path = folder / "report.md"
    path.write_text(text)
    results.export(folder / "tables")
    return path


def _write_solve_report(results: Results, folder: Path) -> Path:
    config = results.config
    plots.solved_by_nodes(results.solves, results.ids, folder / "solved_by_nodes.png")
    engines = results.engines()
    solvers = pd.DataFrame([{"solver": p["id"], "agent": _agent(p), "params": _listing(p["params"]),
                             "budget": _listing(p["budget"]), "engine": engines.get(p["id"], "")}
                            for p in config["participants"]])
    summary = results.solve_summary()
    bad = results.disagreements()
    verdict = ("**Disagreements** (a failure of one of the solvers):\n\n" + markdown_table(bad)) if len(bad) \
        else "Every position solved by more than one solver got the same value from each."
    text = f"""# {config['name']}

{results.solves['position_index'].nunique()} positions of {config['game']}, each given to every solver.

## Solvers

{markdown_table(solvers)}

## Results

`nodes` and `time_ms` total the positions each solver solved; the `_common` columns total the
{summary['common'].iloc[0]} positions that every solver solved, so they compare equal work.

{markdown_table(summary[["solved_pct" if c == "solved" else c for c in SOLVE_COLUMNS[:3]] + SOLVE_COLUMNS[2:-3]])}

Memory, per solver the largest over its positions (solved or not): `peak_entries`, the most tree nodes and
table entries its own structures held; `peak_rss_mib`, the worker's peak resident memory during the solve;
`rss_added_mib`, how much the solve added to the worker's resident memory.
{run_peak(results.solves)}

{markdown_table(summary[["solver", "peak_entries", "peak_rss_mib", "rss_added_mib"]])}

Figures the solvers report themselves (`extra_*`, totalled the same way; empty where a solver does not
report one):

{markdown_table(summary[["solver"] + [c for c in summary.columns if c.startswith("extra_")]])}

{verdict}

![positions solved against node budget](solved_by_nodes.png)
"""
    path = folder / REPORT
    path.write_text(text, encoding="utf-8")
    results.export(folder / "tables")
    return path
