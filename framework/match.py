"""One game between agents (one per seat), move by move, with every move checked.

The match runner is the checked path: each move an agent returns is compared against
`legal_moves`, and its statistics must be storable (`check_stats`); an illegal move, an
exception (`sys.exit` included), an answer that is not a valid Decision or a blown time limit
loses the game by forfeit with the reason (and the traceback of an exception) recorded, and
the caller carries on. Nothing the agent returned is kept: the move recorded is the game's own
legal move equal to it, and the statistics are copied into plain numbers.

At a chance node (`to_move` is CHANCE) no agent is asked: the runner draws the outcome from its own
stream seeded by `seed`, with the game's exact probabilities, and records it as a ply whose mover is
CHANCE, so the same seed plays the same game and a record replays exactly.
"""

from __future__ import annotations

import enum
import math
import numbers
import pickle
import random
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from framework.adjudication import Adjudication, Adjudicator
from framework.capabilities import capabilities, player_count, repetition_key
from framework.errors import ConfigError
from framework.protocols import CHANCE, UNLIMITED, Agent, Budget, Decision, Game, Resign, SearchStats, State, TakeBack

#: The largest integer SQLite stores (a signed 64-bit integer).
INT64_MAX = 2**63 - 1
#: Default names of the seats' agents in a record.
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
#: Text quoted from an agent's objects in a reason is cut to this many characters.
QUOTE_LIMIT = 200


class Termination(enum.Enum):
    """How a game ended."""

    NORMAL = "normal"              # the rules ended it (a win, a loss or a drawn end position)
    REPETITION = "repetition"      # the game's repetition limit was reached: a draw
    MAX_PLIES = "max_plies"        # adjudicated a draw at the configured ply limit
    ILLEGAL_MOVE = "illegal_move"  # forfeit: the mover returned a move that is not legal
    CRASH = "crash"                # forfeit: the mover raised an exception or ended its process
    TIME = "time"                  # forfeit: the mover exceeded its time budget
    INVALID_OUTPUT = "invalid_output"  # forfeit: the mover returned no Decision, or statistics that cannot be stored
    VOID = "void"                  # no result: the game could not be played for a cause outside both agents
    RESIGN = "resign"              # the mover resigned (a person typed 'resign' or left)
    RESIGN_ADJUDICATION = "resign_adjudication"  # both engines' scores agreed one side was lost (adjudication)
    DRAW_ADJUDICATION = "draw_adjudication"      # both engines' scores stayed near zero (adjudication)

    @property
    def is_forfeit(self) -> bool:
        return self in (Termination.ILLEGAL_MOVE, Termination.CRASH, Termination.TIME, Termination.INVALID_OUTPUT)


class Forfeit(Exception):
    """The mover loses with this termination (VOID: the game ends without a result); `reason` follows the
    mover's name, `details` is a traceback or other text for the record. Raised by the checks below and by
    agent wrappers (e.g. one that runs the agent in a guarded process, framework/tournament/engine.py)."""

    def __init__(self, termination: Termination, reason: str, details: str = "") -> None:
        super().__init__(reason)
        self.termination = termination
        self.reason = reason
        self.details = details


class Relay:
    """A wrapper that runs an agent elsewhere (engine.py's GuardedAgent) and raises Forfeit with that agent's verdict.

    A Forfeit raised by any other agent, like every control exception of the framework an agent raises where it
    has no meaning (TakeBack where no person plays), is that agent's crash: an agent cannot void or undo a game."""


class InvalidOutput(Forfeit):
    """What an agent returned cannot be played or stored; the message says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(Termination.INVALID_OUTPUT, reason)


@dataclass(frozen=True)
class MoveRecord:
    """One ply: who moved (a seat, or CHANCE for an outcome of the dice), what, and what the search reported."""

    ply: int
    mover: int
    move: str
    nodes: int
    depth: int
    score: float | None
    wall_time: float
    cpu_time: float
    pv: tuple[str, ...] = ()
    binding: str = ""       # how the search ran (`SearchStats.extra["binding"]`; "" when it did not say)
    binding_reason: str = ""  # why it did not run compiled (`SearchStats.extra["binding_reason"]`)
    clock: float | None = None  # seconds left on the mover's clock after the move (None: no time control)


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game. `result` is the payoff per seat; `winner` is the seat with the highest payoff, or
    None when several share it."""

    game: str
    players: tuple[str, ...]
    start: str
    final: str
    result: tuple[float, ...]
    winner: int | None
    termination: Termination
    reason: str
    moves: tuple[MoveRecord, ...]
    traceback: str = ""   # of the exception that cost a crashed agent the game ("" otherwise)

    @property
    def plies(self) -> int:
        return len(self.moves)


