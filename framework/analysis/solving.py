"""Tables over a solve run: positions solved per solver, work on shared positions, and disagreements.

The comparison follows the thesis' Table 4.2 (Winands, Uiterwijk & van den Herik 2002): per
solver, positions solved and total nodes and time over the positions it solved; and, so the
comparison is on equal work, the same totals over the positions every solver solved. Numeric
figures a solver reports in `extra` (e.g. alpha-beta's nodes counted only in the first
iteration reaching each depth) are totalled the same way, as `extra_<name>` columns.
"""

from __future__ import annotations

import pandas as pd

PROVEN = ("win", "loss", "draw")


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
               "timeouts": int(((solves["solver"] == sid) & (solves["status"] == "time")).sum())}
        for column in extras:
            row[column] = mine[column].sum(min_count=1)  # NaN, not 0, for a solver that does not report it
            row[f"{column}_common"] = shared[column].sum(min_count=1)
        rows.append(row)
    return pd.DataFrame(rows)


def disagreements(solves: pd.DataFrame) -> pd.DataFrame:
    """Positions that two solvers proved to have different values: each is a failure of one of them."""
    proven = solves[solves["value"].isin(PROVEN)]
    values = proven.groupby("position_index")["value"].nunique()
    bad = proven[proven["position_index"].isin(values[values > 1].index)]
    return bad[["position_index", "position", "solver", "value"]].sort_values(["position_index", "solver"]) \
        .reset_index(drop=True)
