"""A results folder as pandas DataFrames: games and moves (or solves) from the store, and the tables over them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pandas as pd

from framework.analysis import multiplayer, solving
from framework.analysis import standings as analysis
from framework.errors import ConfigError
from framework.match import Termination
from framework.protocols import CHANCE
from framework.sprt import Sprt
from framework.tournament.sequential import SprtWatch
from framework.tournament.store import ADDED, DATABASE, SCHEMA, Store, fault, shown

#: How a game may end, as stored.
TERMINATIONS = {t.value for t in Termination}


def _schema() -> dict[str, dict[str, str]]:
    """The store's tables: each column a folder must have (SCHEMA's, but those added since, `ADDED`) and its type."""
    conn = sqlite3.connect(":memory:")
    conn.executescript(SCHEMA)
    added = {table: {name for name, _ in columns} for table, columns in ADDED.items()}
    out = {table: {row[1]: row[2] for row in conn.execute(f"PRAGMA table_info({table})")
                   if row[1] not in added.get(table, ())}
           for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.close()
    return out


def check_frames(folder: Path, frames: dict[str, pd.DataFrame]) -> None:
    """Refuse, in one line naming the table, column, row and value, a store whose tables are not what Plyground
    writes: a column missing (its schema changed outside Plyground), text in a number column, a termination no
    game can have. Every table is read whole, so this is where damage shows (`PRAGMA quick_check` finds what
    breaks SQLite's own pages)."""
    where = f"'{shown(folder / DATABASE)}'"
    fix = "it was changed outside Plyground or is damaged: restore it from a copy, or run the tournament again " \
          "into a new folder (--results DIR)"
    for table, columns in _schema().items():
        frame = frames.get(table)
        if frame is None:
            continue
        missing = [c for c in columns if c not in frame.columns]
        if missing:
            raise ConfigError(f"{where}: table '{table}' has no column {', '.join(map(repr, missing))}; {fix}")
        for column, kind in columns.items():
            if kind not in ("INTEGER", "REAL") or not len(frame):
                continue
            values = frame[column]
            numbers = pd.to_numeric(values, errors="coerce")
            bad = numbers.isna() & values.notna()
            if bad.any():
                row = frame[bad].iloc[0]
                name = f" (row '{row['key']}')" if "key" in frame.columns else ""
                raise ConfigError(f"{where}: table '{table}', column '{column}'{name} holds {values[bad].iloc[0]!r}, "
                                  f"not a number; {fix}")
    games = frames.get("games")
    if games is not None and len(games):
        unknown = games[~games["termination"].isin(TERMINATIONS)]
        if len(unknown):
            raise ConfigError(f"{where}: game '{unknown['key'].iloc[0]}' ended by {unknown['termination'].iloc[0]!r}, "
                              f"which no game can (known: {', '.join(sorted(TERMINATIONS))}); {fix}")


def match_lines(folder: str | Path) -> list[str]:
    """Each pairing's match statistics in one line (analysis.standings.match_line), from the store as it is
    (a run may be writing it: SQLite's WAL lets this read what is committed); games of more players: each
    group's games and points per participant. Two-player lines end with the legend of their figures."""
    store = Store(folder, create=False)
    try:
        games = analysis.with_scores(pd.read_sql_query("SELECT * FROM games ORDER BY game_index", store.conn))
        seats = pd.read_sql_query("SELECT s.*, g.pairing_a, g.pairing_b FROM seats s JOIN games g ON g.key = s.key "
                                  "WHERE g.termination != ? AND s.key IN (SELECT key FROM seats WHERE seat = 2)",
                                  store.conn, params=(Termination.VOID.value,))
    finally:
        store.close()
    if len(seats):
        return [group_line(group) for _, group in seats.groupby(["pairing_a", "pairing_b"], sort=False)]
    lines = [analysis.match_line(row) for _, row in analysis.match_table(games).iterrows()]
    return [*lines, analysis.MATCH_LEGEND] if lines else []


def group_line(seats: pd.DataFrame) -> str:
    """One group of an n-player run in one line: games and each participant's points (first places shared)."""
    scored = multiplayer.with_points(seats)
    points = scored.groupby("participant", sort=False)["points"].sum()
    name = f"{seats['pairing_a'].iloc[0]} vs {seats['pairing_b'].iloc[0]}"
    return f"{name}: {seats['key'].nunique()} games, points " + ", ".join(f"{p} {v:g}" for p, v in points.items())


class Results:
    """The stored results of one tournament: `games`, `moves`, `meta`, and tables computed from them.

    Void tasks (no result: their worker was killed from outside on every try) are left out of `games`
    and `solves`, so no table counts them; `void` lists them (key and reason).
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        store = Store(self.folder, create=False)
        try:
            damage = store.conn.execute("PRAGMA quick_check").fetchone()[0]
            if damage != "ok":
                first = " ".join(str(damage).split())
                raise sqlite3.DatabaseError(f"database disk image is malformed: {first[:160]}")
            self.meta = store.meta()
            self.games = pd.read_sql_query("SELECT * FROM games ORDER BY game_index, pairing_a, pairing_b",
                                           store.conn)
            self.moves = pd.read_sql_query("SELECT * FROM moves ORDER BY key, ply", store.conn)
            self.solves = pd.read_sql_query("SELECT * FROM solves ORDER BY position_index, solver", store.conn)
            self.seats = pd.read_sql_query("SELECT * FROM seats ORDER BY key, seat", store.conn)
        except (sqlite3.Error, pd.errors.DatabaseError, ValueError) as exc:   # a table gone, pages damaged, ...
            cause = exc.__cause__ if isinstance(exc.__cause__, sqlite3.Error) else exc
            raise fault(cause, self.folder, f"read the results in '{self.folder}'") from None
        finally:
            store.close()
        check_frames(self.folder, {"games": self.games, "moves": self.moves, "solves": self.solves,
                                   "seats": self.seats})
        void_games = self.games["termination"].isin([Termination.VOID.value])
        void_solves = self.solves["status"].isin(["void"])
        self.void = pd.concat([self.games[void_games][["key", "reason"]], self.solves[void_solves][["key", "reason"]]],
                              ignore_index=True)
        self.seats = self.seats[~self.seats["key"].isin(self.games[void_games]["key"])].reset_index(drop=True)
        self.games = self.games[~void_games].reset_index(drop=True)
        self.solves = self.solves[~void_solves].reset_index(drop=True)
        if "config" not in self.meta:
            raise ConfigError(f"'{self.folder}' holds no tournament results")
        self.config = self.meta["config"]
        self.mode = self.config.get("mode", "games")
        self.ids = [p["id"] for p in self.config["participants"]]
        extras = pd.json_normalize([json.loads(e) for e in self.solves["extra"]]) if len(self.solves) else None
        if extras is not None:
            extras.columns = [f"extra_{c}" for c in extras.columns]
            self.solves = pd.concat([self.solves.drop(columns="extra"), extras], axis=1)
        self.games = analysis.with_scores(self.games)
        # `first` names seat 0; a start position may give seat 1 the first move: say who actually moved first
        # (the first ply that was a decision: a roll of the dice is nobody's)
        opener = self.decisions().sort_values("ply").groupby("key")["participant"].first()
        self.games["moved_first"] = self.games["key"].map(opener)

    @property
    def multiplayer(self) -> bool:
        """Whether the games seat more than two players (their tables are `seat_*` and `ahead`)."""
        return bool((self.seats["seat"] >= 2).any())

    def seat_standings(self) -> pd.DataFrame:
        return multiplayer.seat_standings(self.seats, self.ids)

    def seat_ratings(self) -> pd.DataFrame:
        return multiplayer.seat_ratings(self.seats, list(self.games["key"]), self.ids)

    def ahead(self) -> pd.DataFrame:
        return multiplayer.ahead_table(self.seats, self.ids)

    def seat_wins(self) -> pd.DataFrame:
        return multiplayer.seat_wins(self.seats)

    @property
    def game_names(self) -> list[str]:
        """The games played, in config order (a tournament may play several)."""
        return [name for name, _ in self.config.get("games") or [[self.config["game"], {}]]]

    def _of(self, game: str | None) -> pd.DataFrame:
        return self.games if game is None else self.games[self.games["game"] == game]

    def engines(self) -> dict[str, str]:
        """Each participant's engine as its handshake named it ("name version"; several, joined by ", ", when it
        changed between games), from the seats of games and the solves (folders made before engines were stored
        name none)."""
        out: dict[str, list[str]] = {}
        for frame, who in ((self.seats, "participant"), (self.solves, "solver")):
            if "engine" not in frame.columns:
                continue
            for pid, name, version in frame[[who, "engine", "engine_version"]].drop_duplicates().itertuples(
                    index=False):
                if isinstance(name, str) and name:
                    text = f"{name} {version}" if isinstance(version, str) and version else name
                    if text not in out.setdefault(str(pid), []):
                        out[str(pid)].append(text)
        return {pid: ", ".join(texts) for pid, texts in out.items()}

    def standings(self, game: str | None = None) -> pd.DataFrame:
        """Standings over every game played, or over the games of one game (by name)."""
        return analysis.standings(self._of(game), self.ids)

    def crosstable(self, game: str | None = None) -> pd.DataFrame:
        return analysis.crosstable(self._of(game), self.ids)[0]

    def crosstable_scores(self, game: str | None = None) -> pd.DataFrame:
        return analysis.crosstable(self._of(game), self.ids)[1]

    def pairs(self) -> pd.DataFrame:
        return analysis.pair_table(self.games)

    def match(self) -> pd.DataFrame:
        """Per pairing: W/D/L, score, draw ratio, Elo +- error, LOS and pentanomial counts."""
        return analysis.match_table(self.games)

    def sprt(self) -> list[str]:
        """Each pairing's SPRT line (LLR against its bounds, decision), for a match that ran one."""
        settings = self.config.get("sprt")
        if not settings:
            return []
        watch = SprtWatch(Sprt(**settings), dict.fromkeys(zip(self.games["pairing_a"], self.games["pairing_b"])))
        for row in self.games.itertuples():
            watch.add((row.pairing_a, row.pairing_b), row.game_index, None if pd.isna(row.winner) else row.winner)
        return watch.lines()

    def terminations(self) -> pd.DataFrame:
        return analysis.terminations(self.games)

    def forfeits(self) -> pd.DataFrame:
        return analysis.forfeits(self.games)

    def crashes(self) -> pd.DataFrame:
        """The games lost by a crash: key, participant, reason and the traceback (empty where none was kept:
        a worker that died has none, and results stored before Plyground kept them have none)."""
        lost = self.forfeits()
        lost = lost[lost["termination"] == Termination.CRASH.value]
        tracebacks = self.games.set_index("key")["traceback"].fillna("")
        return lost.assign(traceback=lost["key"].map(tracebacks)).drop(columns="termination").reset_index(drop=True)

    def decisions(self) -> pd.DataFrame:
        """The moves agents chose: every stored ply but the rolls of the dice (mover CHANCE: nobody's)."""
        return self.moves[self.moves["mover"] != CHANCE]

    def search_stats(self) -> pd.DataFrame:
        return analysis.search_stats(self.decisions())

    def solve_summary(self) -> pd.DataFrame:
        return solving.solve_summary(self.solves, self.ids)

    def disagreements(self) -> pd.DataFrame:
        return solving.disagreements(self.solves)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name, as exported."""
        if self.mode == "tune":   # its own tables: framework.tuning.report
            return {"games": self.games, "moves": self.moves}
        if self.mode == "solve":
            return {"solves": self.solves, "solve_summary": self.solve_summary(),
                    "disagreements": self.disagreements()}
        if self.multiplayer:
            return {"games": self.games, "moves": self.moves, "seats": self.seats, "standings": self.seat_standings(),
                    "ratings": self.seat_ratings(), "ahead": self.ahead(), "seat_wins": self.seat_wins(),
                    "terminations": self.terminations(), "search_stats": self.search_stats()}
        return {"games": self.games, "moves": self.moves, "standings": self.standings(),
                "crosstable": self.crosstable(), "pairs": self.pairs(), "match": self.match(),
                "terminations": self.terminations(), "forfeits": self.forfeits(), "search_stats": self.search_stats()}

    def export(self, folder: str | Path, formats: tuple[str, ...] = ("csv",),
               tables: dict[str, pd.DataFrame] | None = None) -> list[Path]:
        """Write every table (or `tables`) as CSV, Parquet (needs the `parquet` extra, pyarrow) and/or JSON Lines
        (one object per row, for scripts)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        if "parquet" in formats:
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise ConfigError("Parquet export needs pyarrow: pip install 'plyground[parquet]'") from None
        written = []
        for name, table in (self.tables() if tables is None else tables).items():
            for fmt in formats:
                path = folder / f"{name}.{fmt}"
                if fmt == "csv":
                    table.to_csv(path, index=name in ("crosstable", "ahead"))
                elif fmt == "jsonl":
                    (table.reset_index() if name in ("crosstable", "ahead") else table).to_json(path, orient="records",
                                                                                       lines=True)
                else:
                    table.to_parquet(path, index=name in ("crosstable", "ahead"))
                written.append(path)
        return written
