"""A solve run's results as pandas DataFrames: every task, and the thesis' Table 4.2 per solver.

Table 4.2 of the thesis (after Winands, Uiterwijk & van den Herik, CG 2002) gives per algorithm
the positions solved and the total nodes and time over the positions it solved. Those totals
compare unequal work (a solver that solves more hard positions pays more), so the table also
gives the totals over the positions every solver solved. Nodes are given in both conventions:
`nodes` counts every node of every iteration; `nodes_first` counts a node only in the first
iteration reaching its depth (Winands et al.; equal to `nodes` for non-iterative solvers).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from framework.errors import ConfigError
from framework.tournament.solve import PROVEN, check_agreement
from framework.tournament.store import Store


class SolveResults:
    """The stored results of one solve run: `solves` (one row per task), `meta`, and the tables over them.

    Loading checks that solvers agree on every position they both proved (SolveDisagreementError).
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        store = Store(self.folder, create=False)
        try:
            self.meta = store.meta()
            self.solves = pd.read_sql_query("SELECT * FROM solves ORDER BY position_index, solver", store.conn)
        finally:
            store.close()
        self.config = self.meta.get("config", {})
        if self.config.get("mode") != "solve":
            raise ConfigError(f"'{self.folder}' holds no solve-run results")
        self.solver_ids = [s["id"] for s in self.config["solvers"]]
        self.positions = len(self.config["positions"])
        self.solves["solved"] = self.solves["value"].isin(PROVEN)
        check_agreement(self.solves[["position_index", "solver", "value"]].itertuples(index=False, name=None),
                        tuple(self.config["claims"]), str(self.folder))

    def common_positions(self) -> set[int]:
        """Positions solved by every solver."""
        solved = self.solves[self.solves["solved"]].groupby("position_index")["solver"].nunique()
        return set(solved[solved == len(self.solver_ids)].index)

    def table(self) -> pd.DataFrame:
        """Per solver: solved of N, nodes (both conventions) and time over its solved positions and the common ones."""
        common = self.common_positions()
        rows = []
        for sid in self.solver_ids:
            mine = self.solves[self.solves["solver"] == sid]
            solved = mine[mine["solved"]]
            shared = solved[solved["position_index"].isin(common)]
            rows.append({"solver": sid, "agent": mine["agent"].iat[0] if len(mine) else "",
                         "tasks": len(mine), "solved": len(solved), "of": self.positions,
                         "nodes": int(solved["nodes"].sum()), "nodes_first": int(solved["nodes_first"].sum()),
                         "time_ms": round(1000 * solved["wall_time"].sum()),
                         "common": len(shared), "common_nodes": int(shared["nodes"].sum()),
                         "common_nodes_first": int(shared["nodes_first"].sum()),
                         "common_time_ms": round(1000 * shared["wall_time"].sum())})
        return pd.DataFrame(rows)

    def cumulative(self) -> dict[str, list[int]]:
        """Per solver, the sorted node counts of its solved positions (solved within a budget of x nodes: count <= x)."""
        return {sid: sorted(self.solves[(self.solves["solver"] == sid) & self.solves["solved"]]["nodes"].tolist())
                for sid in self.solver_ids}
