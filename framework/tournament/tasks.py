"""Tasks: independent units of work an executor runs in a guarded worker process.

A task is plain, picklable data with a stable `key` (the store's primary key, so a resumed
run skips what is done). Its `run(context, beat)` executes in a worker; before each step it
calls `beat(limit, progress)` to say "the next step may take at most `limit` seconds". When
the supervisor has to stop a step, or the worker dies, it asks the task to turn the last
progress into a result (`timed_out`, `died`), so a hung or crashing agent costs one task.

`GameTask` plays one game; `SolveTask` runs one solver on one position. Both measure the
worker's resident memory (`memory.PeakMeter`): a game from its start, a solve from the moment
its solver is built, so the figure is the search's and not the loading of compiled code.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from framework.adjudication import Adjudication
from framework.errors import PluginError
from framework.match import GameRecord, MoveRecord, Termination, play_game
from framework.protocols import Proof
from framework.registry import Registry
from framework.search import Stopwatch
from framework.specs import AgentSpec, GameFileSpec, GameSpec, HeuristicSpec
from framework.tournament.config import Participant, load_plugin_file
from framework.tournament.memory import PeakMeter, TaskMemory

Beat = Callable[[float, Any], None]


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


class WorkerContext:
    """What a worker process keeps between tasks: a registry per (plugin files, entry points) and built games."""

    def __init__(self) -> None:
        self._registries: dict[tuple, Registry] = {}
        self._games: dict[tuple, Any] = {}

    def registry(self, plugins: tuple[str, ...], entry_points: tuple[str, ...] | None = None) -> Registry:
        """The registry with these plugin files; `entry_points`: the plugins to load first (None: all)."""
        key = (plugins, entry_points)
        if key not in self._registries:
            registry = Registry() if entry_points is None else WorkerRegistry(entry_points)
            for file in plugins:
                load_plugin_file(registry, file)
            self._registries[key] = registry
        return self._registries[key]

    def game(self, plugins: tuple[str, ...], name: str, options: Mapping[str, Any],
             entry_points: tuple[str, ...] | None = None) -> Any:
        key = (plugins, entry_points, name, tuple(sorted(options.items())))
        if key not in self._games:
            self._games[key] = self.registry(plugins, entry_points).create_game(name, options)
        return self._games[key]


class Task(Protocol):
    """The protocol executors and the store rely on."""

    key: str

    def run(self, context: WorkerContext, beat: Beat) -> Any: ...
    def timed_out(self, progress: list, limit: float) -> Any: ...
    def died(self, progress: list, reason: str) -> Any: ...


@dataclass(frozen=True)
class Progress:
    """A game's state between moves: the move just played (None at the start) and who moves next."""

    record: MoveRecord | None
    mover: int
    mover_name: str
    position: str


@dataclass(frozen=True)
class GameResult:
    """A finished game task: the task that produced it, its record and the worker's memory (None: stopped)."""

    task: "GameTask"
    record: GameRecord
    memory: TaskMemory | None = None


