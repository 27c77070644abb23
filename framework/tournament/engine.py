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

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from framework.coach import searches
from framework.engine.client import Engine, EngineFailure, EngineSpec
from framework.engine.referee import EnginePool as _Pool
from framework.engine.referee import budget_message, search_stats
from framework.errors import ConfigError
from framework.match import Forfeit, MoveRecord, Relay, Termination
from framework.protocols import Budget, Decision, Game, SearchStats, State
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


_serial = itertools.count(1)


class GuardedAgent(Relay):
    """The agent `name` with `params`, playing from an engine process (see the module's docstring): taken from
    `pool` when one of its kind is idle there; each search within `memory_limit_mb` MiB more than the engine
    maps once loaded (None: no limit; a search past it forfeits, crashed: MemoryError). With `command`, a program
    plays instead (framework/engine/programs.py: its argv, the program's path absolute); `name` and `params` are
    then unused."""

    def __init__(self, name: str, params: Mapping[str, Any], game_name: str, game_options: Mapping[str, Any],
                 seed: int, plugins: tuple[str, ...] = (), where: str = "agent", label: str = "agent",
                 pool: EnginePool | None = None, memory_limit_mb: int | None = None,
                 command: tuple[str, ...] | None = None) -> None:
        self.pool = pool if pool is not None else EnginePool(keep=0)
        self.owns_pool = pool is None
        self.label = label
        self.healthy = True
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

    def _ask(self, message: dict[str, Any], limit: float, expect: str, step: str) -> dict[str, Any]:
        """The engine's answer; Forfeit when it fails (a failed engine is replaced before the next question, so a
        coach that crashed on one move judges the next afresh), Cancelled when the pool was closed meanwhile."""
        try:
            if not self.engine.alive:
                self.pool.give_back(self.engine, healthy=False)
                self.engine = self._start()
            return self.engine.request(message, limit, (expect,), step=step)
        except EngineFailure as failure:
            self.healthy = False
            if self.pool.closed:
                raise Cancelled from None
            raise Forfeit(failure.termination, failure.reason, failure.details) from None

    def play(self, game: Game, state: State, budget: Budget) -> MoveOutcome:
        """The agent's move at `state` with its figures; Forfeit when it gives none (the reason, its stderr)."""
        answer = self._ask({"type": "go", "start": game.to_text(state), "moves": [],
                            "budget": budget_message(budget), "clock": {}}, hard_limit(budget), "move",
                           "choosing a move")
        text = answer.get("move")
        try:
            move = game.parse_move(state, str(text))
        except Exception:
            self.healthy = False
            raise Forfeit(Termination.ILLEGAL_MOVE, f"played an illegal move {str(text)[:80]!r}") from None
        try:
            stats = search_stats(game, state, answer.get("stats"), self.engine.used, self.engine.wall)
        except Forfeit:
            self.healthy = False
            raise
        pv = []
        after = state
        for pv_move in stats.pv:
            pv.append(game.format_move(after, pv_move))
            after = game.apply(after, pv_move)
        return MoveOutcome(game.format_move(state, move), replace(stats, pv=()), tuple(pv), self.engine.wall)

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        outcome = self.play(game, state, budget)
        return Decision(game.parse_move(state, outcome.text), replace(outcome.stats, pv=_pv(game, state, outcome.pv)))

    def verdict(self, game: Game, state: State, move: str, budget: Budget) -> str:
        """The agent's verdict as a coach (framework/coach.py) on `move` (notation) played at `state`, each of its
        searches within `budget`: one line, saying why there is none when the coach crashed or hung."""
        try:
            answer = self._ask({"type": "judge", "start": game.to_text(state), "moves": [], "move": move,
                                "budget": budget_message(budget)},
                               searches(game, state) * hard_limit(budget), "verdict", "judging a move")
        except Forfeit as exc:
            return f"{move}: no verdict — the coach {exc.reason}"
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
