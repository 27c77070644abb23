"""A conformance check for engines (`plyground engine-check COMMAND... --game G`): one verdict per check.

The checks, in order, each judged as the referee judges a game (client.Engine: the same confinement, limits and
reasons):

- **handshake**: it answers `hello` with the referee's protocol version;
- **readiness**: set up for a game (`new`), it answers `isready` with `readyok`;
- **legal moves**: in `games` random games (seeded; the dice rolled as the referee rolls them) it is asked for a
  move at every ply where a player moves, with the moves since the start; every answer must parse and be legal
  in the referee's game, with well-formed `stats`; the game then goes on with a random legal move, so the
  positions asked about are many and varied;
- **time**: every one of those answers arrives within its budget (10% and 50 ms of slack, as in a game) and
  within the hard limit of CPU time (twice the time budget plus a second);
- **malformed message**: a line that is not JSON, and an object of an unknown type: it answers `error` or
  ignores each, and then still answers `isready`;
- **quit**: it exits within QUIT_WAIT seconds of `quit`.

A check that cannot run because an earlier one failed is reported as skipped. The engine is started afresh for a
check when the one before left it dead.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from framework.engine.client import Engine, EngineFailure, EngineSpec
from framework.engine.protocol import PROTOCOL_VERSION
from framework.engine.referee import budget_message, search_stats
from framework.match import Forfeit, Termination, pick_outcome
from framework.protocols import CHANCE, Budget, Game

#: Seconds an engine gets to exit after `quit`.
QUIT_WAIT = 2.0
#: The malformed lines sent, and what each is.
MALFORMED = ((b'{"type": "go", "moves": [\n', "a line that is not JSON"),
             (b'{"type": "xyzzy"}\n', "a message of an unknown type"))
#: The slack a move gets past its time budget, as a game gives it (match.play_game).
TIME_SLACK, TIME_GRACE = 0.1, 0.05


@dataclass(frozen=True)
class Verdict:
    """One check's outcome: `status` ok, FAIL or skip, and what was seen."""

    check: str
    status: str
    text: str

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"

    def line(self) -> str:
        return f"{self.status:<5} {self.check}: {self.text}"


@dataclass(frozen=True)
class Settings:
    """How hard to check: random games, the budget of each move, their seed, and the CPU seconds allowed for the
    handshake and readiness (their wall bound is three times that plus 5 s, as in a game)."""

    games: int = 10
    budget: Budget = field(default_factory=lambda: Budget(time=1.0))
    seed: int = 0
    setup_limit: float = 10.0
    max_plies: int = 1000

    @property
    def move_limit(self) -> float:
        """The hard limit of CPU time of one move: twice its time budget plus a second (the setup limit without)."""
        return self.setup_limit if self.budget.time is None else 2 * self.budget.time + 1.0


def _failure(failure: EngineFailure) -> str:
    """An engine's failure with the last line of its standard error, when it wrote one."""
    last = next((line.strip() for line in reversed(failure.details.splitlines()) if line.strip()), "")
    return failure.reason + (f" (its stderr ends: {last[:200]!r})" if last else "")


