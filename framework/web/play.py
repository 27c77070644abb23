"""A game played in the browser: seats (a person or an agent), the moves so far, undo, resign, coaching.

A `PlaySession` belongs to one browser tab (its id is in the page's URL). People's moves are
parsed and checked here (rules are cheap); engines and the coach are `GuardedAgent`s whose moves
and verdicts run in the workers of the server's `EnginePool` (framework/tournament/engine.py, as
`plyground play`'s engines do), so a search never runs in the server's process. An engine that
crashes, exits, hangs past its hard limit or returns an illegal move or invalid statistics forfeits,
as in a tournament, and the page says why and shows the traceback.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from framework.agentspec import parse_agent_spec, parse_key_values
from framework.capabilities import capabilities, player_count, repetition_key
from framework.engine.programs import engine_argv, parse_program, resolve_program
from framework.errors import ConfigError, PlygroundError
from framework.match import Dice, Forfeit, MoveRecord, Termination, forfeit_result, seat_names
from framework.protocols import CHANCE, Budget, Game, State
from framework.records import Record, RecordMove, make_record
from framework.registry import Registry, load_plugin_file
from framework.tournament.engine import EnginePool, GuardedAgent

#: Engine seconds per move when the form leaves it empty; twice it plus a second stops a hung agent.
DEFAULT_MOVE_TIME = 1.0
MAX_MOVE_TIME = 120.0
DEFAULT_COACH_TIME = 1.0
#: The coach's name in errors, as `plyground play` names it; the seats are named as its --seat flags (first, ...).
COACH = "coach"


def fresh_seed() -> int:
    """A new session's dice seed when the form gives none."""
    return secrets.randbelow(2**31)


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: an agent with its parameters (`spec` as typed); `human` when the agent is the interactive
    one (a person at the keyboard: here, the browser), whose moves come from the page."""

    agent: str
    params: Mapping[str, Any]
    spec: str
    human: bool   # the agent is declared interactive (AgentSpec.interactive)
    command: tuple[str, ...] | None = None   # a program plays the seat (`cmd:PROGRAM ARGS`): the argv that starts it


@dataclass(frozen=True)
class Played:
    """One ply of the session: the notation, who made it (CHANCE: the dice rolled it), the engine's figures and
    the coach's verdict."""

    mover: int
    move: str
    engine: MoveRecord | None = None
    verdict: str | None = None


@dataclass(frozen=True)
class Ended:
    """A game ended by a resignation or a forfeit (the rules end the others by themselves): the payoff per seat."""

    termination: Termination
    result: tuple[float, ...]
    text: str


