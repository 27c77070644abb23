"""The `tuning` table of a results store: θ after every iteration, with the perturbation and the pair's score.

One row per (iteration, parameter): `value` is θ after the iteration's update, `perturbation` the
c_kΔ_k it played with, `plus` and `minus` the values its two sides played (clamped, integers rounded),
`score` the pair's wins minus losses of the `plus` side. An iteration's rows are written in one
transaction after both its games are stored, so a run killed at any moment leaves whole iterations;
the games of an iteration without rows are replayed or, when stored, scored again on resume.
The gain schedule (the `iterations` of the run's first start, as fishtest keeps it when a run is
extended) is kept in the store's `meta` table under `tune_schedule`.
"""

from __future__ import annotations

import json

from framework.tournament.store import Store
from framework.tuning.spsa import Probe, Theta

SCHEMA = """
CREATE TABLE IF NOT EXISTS tuning (
    iteration INTEGER NOT NULL, parameter TEXT NOT NULL, value REAL NOT NULL, perturbation REAL NOT NULL,
    plus REAL NOT NULL, minus REAL NOT NULL, score REAL NOT NULL, PRIMARY KEY (iteration, parameter));
"""
SCHEDULE = "tune_schedule"


class Journal:
    """The tuning table of `store` (created when missing)."""

    def __init__(self, store: Store) -> None:
        self.conn = store.conn
        with self.conn:
            self.conn.executescript(SCHEMA)

    def schedule(self, iterations: int) -> int:
        """The iterations the gains were set for: those of the first run into this store."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (SCHEDULE,)).fetchone()
        if row is not None:
            return int(json.loads(row[0]))
        with self.conn:
            self.conn.execute("INSERT INTO meta VALUES (?, ?)", (SCHEDULE, json.dumps(iterations)))
        return iterations

    def thetas(self) -> dict[int, Theta]:
        """θ after each stored iteration."""
        out: dict[int, Theta] = {}
        for iteration, parameter, value in self.conn.execute(
                "SELECT iteration, parameter, value FROM tuning ORDER BY iteration"):
            out.setdefault(iteration, {})[parameter] = value
        return out

    def record(self, iteration: int, theta: Theta, probe: Probe, score: float) -> None:
        """Store iteration `iteration`: θ after it, the points it played and its pair's score."""
        with self.conn:
            self.conn.executemany("INSERT INTO tuning VALUES (?, ?, ?, ?, ?, ?, ?)", [
                (iteration, name, value, probe.perturbation[name], probe.plus[name], probe.minus[name], score)
                for name, value in theta.items()])