class Checker:
    """Runs the checks on one engine (see the module's docstring); `report` gets each verdict as it is made."""

    def __init__(self, spec: EngineSpec, game_name: str, options: Mapping[str, Any], game: Game,
                 settings: Settings = Settings(), report: Callable[[Verdict], None] = lambda verdict: None) -> None:
        self.spec = spec
        self.game_name = game_name
        self.options = dict(options)
        self.game = game
        self.settings = settings
        self.report = report
        self.verdicts: list[Verdict] = []
        self.engine: Engine | None = None

    def say(self, check: str, status: str, text: str) -> None:
        verdict = Verdict(check, status, text)
        self.verdicts.append(verdict)
        self.report(verdict)

    def run(self) -> list[Verdict]:
        try:
            if not self.handshake():
                for check in ("readiness", "legal moves", "time", "malformed message", "quit"):
                    self.say(check, "skip", "not run: no handshake")
                return self.verdicts
            if self.readiness():
                self.moves()
                self.malformed()
            else:
                for check in ("legal moves", "time", "malformed message"):
                    self.say(check, "skip", "not run: the engine did not get ready for a game")
            self.quit()
            return self.verdicts
        finally:
            if self.engine is not None:
                self.engine.close()

    # -- the checks ---------------------------------------------------------------------------

    def handshake(self) -> bool:
        try:
            self.engine = Engine(self.spec, startup_limit=self.settings.setup_limit)
        except EngineFailure as failure:
            self.say("handshake", "FAIL", _failure(failure).replace("crashed: ", "", 1))
            return False
        engine = self.engine
        self.say("handshake", "ok", f"protocol {PROTOCOL_VERSION}, engine {engine.name!r} version {engine.version!r}")
        return True

    def _setup(self, engine: Engine, seed: int) -> None:
        engine.send({"type": "new", "game": self.game_name, "options": self.options, "seat": 0, "seed": seed,
                     "start": self.game.to_text(self.game.initial_state()), "params": {}})
        engine.request({"type": "isready"}, self.settings.setup_limit, ("readyok",), step="getting ready for a game")

    def _fresh(self) -> Engine:
        """The engine, alive and set up for a game: a new one when the last one died."""
        if self.engine is None or not self.engine.alive:
            if self.engine is not None:
                self.engine.close()
            self.engine = Engine(self.spec, startup_limit=self.settings.setup_limit)
            self._setup(self.engine, self.settings.seed)
        return self.engine

    def readiness(self) -> bool:
        engine = self.engine
        assert engine is not None
        try:
            self._setup(engine, self.settings.seed)
        except EngineFailure as failure:
            self.say("readiness", "FAIL", _failure(failure))
            return False
        self.say("readiness", "ok", f"readyok {engine.wall * 1000:.1f} ms after isready")
        return True

    def moves(self) -> None:
        game, settings = self.game, self.settings
        budget, limit = settings.budget, settings.move_limit
        asked = 0
        slowest = (0.0, 0.0)
        late: str | None = None
        wrong: str | None = None
        stopped: str | None = None
        for number in range(1, settings.games + 1):
            rng = random.Random(f"{settings.seed}/{number}")
            try:
                engine = self._fresh()
                if number > 1:
                    self._setup(engine, settings.seed + number)
            except EngineFailure as failure:
                wrong = f"game {number}: could not be set up: {_failure(failure)}"
                break
            state, history = game.initial_state(), []
            for ply in range(1, settings.max_plies + 1):
                if game.is_terminal(state):
                    break
                if game.to_move(state) == CHANCE:
                    outcome = pick_outcome(game.chance_outcomes(state), rng.random())  # type: ignore[attr-defined]
                    history.append(game.format_move(state, outcome))
                    state = game.apply(state, outcome)
                    continue
                where = f"game {number}, ply {ply} ({game.to_text(state)!r})"
                try:
                    answer = engine.request({"type": "go", "moves": list(history), "budget": budget_message(budget),
                                             "clock": {}}, limit, ("move",))
                except EngineFailure as failure:
                    if failure.termination is Termination.TIME:
                        stopped = f"{where}: {failure.reason}"
                    else:
                        wrong = f"{where}: {_failure(failure)}"
                    break
                asked += 1
                slowest = max(slowest, (engine.wall, engine.used))
                if late is None and budget.time is not None and \
                        engine.wall > budget.time * (1 + TIME_SLACK) + TIME_GRACE:
                    late = f"{where}: took {engine.wall:.3f}s with a budget of {budget.time:g}s"
                text = answer.get("move")
                try:
                    if not isinstance(text, str):
                        raise Forfeit(Termination.INVALID_OUTPUT, f"sent a move that is not text: {str(text)[:80]!r}")
                    try:
                        game.parse_move(state, text)
                    except Exception:
                        raise Forfeit(Termination.ILLEGAL_MOVE, f"played an illegal move {text[:80]!r}; legal: "
                                      + " ".join(game.format_move(state, m) for m in game.legal_moves(state))[:200]
                                      ) from None
                    search_stats(game, state, answer.get("stats"), engine.used, engine.wall)
                except Forfeit as forfeit:
                    wrong = f"{where}: {forfeit.reason}"
                    engine.close()
                    break
                move = rng.choice(list(game.legal_moves(state)))
                history.append(game.format_move(state, move))
                state = game.apply(state, move)
            if wrong or stopped:
                break
        if wrong:
            self.say("legal moves", "FAIL", wrong)
        elif stopped:
            self.say("legal moves", "skip", f"{asked} positions answered legally before the engine was stopped "
                                            "on time (see time)")
        else:
            self.say("legal moves", "ok", f"{asked} positions from {settings.games} random games, every move legal "
                                          "with well-formed stats")
        shown = f"budget {_budget(budget)}, hard limit {limit:g}s of CPU"
        if stopped:
            self.say("time", "FAIL", stopped)
        elif late:
            self.say("time", "FAIL", f"{late} ({shown})")
        elif asked:
            self.say("time", "ok", f"slowest answer {slowest[0] * 1000:.1f} ms wall, {slowest[1] * 1000:.1f} ms CPU "
                                   f"({shown})")
        else:
            self.say("time", "skip", "no move was answered")

    def malformed(self) -> None:
        try:
            engine = self._fresh()
        except EngineFailure as failure:
            self.say("malformed message", "skip", f"not run: the engine could not be restarted: {_failure(failure)}")
            return
        answered = 0
        for line, what in MALFORMED:
            try:
                engine.send_raw(line)
                answer = engine.request({"type": "isready"}, self.settings.setup_limit, ("readyok",),
                                        step=f"answering {what} and then isready", errors=True)
                if answer["type"] == "error":
                    answered += 1
                    engine.receive(self.settings.setup_limit, ("readyok",), step=f"answering isready after {what}")
            except EngineFailure as failure:
                self.say("malformed message", "FAIL", f"after {what} ({line.decode().strip()!r}) it "
                                                      f"{_failure(failure)}")
                return
        self.say("malformed message", "ok", f"answered error to {answered} and ignored {len(MALFORMED) - answered} "
                                            f"of {len(MALFORMED)} malformed lines, and answered isready after each")

    def quit(self) -> None:
        try:
            engine = self._fresh()
        except EngineFailure as failure:
            self.say("quit", "skip", f"not run: the engine could not be restarted: {_failure(failure)}")
            return
        started = time.perf_counter()
        code: int | None
        try:
            engine.send({"type": "quit"})
            code = engine.proc.wait(QUIT_WAIT)
        except EngineFailure:
            code = engine.proc.poll()
            if code is None:
                self.say("quit", "FAIL", "its input closed before quit was sent")
                return
        except subprocess.TimeoutExpired:
            self.say("quit", "FAIL", f"still running {QUIT_WAIT:g}s after quit")
            return
        self.say("quit", "ok", f"exited with code {code} {(time.perf_counter() - started) * 1000:.1f} ms after quit")


def _budget(budget: Budget) -> str:
    parts = ([f"{budget.time:g}s"] if budget.time is not None else []) + \
        ([f"{budget.nodes:,} nodes"] if budget.nodes is not None else [])
    return " and ".join(parts) or "none"


def failed(verdicts: list[Verdict]) -> bool:
    """Whether any check failed."""
    return any(v.failed for v in verdicts)


__all__ = ["QUIT_WAIT", "Checker", "Settings", "Verdict", "failed"]
