"""Engine decisions for the browser workbench, run in the runner's guarded worker processes.

The web server never runs a search itself: each engine move (and each coach verdict) is a task
(`DecisionTask`, `CoachTask`) run by a `GuardedWorker` (framework/tournament/guard.py) from a
thread, so the event loop stays free, a hung agent is killed at its hard time limit and a crashing
one costs a message, never the server. `EnginePool` lends idle workers to the sessions (a worker
keeps its loaded plugins and compiled kernels between moves) and starts another when all are busy.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from framework.coach import coach_move
from framework.errors import PlygroundError
from framework.match import _pv_notation
from framework.protocols import Budget
from framework.search import Stopwatch
from framework.tournament.guard import GuardedWorker
from framework.tournament.tasks import Beat, WorkerContext, derive_seed

#: A worker stops an engine move after twice its time budget plus this (seconds), as the runner does.
HARD_LIMIT_SLACK = 1.0


def hard_limit(budget: Budget, cap: float) -> float:
    """Seconds after which the supervisor stops a decision: twice the time budget plus a second, at most `cap`."""
    return cap if budget.time is None else min(cap, 2 * budget.time + HARD_LIMIT_SLACK)


@dataclass(frozen=True)
class EngineMove:
    """What an engine decided, in notation, or why it did not (`error`, with `status` "crash" or "time")."""

    move: str | None
    nodes: int = 0
    depth: int = 0
    score: float | None = None
    pv: tuple[str, ...] = ()
    wall_time: float = 0.0
    status: str = "ok"
    error: str = ""


@dataclass(frozen=True)
class DecisionTask:
    """One agent's decision in one position (text form): a Task for GuardedWorker."""

    key: str
    game: str
    game_options: Mapping[str, Any]
    agent: str
    params: Mapping[str, Any]
    position: str
    budget: Budget
    seed: int
    limit: float
    plugins: tuple[str, ...] = ()

    def run(self, context: WorkerContext, beat: Beat) -> EngineMove:
        game = context.game(self.plugins, self.game, dict(self.game_options))
        state = game.from_text(self.position)
        beat(self.limit, None)
        watch = Stopwatch()
        try:
            agent = context.registry(self.plugins).create_agent(self.agent, game, dict(self.params),
                                                                seed=derive_seed(self.seed, self.key))
            decision = agent.select_move(game, state, self.budget)
        except Exception as exc:  # a crashing agent costs this decision, reported on the page
            return self.died([], f"{type(exc).__name__}: {exc}")
        if decision.move not in game.legal_moves(state):
            return EngineMove(None, status="illegal", error=f"returned an illegal move {decision.move!r}")
        stats = decision.stats
        return EngineMove(game.format_move(state, decision.move), stats.nodes, stats.depth,
                          None if stats.score is None else float(stats.score), _pv_notation(game, state, stats.pv),
                          watch.wall())

    def timed_out(self, progress: list, limit: float) -> EngineMove:
        return EngineMove(None, status="time", error=f"was stopped after {limit:g}s on one move (hard time limit)")

    def died(self, progress: list, reason: str) -> EngineMove:
        return EngineMove(None, status="crash", error=f"crashed: {reason}")


@dataclass(frozen=True)
class CoachTask:
    """The coach's verdict on `move` played in `position`: one line of text (framework/coach.py)."""

    key: str
    game: str
    game_options: Mapping[str, Any]
    agent: str
    params: Mapping[str, Any]
    position: str
    move: str
    budget: Budget
    seed: int
    limit: float
    plugins: tuple[str, ...] = ()

    def run(self, context: WorkerContext, beat: Beat) -> str:
        game = context.game(self.plugins, self.game, dict(self.game_options))
        state = game.from_text(self.position)
        beat(self.limit, None)
        try:
            coach = context.registry(self.plugins).create_agent(self.agent, game, dict(self.params), seed=self.seed)
            move = game.parse_move(state, self.move)
            return coach_move(game, state, move, coach, self.budget).describe(game, state)
        except Exception as exc:
            return self.died([], f"{type(exc).__name__}: {exc}")

    def timed_out(self, progress: list, limit: float) -> str:
        return f"{self.move}: no verdict — the coach was stopped after {limit:g}s (hard time limit)"

    def died(self, progress: list, reason: str) -> str:
        return f"{self.move}: no verdict — the coach crashed: {reason}"


@dataclass(frozen=True)
class BuildTask:
    """Build a new game's agents in a worker: a bad parameter is reported when the game is created, and the
    worker has loaded (or compiled) what they need before the first move is timed. Answers None or the error."""

    key: str
    game: str
    game_options: Mapping[str, Any]
    agents: tuple[tuple[str, str, Mapping[str, Any]], ...]   # (where, name, params)
    limit: float
    plugins: tuple[str, ...] = ()

    def run(self, context: WorkerContext, beat: Beat) -> str | None:
        game = context.game(self.plugins, self.game, dict(self.game_options))
        beat(self.limit, None)
        for where, name, params in self.agents:
            try:
                context.registry(self.plugins).create_agent(name, game, dict(params), where=where)
            except PlygroundError as exc:
                return str(exc)
            except Exception as exc:  # a constructor that refuses its parameters its own way
                return f"{where} '{name}': {type(exc).__name__}: {exc}"
        return None

    def timed_out(self, progress: list, limit: float) -> str:
        return f"building the agents took more than {limit:g}s"

    def died(self, progress: list, reason: str) -> str:
        return f"building the agents crashed: {reason}"


@dataclass
class EnginePool:
    """Guarded workers lent out one task at a time; at most `keep` idle ones are kept alive."""

    keep: int = 2
    idle: list[GuardedWorker] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    busy: set[GuardedWorker] = field(default_factory=set)

    def run(self, task: DecisionTask | CoachTask | BuildTask) -> Any:
        """Run `task` in a worker (blocking: call it from a thread, never from the event loop)."""
        with self.lock:
            worker = self.idle.pop() if self.idle else GuardedWorker(depth=1)
            self.busy.add(worker)
        try:
            return worker.run(task)  # type: ignore[arg-type]  # Task's progress types are GameTask's
        finally:
            with self.lock:
                self.busy.discard(worker)
                if len(self.idle) < self.keep and not worker.closed:
                    self.idle.append(worker)
                else:
                    worker.close()

    def close(self) -> None:
        """Stop every worker (the server is shutting down): busy ones are interrupted."""
        with self.lock:
            for worker in self.busy:
                worker.interrupt()
            for worker in self.idle:
                worker.close()
            self.idle.clear()