@dataclass
class PlaySession:
    """One game in one tab; `states[i]` is the position before `moves[i]`. Chance nodes are rolled at once by the
    session's `Dice` (seeded by `seed`, as a match's): no person or engine is ever asked at one."""

    game_name: str
    options: Mapping[str, Any]
    game: Game
    seats: tuple[Seat, ...]
    budget: Budget
    plugins: tuple[str, ...] = ()
    coach: Seat | None = None
    coach_budget: Budget = Budget(time=DEFAULT_COACH_TIME)
    start: State | None = None
    seed: int = field(default_factory=fresh_seed)
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    states: list[State] = field(default_factory=list)
    moves: list[Played] = field(default_factory=list)
    ended: Ended | None = None
    details: str = ""   # the traceback of the exception that cost an engine the game
    flipped: bool = False
    engines: dict[str, GuardedAgent] = field(default_factory=dict)   # by role, for the seats people do not play
    version: int = 0   # counts the changes of the game: a tab posting a move names the version it has seen

    def __post_init__(self) -> None:
        self.dice = Dice(self.seed)
        self.roles = seat_names(len(self.seats))
        if not self.states:
            self.states.append(self.start if self.start is not None else self.game.initial_state())
        self._roll()

    # -- the position ----------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def mover(self) -> int:
        return int(self.game.to_move(self.state))

    def over(self) -> bool:
        return self.ended is not None or self.game.is_terminal(self.state) or self._repetition() is not None

    def engine_to_move(self) -> bool:
        return not self.over() and not self.seats[self.mover].human

    def person_to_move(self) -> bool:
        return not self.over() and self.seats[self.mover].human

    def _repetition(self) -> int | None:
        limit = capabilities(self.game).repetition_limit
        if limit is None:
            return None
        key = repetition_key(self.game)
        keys = [key(s) for s in self.states]
        count = keys.count(keys[-1])
        return count if count >= limit else None

    def result(self) -> tuple[Termination, tuple[float, ...], str] | None:
        """How the game ended: termination, payoff per seat and reason; None while it goes on."""
        if self.ended is not None:
            return self.ended.termination, self.ended.result, self.ended.text
        count = self._repetition()
        if count is not None and not self.game.is_terminal(self.state):
            return (Termination.REPETITION, (0.0,) * len(self.seats),
                    f"the position occurred {count} times with the same side to move")
        if not self.game.is_terminal(self.state):
            return None
        reason = capabilities(self.game).end_reason
        return Termination.NORMAL, tuple(self.game.returns(self.state)), reason(self.state) if reason else ""

    def result_text(self) -> str | None:
        """"X (human) wins — normal", "draw — repetition" ...; None while the game goes on."""
        ended = self.result()
        if ended is None:
            return None
        termination, result, reason = ended
        if self.ended is not None:
            return self.ended.text
        why = f" — {'repetition: ' if termination is Termination.REPETITION else ''}{reason}" if reason else ""
        best = max(result)
        leaders = [seat for seat, r in enumerate(result) if r == best]
        if len(leaders) == len(result):
            return f"draw{why}"
        if len(leaders) > 1:
            return f"{' and '.join(self.label(s) for s in leaders)} share first place{why}"
        return f"{self.label(leaders[0])} wins{why}"

    def label(self, seat: int) -> str:
        return f"{self.game.player_names[seat]} ({self.seats[seat].spec})"

    def legal(self) -> list[tuple[str, tuple[str, ...]]]:
        """(notation, clicks) of every legal move: what the page needs to turn clicks into moves."""
        if self.over():
            return []
        clicks = capabilities(self.game).move_clicks
        return [(self.game.format_move(self.state, m), clicks(self.state, m) if clicks is not None else ())
                for m in self.game.legal_moves(self.state)]

    def build(self, pool: EnginePool, memory_limit_mb: int | None = None) -> None:
        """Build the engines, each in a worker of `pool` (blocking): ConfigError with the reason when one cannot be
        built (the others are released). Seat i's engine gets seed i, the coach the next one (as in `play`); each
        builds and searches within `memory_limit_mb` MiB more than its worker maps (None: no limit)."""
        try:
            for seed, (role, seat) in enumerate(zip((*self.roles, COACH), (*self.seats, self.coach))):
                if seat is not None and not seat.human:
                    self.engines[role] = GuardedAgent(seat.agent, seat.params, self.game_name, self.options, seed,
                                                      self.plugins, role, f"{role} '{seat.spec}'", pool,
                                                      memory_limit_mb, command=seat.command)
        except Exception:   # not built (ConfigError), or no worker could build it (WorkerError)
            self.close()
            raise

    def close(self) -> None:
        """Release the engines (the session is dropped)."""
        for engine in self.engines.values():
            engine.close()
        self.engines.clear()

    # -- moves -------------------------------------------------------------------------

    def human_move(self, text: str) -> None:
        """Play a person's move given in notation; MoveParseError (the game goes on) when it is not legal."""
        if self.over():
            raise ConfigError(f"'{text}': the game is over; start a new game or undo")
        if not self.seats[self.mover].human:
            raise ConfigError(f"'{text}': it is {self.label(self.mover)}'s turn, not yours")
        move = self.game.parse_move(self.state, text)
        notation = self.game.format_move(self.state, move)
        self._push(Played(self.mover, notation, verdict=self._coach(notation)), self.game.apply(self.state, move))

    def engine_move(self) -> None:
        """Let the agent on move choose, in a guarded worker (blocking: call from a thread)."""
        if not self.engine_to_move():
            raise ConfigError("it is not an engine's turn")
        mover = self.mover
        try:
            outcome = self.engines[self.roles[mover]].play(self.game, self.state, self.budget)
        except Forfeit as exc:
            loser = self.label(mover)
            if exc.termination is Termination.VOID:
                self.ended = Ended(exc.termination, (0.0,) * len(self.seats), f"no result — {loser} {exc.reason}")
            else:
                self.ended = Ended(exc.termination, forfeit_result(len(self.seats), mover),
                                   f"{self._others(mover)} — forfeit: {loser} {exc.reason}")
            self.details = exc.details
            return
        verdict = self._coach(outcome.text) if not any(s.human for s in self.seats) else None
        self._push(Played(mover, outcome.text, outcome.record(len(self.moves) + 1, mover), verdict),
                   self.game.apply(self.state, self.game.parse_move(self.state, outcome.text)))

    def _others(self, loser: int) -> str:
        """Who wins when `loser` forfeits or resigns: the other seat, or the others sharing its loss."""
        others = [self.label(s) for s in range(len(self.seats)) if s != loser]
        return f"{others[0]} wins" if len(others) == 1 else f"{', '.join(others)} share the win"

    def _coach(self, notation: str) -> str | None:
        coach = self.engines.get(COACH)
        return None if coach is None else coach.verdict(self.game, self.state, notation, self.coach_budget)

    def _push(self, played: Played, state: State) -> None:
        self.moves.append(played)
        self.states.append(state)
        self._roll()

    def _roll(self) -> None:
        """Roll the dice while the position is a chance node (the session's Dice, as a match rolls)."""
        while not self.over() and self.game.to_move(self.state) == CHANCE:
            outcome, record = self.dice.roll(self.game, self.state, len(self.moves) + 1)
            self.moves.append(Played(CHANCE, record.move))
            self.states.append(self.game.apply(self.state, outcome))

    def undo(self) -> None:
        """Take back the last move, the rolls after it, and the engine replies before it, back to a person's turn
        (if one plays). A roll taken back is rolled alike when its ply comes again (Dice)."""
        if not any(played.mover != CHANCE for played in self.moves):
            raise ConfigError("there is no move to undo")
        self.ended = None
        self.details = ""
        people = any(s.human for s in self.seats)
        taken = False
        while self.moves:
            taken = self._pop().mover != CHANCE or taken
            if taken and self.game.to_move(self.state) != CHANCE and (not people or self.seats[self.mover].human):
                break
        self._roll()

    def _pop(self) -> Played:
        self.states.pop()
        return self.moves.pop()

    def resign(self) -> None:
        if self.over():
            raise ConfigError("the game is already over")
        humans = [i for i, s in enumerate(self.seats) if s.human]
        if not humans:
            raise ConfigError("only a person can resign; no person plays this game")
        loser = self.mover if self.mover in humans else humans[0]
        self.ended = Ended(Termination.RESIGN, forfeit_result(len(self.seats), loser),
                           f"{self._others(loser)} — {self.label(loser)} resigned")

    def record(self, fmt: str) -> Record:
        """The game so far as a record (records.py): the same record `plyground export` writes of a stored game,
        in format `fmt` (pgn, pdn or jsonl); an unfinished game's Result is `*` and its dice seed null (the
        record is downloadable mid-game, and the seed would tell every roll to come)."""
        ended = self.result()
        players = [seat.spec for seat in self.seats]
        moves = tuple(RecordMove(p.move, chance=True) if p.mover == CHANCE else
                      RecordMove(p.move, mover=p.mover) if p.engine is None else
                      RecordMove(p.move, p.engine.depth, p.engine.nodes, p.engine.wall_time, p.engine.score,
                                 " ".join(p.engine.pv), p.mover, binding=p.engine.binding or None,
                                 binding_reason=p.engine.binding_reason or None)
                      for p in self.moves)
        return make_record(
            game=self.game_name, event="Plyground workbench", date=time.strftime("%Y.%m.%d", time.gmtime()),
            round="1", players=players, result=None if ended is None else ended[1],
            termination="*" if ended is None else ended[0].value, reason="" if ended is None else ended[2],
            start=self.game.to_text(self.states[0]), final=self.game.to_text(self.state), moves=moves, fmt=fmt,
            key=self.id, pdn_type=capabilities(self.game).pdn_game_type,
            time_control=f"move_time={self.budget.time:g}" if self.budget.time else None,
            extra={"seed": None if ended is None else self.seed,   # the seed foretells every roll: not mid-game
                   "engines": [self._engine_name(role) for role in self.roles]})

    def _engine_name(self, role: str) -> dict[str, str | None]:
        """A seat's engine as its handshake named it ({name, version}; nulls for a person), as a run's records."""
        engine = self.engines.get(role)
        return {"name": None if engine is None else engine.engine.name,
                "version": None if engine is None else engine.engine.version or None}


