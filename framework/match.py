"""One game between two agents, move by move, with every move checked.

The match runner is the checked path: each move an agent returns is compared against
`legal_moves`; an illegal move, an exception or a blown time limit loses the game by
forfeit with the reason recorded, and the caller carries on.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from framework.adjudication import Adjudication, Adjudicator
from framework.capabilities import capabilities
from framework.protocols import UNLIMITED, Agent, Budget, Decision, Game, Resign, State, TakeBack


class Termination(enum.Enum):
    """How a game ended."""

    NORMAL = "normal"              # the rules ended it (a win, a loss or a drawn end position)
    REPETITION = "repetition"      # the game's repetition limit was reached: a draw
    MAX_PLIES = "max_plies"        # adjudicated a draw at the configured ply limit
    ILLEGAL_MOVE = "illegal_move"  # forfeit: the mover returned a move that is not legal
    CRASH = "crash"                # forfeit: the mover raised an exception
    TIME = "time"                  # forfeit: the mover exceeded its time budget
    RESIGN = "resign"              # the mover resigned (a person typed 'resign' or left)
    RESIGN_ADJUDICATION = "resign_adjudication"  # both engines' scores agreed one side was lost (adjudication)
    DRAW_ADJUDICATION = "draw_adjudication"      # both engines' scores stayed near zero (adjudication)

    @property
    def is_forfeit(self) -> bool:
        return self in (Termination.ILLEGAL_MOVE, Termination.CRASH, Termination.TIME)


@dataclass(frozen=True)
class MoveRecord:
    """One ply: who moved, what, and what the search reported."""

    ply: int
    mover: int
    move: str
    nodes: int
    depth: int
    score: float | None
    wall_time: float
    cpu_time: float
    pv: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game. `result` is the payoff per player; `winner` is 0, 1 or None."""

    game: str
    players: tuple[str, str]
    start: str
    final: str
    result: tuple[float, float]
    winner: int | None
    termination: Termination
    reason: str
    moves: tuple[MoveRecord, ...]

    @property
    def plies(self) -> int:
        return len(self.moves)


def _pv_notation(game: Game, state: State, pv: Sequence) -> tuple[str, ...]:
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


def play_game(game: Game, agents: Sequence[Agent], *, budgets: Sequence[Budget] = (UNLIMITED, UNLIMITED),
              start: State | None = None, players: Sequence[str] = ("first", "second"),
              max_plies: int | None = None, time_slack: float = 0.1, time_grace: float = 0.05,
              on_move: Callable[[State, MoveRecord, State], None] | None = None,
              on_take_back: Callable[[State, int], None] | None = None,
              adjudication: Adjudication | None = None) -> GameRecord:
    """Play one game from `start` (default: the initial state); agent i plays player i.

    An agent raising `Resign` loses the game; one raising `TakeBack` gets its last move and the reply
    taken back (two plies) and is asked again; `on_take_back(state, plies)` tells with 0 when there
    was no move of its own to take back. `adjudication` rules may end the game early on the engines'
    scores (framework/adjudication.py).

    A move that takes longer than `budget.time * (1 + time_slack) + time_grace` seconds
    forfeits the game. The runner does not interrupt a hung agent; the tournament
    runner does that by running games in worker processes.
    """
    state = game.initial_state() if start is None else start
    start_text = game.to_text(state)
    offered = capabilities(game)
    key: Callable[[State], Hashable] = offered.hash_key or (lambda s: s)
    repetition_limit = offered.repetition_limit
    seen: dict = {key(state): 1}
    moves: list[MoveRecord] = []
    history: list[State] = []  # the state before each move, for take-backs
    adjudicator = Adjudicator(adjudication) if adjudication is not None else None

    def finish(termination: Termination, result: tuple[float, float], reason: str) -> GameRecord:
        winner = 0 if result[0] > result[1] else 1 if result[1] > result[0] else None
        return GameRecord(game.name, tuple(players), start_text, game.to_text(state), tuple(result), winner,
                          termination, reason, tuple(moves))

    def forfeit(mover: int, termination: Termination, reason: str) -> GameRecord:
        result = (-1.0, 1.0) if mover == 0 else (1.0, -1.0)
        return finish(termination, result, f"{game.player_names[mover]} ({players[mover]}) {reason}")

    while not game.is_terminal(state):
        if max_plies is not None and len(moves) >= max_plies:
            return finish(Termination.MAX_PLIES, (0.0, 0.0), f"adjudicated a draw after {max_plies} plies")
        mover = game.to_move(state)
        budget = budgets[mover]
        legal = game.legal_moves(state)
        wall0 = time.perf_counter()
        try:
            decision = agents[mover].select_move(game, state, budget)
        except Resign as exc:
            result = (-1.0, 1.0) if mover == 0 else (1.0, -1.0)
            return finish(Termination.RESIGN, result,
                          f"{game.player_names[mover]} ({players[mover]}) resigned" + (f": {exc}" if str(exc) else ""))
        except TakeBack:
            plies = 2 if len(moves) >= 2 else 0
            for _ in range(plies):
                if repetition_limit is not None:
                    seen[key(state)] -= 1
                moves.pop()
                state = history.pop()
            if on_take_back is not None:
                on_take_back(state, plies)
            continue
        except Exception as exc:
            return forfeit(mover, Termination.CRASH, f"crashed: {type(exc).__name__}: {exc}")
        wall = time.perf_counter() - wall0
        if not isinstance(decision, Decision):
            return forfeit(mover, Termination.CRASH, f"returned {decision!r} instead of a Decision")
        if decision.move not in legal:
            return forfeit(mover, Termination.ILLEGAL_MOVE, f"played an illegal move {decision.move!r}")
        if budget.time is not None and wall > budget.time * (1 + time_slack) + time_grace:
            return forfeit(mover, Termination.TIME, f"took {wall:.3f}s with a budget of {budget.time}s")
        stats = decision.stats
        record = MoveRecord(len(moves) + 1, mover, game.format_move(state, decision.move), stats.nodes,
                            stats.depth, stats.score, wall, stats.cpu_time, _pv_notation(game, state, stats.pv))
        moves.append(record)
        history.append(state)
        before, state = state, game.apply(state, decision.move)
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
                return finish(Termination.REPETITION, (0.0, 0.0),
                              f"the position occurred {count} times with the same side to move")
    end_reason = offered.end_reason
    return finish(Termination.NORMAL, game.returns(state), end_reason(state) if end_reason else "")
