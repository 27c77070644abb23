"""The results store: an SQLite database in the results folder, one transaction per finished task.

Games go to `games` and `moves` (and each player's seat, result and rank to `seats`), solves (a `mode:
solve` run) to `solves`. A game of more than two players keeps its first two seats in `games` (`first`,
`second`, `result_first`, `result_second`; `pairing_a` the group's first id, `pairing_b` the others
joined by " vs "), every seat in `seats`.

SQLite commits are atomic, so killing the runner at any moment loses nothing committed and never
leaves half a game. The database runs in WAL mode with `synchronous=NORMAL`: a commit appends to the
write-ahead log without an fsync (the log is synced at checkpoints), which costs a fast game a few
tens of microseconds instead of milliseconds. A committed game survives the runner's process being
killed or crashing; a power loss or OS crash may lose the last games committed before it, never
corrupt the file, and a resumed run plays exactly the games missing (SQLite, "Write-Ahead Logging"
and "PRAGMA synchronous").

Columns added since a folder was made (`ADDED`) are added to its tables when it is opened, empty
(NULL) in the rows stored before, so older results folders still load, report and resume. The
`meta` table holds the resolved config, its fingerprint and the plugin versions that produced the
games; opening a folder with a different config is refused, so one folder never mixes two tournaments.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from framework.errors import ConfigError, cap_text
from framework.protocols import CHANCE
from framework.tournament.memory import TaskMemory
from framework.tournament.tasks import GameResult, SolveOutcome

DATABASE = "results.sqlite"
#: What a tournament may change and keep its stored games (the refusal's hint).
KEEPS = "only raising games_per_pairing, adding participants or changing sprt keeps the stored games"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY, pairing_a TEXT NOT NULL, pairing_b TEXT NOT NULL, game_index INTEGER NOT NULL,
    game TEXT NOT NULL, first TEXT NOT NULL, second TEXT NOT NULL, seed INTEGER NOT NULL,
    start TEXT NOT NULL, final TEXT NOT NULL, result_first REAL NOT NULL, result_second REAL NOT NULL,
    winner TEXT, termination TEXT NOT NULL, reason TEXT NOT NULL, plies INTEGER NOT NULL,
    wall_time REAL NOT NULL, finished_at REAL NOT NULL, rss_start INTEGER, rss_peak INTEGER, rss_scope TEXT,
    traceback TEXT, retries INTEGER);
CREATE TABLE IF NOT EXISTS moves (
    key TEXT NOT NULL REFERENCES games(key), ply INTEGER NOT NULL, mover INTEGER NOT NULL,
    participant TEXT NOT NULL, move TEXT NOT NULL, nodes INTEGER NOT NULL, depth INTEGER NOT NULL,
    score REAL, wall_time REAL NOT NULL, cpu_time REAL NOT NULL, pv TEXT NOT NULL, binding TEXT,
    binding_reason TEXT, clock REAL, PRIMARY KEY (key, ply));
CREATE TABLE IF NOT EXISTS seats (
    key TEXT NOT NULL REFERENCES games(key), seat INTEGER NOT NULL, participant TEXT NOT NULL,
    result REAL NOT NULL, rank INTEGER NOT NULL, engine TEXT, engine_version TEXT, PRIMARY KEY (key, seat));
CREATE TABLE IF NOT EXISTS solves (
    key TEXT PRIMARY KEY, solver TEXT NOT NULL, position_index INTEGER NOT NULL, position TEXT NOT NULL,
    note TEXT NOT NULL, value TEXT NOT NULL, move TEXT, nodes INTEGER NOT NULL, depth INTEGER NOT NULL,
    wall_time REAL NOT NULL, cpu_time REAL NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL,
    extra TEXT NOT NULL, finished_at REAL NOT NULL, peak_entries INTEGER, rss_start INTEGER, rss_peak INTEGER,
    rss_scope TEXT, retries INTEGER, engine TEXT, engine_version TEXT);
"""

