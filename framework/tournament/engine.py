"""Engines outside a tournament: `plyground play` and `plyground serve`.

`GuardedAgent` is an agent that plays from an engine process of its own (framework/engine/): the same
confinement, protocol and judging as a tournament's participants. A move that overruns its hard limit
(twice the time budget plus a second, of the engine's CPU time, or its wall bound) is stopped and forfeits on
time; an engine that dies, breaks the protocol, errs or answers with an illegal move forfeits with the reason
and its last lines of standard error (match.Forfeit); one that cannot start or be set up for the game is a
ConfigError naming it. The engine keeps its agent between moves (`go` re-roots it at the position asked), so
its state (a seeded generator, a search tree) carries over as in one process. Besides moves with the figures
people are shown (depth, nodes, score, PV in notation, the time the referee measured), a GuardedAgent gives
coach verdicts (`verdict`).

An `EnginePool` keeps engines that were released healthy, so the next agent of the same kind (the web
workbench's next session) starts warm.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from framework.coach import searches
from framework.engine.client import Engine, EngineFailure, EngineSpec
from framework.engine.referee import EnginePool as _Pool
from framework.engine.referee import ask_move, budget_message
from framework.errors import ConfigError
from framework.match import Forfeit, MoveRecord, Relay
from framework.protocols import Budget, Decision, Game, SearchStats, State
from framework.timecontrol import Clock
from framework.tournament.guard import Cancelled
from framework.tournament.tasks import hard_limit


@dataclass(frozen=True)
class MoveOutcome:
    """A move's notation and figures (`pv` in notation, `wall_time` as the referee measured it)."""

    text: str
    stats: SearchStats = field(default_factory=SearchStats)   # checked, without the PV (`pv` has it in notation)
    pv: tuple[str, ...] = ()
    wall_time: float = 0.0

    def record(self, ply: int, mover: int) -> MoveRecord:
        """The move as a game's record holds it."""
        return MoveRecord(ply, mover, self.text, self.stats.nodes, self.stats.depth, self.stats.score, self.wall_time,
                          self.stats.cpu_time, self.pv, str(self.stats.extra.get("binding", "")),
                          str(self.stats.extra.get("binding_reason", "")))


class EnginePool(_Pool):
    """Engines released healthy, kept (at most `keep`) for the next agent of the same kind."""

    def __init__(self, keep: int = 2) -> None:
        super().__init__(max_idle=keep)


class GuardedAgent(Relay):
    """The agent `name` with `params`, playing from an engine process (see the module's docstring): taken from
    `pool` when one of its kind is idle there; each search within `memory_limit_mb` MiB more than the engine
    maps once loaded (None: no limit; a search past it forfeits, crashed: MemoryError); on `clock` when given
    (its time left with every move, lost on time when it runs out, as the referee keeps a tournament's). With
    `command`, a program plays instead (framework/engine/programs.py: its argv, the program's path absolute);
    `name` and `params` are then unused."""

    def __init__(self, name: str, params: Mapping[str, Any], game_name: str, game_options: Mapping[str, Any],
                 seed: int, plugins: tuple[str, ...] = (), where: str = "agent", label: str = "agent",
                 pool: EnginePool | None = None, memory_limit_mb: int | None = None,
                 clock: Clock | None = None, command: tuple[str, ...] | None = None) -> None:
        self.pool = pool if pool is not None else EnginePool(keep=0)
        self.owns_pool = pool is None
        self.label = label
        self.healthy = True
        self.clock = clock
        self.spec = EngineSpec(label, name, dict(params), plugins, None, memory_limit_mb=memory_limit_mb, where=where) \
            if command is None else EngineSpec(label, command=command, memory_limit_mb=memory_limit_mb)
        self.game = (game_name, dict(game_options), seed)
        try:
            self.engine = self._start()
        except EngineFailure as failure:
            if self.owns_pool:
                self.pool.close()
            reason = failure.reason.removeprefix("crashed: ")
            raise ConfigError(f"{label}: the agent could not be built: {reason}") from None

    def _start(self) -> Engine:
        """An engine from the pool, set up for the game (EngineFailure when it cannot be)."""
        engine = self.pool.take(self.spec)
        try:
            engine.new_game(self.game[0], self.game[1], 0, self.game[2], None)
        except EngineFailure:
            self.pool.give_back(engine, healthy=False)
            raise
        return engine

    def _engine(self) -> Engine:
        """The agent's engine, replaced first when it failed (a coach that crashed judges the next move afresh)."""
        if not self.engine.alive:
            self.pool.give_back(self.engine, healthy=False)
            self.engine = self._start()
        return self.engine

    def _failed(self, forfeit: Forfeit) -> Forfeit | Cancelled:
        """What a failed request raises: Cancelled when the pool was closed meanwhile (Ctrl-C), else the forfeit."""
        self.healthy = False
        return Cancelled() if self.pool.closed else forfeit

    def play(self, game: Game, state: State, budget: Budget) -> MoveOutcome:
        """The agent's move at `state` with its figures, on its `clock` when it has one; Forfeit when it gives none
        (the reason, its stderr)."""
        try:
            engine = self._engine()
            move, stats = ask_move(engine, game, state, {"type": "go", "start": game.to_text(state), "moves": [],
                                                         "budget": budget_message(budget)},
                                   hard_limit(budget), self.clock)
        except EngineFailure as failure:   # could not be started again
            raise self._failed(Forfeit(failure.termination, failure.reason, failure.details)) from None
        except Forfeit as forfeit:
            raise self._failed(forfeit) from None
        return MoveOutcome(game.format_move(state, move), replace(stats, pv=()), tuple(stats.pv),
                           engine.wall)

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        outcome = self.play(game, state, budget)
        return Decision(game.parse_move(state, outcome.text), replace(outcome.stats, pv=_pv(game, state, outcome.pv)))

    def verdict(self, game: Game, state: State, move: str, budget: Budget) -> str:
        """The agent's verdict as a coach (framework/coach.py) on `move` (notation) played at `state`, each of its
        searches within `budget`: one line, saying why there is none when the coach crashed or hung."""
        try:
            answer = self._engine().request({"type": "judge", "start": game.to_text(state), "moves": [],
                                             "move": move, "budget": budget_message(budget)},
                                            searches(game, state) * hard_limit(budget), ("verdict",),
                                            step="judging a move")
        except EngineFailure as failure:
            failed = self._failed(Forfeit(failure.termination, failure.reason))
            if isinstance(failed, Cancelled):
                raise failed from None
            return f"{move}: no verdict — the coach {failure.reason}"
        return str(answer.get("text", ""))[:1000]

    def close(self) -> None:
        self.pool.give_back(self.engine, self.healthy)
        if self.owns_pool:
            self.pool.close()


def _pv(game: Game, state: State, notation: tuple[str, ...]) -> tuple:
    moves = []
    for text in notation:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.apply(state, move)
    return tuple(moves)
