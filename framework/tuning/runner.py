"""Run a tuning (`mode: tune`): SPSA iterations of one game pair each, then the validation match.

Iterations are played in batches of `tune.batch` (default 1): every iteration of a batch probes
around θ at the batch's start, the batch's games run at once on the configured executor (guarded
workers or Dask, one executor for the run through `make_executor`), each game is stored as it ends
like any other (games, moves, seats), and then the batch's updates are applied in iteration order and
written to the `tuning` table (journal.py). Both games of a pair share their seed and start (common
random numbers: identical agents play identical games), and the update depends only on stored results
and seeded draws (spsa.py), so an interrupted run resumes on the same θ sequence, and raising
`tune.iterations` continues from the stored θ.

The optional validation match plays the tuned agent (θ rounded, integers to the nearest) against its
start values in colour-swapped pairs, stopped by its SPRT as a `sprt` match is (sequential.py); its
games' keys name the iteration count, so a grown run validates its new θ.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tqdm import tqdm

from framework.errors import ConfigError
from framework.match import Termination
from framework.registry import Registry
from framework.tournament.config import Opening, TournamentConfig
from framework.tournament.entries import Participant
from framework.tournament.executors import Executor, make_executor
from framework.tournament.live import LiveFile
from framework.tournament.runner import folder_lock, providers
from framework.tournament.scheduler import schedule
from framework.tournament.sequential import SprtWatch, Undecided
from framework.tournament.store import Store
from framework.tournament.tasks import GameResult, GameTask, derive_seed
from framework.tournament.tune import TuneSettings
from framework.tuning.journal import Journal
from framework.tuning.spsa import Probe, Spsa, Theta

PLUS, MINUS = "plus", "minus"
TUNED, START = "tuned", "start"
#: The first iterations whose pairs are compared move by move: identical games warn that θ changes no move.
CHECKED = 10


@dataclass(frozen=True)
class TuneSummary:
    """What a tuning run did: iterations in all, stored before and played now, θ at the end, the validation
    match's line (None: no validation) and the warning that the parameters changed no move."""

    iterations: int
    resumed: int
    played: int
    theta: Theta
    validation: str | None = None
    warning: str | None = None


def pair_key(iteration: int, game: int) -> str:
    """The store key of game `game` (0: `plus` moves first, 1: `minus`) of an iteration."""
    return f"{PLUS} vs {MINUS} #{2 * iteration + game}"


def validation_prefix(iterations: int) -> str:
    return f"validation after {iterations}: "


def run_tuning(config: TournamentConfig, *, quiet: bool = False, registry: Registry | None = None,
               executor_factory: Callable[[TournamentConfig], Executor] | None = None) -> TuneSummary:
    """Play the iterations of `config.tune` not yet stored, then its validation match; resumable at any moment.

    `executor_factory` replaces the configured executor (e.g. an in-process one for tests); it is called
    once per batch and once for the validation match.
    """
    with folder_lock(Path(config.results)):
        store = Store(config.results)
        try:
            return _Tuning(config, store, registry or Registry(), executor_factory, quiet).run()
        finally:
            store.close()