#: Columns added after the first release of the schema, per table: (name, type), in SCHEMA's order.
#: rss_*: the worker's resident bytes at the task's start and peak, and whether that peak is the task's
#: own or the worker process's so far (`memory.TaskMemory`); peak_entries: the solver's `SearchStats`;
#: traceback: of the exception that cost a crashed agent the game; retries: times the task was replayed
#: because its worker was killed from outside (guard.RETRIES); binding: how the move's search ran
#: (`SearchStats.extra["binding"]`, framework.kernel.binding), and binding_reason why it was not compiled;
#: clock: seconds left on the mover's clock after the move (a time control's, framework/timecontrol.py).
#: engine, engine_version: the name and version the seat's (or solver's) engine gave in its handshake.
MEMORY_COLUMNS = (("rss_start", "INTEGER"), ("rss_peak", "INTEGER"), ("rss_scope", "TEXT"))
ENGINE_COLUMNS = (("engine", "TEXT"), ("engine_version", "TEXT"))
ADDED = {"games": (*MEMORY_COLUMNS, ("traceback", "TEXT"), ("retries", "INTEGER")),
         "solves": (("peak_entries", "INTEGER"), *MEMORY_COLUMNS, ("retries", "INTEGER"), *ENGINE_COLUMNS),
         "moves": (("binding", "TEXT"), ("binding_reason", "TEXT"), ("clock", "REAL")),
         "seats": ENGINE_COLUMNS}
GAME_COLUMNS = ("key", "pairing_a", "pairing_b", "game_index", "game", "first", "second", "seed", "start", "final",
                "result_first", "result_second", "winner", "termination", "reason", "plies", "wall_time",
                "finished_at", "rss_start", "rss_peak", "rss_scope", "traceback", "retries")
SOLVE_COLUMNS = ("key", "solver", "position_index", "position", "note", "value", "move", "nodes", "depth",
                 "wall_time", "cpu_time", "status", "reason", "extra", "finished_at", "peak_entries", "rss_start",
                 "rss_peak", "rss_scope", "retries", "engine", "engine_version")
SEAT_COLUMNS = ("key", "seat", "participant", "result", "rank", "engine", "engine_version")


def shown(folder: Path) -> str:
    """A folder's path for a message: a very long one cut in the middle, with its length."""
    text = str(folder)
    return text if len(text) <= 160 else f"{text[:60]}...{text[-60:]} ({len(text):,} characters)"


def fault(exc: Exception, folder: Path, doing: str) -> ConfigError:
    """One line for a store that cannot be used: what could not be done (`doing`, naming the folder), what happened,
    that nothing stored was lost, what to do."""
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc)
    doing = doing.replace(str(folder), shown(folder))
    if getattr(exc, "errno", None) == errno.ENAMETOOLONG:
        what, fix = (f"the path is too long for the file system ({len(str(folder)):,} characters)",
                     "name a shorter folder (--results DIR or the 'results' key)")
    elif name == "SQLITE_FULL" or "disk is full" in text or getattr(exc, "errno", None) == errno.ENOSPC:
        what, fix = "the disk is full", "free some space and run the same command again"
    elif name.startswith("SQLITE_READONLY") or "readonly" in text or isinstance(exc, PermissionError) or (
            name.startswith("SQLITE_CANTOPEN") and not os.access(folder, os.W_OK)):
        what, fix = "the folder is read-only", "make it writable, or name another folder (--results DIR)"
    elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text:
        what, fix = (f"{DATABASE} is damaged ({text})", "restore it from a copy, or run into a new folder "
                     "(--results DIR); `sqlite3 results.sqlite .recover` may save its games")
    else:
        what, fix = text, "fix what it says and run the same command again"
    return ConfigError(f"cannot {doing}: {what}; nothing stored before was lost; {fix}")