def parse_seat(registry: Registry, text: str, where: str, programs: bool = False) -> Seat:
    """A seat from `NAME[:key=value,...]`; empty: the default of `plyground play --first` for the first seat,
    of `--second` for the others. A program (`cmd:PROGRAM ARGS`, `uci:PROGRAM ARGS`, as `plyground play` reads
    it) only when the server allows `programs` (`plyground serve --programs`): a page must not start any
    program on the machine unless its owner said so."""
    text = (text or "").strip() or registry.default_for(f"play --{'first' if where == 'first' else 'second'}")
    parsed = parse_program(text, where)
    if parsed is not None:
        if not programs:
            raise ConfigError(f"{where}: '{text}' names a program; the workbench starts programs only when it was "
                              "started with 'plyground serve --programs'")
        protocol, argv = parsed
        return Seat("", {}, text, False, engine_argv(resolve_program(argv, Path.cwd(), f"{where} '{text}'"), protocol))
    name, params = parse_agent_spec(text, where)
    return Seat(name, params, text, registry.agent_spec(name).interactive)


def seat_count(registry: Registry, form: Mapping[str, str]) -> int:
    """How many seats the form's game with its options has (2 while the game or its options are not valid yet:
    the form then says what is wrong with them)."""
    try:
        game = registry.create_game((form.get("game") or "").strip(),
                                    parse_key_values(form.get("options") or "", "options"), where="game")
    except PlygroundError:
        return 2
    return player_count(game)


