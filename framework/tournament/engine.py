"""An agent whose moves run in a guarded worker process, for one game played outside a tournament (`plyground play`).

`GuardedAgent` builds the real agent in a worker process (guard.py) and asks it for each move there, so
the same guarantees hold as in a tournament: a move that overruns its hard limit (twice the time budget
plus a second) is stopped and forfeits on time, and an agent that raises, calls `sys.exit` or `os._exit`,
or returns something invalid forfeits with the reason (match.Forfeit) instead of hanging or ending the
program; one that cannot be built (it raises, exits or hangs in its constructor) is a ConfigError naming
it. The worker keeps the agent between moves, so its state (a seeded generator, a search tree) carries
over as in-process. A worker killed from outside is replayed with a freshly built agent
(guard.RETRIES times) and then ends the game without a result.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from framework.errors import ConfigError, PlygroundError, one_line
from framework.match import Forfeit, Termination, checked, crash_reason
from framework.protocols import Budget, Decision, Game, SearchStats, State
from framework.tournament.guard import GuardedWorker
from framework.tournament.tasks import Beat, Death, WorkerContext

#: Seconds the worker may take to build the agent (a compiled search may compile its kernels first).
BUILD_LIMIT = 300.0


@dataclass(frozen=True)
class MoveOutcome:
    """A move's notation and statistics, or a forfeit (`termination` set, `text` the reason after the name)."""

    text: str
    stats: SearchStats = field(default_factory=SearchStats)
    termination: Termination | None = None
    details: str = ""
    retries: int = 0
    error: str = ""   # the agent refused its parameters when built (a PlygroundError's message)


@dataclass(frozen=True)
class MoveTask:
    """Ask the agent `key` (built once per worker from `agent`, `params`, `seed`) for a move at `position`
    (None: only build it)."""

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

    def run(self, context: WorkerContext, beat: Beat) -> MoveOutcome:
        game = context.game(self.plugins, self.game, self.game_options)
        agent = context.agents.get(self.key)
        if agent is None:
            beat(BUILD_LIMIT, True)
            try:
                agent = context.agents[self.key] = context.registry(self.plugins).create_agent(
                    self.agent, game, dict(self.params), seed=self.seed, where=self.where)
            except PlygroundError as exc:
                return MoveOutcome("", error=str(exc))
            except (Exception, SystemExit) as exc:
                return MoveOutcome("", error=f"{self.label}: the agent could not be built: {one_line(exc)}")
        if self.position is None:
            return MoveOutcome("")
        state = game.from_text(self.position)
        beat(self.limit, False)
        try:
            move, stats = checked(game.legal_moves(state), agent.select_move(game, state, self.budget))
        except Forfeit as exc:
            return MoveOutcome(exc.reason, termination=exc.termination, details=exc.details)
        except (Exception, SystemExit) as exc:
            return MoveOutcome(f"crashed: {crash_reason(exc)}", termination=Termination.CRASH,
                               details=traceback.format_exc())
        return MoveOutcome(game.format_move(state, move), stats)

    def timed_out(self, progress: list, limit: float) -> MoveOutcome:
        if progress[-1]:
            return self._unbuilt(f"it was stopped after {limit:g}s (hard time limit)")
        return MoveOutcome(f"was stopped after {limit:g}s on one move (hard time limit)", termination=Termination.TIME)

    def died(self, progress: list, death: Death) -> MoveOutcome | None:
        if not progress or not death.by_agent:
            return None
        if progress[-1]:
            return self._unbuilt(f"its process {death}")
        return MoveOutcome(f"crashed: its process {death} while it was choosing a move", termination=Termination.CRASH)

    def _unbuilt(self, reason: str) -> MoveOutcome:
        return MoveOutcome("", error=f"{self.label}: the agent could not be built: {reason}")

    def void(self, progress: list, reason: str) -> MoveOutcome:
        return MoveOutcome(f"could not be asked for a move: its process {reason}", termination=Termination.VOID)


class GuardedAgent:
    """The agent `name` with `params`, run in its own guarded worker process (see the module's docstring)."""

    def __init__(self, name: str, params: Mapping[str, Any], game_name: str, game_options: Mapping[str, Any],
                 seed: int, plugins: tuple[str, ...] = (), where: str = "agent", label: str = "agent") -> None:
        self.guard = GuardedWorker(depth=1)
        self.task = MoveTask(f"{name} seed {seed}", name, dict(params), seed, game_name, dict(game_options), None,
                             Budget(), math.inf, plugins, where, label)
        built = self.guard.run(self.task)
        if built.error or built.termination is not None:   # not built: a one-line error naming the agent
            self.close()
            raise ConfigError(built.error or f"{label}: the agent could not be built: {built.text}")

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        limit = math.inf if budget.time is None else 2 * budget.time + 1.0
        outcome = self.guard.run(replace(self.task, position=game.to_text(state), budget=budget, limit=limit))
        if outcome.termination is not None:
            raise Forfeit(outcome.termination, outcome.text, outcome.details)
        return Decision(game.parse_move(state, outcome.text), outcome.stats)

    def close(self) -> None:
        self.guard.close()
