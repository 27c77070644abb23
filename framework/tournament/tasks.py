"""Tasks: independent units of work an executor runs in a guarded worker process.

A task is plain, picklable data with a stable `key` (the store's primary key, so a resumed
run skips what is done). Its `run(context, beat)` executes in a worker; before each step it
calls `beat(limit, progress)` to say "the next step may take at most `limit` seconds". When
the supervisor has to stop a step, or the worker dies, it asks the task to turn the last
progress into a result (`timed_out`, `died`), so a hung or crashing agent costs one task.

Blame: a game's beats say whose code runs — agent i being built, or agent i choosing a move (up to
the next beat, which includes checking what it returned and applying its move). A worker that
exits (`os._exit`, an exit status) or faults (`Death.fault`: SIGSEGV, SIGABRT...) while an agent's
code runs is that agent's crash. A death from outside (killed by SIGKILL, SIGTERM...: `kill -9`, the
kernel's OOM killer) or with no agent's code running is no result: `died` returns None, and the
supervisor replays the task (guard.RETRIES times) and then stores it as `void`, a game that
standings ignore.

`GameTask` plays one game; `SolveTask` runs one solver on one position. Both measure the
worker's resident memory (`memory.PeakMeter`): a game from its start, a solve from the moment
its solver is built, so the figure is the search's and not the loading of compiled code.
"""

from __future__ import annotations

import hashlib
import math
import random
import signal
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from framework.adjudication import Adjudication
from framework.capabilities import capabilities
from framework.errors import PluginError
from framework.match import (
    GameRecord,
    InvalidOutput,
    MoveRecord,
    Termination,
    check_stats,
    crash_reason,
    forfeit_result,
    legal_equal,
    play_game,
    quote,
)
from framework.protocols import CHANCE, Budget, Proof, Solver, SolveResult
from framework.registry import Registry
from framework.search import Stopwatch
from framework.specs import AgentSpec, GameFileSpec, GameSpec, HeuristicSpec
from framework.tournament.config import Participant, load_plugin_file
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


class WorkerRegistry(Registry):
    """A worker's registry: only the named entry points at first, every other one when a name is missing.

    Importing every installed plugin can cost a fresh worker process more than hundreds of fast
    games; the supervisor names the plugins that provide the tournament's games, agents and
    heuristics, and anything else (an agent that names another agent) still resolves, because a
    lookup that fails loads the remaining entry points and looks again.
    """

    def __init__(self, entry_points: tuple[str, ...]) -> None:
        super().__init__(autoload=False)
        self.load_entry_points(entry_points)
        self.complete = False

    def _retry(self, lookup: Callable[..., Any], *args: Any) -> Any:
        try:
            return lookup(*args)
        except PluginError:
            if self.complete:
                raise
        self.complete = True
        self.load_entry_points()
        return lookup(*args)

    def game_spec(self, name: str) -> GameSpec:
        return self._retry(super().game_spec, name)

    def agent_spec(self, name: str) -> AgentSpec:
        return self._retry(super().agent_spec, name)

    def game_file_spec(self, name: str) -> GameFileSpec:
        return self._retry(super().game_file_spec, name)

    def heuristic_spec(self, game: str, name: str) -> HeuristicSpec:
        return self._retry(super().heuristic_spec, game, name)

    def heuristics_for(self, game: str) -> list[HeuristicSpec]:
        if not self.complete:
            self.complete = True
            self.load_entry_points()
        return super().heuristics_for(game)


#: The distribution whose agents a warm parent builds before forking games (`WorkerContext.warm_agents`).
TRUSTED = "plyground"