def parse_seconds(text: str, where: str, default: float) -> float:
    text = (text or "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"{where}: '{text}' is not a number of seconds, e.g. 0.5") from None
    if not 0 < value <= MAX_MOVE_TIME:
        raise ConfigError(f"{where}: {text} seconds is out of range; give more than 0 and at most {MAX_MOVE_TIME:g}")
    return value


def new_session(registry: Registry, form: Mapping[str, str], seats: Sequence[str] = (),
                plugins: tuple[str, ...] = (), programs: bool = False) -> PlaySession:
    """A session from the new-game form's fields, every value checked (ConfigError, PositionError, PluginError).

    `seats` are the form's repeated `seat` fields, one per player in order; without them the two-seat fields
    `first` and `second` are read (as `plyground play`'s --first/--second)."""
    game_name = (form.get("game") or "").strip()
    options = parse_key_values(form.get("options") or "", "options")
    game = registry.create_game(game_name, options, where="game")
    texts = list(seats) if seats else [form.get("first", ""), form.get("second", "")]
    players = player_count(game)
    if len(texts) != players:
        raise ConfigError(f"seat: {game_name} {'with ' + form['options'].strip() + ' ' if options else ''}is played "
                          f"by {players} players, the form gave {len(texts)} seats; give one seat per player")
    names = seat_names(players)
    parsed = tuple(parse_seat(registry, text, names[i], programs) for i, text in enumerate(texts))
    coach = parse_seat(registry, form["coach"], "coach") if (form.get("coach") or "").strip() else None
    if coach is not None and coach.human:
        raise ConfigError(f"coach: '{coach.spec}' is a person at the keyboard; a coach is an agent that searches")
    position = (form.get("position") or "").strip()
    start = game.from_text(position) if position else None
    budget = Budget(time=parse_seconds(form.get("time", ""), "time per move", DEFAULT_MOVE_TIME))
    coach_budget = Budget(time=parse_seconds(form.get("coach_time", ""), "coach time", DEFAULT_COACH_TIME))
    seed = (form.get("seed") or "").strip()
    if seed and not (seed.isascii() and seed.isdigit() and int(seed) < 2**63):
        raise ConfigError(f"seed: '{seed}' is not a whole number from 0 to 2**63-1 (it seeds the dice)")
    return PlaySession(game_name, options, game, parsed, budget, plugins, coach, coach_budget, start,
                       seed=int(seed) if seed else fresh_seed())


def make_registry(plugins: tuple[str, ...]) -> Registry:
    """The server's registry: every installed plugin plus the plugin files given with --plugin."""
    registry = Registry()
    for file in plugins:
        load_plugin_file(registry, file)
    return registry