@dataclass(frozen=True)
class GameTask:
    """One game of a pairing: `first` plays player 0 from `start` (None: the initial state)."""

    key: str
    pairing: tuple[str, str]
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

    @property
    def players(self) -> tuple[Participant, Participant]:
        return (self.first, self.second)

    def hard_limit(self, mover: int) -> float:
        """Seconds after which the supervisor stops a move: twice the time budget plus a second, capped."""
        budget_time = self.players[mover].budget.time
        if budget_time is None:
            return self.move_time_limit
        return min(self.move_time_limit, 2 * budget_time + 1.0)

    def run(self, context: WorkerContext, beat: Beat) -> GameResult:
        registry = context.registry(self.plugins, self.entry_points)
        game = context.game(self.plugins, self.game, self.game_options, self.entry_points)
        meter = PeakMeter()   # after loading plugins (once per worker), before building the agents
        state = game.from_text(self.start) if self.start is not None else game.initial_state()
        state = random_opening(game, state, self.random_plies, self.opening_seed)
        ids = (self.first.id, self.second.id)

        def announce(position: Any, record: MoveRecord | None) -> None:
            mover = game.to_move(position)
            beat(self.hard_limit(mover), Progress(record, mover, game.player_names[mover], game.to_text(position)))

        announce(state, None)
        agents = []
        for i, p in enumerate(self.players):
            try:
                agents.append(registry.create_agent(p.agent, game, p.params, seed=derive_seed(self.seed, i)))
            except Exception as exc:  # a constructor that raises forfeits like a crash in a move
                reason = f"{game.player_names[i]} ({p.id}) crashed when created: {type(exc).__name__}: {exc}"
                return self._forfeit(i, game.to_text(state), Termination.CRASH, reason, [])
        record = play_game(game, agents, budgets=(self.first.budget, self.second.budget), start=state,
                           players=ids, max_plies=self.max_plies, adjudication=self.adjudication,
                           on_move=lambda before, move, after: announce(after, move))
        return GameResult(self, record, meter.read())

    def timed_out(self, progress: list[Progress], limit: float) -> GameResult:
        last = progress[-1]
        reason = (f"{last.mover_name} ({self.players[last.mover].id}) was stopped after {limit:g}s on one move "
                  "(hard time limit)")
        return self._forfeit(last.mover, last.position, Termination.TIME, reason, progress)

    def died(self, progress: list[Progress], reason: str) -> GameResult:
        last = progress[-1]
        text = f"{last.mover_name} ({self.players[last.mover].id}) crashed: {reason}"
        return self._forfeit(last.mover, last.position, Termination.CRASH, text, progress)

    def _forfeit(self, loser: int, final: str, termination: Termination, reason: str,
                 progress: list[Progress]) -> GameResult:
        result = (-1.0, 1.0) if loser == 0 else (1.0, -1.0)
        moves = tuple(p.record for p in progress if p.record is not None)
        start = progress[0].position if progress else final
        record = GameRecord(self.game, (self.first.id, self.second.id), start, final, result, 1 - loser,
                            termination, reason, moves)
        return GameResult(self, record)


@dataclass(frozen=True)
class SolveOutcome:
    """A finished solve task: the proven value (a Proof value), the best move's notation and the search figures.

    `status` is "solved" (win, loss or draw proven), "unknown" (the budget ran out), "crash" or "time"
    (the solver raised or overran its hard limit); `extra` holds the solver's own scalar figures (lists and
    mappings it reports are not stored). `peak_entries` is the solver's `SearchStats.peak_entries`, `memory`
    the worker's resident memory during the solve (both None when the solver reports none or was stopped).
    """

    task: "SolveTask"
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

    def hard_limit(self) -> float:
        budget_time = self.solver.budget.time
        return self.move_time_limit if budget_time is None else min(self.move_time_limit, 2 * budget_time + 1.0)

    def run(self, context: WorkerContext, beat: Beat) -> SolveOutcome:
        registry = context.registry(self.plugins, self.entry_points)
        game = context.game(self.plugins, self.game, self.game_options, self.entry_points)
        state = game.from_text(self.position)
        beat(self.hard_limit(), None)
        watch = Stopwatch()
        try:
            agent = registry.create_agent(self.solver.agent, game, self.solver.params, seed=derive_seed(self.seed, 0))
            meter = PeakMeter()
            result = agent.solve(game, state, self.solver.budget)
            memory = meter.read()
        except Exception as exc:  # a crashing solver costs this position only
            return self.died([None], f"{type(exc).__name__}: {exc}")
        stats = result.stats
        move = game.format_move(state, result.move) if result.move in game.legal_moves(state) else None
        solved = result.value in (Proof.WIN, Proof.LOSS, Proof.DRAW)
        extra = {k: v for k, v in stats.extra.items() if isinstance(v, (int, float, str, bool, type(None)))}
        return SolveOutcome(self, result.value.value, move, stats.nodes, stats.depth, watch.wall(), watch.cpu(),
                            "solved" if solved else "unknown", extra=extra, peak_entries=stats.peak_entries,
                            memory=memory)

    def timed_out(self, progress: list, limit: float) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, limit, 0.0, "time",
                            f"{self.solver.id} was stopped after {limit:g}s (hard time limit)")

    def died(self, progress: list, reason: str) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, 0.0, 0.0, "crash", f"{self.solver.id} crashed: {reason}")
