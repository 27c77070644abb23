"""Run a tournament: schedule its games, skip the stored ones, execute the rest, store each as it ends.

Only this (main) thread writes to the store, one transaction per game, so an interruption
at any moment leaves every finished game stored exactly once; running again plays only
the missing games. A run holds an exclusive lock on its results folder (`folder_lock`), so a
second run into the same folder is refused instead of colliding on the store. The games in flight
are published beside the store for the live page (live.py).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from tqdm import tqdm

from framework.capabilities import capabilities
from framework.engine import sandbox
from framework.errors import ConfigError
from framework.match import Termination
from framework.params import HeuristicRef, heuristic_choice
from framework.registry import Provenance, Registry, load_plugin_file
from framework.tournament.config import TournamentConfig
from framework.tournament.executors import Executor, make_executor
from framework.tournament.live import LiveFile
from framework.tournament.scheduler import pairings, schedule
from framework.tournament.sequential import SprtWatch, Undecided
from framework.tournament.store import Store, fault
from framework.tournament.tasks import GameResult, GameTask, SolveOutcome

#: The file a run locks in its results folder (flock(2): released when the process ends, however it ends).
LOCK = "run.lock"


@dataclass(frozen=True)
class RunSummary:
    """What a run did: games in the tournament, already stored before, and played now; of those played,
    `retried` replays of tasks whose worker was killed from outside and `void` tasks stored without a result."""

    total: int
    resumed: int
    played: int
    retried: int = 0
    void: int = 0
    sprt: tuple[str, ...] = ()  # each pairing's SPRT line, when the match runs one


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold the results folder's lock for the block; ConfigError if another run holds it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise fault(exc, folder, f"run in '{folder}'") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConfigError(f"'{folder}' is in use by another 'plyground run' (it holds {folder / LOCK}); wait "
                              "for that run to finish or stop it, or run into another folder (--results DIR)") from None
        yield
    finally:
        os.close(fd)


def providers(config: TournamentConfig, registry: Registry) -> dict[str, Provenance]:
    """Which plugin (and distribution version) provided each game, agent and heuristic the config uses."""
    for file in config.plugins:
        load_plugin_file(registry, file)
    out = {}
    for game_name, options in config.all_games():
        game = registry.create_game(game_name, options)
        out[f"game {game_name}"] = registry.games[game_name].provenance
        for p in config.participants:
            if p.program:   # a program is no plugin: its handshake's name and version are stored with its games
                continue
            out[f"agent {p.agent}"] = registry.agents[p.agent].provenance
            for param in registry.agent_spec(p.agent).params:
                if param.type is HeuristicRef:
                    name = heuristic_choice(p.params.get(param.name))[0] or capabilities(game).default_heuristic
                    if name is not None:
                        out[f"heuristic {game_name}/{name}"] = registry.heuristics[(game_name, name)].provenance
    return out


class Standings:
    """Running points per participant (solve mode: positions solved per solver), for the progress bar."""

    def __init__(self, ids: list[str]) -> None:
        self.points = dict.fromkeys(ids, 0.0)
        self.games = dict.fromkeys(ids, 0)

    def add(self, players: tuple[str, ...], points: tuple[float, ...]) -> None:
        for pid, score in zip(players, points):
            self.games[pid] += 1
            self.points[pid] += score

    def add_result(self, result: GameResult | SolveOutcome) -> None:
        if isinstance(result, SolveOutcome):
            if result.status != "void":
                self.add((result.task.solver.id,), (float(result.status == "solved"),))
        elif result.record.termination is not Termination.VOID:
            self.add(result.record.players, points(result.record.result))

    def line(self, limit: int = 6) -> str:
        ranked = sorted(self.points, key=lambda pid: -self.points[pid])[:limit]
        return " ".join(f"{pid} {self.points[pid]:g}/{self.games[pid]}" for pid in ranked)


def run_tournament(config: TournamentConfig, *, quiet: bool = False, registry: Registry | None = None,
                   executor_factory: Callable[[TournamentConfig], Executor] | None = None,
                   report_every: int | None = None,
                   report: Callable[[], list[str]] | None = None) -> RunSummary:
    """Play every game (or solve) of `config` not yet stored in its results folder.

    `executor_factory` replaces the configured executor (e.g. an in-process one for tests). Every
    `report_every` games played, the lines `report()` returns (the caller's statistics of the stored
    games) are printed, with each pairing's SPRT.
    """
    with folder_lock(Path(config.results)):
        return _run(config, quiet, registry, executor_factory, report_every, report)


def _run(config: TournamentConfig, quiet: bool, registry: Registry | None,
         executor_factory: Callable[[TournamentConfig], Executor] | None, report_every: int | None,
         report: Callable[[], list[str]] | None) -> RunSummary:
    store = Store(config.results)
    try:
        used = providers(config, registry or Registry())
        store.bind(config.resolved(), config.fingerprint(), {what: str(p) for what, p in used.items()})
        # Workers load these plugins first and the others only if a task names something else.
        entry_points = tuple(sorted({p.plugin for p in used.values()}))
        tasks = [replace(task, entry_points=entry_points) for task in schedule(config)]
        done = store.done()
        standings = Standings([p.id for p in config.participants])
        for players, points in _stored_outcomes(store):
            standings.add(players, points)
        # an SPRT compares two players: config refuses it for games of more
        watch = SprtWatch(config.sprt, [(p[0], p[1]) for p in pairings(config)]) if config.sprt else None
        if watch is not None:
            for a, b, index, winner in store.conn.execute(
                    "SELECT pairing_a, pairing_b, game_index, winner FROM games WHERE termination != ?",
                    (Termination.VOID.value,)):
                watch.add((a, b), index, winner)
        pending: list = [t for t in tasks if t.key not in done
                         and not (watch and isinstance(t, GameTask) and watch.decided((t.pairing[0], t.pairing[1])))]
        stored = sum(t.key in done for t in tasks)
        if not pending:
            return RunSummary(len(tasks), stored, 0, sprt=tuple(watch.lines()) if watch else ())
        sandbox.sweep_orphans()   # engines a killed runner left (their groups name the runner's process)
        confinement = sandbox.mechanisms()
        if confinement.weaker and not quiet:
            tqdm.write("engines are confined more weakly on this machine:\n  " + "\n  ".join(confinement.lines()))
        live = LiveFile(config.results)
        executor = (executor_factory or (lambda c: make_executor(c.executor, c.workers, live)))(config)
        bar = tqdm(total=len(tasks), initial=stored, desc=config.name,
                   unit="solve" if config.mode == "solve" else "game",
                   disable=quiet, dynamic_ncols=True)
        played = retried = void = 0
        try:
            for result in executor.results(Undecided(pending, watch) if watch else pending):
                store.save(result)
                played += 1
                retried += result.retries
                void += _is_void(result)
                standings.add_result(result)
                bar.update(1)
                if report_every and played % report_every == 0:
                    tqdm.write("\n".join([*(report() if report else ()), *(watch.lines() if watch else ())]))
                if watch is not None and not _is_void(result):  # a void game has no result to test
                    record = result.record
                    watch.add(result.task.pairing, result.task.index,
                              None if record.winner is None else record.players[record.winner])
                    bar.set_postfix_str(f"{standings.line()} | {watch.short()}", refresh=False)
                    if watch.all_decided():
                        break  # the games still running are not needed: closing the executor stops them
                else:
                    bar.set_postfix_str(standings.line(), refresh=False)
        finally:
            bar.close()
            executor.close()
            live.close()
        return RunSummary(len(tasks), stored, played, retried, void, tuple(watch.lines()) if watch else ())
    finally:
        store.close()


def _is_void(result: GameResult | SolveOutcome) -> bool:
    if isinstance(result, SolveOutcome):
        return result.status == "void"
    return result.record.termination is Termination.VOID


def points(result: tuple[float, ...]) -> tuple[float, ...]:
    """A game's points per seat: the seats with the highest result share 1 (two players: 1, 1/2 or 0)."""
    best = max(result)
    leaders = sum(r == best for r in result)
    return tuple(1.0 / leaders if r == best else 0.0 for r in result)