class _Tuning:
    def __init__(self, config: TournamentConfig, store: Store, registry: Registry,
                 executor_factory: Callable[[TournamentConfig], Executor] | None, quiet: bool) -> None:
        self.config, self.store, self.quiet = config, store, quiet
        self.tune: TuneSettings = config.tune
        check_continuation(store, config)
        used = providers(config, registry)
        store.bind(config.resolved(), config.fingerprint(), {what: str(p) for what, p in used.items()}, keeps=KEEPS)
        self.entry_points = tuple(sorted({p.plugin for p in used.values()}))
        self.journal = Journal(store)
        self.spsa = Spsa(self.tune.parameters, self.journal.schedule(self.tune.iterations), config.seed)
        self.thetas = self.journal.thetas()
        self.done = store.done()
        self.live = LiveFile(config.results)
        self.make = executor_factory or (lambda c: make_executor(c.executor, c.workers, self.live))
        self.executor: Executor | None = None   # one for the whole run: its workers keep their engines warm
        positions = list(config.start_positions)
        if (config.opening or Opening()).order == "shuffled":
            random.Random(derive_seed(config.seed, "opening order")).shuffle(positions)
        self.positions = positions

    def theta_before(self, iteration: int) -> Theta:
        """θ_k: the start, or θ after iteration k - 1."""
        return self.spsa.start() if iteration == 0 else self.thetas[iteration - 1]

    def run(self) -> TuneSummary:
        total, batch = self.tune.iterations, self.tune.batch
        resumed = next((k for k in range(total) if k not in self.thetas), total)
        bar = tqdm(total=total, initial=resumed, desc=self.config.name, unit="iteration", disable=self.quiet,
                   dynamic_ncols=True)
        warning = None
        try:
            k = resumed
            while k < total:
                first = k - k % batch
                block = range(k, min(first + batch, total))
                base = self.theta_before(first)
                probes = {j: self.spsa.probe(base, j) for j in block}
                self._play([t for j in block for t in self.pair(j, probes[j]) if t.key not in self.done])
                for j in block:
                    score = self.pair_score(j)
                    self.thetas[j] = self.spsa.update(self.theta_before(j), j, score)
                    self.journal.record(j, self.thetas[j], probes[j], score)
                bar.update(len(block))
                bar.set_postfix_str(describe(self.thetas[block[-1]]), refresh=False)
                if k < min(CHECKED, total) <= block.stop:
                    warning = unchanged_play(self.store.conn, self.tune)
                    if warning:
                        tqdm.write(f"warning: {warning}")
                k = block.stop
            if resumed >= min(CHECKED, total):
                warning = unchanged_play(self.store.conn, self.tune)
            bar.close()
            theta = self.theta_before(total)
            validation = self._validate(theta) if self.tune.validate else None
        finally:
            bar.close()
            if self.executor is not None:
                self.executor.close()
            self.live.close()
        return TuneSummary(total, resumed, total - resumed, theta, validation, warning)

    def pair(self, iteration: int, probe: Probe) -> list[GameTask]:
        """The two games of an iteration: `plus` (θ + cΔ) and `minus` (θ − cΔ) from the same start with colours
        swapped and the same seed."""
        plus, minus = (Participant(pid, self.tune.agent.agent, self.tune.params_at(values), self.tune.agent.budget)
                       for pid, values in ((PLUS, probe.plus), (MINUS, probe.minus)))
        config, opening = self.config, self.config.opening or Opening()
        start = self.positions[iteration % len(self.positions)] if self.positions else None
        return [GameTask(key=pair_key(iteration, game), pairing=(PLUS, MINUS), index=2 * iteration + game,
                         game=config.game, first=first, second=second, start=start,
                         seed=derive_seed(config.seed, "tune", iteration), max_plies=config.max_plies,
                         move_time_limit=config.move_time_limit, game_options=dict(config.game_options),
                         plugins=config.plugins, entry_points=self.entry_points, adjudication=config.adjudication,
                         random_plies=opening.random_plies,
                         opening_seed=derive_seed(config.seed, "opening", config.game, iteration),
                         memory_limit_mb=config.memory_limit_mb)
                for game, (first, second) in enumerate(((plus, minus), (minus, plus)))]

    def pair_score(self, iteration: int) -> float:
        """Wins minus losses of `plus` over the iteration's two games (a void game counts as a draw)."""
        rows = self.store.conn.execute("SELECT winner FROM games WHERE key IN (?, ?)",
                                       (pair_key(iteration, 0), pair_key(iteration, 1))).fetchall()
        return float(sum((winner == PLUS) - (winner == MINUS) for (winner,) in rows))

    def _play(self, tasks: Sequence[GameTask], watch: SprtWatch | None = None) -> None:
        """Run `tasks` on the run's executor, storing each game as it ends; stop once `watch` decides."""
        if not tasks:
            return
        if self.executor is None:
            self.executor = self.make(self.config)
        results = self.executor.results(Undecided(list(tasks), watch) if watch else tasks)
        try:
            for result in results:
                self.store.save(result)
                self.done.add(result.task.key)
                if watch is not None and result.record.termination is not Termination.VOID:
                    watch.add(result.task.pairing, result.task.index, _winner(result))
                    if watch.all_decided():
                        break
        finally:
            results.close()

    def _validate(self, theta: Theta) -> str:
        """Play (or resume) the match of the tuned values against the start values; its SPRT or score line."""
        validate = self.tune.validate
        assert validate is not None   # run() calls this only with a validation match
        prefix = validation_prefix(self.tune.iterations)
        tuned = Participant(TUNED, self.tune.agent.agent, self.tune.params_at(theta), self.tune.agent.budget)
        match = replace(self.config, mode="games", participants=(tuned, self.tune.start()), format="round-robin",
                        games_per_pairing=validate.games, sprt=validate.sprt, tune=None)
        tasks = [replace(t, key=prefix + t.key, entry_points=self.entry_points) for t in schedule(match)
                 if isinstance(t, GameTask)]
        watch = SprtWatch(validate.sprt, [(TUNED, START)]) if validate.sprt else None
        if watch is not None:
            for index, winner in self.store.conn.execute(
                    "SELECT game_index, winner FROM games WHERE key LIKE ? ESCAPE '\\' AND termination != ?",
                    (_like(prefix), Termination.VOID.value)):
                watch.add((TUNED, START), index, winner)
        if watch is None or not watch.all_decided():
            self._play([t for t in tasks if t.key not in self.done], watch)
        return validation_line(self.store.conn, self.tune, watch)


