"""Tasks: independent units of work an executor runs in a guarded worker process.

A task is plain, picklable data with a stable `key` (the store's primary key, so a resumed
run skips what is done). Its `run(context, beat)` executes in a worker; before each step it
calls `beat(limit, progress)` to say "the next step may take at most `limit` seconds". When
the supervisor has to stop a step, or the worker dies, it asks the task to turn the last
progress into a result (`timed_out`, `died`), so a hung or crashing agent costs one task.

Blame: a task runs the referee (framework/engine/referee.py) in the worker; every agent runs in an engine
process of its own, which the referee stops and judges itself (an engine's death, hang, protocol breach or
illegal move is its forfeit; an OOM kill the kernel reports is no one's). The beats say whose engine the
referee waits for (the live page shows it), with limits past the referee's own, so the supervisor steps in
only when the referee itself fails: that, an exception of the referee, or its worker's death is no
agent's doing, and the task is replayed (guard.RETRIES times) and then stored as `void`, a game that
standings ignore.

`GameTask` plays one game; `SolveTask` runs one solver on one position. Both measure the resident memory
of the engines (`memory.PeakMeter` on the engine's process): from the game's or the solve's start, after
the engine loaded and warmed up, so the figure is the search's and not the loading of compiled code.
"""

from __future__ import annotations

import hashlib
import math
import random
import signal
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from framework.adjudication import Adjudication
from framework.engine.client import BUILD_LIMIT, STARTUP_LIMIT, Engine, EngineFailure, EngineSpec, wall_bound
from framework.engine.referee import EnginePlayer, EnginePool, solve_with
from framework.errors import cap_text
from framework.match import (
    Forfeit,
    GameRecord,
    MoveRecord,
    Termination,
    check_stats,
    forfeit_result,
    play_game,
    quote,
)
from framework.protocols import CHANCE, Budget, Proof
from framework.registry import Registry, WorkerRegistry, load_plugin_file
from framework.timecontrol import Clock
from framework.tournament.entries import Participant
from framework.tournament.memory import PeakMeter, TaskMemory

Beat = Callable[[float, Any], None]


def hard_limit(budget: Budget, cap: float = math.inf) -> float:
    """Seconds after which the supervisor stops one decision: twice its time budget plus a second (a search
    may overrun its budget a little, a hung one never answers), at most `cap`; `cap` without a time budget."""
    return cap if budget.time is None else min(cap, 2 * budget.time + 1.0)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts' text: independent of scheduling order, process and platform."""
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def random_opening(game: Any, state: Any, plies: int, seed: int) -> Any:
    """`state` after `plies` uniformly random legal moves chosen by `seed`, avoiding moves that end the game
    (stopping early when every move would)."""
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_terminal(state):
            break
        children = [game.apply(state, move) for move in game.legal_moves(state)]
        going_on = [child for child in children if not game.is_terminal(child)]
        if not going_on:
            break
        state = rng.choice(going_on)
    return state


def engine_spec(participant: Participant, plugins: tuple[str, ...] = (), entry_points: tuple[str, ...] | None = None,
                memory_limit_mb: int | None = None, solver: bool = False) -> EngineSpec:
    """What starts a participant's engine: its agent in an engine host, or its program (`command`)."""
    if participant.program:
        return EngineSpec(participant.id, command=participant.engine_command(), memory_limit_mb=memory_limit_mb,
                          solver=solver)
    return EngineSpec(participant.id, participant.agent, dict(participant.params), plugins, entry_points,
                      memory_limit_mb=memory_limit_mb, solver=solver)