def _stored_outcomes(store: Store) -> list[tuple[tuple[str, ...], tuple[float, ...]]]:
    """(players, points) of every stored game and solve, to start the progress bar's standings (games of more
    than two players from `seats`)."""
    seated: dict[str, list[tuple[str, float]]] = {}
    for key, pid, result in store.conn.execute(
            "SELECT s.key, s.participant, s.result FROM seats s JOIN games g ON g.key = s.key "
            "WHERE g.termination != ? AND s.key IN (SELECT key FROM seats WHERE seat = 2) ORDER BY s.key, s.seat",
            (Termination.VOID.value,)):
        seated.setdefault(key, []).append((pid, result))
    many = [(tuple(p for p, _ in rows), points(tuple(r for _, r in rows))) for rows in seated.values()]
    games = store.conn.execute("SELECT first, second, winner FROM games WHERE termination != ? "
                               "AND key NOT IN (SELECT key FROM seats WHERE seat = 2)",
                               (Termination.VOID.value,)).fetchall()
    solves = store.conn.execute("SELECT solver, status FROM solves WHERE status != 'void'").fetchall()
    return ([((a, b), (0.5, 0.5) if w is None else (float(w == a), float(w == b))) for a, b, w in games] + many
            + [((solver,), (float(status == "solved"),)) for solver, status in solves])
