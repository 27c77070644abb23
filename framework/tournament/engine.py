"""Engines in guarded worker processes outside a tournament: `plyground play` and `plyground serve`.

`GuardedAgent` builds the real agent in a worker process (guard.py) and asks it for each move there, so
the same guarantees hold as in a tournament: a move that overruns its hard limit (twice the time budget
plus a second) is stopped and forfeits on time, and an agent that raises, calls `sys.exit` or `os._exit`,
or returns something invalid (`match.checked`: an illegal move, statistics that cannot be stored) forfeits
with the reason and traceback (match.Forfeit) instead of hanging or ending the program; one that cannot be
built (it raises, exits or hangs in its constructor) is a ConfigError naming it. The worker keeps the agent
between moves, so its state (a seeded generator, a search tree) carries over as in-process. A worker
killed from outside is replayed with a freshly built agent (guard.RETRIES times) and then ends the game
without a result (Termination.VOID). Besides moves with the figures people are shown (`play`: depth,
nodes, score, PV in notation, time taken in the worker), a GuardedAgent gives coach verdicts (`verdict`).

A GuardedAgent has a worker of its own, or borrows one per task from an `EnginePool` shared by many agents
(the web workbench's sessions, one per browser tab).
"""

from __future__ import annotations

import contextlib
import itertools
import resource
import threading
import traceback
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from framework.coach import coach_move, searches
from framework.errors import ConfigError, PlygroundError, one_line
from framework.match import Forfeit, MoveRecord, Relay, Termination, checked, crash_reason, pv_notation, quote
from framework.protocols import Budget, Decision, Game, SearchStats, State
from framework.search import Stopwatch
from framework.tournament.guard import GuardedWorker
from framework.tournament.tasks import BUILD_LIMIT, Beat, Death, WorkerContext, hard, hard_limit
from framework.tournament.worker import limit_memory

#: Agents a worker keeps built between tasks; past it the one asked least recently is dropped (rebuilt if asked again).
MAX_AGENTS = 6


@dataclass(frozen=True)
class MoveOutcome:
    """A move's notation and figures, a coach's verdict (`text`), or a forfeit (`termination` set, `text` the
    reason after the name, `details` a traceback)."""

    text: str
    stats: SearchStats = field(default_factory=SearchStats)   # checked, without the PV (`pv` has it in notation)
    termination: Termination | None = None
    details: str = ""
    retries: int = 0
    error: str = ""   # the agent refused its parameters when built (a PlygroundError's message)
    pv: tuple[str, ...] = ()
    wall_time: float = 0.0   # seconds the decision took in the worker

    def record(self, ply: int, mover: int) -> MoveRecord:
        """The move as a game's record holds it."""
        return MoveRecord(ply, mover, self.text, self.stats.nodes, self.stats.depth, self.stats.score, self.wall_time,
                          self.stats.cpu_time, self.pv, str(self.stats.extra.get("binding", "")),
                          str(self.stats.extra.get("binding_reason", "")))


@contextlib.contextmanager
def capped(memory_limit_mb: int | None) -> Iterator[None]:
    """This process's address space capped, while the block runs, at what it maps now plus `memory_limit_mb` MiB
    (RLIMIT_AS, as a tournament game's process: worker.limit_memory), then as it was. Per task, not per worker:
    the agents a worker keeps between moves stay mapped, and each search gets the same headroom. None: no cap."""
    if memory_limit_mb is None:
        yield
        return
    before = resource.getrlimit(resource.RLIMIT_AS)
    limit_memory(memory_limit_mb << 20)
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, before)