class WorkerContext:
    """What a worker process keeps between tasks: a registry per (plugin files, entry points), the referee's
    games, and the engines of the participants (`engines`: kept between games, framework/engine/referee.py).
    `on_load(what)` is called before a registry's plugins are imported, so a plugin that kills the process at
    import is named (guard.py)."""

    def __init__(self, on_load: Callable[[str], None] = lambda what: None) -> None:
        self._registries: dict[tuple, Registry] = {}
        self._games: dict[tuple, Any] = {}
        self.engines = EnginePool()
        self.on_load = on_load
        self.loads = 0   # registries made so far

    def registry(self, plugins: tuple[str, ...], entry_points: tuple[str, ...] | None = None) -> Registry:
        """The registry with these plugin files; `entry_points`: the plugins to load first (None: all)."""
        key = (plugins, entry_points)
        if key not in self._registries:
            self.on_load(", ".join([*(entry_points or ("every installed plugin",)), *plugins]))
            self.loads += 1
            registry = Registry() if entry_points is None else WorkerRegistry(entry_points)
            for file in plugins:
                load_plugin_file(registry, file)
            self._registries[key] = registry
        return self._registries[key]

    def close(self) -> None:
        """Stop the engines this process kept."""
        self.engines.close()

    def game(self, plugins: tuple[str, ...], name: str, options: Mapping[str, Any],
             entry_points: tuple[str, ...] | None = None) -> Any:
        """The game, built once per process (its rules loaded): what the referee's game objects are made after."""
        key = (plugins, entry_points, name, tuple(sorted(options.items())))
        if key not in self._games:
            self._games[key] = self.registry(plugins, entry_points).create_game(name, options)
        return self._games[key]

    def fresh_game(self, plugins: tuple[str, ...], name: str, options: Mapping[str, Any],
                   entry_points: tuple[str, ...] | None = None) -> Any:
        """A game object of its own for one game (what an agent does to it stays in that game)."""
        self.game(plugins, name, options, entry_points)
        return self.registry(plugins, entry_points).create_game(name, options)


#: Signals a process gets from the code it runs (a fault, abort()): a death by one is blamed on that code.
FAULTS = frozenset({signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT, signal.SIGSYS})


@dataclass(frozen=True)
class Death:
    """How a process that ran agents' code ended: its exit status (subprocess returncode: -N for signal N), and
    whether the framework can show the cause came from outside (`outside`; None: judge by the status alone).

    A game's own process (worker.py) runs nothing but the game, so any death of it is its agents' doing unless
    the kernel's OOM killer struck meanwhile (`outside` True) — an agent's own signal, its fd damage, its
    memory limit are its forfeit. A worker process that runs no agent (a game's warm parent) dies from outside."""

    code: int
    outside: bool | None = None

    @property
    def by_agent(self) -> bool:
        """An exit status or a fault comes from the code that was running; other signals come from outside."""
        if self.outside is not None:
            return not self.outside
        return self.code >= 0 or -self.code in FAULTS

    def __str__(self) -> str:
        if self.code >= 0:
            return f"exited with code {self.code}"
        return f"was killed by signal {signal.Signals(-self.code).name}"


class Task(Protocol):
    """The protocol executors and the store rely on.

    A task runs in a worker process (worker.py). `failed` turns an error raised by the task's own code once its
    game began into a result (None: before it began; the error is the run's)."""

    @property
    def key(self) -> str: ...

    @property
    def floor(self) -> float:
        """The shortest hard limit of any step of the task (how often its supervisor must look at least)."""
        ...

    def run(self, context: WorkerContext, beat: Beat) -> Any: ...
    def vet(self, result: Any) -> str | None: ...
    def timed_out(self, progress: list, limit: float, measure: str) -> Any: ...
    def died(self, progress: list, death: Death) -> Any | None: ...
    def failed(self, progress: list, details: str) -> Any | None: ...
    def void(self, progress: list, reason: str) -> Any: ...


#: Seconds the supervisor adds to a referee's step beyond the engine's own wall bound: the referee stops an
#: engine itself, so the supervisor steps in only when the referee fails.
REFEREE_MARGIN = 10.0


def referee_limit(limit: float) -> float:
    """The limit a referee announces for a step whose engine it stops after `limit` seconds of CPU time."""
    return wall_bound(limit) + REFEREE_MARGIN if math.isfinite(limit) else limit


def hard(measure: str) -> str:
    """How a stopped step's limit reads: "hard time limit" (of CPU time), or the wall bound of a step that waited."""
    return "hard time limit" if measure == "CPU" else "hard time limit of wall time: it waited or was starved"


@dataclass(frozen=True)
class Progress:
    """A game's state at a beat: the move just played (None at the start), the position, and whose code
    runs until the next beat: the agent of seat `running`, called `name` in the game, `building` or moving."""

    record: MoveRecord | None
    position: str
    running: int
    name: str
    building: bool = False