def seat_names(seats: int) -> tuple[str, ...]:
    """The default names of `seats` seats: "first", "second", ... (as `plyground play`'s flags say)."""
    return tuple(_ORDINALS[i] if i < len(_ORDINALS) else f"seat {i}" for i in range(seats))


def _pv_text(agent: Agent, game: Game, state: State, pv: Sequence) -> tuple[str, ...]:
    """A move's PV in notation: a relay's (an engine's) is in notation already, an agent's is made so here."""
    if isinstance(agent, Relay) and all(isinstance(move, str) for move in pv):
        return tuple(pv)
    return pv_notation(game, state, pv)


def pv_notation(game: Game, state: State, pv: Sequence) -> tuple[str, ...]:
    """The principal variation in notation, stopping quietly at the first move that does not apply."""
    out = []
    try:
        for move in pv:
            if game.is_terminal(state) or move not in game.legal_moves(state):
                break
            out.append(game.format_move(state, move))
            state = game.apply(state, move)
    except Exception:  # a PV is advisory; a bad one must not cost the game
        pass
    return tuple(out)


def quote(obj: Any, form: Callable[[Any], str] = repr) -> str:
    """`form(obj)` cut to QUOTE_LIMIT characters, or a placeholder when the agent's object cannot be printed."""
    try:
        text = form(obj)
    except Exception:
        return f"<unprintable {type(obj).__name__}>"
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "..."


def _integer(value: Any, name: str, low: int) -> int:
    if type(value) is int and low <= value <= INT64_MAX:  # the common case, without the ABC checks below
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= INT64_MAX:
        raise InvalidOutput(f"SearchStats.{name} must be an integer from {low} to 2**63-1, got {quote(value)}")
    return int(value)


def _real(value: Any, name: str, low: float = -math.inf) -> float:
    if type(value) is float and low <= value < math.inf:  # the common case (NaN fails the comparison)
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < low:
        at_least = "" if low == -math.inf else f" >= {low:g}"
        raise InvalidOutput(f"SearchStats.{name} must be a finite number{at_least}, got {quote(value)}")
    return float(value)


#: Immutable value types of a statistics `extra` that a shallow copy makes the record's own (no pickling).
_PLAIN_TYPES = (int, float, str, bool, type(None))


def _plain(extra: Any) -> bool:
    """Whether `extra` is a dict of text keys to scalars of the built-in types (not subclasses) or tuples of
    them: what most searches report, which a shallow copy makes the record's own."""
    return type(extra) is dict and all(
        type(key) is str and (type(value) in _PLAIN_TYPES or type(value) is tuple
                              and all(type(item) in _PLAIN_TYPES for item in value))
        for key, value in extra.items())