@dataclass(frozen=True)
class MoveTask:
    """Ask the agent `key` (built once per worker from `agent`, `params`, `seed`) for a move at `position`
    (None: only build it), or with `judge` (a move's notation) for its verdict as a coach on that move; building
    and searching may map at most `memory_limit_mb` MiB more than the worker does (None: no limit)."""

    key: str
    agent: str
    params: Mapping[str, Any]
    seed: int
    game: str
    game_options: Mapping[str, Any]
    position: str | None
    budget: Budget
    limit: float
    plugins: tuple[str, ...] = field(default=())
    where: str = "agent"
    label: str = "agent"   # how an error names the agent, e.g. "--first 'minimax:depth=2'"
    judge: str | None = None
    memory_limit_mb: int | None = None

    isolated = False     # the agent lives in its worker from move to move (its own, in `plyground play`)
    memory_limit = None

    @property
    def floor(self) -> float:
        return self.limit

    def prepare(self, context: WorkerContext) -> None:
        """Nothing: a move is not forked."""

    def run(self, context: WorkerContext, beat: Beat) -> MoveOutcome:
        game = context.game(self.plugins, self.game, self.game_options)
        with capped(self.memory_limit_mb):
            return self._run(context, game, beat)

    def _run(self, context: WorkerContext, game: Game, beat: Beat) -> MoveOutcome:
        agents = context.agents
        agent = agents.pop(self.key, None)
        if agent is None:
            beat(BUILD_LIMIT, True)
            try:
                agent = context.registry(self.plugins).create_agent(self.agent, game, dict(self.params),
                                                                    seed=self.seed, where=self.where)
            except PlygroundError as exc:
                return MoveOutcome("", error=str(exc))
            except (Exception, SystemExit) as exc:
                return MoveOutcome("", error=f"{self.label}: the agent could not be built: {one_line(exc)}")
            while len(agents) >= MAX_AGENTS:
                agents.pop(next(iter(agents)))   # the least recently asked
        agents[self.key] = agent   # the most recently asked last
        if self.position is None:
            return MoveOutcome("")
        state = game.from_text(self.position)
        beat(self.limit, False)
        watch = Stopwatch()
        try:
            if self.judge is not None:
                verdict = coach_move(game, state, game.parse_move(state, self.judge), agent, self.budget)
                return MoveOutcome(verdict.describe(game, state), wall_time=watch.wall())
            decision = agent.select_move(game, state, self.budget)
        except (Exception, SystemExit) as exc:   # the framework's exceptions too: an agent's Forfeit is its crash
            return MoveOutcome(f"crashed: {crash_reason(exc)}", termination=Termination.CRASH,
                               details=traceback.format_exc())
        try:
            move, stats = checked(game.legal_moves(state), decision)
        except Forfeit as exc:
            return MoveOutcome(exc.reason, termination=exc.termination, details=exc.details)
        wall = watch.wall()
        return MoveOutcome(game.format_move(state, move), replace(stats, pv=()), pv=pv_notation(game, state, stats.pv),
                           wall_time=wall)

    def vet(self, result: Any) -> str | None:
        """What makes `result` unfit to show (None: nothing)."""
        if not isinstance(result, MoveOutcome) or not isinstance(result.text, str):
            return f"{quote(result)} is not a move's outcome"
        if result.termination is not None and not isinstance(result.termination, Termination):
            return f"its termination {quote(result.termination)} is none of the framework's"
        return None

    def timed_out(self, progress: list, limit: float, measure: str) -> MoveOutcome:
        if progress[-1]:
            return self._unbuilt(f"it was stopped after {limit:g}s ({hard(measure)})")
        return MoveOutcome(f"was stopped after {limit:g}s on one move ({hard(measure)})", termination=Termination.TIME)

    def failed(self, progress: list, details: str) -> MoveOutcome | None:
        """A failure outside the agent's calls once it ran (what it broke in its process) is its crash."""
        if not progress:
            return None
        error = details.rstrip().rsplit("\n", 1)[-1]
        if progress[-1]:
            return self._unbuilt(f"its process failed: {error}")
        return MoveOutcome(f"crashed: its process failed while it was choosing a move ({error})",
                           termination=Termination.CRASH, details=details)

    def died(self, progress: list, death: Death) -> MoveOutcome | None:
        if not progress or not death.by_agent:
            return None
        if progress[-1]:
            return self._unbuilt(f"its process {death}")
        return MoveOutcome(f"crashed: its process {death} while it was choosing a move", termination=Termination.CRASH)

    def _unbuilt(self, reason: str) -> MoveOutcome:
        return MoveOutcome("", error=f"{self.label}: the agent could not be built: {reason}")

    def void(self, progress: list, reason: str) -> MoveOutcome:
        return MoveOutcome(f"could not be asked for a move: {reason}", termination=Termination.VOID)


