"""The referee: the runner's side of a game, which alone holds the board, the clocks and the result.

Each participant plays from an engine process (client.py). The referee applies every move to its own game
object through `match.play_game` (the checked path: legality, repetition, adjudication, the dice drawn from
the game's seed), gives each engine the moves played so far with every `go`, measures each move's time
itself, and derives the result from the moves alone. An engine never reports a result, and what one engine
does cannot reach another's process or the store.

`EnginePool` keeps engines between games (per process: a tournament worker, `play`, the workbench): an engine
that played a game honestly is set up for the next one with `new` (a per-game reset); one that failed is
stopped, and a fresh one is started when it is needed again.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from framework.engine.client import BUILD_LIMIT, Engine, EngineFailure, EngineSpec
from framework.match import Forfeit, Relay, Termination, crash_reason
from framework.protocols import Budget, Decision, Game, Move, Proof, SearchStats, SolveResult, State
from framework.timecontrol import Clock

#: A PV is kept as the engine wrote it, in notation (shown, never judged): at most this many moves of this length.
MAX_PV = 200
MAX_PV_TEXT = 64
#: Idle engines a pool keeps; past it the one idle longest is stopped.
MAX_IDLE = 8


def budget_message(budget: Budget) -> dict[str, Any]:
    return {key: value for key, value in (("time", budget.time), ("nodes", budget.nodes)) if value is not None}


def _number(stats: Mapping[str, Any], name: str, kind: type, default: Any) -> Any:
    value = stats.get(name, default)
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return kind(value) if value is not None and kind is int and isinstance(value, int) else value
    raise Forfeit(Termination.INVALID_OUTPUT, f"sent stats with {name}={str(value)[:80]!r}, not a number")


def search_stats(game: Game, state: State, stats: Any, used: float, wall: float) -> SearchStats:
    """The statistics an engine sent, with the times the referee measured (never the engine's own); the PV stays
    in the engine's notation (`pv` of strings, which `match.play_game` records as it is)."""
    if not isinstance(stats, dict):
        stats = {}
    extra = stats.get("extra")
    extra = {str(k)[:100]: v for k, v in extra.items()
             if isinstance(v, (int, float, str, bool, type(None))) and k != "clock"} \
        if isinstance(extra, dict) else {}   # the clock is the referee's to say
    pv = stats.get("pv")
    return SearchStats(nodes=_number(stats, "nodes", int, 0), depth=_number(stats, "depth", int, 0),
                       score=_number(stats, "score", float, None),
                       pv=tuple(str(m)[:MAX_PV_TEXT] for m in pv[:MAX_PV]) if isinstance(pv, list) else (),
                       wall_time=wall, cpu_time=used, extra=extra,
                       peak_entries=_number(stats, "peak_entries", int, None))


class EnginePlayer(Relay):
    """One seat of a game played by an engine: `select_move` asks it with the moves played so far (`history`,
    kept by the referee) and raises Forfeit with its verdict when it fails (a Relay: that verdict stands); a
    move is stopped after `limit` seconds of the engine's CPU time (or its wall bound), and with a `clock` once
    the clock is spent. The clock is charged the engine's CPU time and its time left goes with every `go` and
    into the move's statistics (`extra["clock"]`, which the record keeps)."""

    def __init__(self, engine: Engine, history: list[str], limit: float, clock: Clock | None = None) -> None:
        self.engine = engine
        self.history = history
        self.limit = limit
        self.clock = clock
        self.failed = False

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        try:
            move, stats = ask_move(self.engine, game, state, {"type": "go", "moves": list(self.history),
                                                              "budget": budget_message(budget)},
                                   self.limit, self.clock)
        except Forfeit:
            self.failed = True
            raise
        return Decision(move, stats)


def ask_move(engine: Engine, game: Game, state: State, message: dict[str, Any], limit: float,
             clock: Clock | None = None) -> tuple[Move, SearchStats]:
    """Send `message` (a `go`; its `clock` is filled in here) and return the move the engine chose at `state`, with
    its statistics and the referee's times; Forfeit with the verdict when the engine fails, answers with no legal
    move, or runs out of time. With a clock the engine is stopped once its clock is spent, and the move is charged
    to it (its time left goes into `extra["clock"]`)."""
    cap = limit if clock is None else min(limit, clock.limit())
    try:
        answer = engine.request({**message, "clock": {} if clock is None else clock.message()}, cap, ("move",))
    except EngineFailure as failure:
        if failure.termination is Termination.TIME and clock is not None and cap < limit:
            raise Forfeit(Termination.TIME, f"lost on time: it used its {clock.left:.3f}s left and the "
                                            f"{clock.margin:g}s margin on one move", failure.details) from None
        raise Forfeit(failure.termination, failure.reason, failure.details) from None
    text = answer.get("move")
    if not isinstance(text, str):
        raise Forfeit(Termination.INVALID_OUTPUT, f"sent a move that is not text: {str(text)[:80]!r}")
    try:
        move = game.parse_move(state, text)
    except Exception:
        raise Forfeit(Termination.ILLEGAL_MOVE, f"played an illegal move {text[:80]!r}") from None
    stats = search_stats(game, state, answer.get("stats"), engine.used, engine.wall)
    if clock is not None:
        left = clock.left
        if not clock.spend(engine.used):
            raise Forfeit(Termination.TIME, f"lost on time: its move took {engine.used:.3f}s with {left:.3f}s left "
                                            f"on its clock (margin {clock.margin:g}s)")
        stats = replace(stats, extra={**stats.extra, "clock": round(clock.left, 6)})
    return move, stats


class EnginePool:
    """Engines kept between games in this process, by their spec's key."""

    def __init__(self, max_idle: int = MAX_IDLE) -> None:
        self.max_idle = max_idle
        self.idle: list[Engine] = []
        self.lent: set[Engine] = set()
        self.closed = False
        self.lock = threading.Lock()

    def take(self, spec: EngineSpec) -> Engine:
        """An idle engine of `spec`, else a new one (EngineFailure when it cannot start)."""
        with self.lock:
            for engine in reversed(self.idle):
                if engine.spec.key == spec.key:
                    self.idle.remove(engine)
                    if engine.alive:
                        self.lent.add(engine)
                        return engine
                    engine.close()
                    break
        engine = Engine(spec)
        with self.lock:
            self.lent.add(engine)
        if self.closed:
            engine.kill()   # closed meanwhile (from another thread): it would outlive the pool
        return engine

    def give_back(self, engine: Engine, healthy: bool) -> None:
        """An engine done with a game: kept for the next one when it played it honestly, else stopped."""
        with self.lock:
            self.lent.discard(engine)
        if not healthy or not engine.alive or self.closed:
            engine.close()
            return
        with self.lock:
            self.idle.append(engine)
            surplus = self.idle[:-self.max_idle] if len(self.idle) > self.max_idle else []
            del self.idle[:len(surplus)]
        for old in surplus:
            old.close()

    def close(self) -> None:
        """Stop the idle engines, and kill the lent ones (their requests in progress see their death)."""
        with self.lock:
            self.closed = True
            engines, self.idle = self.idle, []
            lent = list(self.lent)
        for engine in lent:
            engine.kill()
        for engine in engines:
            engine.close()


def solve_with(engine: Engine, game: Game, state: State, budget: Budget, limit: float) -> SolveResult:
    """Ask a solver's engine to solve `state` (set up with `new` at it); EngineFailure or Forfeit when it fails."""
    answer = engine.request({"type": "solve", "moves": [], "budget": budget_message(budget)}, limit, ("solved",),
                            step="solving")
    try:
        value = Proof(answer.get("value"))
    except ValueError:
        raise Forfeit(Termination.INVALID_OUTPUT, f"sent the value {str(answer.get('value'))[:80]!r}, none of "
                                                  f"{', '.join(p.value for p in Proof)}") from None
    text = answer.get("move")
    move = None
    if text is not None:
        try:
            move = game.parse_move(state, str(text))
        except Exception:
            raise Forfeit(Termination.ILLEGAL_MOVE, f"gave an illegal best move {str(text)[:80]!r}") from None
    return SolveResult(value, move, search_stats(game, state, answer.get("stats"), engine.used, engine.wall))


def setup_failure(label: str, exc: BaseException) -> tuple[Termination, str, str]:
    """How an engine that could not be started or set up for a game is judged: its crash (or void)."""
    if isinstance(exc, EngineFailure):
        return exc.termination, exc.reason, exc.details
    return Termination.CRASH, f"crashed: {crash_reason(exc)}", traceback.format_exc()


__all__ = ["BUILD_LIMIT", "EnginePlayer", "EnginePool", "setup_failure", "solve_with"]
