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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from framework.agentspec import parse_agent_spec, parse_key_values
from framework.capabilities import capabilities
from framework.errors import ConfigError
from framework.match import Forfeit, MoveRecord, Termination
from framework.protocols import Budget, Game, State
from framework.registry import Registry
from framework.tournament.config import load_plugin_file
from framework.tournament.engine import EnginePool, GuardedAgent

#: Engine seconds per move when the form leaves it empty; twice it plus a second stops a hung agent.
DEFAULT_MOVE_TIME = 1.0
MAX_MOVE_TIME = 120.0
DEFAULT_COACH_TIME = 1.0
#: The engines' names in errors, as `plyground play` names them: its seats, then the coach (seeds 0, 1, 2 alike).
ROLES = ("first", "second", "coach")


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: an agent with its parameters (`spec` as typed); `human` when the agent is the interactive
    one (a person at the keyboard: here, the browser), whose moves come from the page."""

    agent: str
    params: Mapping[str, Any]
    spec: str
    human: bool   # the agent is declared interactive (AgentSpec.interactive)


@dataclass(frozen=True)
class Played:
    """One ply of the session: the notation, who made it, the engine's figures and the coach's verdict."""

    mover: int
    move: str
    engine: MoveRecord | None = None
    verdict: str | None = None


@dataclass
class PlaySession:
    """One game in one tab; `states[i]` is the position before `moves[i]`."""

    game_name: str
    options: Mapping[str, Any]
    game: Game
    seats: tuple[Seat, Seat]
    budget: Budget
    plugins: tuple[str, ...] = ()
    coach: Seat | None = None
    coach_budget: Budget = Budget(time=DEFAULT_COACH_TIME)
    start: State | None = None
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    states: list[State] = field(default_factory=list)
    moves: list[Played] = field(default_factory=list)
    outcome: str | None = None   # set when the game ended by resignation or forfeit (rules end it by themselves)
    details: str = ""   # the traceback of the exception that cost an engine the game
    flipped: bool = False
    engines: dict[str, GuardedAgent] = field(default_factory=dict)   # by role, for the seats people do not play
    version: int = 0   # counts the changes of the game: a tab posting a move names the version it has seen

    def __post_init__(self) -> None:
        if not self.states:
            self.states.append(self.start if self.start is not None else self.game.initial_state())

    # -- the position ----------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def mover(self) -> int:
        return int(self.game.to_move(self.state))

    def over(self) -> bool:
        return self.outcome is not None or self.game.is_terminal(self.state) or self._repetition() is not None

    def engine_to_move(self) -> bool:
        return not self.over() and not self.seats[self.mover].human

    def _repetition(self) -> int | None:
        limit = capabilities(self.game).repetition_limit
        if limit is None:
            return None
        hash_key = capabilities(self.game).hash_key
        keys = [s if hash_key is None else hash_key(s) for s in self.states]
        count = keys.count(keys[-1])
        return count if count >= limit else None

    def result_text(self) -> str | None:
        """"X (human) wins — normal", "draw — repetition" ...; None while the game goes on."""
        if self.outcome is not None:
            return self.outcome
        count = self._repetition()
        if count is not None and not self.game.is_terminal(self.state):
            return f"draw — repetition: the position occurred {count} times with the same side to move"
        if not self.game.is_terminal(self.state):
            return None
        result = self.game.returns(self.state)
        reason = capabilities(self.game).end_reason
        why = f" — {reason(self.state)}" if reason is not None else ""
        if result[0] == result[1]:
            return f"draw{why}"
        return f"{self.label(0 if result[0] > result[1] else 1)} wins{why}"

    def label(self, seat: int) -> str:
        return f"{self.game.player_names[seat]} ({self.seats[seat].spec})"

    def legal(self) -> list[tuple[str, tuple[str, ...]]]:
        """(notation, clicks) of every legal move: what the page needs to turn clicks into moves."""
        if self.over():
            return []
        clicks = capabilities(self.game).move_clicks
        return [(self.game.format_move(self.state, m), clicks(self.state, m) if clicks is not None else ())
                for m in self.game.legal_moves(self.state)]

    def build(self, pool: EnginePool) -> None:
        """Build the engines, each in a worker of `pool` (blocking): ConfigError with the reason when one cannot be
        built (the others are released)."""
        try:
            for seed, (role, seat) in enumerate(zip(ROLES, (*self.seats, self.coach))):
                if seat is not None and not seat.human:
                    self.engines[role] = GuardedAgent(seat.agent, seat.params, self.game_name, self.options, seed,
                                                      self.plugins, role, f"{role} '{seat.spec}'", pool)
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
            outcome = self.engines[ROLES[mover]].play(self.game, self.state, self.budget)
        except Forfeit as exc:
            loser = self.label(mover)
            self.outcome = (f"no result — {loser} {exc.reason}" if exc.termination is Termination.VOID
                            else f"{self.label(1 - mover)} wins — forfeit: {loser} {exc.reason}")
            self.details = exc.details
            return
        verdict = self._coach(outcome.text) if not any(s.human for s in self.seats) else None
        self._push(Played(mover, outcome.text, outcome.record(len(self.moves) + 1, mover), verdict),
                   self.game.apply(self.state, self.game.parse_move(self.state, outcome.text)))

    def _coach(self, notation: str) -> str | None:
        coach = self.engines.get("coach")
        return None if coach is None else coach.verdict(self.game, self.state, notation, self.coach_budget)

    def _push(self, played: Played, state: State) -> None:
        self.moves.append(played)
        self.states.append(state)

    def undo(self) -> None:
        """Take back the last move, and the engine replies before it, back to a person's turn (if one plays)."""
        if not self.moves:
            raise ConfigError("there is no move to undo")
        self.outcome = None
        self.details = ""
        self._pop()
        while self.moves and not self.seats[self.mover].human and any(s.human for s in self.seats):
            self._pop()

    def _pop(self) -> None:
        self.moves.pop()
        self.states.pop()

    def resign(self) -> None:
        if self.over():
            raise ConfigError("the game is already over")
        humans = [i for i, s in enumerate(self.seats) if s.human]
        if not humans:
            raise ConfigError("only a person can resign; no person plays this game")
        loser = self.mover if self.mover in humans else humans[0]
        self.outcome = f"{self.label(1 - loser)} wins — {self.label(loser)} resigned"


