"""Tables over a solve run: positions solved per solver, work on shared positions, and disagreements.

The comparison follows the thesis' Table 4.2 (Winands, Uiterwijk & van den Herik 2002): per
solver, positions solved and total nodes and time over the positions it solved; and, so the
comparison is on equal work, the same totals over the positions every solver solved. Numeric
figures a solver reports in `extra` (e.g. alpha-beta's nodes counted only in the first
iteration reaching each depth) are totalled the same way, as `extra_<name>` columns.

Memory is a peak, so it is never totalled: per solver, the largest `peak_entries` (tree nodes
and table entries its structures held, `SearchStats.peak_entries`) and the largest peak resident
memory of the worker during one of its solves, and how much that solve added to it, in MiB,
over all its positions (solved or not: an unsolved position usually holds the most).
"""

from __future__ import annotations

import pandas as pd

PROVEN = ("win", "loss", "draw")
MIB = 1 << 20


def peak_mib(tasks: pd.DataFrame) -> float:
    """The largest peak resident memory (MiB) of a worker during one of `tasks` (a solves or games table);
    NaN when none was recorded (results stored before memory was)."""
    return pd.to_numeric(tasks["rss_peak"]).max() / MIB


def rss_scopes(tasks: pd.DataFrame) -> set[str]:
    """"task" when each peak is its task's own, "process" when it is the worker's so far (`tournament.memory`)."""
    return set(tasks["rss_scope"].dropna())


def _extra_columns(solves: pd.DataFrame) -> list[str]:
    return [c for c in solves.columns if c.startswith("extra_") and pd.api.types.is_numeric_dtype(solves[c])]


def solve_summary(solves: pd.DataFrame, ids: list[str]) -> pd.DataFrame:
    """Per solver: positions, solved, nodes and time (ms) over its solved positions and over those all solved."""
    positions = solves["position_index"].nunique()
    solved = solves[solves["status"] == "solved"]
    by_position = solved.groupby("position_index")["solver"].nunique()
    common = set(by_position[by_position == len(ids)].index)
    extras = _extra_columns(solves)
    rows = []
    for sid in ids:
        mine = solved[solved["solver"] == sid]
        shared = mine[mine["position_index"].isin(common)]
        row = {"solver": sid, "positions": positions, "solved": len(mine),
               "solved_pct": 100 * len(mine) / positions if positions else 0.0,
               "nodes": int(mine["nodes"].sum()), "time_ms": 1000 * float(mine["wall_time"].sum()),
               "common": len(common), "nodes_common": int(shared["nodes"].sum()),
               "time_ms_common": 1000 * float(shared["wall_time"].sum()),
               "crashes": int(((solves["solver"] == sid) & (solves["status"] == "crash")).sum()),
               "timeouts": int(((solves["solver"] == sid) & (solves["status"] == "time")).sum()),
               **_memory(solves[solves["solver"] == sid])}
        for column in extras:
            row[column] = mine[column].sum(min_count=1)  # NaN, not 0, for a solver that does not report it
            row[f"{column}_common"] = shared[column].sum(min_count=1)
        rows.append(row)
    return pd.DataFrame(rows)


def _memory(tasks: pd.DataFrame) -> dict[str, float]:
    """Largest peak entries, worker peak RSS (MiB) and RSS added by one solve (MiB) over `tasks`."""
    added = pd.to_numeric(tasks["rss_peak"]) - pd.to_numeric(tasks["rss_start"])
    return {"peak_entries": pd.to_numeric(tasks["peak_entries"]).max(), "peak_rss_mib": peak_mib(tasks),
            "rss_added_mib": added.max() / MIB}


def disagreements(solves: pd.DataFrame) -> pd.DataFrame:
    """Positions that two solvers proved to have different values: each is a failure of one of them."""
    proven = solves[solves["value"].isin(PROVEN)]
    values = proven.groupby("position_index")["value"].nunique()
    bad = proven[proven["position_index"].isin(values[values > 1].index)]
    return bad[["position_index", "position", "solver", "value"]].sort_values(["position_index", "solver"]) \
        .reset_index(drop=True)