class EnginePool:
    """Guarded workers lent out one task at a time to many agents; at most `keep` idle ones stay alive.

    A task goes to the idle worker that last ran its agent (it holds the agent built, with its state),
    else to any idle one, else to a new worker: a busy agent never waits for another.
    """

    def __init__(self, keep: int = 2) -> None:
        self.keep = keep
        self.idle: list[GuardedWorker] = []
        self.busy: set[GuardedWorker] = set()
        self.homes: dict[str, GuardedWorker] = {}   # an agent's key: the worker that last ran it
        self.lock = threading.Lock()

    def run(self, task: MoveTask) -> MoveOutcome:
        """Run `task` in a worker (blocking: call it from a thread, never from a web server's event loop)."""
        with self.lock:
            home = self.homes.get(task.key)
            worker = home if home in self.idle else self.idle[-1] if self.idle else GuardedWorker(depth=1)
            if worker in self.idle:
                self.idle.remove(worker)
            self.busy.add(worker)
        try:
            return worker.run(task)
        finally:
            with self.lock:
                self.busy.discard(worker)
                self.homes[task.key] = worker
                if len(self.idle) < self.keep and not worker.closed:
                    self.idle.append(worker)
                else:
                    worker.close()

    def forget(self, key: str) -> None:
        """The agent `key` will not be asked again."""
        with self.lock:
            self.homes.pop(key, None)

    def close(self) -> None:
        """Stop every worker: idle ones now, busy ones interrupted (their `run` raises guard.Cancelled)."""
        with self.lock:
            for worker in self.busy:
                worker.interrupt()
            for worker in self.idle:
                worker.close()
            self.idle.clear()
            self.homes.clear()


_serial = itertools.count(1)


class GuardedAgent(Relay):
    """The agent `name` with `params`, run in a guarded worker process (see the module's docstring): its own,
    or one of `pool`'s; each build and search within `memory_limit_mb` MiB more than the worker maps (None: no
    limit; a search past it forfeits, crashed: MemoryError)."""

    def __init__(self, name: str, params: Mapping[str, Any], game_name: str, game_options: Mapping[str, Any],
                 seed: int, plugins: tuple[str, ...] = (), where: str = "agent", label: str = "agent",
                 pool: EnginePool | None = None, memory_limit_mb: int | None = None) -> None:
        self.pool = pool if pool is not None else EnginePool(keep=1)
        self.owns_pool = pool is None
        key = f"{label} #{next(_serial)}"   # unique in this process, so a shared pool's workers never mix agents up
        self.task = MoveTask(key, name, dict(params), seed, game_name, dict(game_options), None, Budget(), BUILD_LIMIT,
                             plugins, where, label, memory_limit_mb=memory_limit_mb)
        built = self.pool.run(self.task)
        if built.error or built.termination is not None:   # not built: a one-line error naming the agent
            self.close()
            raise ConfigError(built.error or f"{label}: the agent could not be built: {built.text}")

    def play(self, game: Game, state: State, budget: Budget) -> MoveOutcome:
        """The agent's move at `state` with its figures; Forfeit when it gives none (the reason, a traceback)."""
        outcome = self.pool.run(replace(self.task, position=game.to_text(state), budget=budget,
                                        limit=hard_limit(budget)))
        if outcome.termination is not None:
            raise Forfeit(outcome.termination, outcome.text, outcome.details)
        return outcome

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        outcome = self.play(game, state, budget)
        pv = _moves(game, state, outcome.pv)
        return Decision(game.parse_move(state, outcome.text), replace(outcome.stats, pv=pv))

    def verdict(self, game: Game, state: State, move: str, budget: Budget) -> str:
        """The agent's verdict as a coach (framework/coach.py) on `move` (notation) played at `state`, each of its
        searches within `budget`: one line, saying why there is none when the coach crashed or hung."""
        outcome = self.pool.run(replace(self.task, position=game.to_text(state), budget=budget,
                                        limit=searches(game, state) * hard_limit(budget), judge=move))
        return outcome.text if outcome.termination is None else f"{move}: no verdict — the coach {outcome.text}"

    def close(self) -> None:
        if self.owns_pool:
            self.pool.close()
        else:
            self.pool.forget(self.task.key)


def _moves(game: Game, state: State, notation: Sequence[str]) -> tuple:
    """The moves of a principal variation given in notation (as `pv_notation` wrote it in the worker)."""
    moves = []
    for text in notation:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.apply(state, move)
    return tuple(moves)