def _winner(result: GameResult) -> str | None:
    record = result.record
    return None if record.winner is None else record.players[record.winner]


def _like(prefix: str) -> str:
    return prefix.replace("%", r"\%").replace("_", r"\_") + "%"


def describe(theta: Theta) -> str:
    return " ".join(f"{name} {value:.4g}" for name, value in theta.items())


def validation_line(conn: sqlite3.Connection, tune: TuneSettings, watch: SprtWatch | None = None) -> str:
    """The validation match in one line as a tournament prints a match (framework.analysis.standings.match_line:
    W-D-L, score, Elo +- its 95% error, LOS, draws, pentanomial) of `tuned` against `start`, and its SPRT when it
    has one."""
    import pandas as pd  # the tables: only once there is a match to sum up

    from framework.analysis.standings import match_line, match_table, with_scores

    prefix = validation_prefix(tune.iterations)
    games = pd.read_sql_query("SELECT * FROM games WHERE key LIKE ? ESCAPE '\\' AND termination != ? "
                              "ORDER BY game_index", conn, params=(_like(prefix), Termination.VOID.value))
    if watch is None and tune.validate is not None and tune.validate.sprt is not None:
        watch = SprtWatch(tune.validate.sprt, [(TUNED, START)])
        for index, winner in zip(games["game_index"], games["winner"]):
            watch.add((TUNED, START), int(index), winner if isinstance(winner, str) else None)
    table = match_table(with_scores(games)) if len(games) else None
    match = (match_line(table.iloc[0]) if table is not None and len(table) else
             f"{TUNED} vs {START}: no games yet")
    line = f"validation after {tune.iterations} iterations, {match}"
    return f"{line}; SPRT {watch.tests[(TUNED, START)].line()}" if watch is not None else line


def unchanged_play(conn: sqlite3.Connection, tune: TuneSettings) -> str | None:
    """A warning when both games of each of the first CHECKED pairs have the same moves: θ + cΔ and θ − cΔ
    then played alike (both games share their seed and start), so the tuned parameters change no move."""
    checked = min(CHECKED, tune.iterations)
    keys = [pair_key(k, g) for k in range(checked) for g in (0, 1)]
    moves: dict[str, list[str]] = {}
    for key, move in conn.execute(f"SELECT key, move FROM moves WHERE key IN ({', '.join('?' * len(keys))}) "
                                  "ORDER BY key, ply", keys):
        moves.setdefault(key, []).append(move)
    if any(moves.get(pair_key(k, 0), []) != moves.get(pair_key(k, 1), []) for k in range(checked)):
        return None
    names = ", ".join(p.name for p in tune.parameters)
    return (f"over the first {checked} iterations both games of every pair had the same moves: the tuned "
            f"parameters ({names}) seem not to change play; check that agent '{tune.agent.agent}' uses them")


#: What a tuning run may change and continue (the refusal's hint).
KEEPS = "only raising tune.iterations or changing tune.validate continues it"


def check_continuation(store: Store, config: TournamentConfig) -> None:
    """Refuse a folder holding a tuning run of another definition, naming each changed key; only raising
    `tune.iterations` or changing `tune.validate` continues it."""
    then = store.meta().get("config", {}).get("tune")
    if then is None:
        return
    now = config.tune.as_dict()
    changed = [f"tune.{key}" for key in ("agent", "batch") if then.get(key) != now.get(key)]
    stored = {p["name"]: p for p in then["parameters"]}
    given = {p["name"]: p for p in now["parameters"]}
    for name in stored.keys() | given.keys():
        if name not in given or name not in stored:
            changed.append(f"tune.parameters.{name} {'removed' if name not in given else 'added'}")
            continue
        changed += [f"tune.parameters.{name}.{key} ({stored[name][key]:g} stored, {given[name][key]:g} now)"
                    for key in stored[name] if key != "name" and stored[name][key] != given[name][key]]
    if now["iterations"] < then["iterations"]:
        changed.append(f"tune.iterations ({then['iterations']} stored, {now['iterations']} now: fewer would drop "
                       "stored iterations)")
    if changed:
        raise ConfigError(f"'{config.results}' holds a tuning run of another definition (changed: "
                          f"{'; '.join(sorted(changed))}); {KEEPS}: run into a new folder "
                          "(--results DIR or the 'results' key) or delete it")