def parse_seat(registry: Registry, text: str, where: str) -> Seat:
    """A seat from `NAME[:key=value,...]`; empty: the default of `plyground play --first/--second`."""
    text = (text or "").strip() or registry.default_for(f"play --{where}")
    name, params = parse_agent_spec(text, where)
    return Seat(name, params, text, registry.agent_spec(name).interactive)


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


def new_session(registry: Registry, form: Mapping[str, str], plugins: tuple[str, ...] = ()) -> PlaySession:
    """A session from the new-game form's fields, every value checked (ConfigError, PositionError, PluginError)."""
    game_name = (form.get("game") or "").strip()
    options = parse_key_values(form.get("options") or "", "options")
    game = registry.create_game(game_name, options, where="game")
    seats = (parse_seat(registry, form.get("first", ""), "first"),
             parse_seat(registry, form.get("second", ""), "second"))
    coach = parse_seat(registry, form["coach"], "coach") if (form.get("coach") or "").strip() else None
    if coach is not None and coach.human:
        raise ConfigError(f"coach: '{coach.spec}' is a person at the keyboard; a coach is an agent that searches")
    position = (form.get("position") or "").strip()
    start = game.from_text(position) if position else None
    budget = Budget(time=parse_seconds(form.get("time", ""), "time per move", DEFAULT_MOVE_TIME))
    coach_budget = Budget(time=parse_seconds(form.get("coach_time", ""), "coach time", DEFAULT_COACH_TIME))
    return PlaySession(game_name, options, game, seats, budget, plugins, coach, coach_budget, start)


def make_registry(plugins: tuple[str, ...]) -> Registry:
    """The server's registry: every installed plugin plus the plugin files given with --plugin."""
    registry = Registry()
    for file in plugins:
        load_plugin_file(registry, file)
    return registry