class WorkerContext:
    """What a worker process keeps between tasks: a registry per (plugin files, entry points), warm games, and
    agents that answer one move per task (engine.py), by key. `on_load(what)` is called before a registry's
    plugins are imported, so a plugin that kills the process at import is named (guard.py)."""

    def __init__(self, on_load: Callable[[str], None] = lambda what: None) -> None:
        self._registries: dict[tuple, Registry] = {}
        self._games: dict[tuple, Any] = {}
        self.agents: dict[str, Any] = {}
        self._warm: set[tuple] = set()
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

    def game(self, plugins: tuple[str, ...], name: str, options: Mapping[str, Any],
             entry_points: tuple[str, ...] | None = None) -> Any:
        """The game, built once per process with its compiled kernels warm (`warmup`): what games are forked from."""
        key = (plugins, entry_points, name, tuple(sorted(options.items())))
        if key not in self._games:
            game = self.registry(plugins, entry_points).create_game(name, options)
            warmup = capabilities(game).warmup
            if warmup is not None:
                warmup()
            self._games[key] = game
        return self._games[key]

    def warm_agents(self, plugins: tuple[str, ...], name: str, options: Mapping[str, Any],
                    entry_points: tuple[str, ...] | None, participants: tuple[Participant, ...]) -> None:
        """Build once, here, each participant whose agent this distribution provides (TRUSTED: its own code), so a
        game's process forked from here finds its compiled search loaded; other plugins' agents are built only
        in their games' processes. A build that fails is left to the game, which reports it."""
        registry = self.registry(plugins, entry_points)
        for p in participants:
            key = (plugins, entry_points, name, tuple(sorted(options.items())), p.agent, repr(sorted(p.params.items())))
            if key in self._warm:
                continue
            self._warm.add(key)
            try:
                registry.agent_spec(p.agent)
                if registry.agents[p.agent].provenance.distribution == TRUSTED:
                    registry.create_agent(p.agent, self.game(plugins, name, options, entry_points), p.params, seed=0)
            except Exception:
                pass

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

    An `isolated` task runs in a process forked for it alone (worker.py), after `prepare` warmed what it
    needs in the parent, with its address space capped at `memory_limit` bytes more than the parent's
    (None: no cap). `failed` turns an error raised by the task's own code, once its agents ran, into a
    result (None: no agent ran; the error is the run's)."""

    @property
    def key(self) -> str: ...

    @property
    def isolated(self) -> bool: ...

    @property
    def memory_limit(self) -> int | None: ...

    @property
    def floor(self) -> float:
        """The shortest hard limit of any step of the task (how often its supervisor must look at least)."""
        ...

    def prepare(self, context: WorkerContext) -> None: ...
    def run(self, context: WorkerContext, beat: Beat) -> Any: ...
    def vet(self, result: Any) -> str | None: ...
    def timed_out(self, progress: list, limit: float, measure: str) -> Any: ...
    def died(self, progress: list, death: Death) -> Any | None: ...
    def failed(self, progress: list, details: str) -> Any | None: ...
    def void(self, progress: list, reason: str) -> Any: ...


#: Seconds an agent may take to be built: building may compile its search (never charged to a move's clock).
BUILD_LIMIT = 300.0
#: A hard limit is judged on the CPU time of the game's process; a step that sleeps, waits or is starved is
#: stopped only after this many times its limit plus WALL_EXTRA seconds of wall time.
WALL_FACTOR = 3.0
WALL_EXTRA = 5.0


def hard(measure: str) -> str:
    """How a stopped step's limit reads: "hard time limit" (of CPU time), or the wall bound of a step that waited."""
    return "hard time limit" if measure == "CPU" else "hard time limit of wall time: it waited or was starved"


def wall_bound(limit: float) -> float:
    """The wall time after which a step with a CPU-time `limit` is stopped whatever CPU it used."""
    return WALL_FACTOR * limit + WALL_EXTRA


def cap_text(text: str, limit: int = 1 << 16) -> str:
    """`text` cut to about `limit` characters, keeping its head and its tail (a traceback's last lines say most)."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n... [{len(text) - 2 * half:,} characters cut] ...\n{text[-half:]}"


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
    memory_limit_mb: int | None = None   # address space the game's process may add to its warm parent's

    isolated = True

    @property
    def memory_limit(self) -> int | None:
        return None if self.memory_limit_mb is None else self.memory_limit_mb << 20

    @property
    def players(self) -> tuple[Participant, ...]:
        return (self.first, self.second, *self.others)

    def hard_limit(self, mover: int) -> float:
        return hard_limit(self.players[mover].budget, self.move_time_limit)

    @property
    def floor(self) -> float:
        return min(self.hard_limit(i) for i in range(len(self.players)))

    def prepare(self, context: WorkerContext) -> None:
        """Import the plugins, warm the game's kernels and the built-in agents' searches in the warm parent, before
        any clock runs."""
        context.warm_agents(self.plugins, self.game, self.game_options, self.entry_points, self.players)

    def run(self, context: WorkerContext, beat: Beat) -> GameResult:
        registry = context.registry(self.plugins, self.entry_points)
        game = context.fresh_game(self.plugins, self.game, self.game_options, self.entry_points)
        meter = PeakMeter()   # after loading plugins (in the warm parent), before building the agents
        state = game.from_text(self.start) if self.start is not None else game.initial_state()
        state = random_opening(game, state, self.random_plies, self.opening_seed)
        ids = tuple(p.id for p in self.players)

        def announce(position: Any, record: MoveRecord | None) -> None:
            mover = game.to_move(position)
            if mover == CHANCE:    # the runner rolls at once: no agent's clock runs
                return
            beat(self.hard_limit(mover), Progress(record, game.to_text(position), mover, game.player_names[mover]))

        agents = []
        views = []   # each agent its own game object: what it does to it reaches neither the referee nor the others
        for i, p in enumerate(self.players):
            beat(max(BUILD_LIMIT, self.hard_limit(i)),
                 Progress(None, game.to_text(state), i, game.player_names[i], building=True))
            try:
                views.append(context.fresh_game(self.plugins, self.game, self.game_options, self.entry_points))
                agents.append(registry.create_agent(p.agent, views[i], p.params, seed=derive_seed(self.seed, i)))
            except (Exception, SystemExit) as exc:  # a constructor that raises forfeits like a crash in a move
                reason = f"{game.player_names[i]} ({p.id}) crashed when created: {crash_reason(exc)}"
                return self._forfeit(i, game.to_text(state), Termination.CRASH, reason, [], traceback.format_exc())
        announce(state, None)
        record = play_game(game, agents, budgets=tuple(p.budget for p in self.players), start=state,
                           players=ids, max_plies=self.max_plies, adjudication=self.adjudication,
                           on_move=lambda before, move, after: announce(after, move),
                           seed=derive_seed(self.seed, "chance"), views=views)
        return GameResult(self, record, meter.read())

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
        last = progress[-1]
        step = "when created" if last.building else "on one move"
        reason = f"{self._culprit(last)} was stopped after {limit:g}s {step} ({hard(measure)})"
        return self._forfeit(last.running, last.position, Termination.TIME, reason, progress)

    def failed(self, progress: list[Progress], details: str) -> GameResult | None:
        """The crash of the agent whose code ran when the game's process raised outside the agents' calls
        (what the agent broke: a descriptor it closed, memory it exhausted); None before any agent ran."""
        if not progress:
            return None
        last = progress[-1]
        error = details.rstrip().rsplit("\n", 1)[-1]
        reason = (f"{self._culprit(last)} crashed: its game's process failed while "
                  f"{'it was being built' if last.building else 'it was choosing a move'} ({quote(error, str)})")
        return self._forfeit(last.running, last.position, Termination.CRASH, reason, progress, details)

    def died(self, progress: list[Progress], death: Death) -> GameResult | None:
        """The crash of the agent whose code ran when the worker died by its own doing; None otherwise."""
        if not progress or not death.by_agent:
            return None
        last = progress[-1]
        reason = (f"{self._culprit(last)} crashed: the worker process {death} while "
                  f"{'it was being built' if last.building else 'it was choosing a move'}")
        return self._forfeit(last.running, last.position, Termination.CRASH, reason, progress)

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
    memory_limit_mb: int | None = None   # address space the solve's process may add to its warm parent's

    isolated = True

    @property
    def memory_limit(self) -> int | None:
        return None if self.memory_limit_mb is None else self.memory_limit_mb << 20

    @property
    def floor(self) -> float:
        return hard_limit(self.solver.budget, self.move_time_limit)

    def prepare(self, context: WorkerContext) -> None:
        """Import the plugins, warm the game's kernels and a built-in solver's search in the warm parent, before
        any clock runs."""
        context.warm_agents(self.plugins, self.game, self.game_options, self.entry_points, (self.solver,))

    def run(self, context: WorkerContext, beat: Beat) -> SolveOutcome:
        registry = context.registry(self.plugins, self.entry_points)
        game = context.fresh_game(self.plugins, self.game, self.game_options, self.entry_points)
        state = game.from_text(self.position)
        beat(max(BUILD_LIMIT, hard_limit(self.solver.budget, self.move_time_limit)), "building")
        try:
            agent = registry.create_agent(self.solver.agent, game, self.solver.params, seed=derive_seed(self.seed, 0))
        except (Exception, SystemExit) as exc:  # a crashing solver costs this position only
            return self._crashed(f"crashed: {crash_reason(exc)}")
        beat(hard_limit(self.solver.budget, self.move_time_limit), "solving")
        watch = Stopwatch()
        try:
            meter = PeakMeter()
            result = cast(Solver, agent).solve(game, state, self.solver.budget)  # config.py checked it solves
            memory = meter.read()
        except (Exception, SystemExit) as exc:  # a crashing solver costs this position only
            return self._crashed(f"crashed: {crash_reason(exc)}")
        try:
            if not isinstance(result, SolveResult) or not isinstance(result.value, Proof):
                raise InvalidOutput(f"returned {quote(result)} instead of a SolveResult with a Proof value")
            stats = check_stats(result.stats)
            legal = None if result.move is None else legal_equal(game.legal_moves(state), result.move)
        except InvalidOutput as exc:
            return self._crashed(exc.reason)
        move = None if legal is None else game.format_move(state, legal)
        solved = result.value in (Proof.WIN, Proof.LOSS, Proof.DRAW)
        extra = {k: v for k, v in stats.extra.items() if isinstance(v, (int, float, str, bool, type(None)))}
        return SolveOutcome(self, result.value.value, move, stats.nodes, stats.depth, watch.wall(), watch.cpu(),
                            "solved" if solved else "unknown", extra=extra, peak_entries=stats.peak_entries,
                            memory=memory)

    def vet(self, result: Any) -> str | None:
        """What makes `result`, as the solve's process sent it, unfit to store (None: nothing)."""
        if not isinstance(result, SolveOutcome):
            return f"{quote(result)} is not a solve's outcome"
        if result.status not in ("solved", "unknown", "crash", "time") or result.value not in {p.value for p in Proof}:
            return f"its status {quote(result.status)} or value {quote(result.value)} is none of the framework's"
        return None

    def timed_out(self, progress: list, limit: float, measure: str) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, limit, 0.0, "time",
                            f"{self.solver.id} was stopped after {limit:g}s ({hard(measure)})")

    def failed(self, progress: list, details: str) -> SolveOutcome | None:
        """The solver's crash when its process raised outside its calls after it began; None before."""
        if not progress:
            return None
        error = details.rstrip().rsplit("\n", 1)[-1]
        return self._crashed(f"crashed: its process failed ({quote(error, str)})")

    def died(self, progress: list, death: Death) -> SolveOutcome | None:
        """The solver's crash when the worker died by its own doing after the solve began; None otherwise."""
        return self._crashed(f"crashed: the worker process {death}") if progress and death.by_agent else None

    def void(self, progress: list, reason: str) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, 0.0, 0.0, "void", f"no result: {reason}")

    def _crashed(self, reason: str) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, 0.0, 0.0, "crash", f"{self.solver.id} {reason}")