def check_stats(stats: Any) -> SearchStats:
    """An agent's statistics made of plain, storable values (a copy where they were not); InvalidOutput says
    what is wrong.

    nodes and depth: integers within SQLite's 64 bits (nodes >= 0); score: None or a finite number;
    times: finite and >= 0; extra: a mapping that pickles; peak_entries: None or an integer >= 0.
    """
    if not isinstance(stats, SearchStats):
        raise InvalidOutput(f"returned stats {quote(stats)} instead of a SearchStats")
    nodes = _integer(stats.nodes, "nodes", 0)
    depth = _integer(stats.depth, "depth", -INT64_MAX - 1)
    score = None if stats.score is None else _real(stats.score, "score")
    wall_time = _real(stats.wall_time, "wall_time", 0.0)
    cpu_time = _real(stats.cpu_time, "cpu_time", 0.0)
    peak = None if stats.peak_entries is None else _integer(stats.peak_entries, "peak_entries", 0)
    extra = stats.extra
    if type(extra) is not dict and not isinstance(extra, Mapping):
        raise InvalidOutput(f"SearchStats.extra must be a mapping, got {quote(extra)}")
    if extra and _plain(extra):
        extra = dict(extra)
    elif extra:
        try:
            extra = pickle.loads(pickle.dumps(dict(extra)))
        except Exception as exc:
            raise InvalidOutput(f"SearchStats.extra cannot be stored ({type(exc).__name__}: {quote(exc, str)})") \
                from None
    if (nodes is stats.nodes and depth is stats.depth and score is stats.score and wall_time is stats.wall_time
            and cpu_time is stats.cpu_time and peak is stats.peak_entries and extra is stats.extra):
        return stats  # already plain (each check returned the agent's own int, float or None): no copy
    return SearchStats(nodes=nodes, depth=depth, score=score, pv=stats.pv, wall_time=wall_time, cpu_time=cpu_time,
                       extra=extra, peak_entries=peak)


def crash_reason(exc: BaseException) -> str:
    """How an agent's exception reads in a forfeit's reason, after "crashed: " (`sys.exit` gives its exit code)."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit (exit code {quote(exc.code)})"
    return f"{type(exc).__name__}: {quote(exc, str)}"


def checked(legal: Sequence, decision: Any) -> tuple[Any, SearchStats]:
    """The game's own legal move equal to the decision's and a storable copy of its statistics; raises
    Forfeit (ILLEGAL_MOVE or INVALID_OUTPUT) with the reason when the decision is not a legal, valid one."""
    if not isinstance(decision, Decision):
        raise InvalidOutput(f"returned {quote(decision)} instead of a Decision")
    move = legal_equal(legal, decision.move)
    if move is None:
        raise Forfeit(Termination.ILLEGAL_MOVE, f"played an illegal move {quote(decision.move)}")
    return move, check_stats(decision.stats)


def legal_equal(legal: Sequence, move: Any) -> Any | None:
    """The game's own legal move equal to the agent's `move` (None: not legal), so no object of the agent's is kept.

    Equality is the game's move type's: a move must be of that type (an integer for a game of int moves), so
    neither `4.0` nor an object that claims to equal everything passes for a legal move."""
    if type(move) is int or type(move) is str:  # a plain value: equal is the game's own
        return move if move in legal else None
    try:
        for candidate in legal:
            if type(candidate) is int:
                if isinstance(move, numbers.Integral) and not isinstance(move, bool) and int(move) == candidate:
                    return candidate
            elif type(move) is type(candidate) and candidate == move:
                return candidate
        return None
    except Exception as exc:  # the move's own __eq__ or __int__ raised
        raise InvalidOutput(f"returned a move that cannot be compared ({type(exc).__name__}: {quote(exc, str)})") \
            from None


def draw_outcome(game: Game, state: State, rng: random.Random) -> Any:
    """An outcome of the chance node `state` drawn from `rng` with the game's probabilities (one draw)."""
    return pick_outcome(game.chance_outcomes(state), rng.random())  # type: ignore[attr-defined]


def pick_outcome(outcomes: Sequence[tuple[Any, Any]], uniform: float) -> Any:
    """The outcome whose slice of [0, 1) holds `uniform`, the slices laid out in the order of `outcomes`."""
    for outcome, probability in outcomes:
        uniform -= float(probability)
        if uniform < 0:
            return outcome
    return outcomes[-1][0]    # rounding left a sliver past the last probability