@dataclass(frozen=True)
class GameResult:
    """A finished game task: the task that produced it, its record, the worker's memory (None: stopped)
    and how many times it was replayed after its worker was killed from outside."""

    task: GameTask
    record: GameRecord
    memory: TaskMemory | None = None
    retries: int = 0
    engines: tuple[tuple[str, str], ...] = ()   # (name, version) per seat, as each engine's handshake gave them


@dataclass(frozen=True)
class GameTask:
    """One game of a pairing: `first` plays player 0 from `start` (None: the initial state), `second` player 1,
    `others` the seats after them in a game of more players."""

    key: str
    pairing: tuple[str, ...]
    index: int
    game: str
    first: Participant
    second: Participant
    start: str | None
    seed: int
    max_plies: int | None
    move_time_limit: float
    game_options: Mapping[str, Any] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()
    entry_points: tuple[str, ...] | None = None  # the plugins the worker loads first (WorkerRegistry); None: all
    adjudication: Adjudication | None = None
    random_plies: int = 0  # random moves played from `start` before the game, chosen by `opening_seed`
    opening_seed: int = 0
    others: tuple[Participant, ...] = ()
    memory_limit_mb: int | None = None   # address space each engine may map beyond what it loaded

    @property
    def players(self) -> tuple[Participant, ...]:
        return (self.first, self.second, *self.others)

    def hard_limit(self, mover: int) -> float:
        return hard_limit(self.players[mover].budget, self.move_time_limit)

    @property
    def floor(self) -> float:
        return min(self.hard_limit(i) for i in range(len(self.players)))

    def engine_spec(self, participant: Participant) -> EngineSpec:
        return engine_spec(participant, self.plugins, self.entry_points, self.memory_limit_mb)

    def run(self, context: WorkerContext, beat: Beat) -> GameResult:
        """Referee one game: each seat's engine from the worker's pool, set up for this game before any clock
        runs, then asked move by move (framework/engine/referee.py)."""
        game = context.fresh_game(self.plugins, self.game, self.game_options, self.entry_points)
        state = game.from_text(self.start) if self.start is not None else game.initial_state()
        state = random_opening(game, state, self.random_plies, self.opening_seed)
        ids = tuple(p.id for p in self.players)
        history: list[str] = []

        def announce(position: Any, record: MoveRecord | None) -> None:
            if record is not None:
                history.append(record.move)
            mover = game.to_move(position)
            if mover == CHANCE:    # the referee rolls at once: no engine's clock runs
                return
            beat(referee_limit(self.hard_limit(mover)),
                 Progress(record, game.to_text(position), mover, game.player_names[mover]))

        engines: list[Engine] = []
        meters: list[PeakMeter] = []
        players: list[EnginePlayer] = []
        try:
            for i, p in enumerate(self.players):   # every seat's engine set up at once (its `new`), then awaited
                beat(referee_limit(STARTUP_LIMIT + BUILD_LIMIT),
                     Progress(None, game.to_text(state), i, game.player_names[i], building=True))
                try:
                    engines.append(context.engines.take(self.engine_spec(p)))
                    engines[i].new_game(self.game, self.game_options, i, derive_seed(self.seed, i),
                                        game.to_text(state), p.params, wait=False)
                except EngineFailure as failure:
                    return self._unready(game, state, i, failure)
            for i, engine in enumerate(engines):
                beat(referee_limit(BUILD_LIMIT),
                     Progress(None, game.to_text(state), i, game.player_names[i], building=True))
                try:
                    engine.ready()
                except EngineFailure as failure:
                    return self._unready(game, state, i, failure)
                meters.append(PeakMeter(str(engine.pid)))
                control = self.players[i].time_control
                players.append(EnginePlayer(engine, history, self.hard_limit(i),
                                            None if control is None else Clock(control)))
            announce(state, None)
            record = play_game(game, players, budgets=tuple(p.budget for p in self.players), start=state,
                               players=ids, max_plies=self.max_plies, adjudication=self.adjudication,
                               on_move=lambda before, move, after: announce(after, move),
                               seed=derive_seed(self.seed, "chance"))
            memory = max((meter.read() for meter in meters), key=lambda m: m.peak or 0, default=None)
            return GameResult(self, record, memory, engines=tuple((e.name, e.version) for e in engines))
        finally:
            for j, engine in enumerate(engines):
                context.engines.give_back(engine, healthy=j < len(players) and not players[j].failed)

    def _unready(self, game: Any, state: Any, seat: int, failure: EngineFailure) -> GameResult:
        """The game of an engine that could not be started or set up: its forfeit (void for an OOM kill)."""
        name = f"{game.player_names[seat]} ({self.players[seat].id})"
        if failure.termination is Termination.VOID:
            return self.void([], f"{name} {failure.reason}")
        reason = failure.reason.replace("crashed: ", "crashed when created: ", 1)
        return self._forfeit(seat, game.to_text(state), failure.termination, f"{name} {reason}", [], failure.details)

    def vet(self, result: Any) -> str | None:
        """What makes `result`, as the game's process sent it, unfit to store (None: nothing)."""
        if not isinstance(result, GameResult) or not isinstance(result.record, GameRecord):
            return f"{quote(result)} is not a game's result"
        record = result.record
        seats = len(self.players)
        if record.players != tuple(p.id for p in self.players) or record.game != self.game:
            return f"it names other players or another game ({quote(record.players)}, {quote(record.game)})"
        if not isinstance(record.termination, Termination):
            return f"its termination {quote(record.termination)} is none of the framework's"
        if (not isinstance(record.result, tuple) or len(record.result) != seats
                or not all(type(r) is float and math.isfinite(r) for r in record.result)):
            return f"its result {quote(record.result)} is not one finite number per seat"
        if record.termination is Termination.VOID and any(record.result):
            return "a void game scores nothing"
        if record.winner is not None and record.winner not in range(seats):
            return f"its winner {quote(record.winner)} is not a seat"
        texts = (record.start, record.final, record.reason, record.traceback)
        if not all(type(t) is str for t in texts) or not all(isinstance(m, MoveRecord) for m in record.moves):
            return "its positions, reason, traceback or moves are not the framework's"
        return None

    def _culprit(self, last: Progress) -> str:
        return f"{last.name} ({self.players[last.running].id})"

    def timed_out(self, progress: list[Progress], limit: float, measure: str) -> GameResult:
        """The supervisor stopped the referee itself (it stops engines before this): no agent's doing."""
        return self.void(progress, f"the referee did not finish a step within {limit:g}s ({hard(measure)})")

    def failed(self, progress: list[Progress], details: str) -> GameResult | None:
        """The referee raised: its own failure, never an engine's (engines fail through the protocol). Before the
        game began (a start position that is none, say) there is nothing to void: None, and the run stops with
        the traceback."""
        if not progress:
            return None
        error = details.rstrip().rsplit("\n", 1)[-1]
        result = self.void(progress, f"the referee failed ({quote(error, str)})")
        return replace(result, record=replace(result.record, traceback=cap_text(details)))

    def died(self, progress: list[Progress], death: Death) -> None:
        """The referee's process died: no engine runs in it, so the game is replayed (then void)."""
        return None

    def void(self, progress: list[Progress], reason: str) -> GameResult:
        """No result: both agents score nothing and the moves played are not kept."""
        final = progress[-1].position if progress else (self.start or "")
        start = progress[0].position if progress else final
        record = GameRecord(self.game, tuple(p.id for p in self.players), start, final, (0.0,) * len(self.players),
                            None, Termination.VOID, f"no result: {reason}", ())
        return GameResult(self, record)

    def _forfeit(self, loser: int, final: str, termination: Termination, reason: str,
                 progress: list[Progress], details: str = "") -> GameResult:
        seats = len(self.players)
        result = forfeit_result(seats, loser)
        moves = tuple(p.record for p in progress if p.record is not None)
        start = progress[0].position if progress else final
        record = GameRecord(self.game, tuple(p.id for p in self.players), start, final, result,
                            1 - loser if seats == 2 else None, termination, reason, moves, details)
        return GameResult(self, record)