class Store:
    """Open (creating if needed) the store of one results folder; `create=False` only reads (a read-only
    folder too)."""

    def __init__(self, folder: str | Path, *, create: bool = True) -> None:
        self.folder = Path(folder)
        path = self.folder / DATABASE
        try:
            exists = path.exists()
        except OSError as exc:   # a name too long for the file system, ...
            raise fault(exc, self.folder, f"use '{self.folder}' as a results folder") from None
        if not exists and not create:
            raise ConfigError(f"'{shown(self.folder)}' holds no results (no {DATABASE}); run a tournament into it "
                              "first")
        try:
            if not create and not os.access(self.folder, os.W_OK):
                self.conn = _read_only(path)
                return
            self.folder.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(path)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
            self._add_columns()
        except (OSError, sqlite3.Error) as exc:
            raise fault(exc, self.folder, f"use '{self.folder}' as a results folder") from None

    def _add_columns(self) -> None:
        """Bring a folder made by an older version up to SCHEMA (ALTER TABLE only appends nullable columns)."""
        for table, columns in ADDED.items():
            present = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
            with self.conn:
                for name, kind in columns:
                    if name not in present:
                        self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")

    def meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM meta")}

    def bind(self, config: dict[str, Any], fingerprint: str, versions: dict[str, str], *,
             keeps: str = KEEPS) -> None:
        """Record the config for a new folder, or refuse one that holds results of another config; `keeps` says
        in the refusal which changes would have kept the stored games (a tuning run's differ from a tournament's)."""
        config = json.loads(json.dumps(config))   # as stored: a tuple option reads back as a list
        meta = self.meta()
        if "fingerprint" not in meta:
            with self.conn:
                self.conn.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("config", json.dumps(config)), ("fingerprint", json.dumps(fingerprint)),
                    ("plugin_versions", json.dumps(versions)), ("created_at", json.dumps(time.time()))])
            return
        altering = _altering(config, meta["config"]) if meta["fingerprint"] != fingerprint else []
        if altering:
            raise ConfigError(f"'{self.folder}' holds results of a different configuration ({'; '.join(altering)}); "
                              f"{keeps}: run into a new folder (--results DIR or the 'results' key) or delete "
                              "this one to start over")
        then = meta["plugin_versions"]
        if any(key in then and then[key] != value for key, value in versions.items()):
            changed = [key for key in _changed(versions, then) if key in then and key in versions]
            raise ConfigError(f"'{self.folder}' holds results made by other plugin versions ({', '.join(changed)}: "
                              f"{then.get(changed[0])} then, {versions.get(changed[0])} now); run into a new folder")
        if meta["fingerprint"] != fingerprint:  # the change only adds games: keep the stored ones, play the rest
            with self.conn:  # (a new agent, game or heuristic: record who provided it too)
                self.conn.executemany("UPDATE meta SET value = ? WHERE key = ?", [
                    (json.dumps(config), "config"), (json.dumps(fingerprint), "fingerprint"),
                    (json.dumps({**then, **versions}), "plugin_versions")])

    def done(self) -> set[str]:
        """Keys of the tasks whose results are stored; a void one (no result) is not done: a resumed run replays it."""
        return {key for (key,) in self.conn.execute(
            "SELECT key FROM games WHERE termination != 'void' UNION SELECT key FROM solves WHERE status != 'void'")}

    def save(self, result: GameResult | SolveOutcome) -> None:
        """Store one finished task (a game and its moves, or a solve) in a single transaction; ConfigError in one
        line when the store cannot take it (the transaction is rolled back: nothing stored before is lost)."""
        try:
            self._save(result)
        except (OSError, sqlite3.Error) as exc:
            raise fault(exc, self.folder, f"store '{result.task.key}' in '{self.folder}'") from None

    def _save(self, result: GameResult | SolveOutcome) -> None:
        if isinstance(result, SolveOutcome):
            task = result.task
            with self.conn:
                self.conn.execute("DELETE FROM solves WHERE key = ? AND status = 'void'", (task.key,))
                self.conn.execute(_insert("solves", SOLVE_COLUMNS), (
                    task.key, task.solver.id, task.index, task.position, task.note, result.value, result.move,
                    result.nodes, result.depth, result.wall_time, result.cpu_time, result.status, result.reason,
                    json.dumps(dict(result.extra)), time.time(), result.peak_entries, *_memory(result.memory),
                    result.retries, *(result.engine or (None, None))))
            return
        played, record = result.task, result.record
        winner = None if record.winner is None else record.players[record.winner]
        with self.conn:
            replayed = (played.key,)
            if self.conn.execute("SELECT 1 FROM games WHERE key = ? AND termination = 'void'", replayed).fetchone():
                for table in ("moves", "seats", "games"):   # the void game replayed: its result replaces it
                    self.conn.execute(f"DELETE FROM {table} WHERE key = ?", (played.key,))
            self.conn.execute(_insert("games", GAME_COLUMNS), (
                played.key, played.pairing[0], " vs ".join(played.pairing[1:]), played.index, record.game,
                record.players[0], record.players[1], played.seed, record.start, record.final, record.result[0],
                record.result[1], winner, record.termination.value, record.reason, record.plies,
                sum(m.wall_time for m in record.moves), time.time(), *_memory(result.memory),
                cap_text(record.traceback) or None,
                result.retries))
            self.conn.executemany("INSERT INTO moves VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                  _move_rows(played.key, record))
            ranks = rank_of(record.result)
            engines = result.engines
            self.conn.executemany(_insert("seats", SEAT_COLUMNS), [
                (played.key, seat, pid, points, ranks[seat], *(engines[seat] if seat < len(engines) else (None, None)))
                for seat, (pid, points) in enumerate(zip(record.players, record.result))])

    def close(self) -> None:
        self.conn.close()


def _read_only(path: Path) -> sqlite3.Connection:
    """The store of a folder this process cannot write, read as it is (`immutable` when SQLite cannot even make the
    write-ahead log's index beside it: no run can be writing there then)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn


def rank_of(result: tuple[float, ...]) -> tuple[int, ...]:
    """Each seat's place: 1 + the seats with a strictly higher result (ties share a place)."""
    return tuple(1 + sum(other > mine for other in result) for mine in result)


def _insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _memory(memory: TaskMemory | None) -> tuple[int | None, int | None, str | None]:
    return (None, None, None) if memory is None else (memory.start, memory.peak, memory.scope)


#: Config keys whose changes can only add games (or stop a match sooner), never alter a stored one: a
#: game's key and seed depend on its pairing and index, and new participants or more games per pairing
#: only add keys (pairings keep the order of the participants' ids).
GROWING = ("games_per_pairing", "participants", "sprt", "tune")  # tune: framework.tuning.runner checks it


def _altering(now: dict[str, Any], then: dict[str, Any]) -> list[str]:
    """What in `now` would change games stored under `then`, each naming its key (empty: only growth)."""
    out = [f"changed: {key}" for key in _changed(now, then) if key not in GROWING]
    if now.get("games_per_pairing", 0) < then.get("games_per_pairing", 0):
        out.append(f"games_per_pairing: {then['games_per_pairing']} stored, {now['games_per_pairing']} now "
                   "(fewer would drop stored games)")
    new = {p["id"]: p for p in now.get("participants", [])}
    for p in then.get("participants", []):
        if p["id"] not in new:
            out.append(f"participants: '{p['id']}' was removed")
        elif new[p["id"]] != p:
            keys = [k for k in p if new[p["id"]].get(k) != p[k]] or ["its settings"]
            out.append(f"participants: '{p['id']}' changed ({', '.join(keys)})")
    order = [pid for pid in new if pid in {p["id"] for p in then.get("participants", [])}]
    if not out and order != [p["id"] for p in then.get("participants", [])]:
        out.append("participants: the stored participants are in another order (it decides who is named first)")
    return out


def _changed(now: dict[str, Any], then: dict[str, Any]) -> list[str]:
    return sorted(k for k in set(now) | set(then) if now.get(k) != then.get(k))


def _move_rows(key: str, record: Any) -> Iterable[tuple]:
    for m in record.moves:
        yield (key, m.ply, m.mover, "" if m.mover == CHANCE else record.players[m.mover], m.move, m.nodes, m.depth,
               None if m.score is None else float(m.score), m.wall_time, m.cpu_time, " ".join(m.pv),
               m.binding or None, m.binding_reason or None, m.clock)