class Dice:
    """The chance of one game: every door (a tournament's games, `plyground play`, the workbench's sessions)
    rolls with it, so nobody ever chooses an outcome. One uniform number per ply is drawn from a stream
    seeded by `seed`, in the order the plies are first reached, so a game replays from its seed; a ply
    reached again after a take-back gets the same number (undoing is no way to roll again)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._stream = random.Random(seed)
        self._drawn: dict[int, float] = {}

    def roll(self, game: Game, state: State, ply: int) -> tuple[Any, MoveRecord]:
        """The outcome at the chance node `state`, reached as ply `ply` (1 = the first), and its record."""
        if ply not in self._drawn:
            self._drawn[ply] = self._stream.random()
        outcome = pick_outcome(game.chance_outcomes(state), self._drawn[ply])  # type: ignore[attr-defined]
        return outcome, MoveRecord(ply, CHANCE, game.format_move(state, outcome), 0, 0, None, 0.0, 0.0)


def rolled(notation: str) -> str:
    """How a chance ply reads for people: "rolled 4"."""
    return f"rolled {notation}"


def forfeit_result(n: int, loser: int) -> tuple[float, ...]:
    """The loser -1, the others sharing +1 (zero-sum; (-1, 1) for two)."""
    return tuple(-1.0 if seat == loser else 1.0 / (n - 1) for seat in range(n))


def play_game(game: Game, agents: Sequence[Agent], *, budgets: Sequence[Budget] | None = None,
              start: State | None = None, players: Sequence[str] | None = None,
              max_plies: int | None = None, time_slack: float = 0.1, time_grace: float = 0.05,
              on_move: Callable[[State, MoveRecord, State], None] | None = None,
              on_take_back: Callable[[State, int], None] | None = None,
              adjudication: Adjudication | None = None, seed: int = 0,
              views: Sequence[Game] | None = None) -> GameRecord:
    """Play one game from `start` (default: the initial state); agent i plays seat i (`budgets[i]`, default
    unlimited; `players[i]` names it, default "first", "second", ...). `seed` seeds the dice.

    An agent raising `Resign` loses the game; one raising `TakeBack` where a person may play (`on_take_back`
    given) gets its last move and the reply taken back (two plies) and is asked again; `on_take_back(state,
    plies)` tells with 0 when there was no move of its own to take back. Elsewhere a TakeBack, and a
    Forfeit from any agent but a `Relay`, is the agent's crash. `adjudication` rules may end the game early
    on the engines' scores (framework/adjudication.py). `views[i]`: the game object agent i is handed (default
    `game`): with a copy of its own, nothing an agent does to it reaches the referee's `game` or another agent.

    A move that takes longer than `budget.time * (1 + time_slack) + time_grace` seconds
    forfeits the game. The runner does not interrupt a hung agent; the tournament
    runner does that by running games in worker processes.
    """
    seats = player_count(game)
    if len(agents) != seats:
        raise ConfigError(f"{game.name} is played by {seats} players, got {len(agents)} agents")
    budgets = tuple(budgets) if budgets is not None else (UNLIMITED,) * seats
    players = tuple(players) if players is not None else seat_names(seats)
    dice = Dice(seed)
    state = game.initial_state() if start is None else start
    start_text = game.to_text(state)
    offered = capabilities(game)
    key = repetition_key(game)
    repetition_limit = offered.repetition_limit
    seen: dict = {key(state): 1}
    moves: list[MoveRecord] = []
    history: list[State] = []  # the state before each move, for take-backs
    if adjudication is not None and seats != 2:
        raise ConfigError(f"adjudication reads two engines' scores; {game.name} has {seats} players: drop it")
    adjudicator = Adjudicator(adjudication) if adjudication is not None else None

    def finish(termination: Termination, result: Sequence[float], reason: str) -> GameRecord:
        best = max(result)
        leaders = [seat for seat, r in enumerate(result) if r == best]
        winner = leaders[0] if len(leaders) == 1 else None
        return GameRecord(game.name, players, start_text, game.to_text(state), tuple(result), winner,
                          termination, reason, tuple(moves))

    def forfeit(mover: int, termination: Termination, reason: str, details: str = "") -> GameRecord:
        result = (0.0,) * seats if termination is Termination.VOID else forfeit_result(seats, mover)
        record = finish(termination, result, f"{game.player_names[mover]} ({players[mover]}) {reason}")
        return replace(record, traceback=details)

    while not game.is_terminal(state):
        if max_plies is not None and len(moves) >= max_plies:
            return finish(Termination.MAX_PLIES, (0.0,) * seats, f"adjudicated a draw after {max_plies} plies")
        mover = game.to_move(state)
        if mover == CHANCE:
            outcome, record = dice.roll(game, state, len(moves) + 1)
            moves.append(record)
            history.append(state)
            before, state = state, game.apply(state, outcome)
            if on_move is not None:
                on_move(before, record, state)
            continue
        budget = budgets[mover]
        legal = game.legal_moves(state)
        wall0 = time.perf_counter()
        try:
            decision = agents[mover].select_move(game if views is None else views[mover], state, budget)
            wall = time.perf_counter() - wall0
        except Forfeit as exc:
            if not isinstance(agents[mover], Relay):   # an agent's own Forfeit: a crash, never its verdict
                return forfeit(mover, Termination.CRASH, f"crashed: {crash_reason(exc)}", traceback.format_exc())
            if not isinstance(exc.termination, Termination) or not (exc.termination.is_forfeit
                                                                     or exc.termination is Termination.VOID):
                return forfeit(mover, Termination.CRASH, f"crashed: it relayed {quote(exc.termination)}")
            return forfeit(mover, exc.termination, str(exc.reason), str(exc.details))
        except Resign as exc:
            return finish(Termination.RESIGN, forfeit_result(seats, mover),
                          f"{game.player_names[mover]} ({players[mover]}) resigned" + (f": {exc}" if str(exc) else ""))
        except TakeBack as exc:
            if on_take_back is None:   # no person plays here: nothing to take back, and no one to ask
                return forfeit(mover, Termination.CRASH, f"crashed: {crash_reason(exc)}", traceback.format_exc())
            plies = 2 if len(moves) >= 2 else 0
            for _ in range(plies):
                if repetition_limit is not None:
                    seen[key(state)] -= 1
                moves.pop()
                state = history.pop()
            on_take_back(state, plies)
            continue
        except (Exception, SystemExit) as exc:
            return forfeit(mover, Termination.CRASH, f"crashed: {crash_reason(exc)}", traceback.format_exc())
        try:
            move, stats = checked(legal, decision)
        except Forfeit as exc:
            return forfeit(mover, exc.termination, exc.reason, exc.details)
        if budget.time is not None and wall > budget.time * (1 + time_slack) + time_grace:
            return forfeit(mover, Termination.TIME, f"took {wall:.3f}s with a budget of {budget.time}s")
        clock = stats.extra.get("clock") if isinstance(agents[mover], Relay) else None   # a referee's clock only
        pv = _pv_text(agents[mover], game, state, stats.pv)
        record = MoveRecord(len(moves) + 1, mover, game.format_move(state, move), stats.nodes,
                            stats.depth, stats.score, wall, stats.cpu_time, pv,
                            str(stats.extra.get("binding", "")), str(stats.extra.get("binding_reason", "")),
                            float(clock) if isinstance(clock, (int, float)) else None)
        moves.append(record)
        history.append(state)
        before, state = state, game.apply(state, move)
        if on_move is not None:
            on_move(before, record, state)
        verdict = adjudicator.add(mover, stats.score) if adjudicator is not None else None
        if verdict is not None and not game.is_terminal(state):
            winner, why = verdict
            if winner is None:
                return finish(Termination.DRAW_ADJUDICATION, (0.0, 0.0), f"adjudicated a draw: {why}")
            return finish(Termination.RESIGN_ADJUDICATION, (1.0, -1.0) if winner == 0 else (-1.0, 1.0),
                          f"adjudicated a win for {game.player_names[winner]} ({players[winner]}): {why}")
        if repetition_limit is not None:
            count = seen[key(state)] = seen.get(key(state), 0) + 1
            if count >= repetition_limit and not game.is_terminal(state):
                same = ("as the game's repetition rule compares positions" if offered.repetition_key
                        else "with the same side to move")
                return finish(Termination.REPETITION, (0.0, 0.0), f"the position occurred {count} times {same}")
    end_reason = offered.end_reason
    return finish(Termination.NORMAL, game.returns(state), end_reason(state) if end_reason else "")