@dataclass(frozen=True)
class SolveOutcome:
    """A finished solve task: the proven value (a Proof value), the best move's notation and the search figures.

    `status` is "solved" (win, loss or draw proven), "unknown" (the budget ran out), "crash" or "time"
    (the solver raised or overran its hard limit), "void" (its worker was killed from outside every try);
    `extra` holds the solver's own scalar figures (lists and
    mappings it reports are not stored). `peak_entries` is the solver's `SearchStats.peak_entries`, `memory`
    the worker's resident memory during the solve (both None when the solver reports none or was stopped).
    """

    task: SolveTask
    value: str
    move: str | None
    nodes: int
    depth: int
    wall_time: float
    cpu_time: float
    status: str
    reason: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    peak_entries: int | None = None
    memory: TaskMemory | None = None
    retries: int = 0
    engine: tuple[str, str] | None = None   # (name, version) of the solver's engine, from its handshake


@dataclass(frozen=True)
class SolveTask:
    """One solver on one position, within the solver's budget (a task of a `mode: solve` run)."""

    key: str
    solver: Participant
    index: int
    position: str
    note: str
    game: str
    seed: int
    move_time_limit: float
    game_options: Mapping[str, Any] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()
    entry_points: tuple[str, ...] | None = None  # the plugins the worker loads first (WorkerRegistry); None: all
    memory_limit_mb: int | None = None   # address space the solver's engine may map beyond what it loaded

    @property
    def floor(self) -> float:
        return hard_limit(self.solver.budget, self.move_time_limit)

    def run(self, context: WorkerContext, beat: Beat) -> SolveOutcome:
        """Ask the solver's engine (from the worker's pool, set up at the position) to solve it."""
        game = context.fresh_game(self.plugins, self.game, self.game_options, self.entry_points)
        state = game.from_text(self.position)
        limit = hard_limit(self.solver.budget, self.move_time_limit)
        beat(referee_limit(STARTUP_LIMIT + BUILD_LIMIT), "building")
        spec = engine_spec(self.solver, self.plugins, self.entry_points, self.memory_limit_mb, solver=True)
        healthy = False
        engine: Engine | None = None
        try:
            engine = context.engines.take(spec)
            engine.new_game(self.game, self.game_options, 0, derive_seed(self.seed, 0), self.position,
                            self.solver.params)
            beat(referee_limit(limit), "solving")
            meter = PeakMeter(str(engine.pid))
            result = solve_with(engine, game, state, self.solver.budget, limit)
            memory = meter.read()
            stats = check_stats(result.stats)
            healthy = True
        except EngineFailure as failure:
            if failure.termination is Termination.TIME:
                return SolveOutcome(self, "unknown", None, 0, 0, limit, 0.0, "time",
                                    f"{self.solver.id} {failure.reason}")
            if failure.termination is Termination.VOID:
                return self.void([], failure.reason)
            return self._crashed(failure.reason)
        except Forfeit as forfeit:
            return self._crashed(forfeit.reason)
        finally:
            if engine is not None:
                context.engines.give_back(engine, healthy)
        move = None if result.move is None else game.format_move(state, result.move)
        solved = result.value in (Proof.WIN, Proof.LOSS, Proof.DRAW)
        extra = {k: v for k, v in stats.extra.items() if isinstance(v, (int, float, str, bool, type(None)))}
        return SolveOutcome(self, result.value.value, move, stats.nodes, stats.depth, stats.wall_time, stats.cpu_time,
                            "solved" if solved else "unknown", extra=extra, peak_entries=stats.peak_entries,
                            memory=memory, engine=(engine.name, engine.version))

    def vet(self, result: Any) -> str | None:
        """What makes `result`, as the solve's process sent it, unfit to store (None: nothing)."""
        if not isinstance(result, SolveOutcome):
            return f"{quote(result)} is not a solve's outcome"
        if result.status not in ("solved", "unknown", "crash", "time") or result.value not in {p.value for p in Proof}:
            return f"its status {quote(result.status)} or value {quote(result.value)} is none of the framework's"
        return None

    def timed_out(self, progress: list, limit: float, measure: str) -> SolveOutcome:
        """The supervisor stopped the referee itself (it stops engines before this): no solver's doing."""
        return self.void(progress, f"the referee did not finish a step within {limit:g}s ({hard(measure)})")

    def failed(self, progress: list, details: str) -> SolveOutcome | None:
        """The referee raised: its own failure, never the solver's (None before the solve began: the run stops)."""
        if not progress:
            return None
        return self.void(progress, f"the referee failed ({quote(details.rstrip().rsplit(chr(10), 1)[-1], str)})")

    def died(self, progress: list, death: Death) -> None:
        """The referee's process died: no solver runs in it, so the solve is replayed (then void)."""
        return None

    def void(self, progress: list, reason: str) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, 0.0, 0.0, "void", f"no result: {reason}")

    def _crashed(self, reason: str) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, 0.0, 0.0, "crash", f"{self.solver.id} {reason}")
