"""One OpenSpiel game seen through Plyground's Game protocol (framework/protocols.py).

A state wraps an OpenSpiel state that nobody mutates: `apply` clones it and applies the action to the
clone, so an agent holding a state can never change it. Two states are equal when their histories of
actions (chance outcomes included) are, and the history is their search key, as it is OpenSpiel's
identity of a state (`history_str`). So every state of a path is distinct (no position repeats: solvers
need no cycle handling), and one position reached by two move orders is two states (searches do not merge
transpositions; OpenSpiel exposes no position key common to every game).

Moves are OpenSpiel's action ids; their notation is OpenSpiel's `action_to_string` with spaces written
`_` (a record's moves are words), read back by looking it up among the legal actions. A chance node
(OpenSpiel's chance player, -1, which is Plyground's CHANCE) lists OpenSpiel's `chance_outcomes`.
Returns are OpenSpiel's `returns()`: for two players the winner's sign (+1, 0, -1; the game is zero-sum,
so a margin such as a score difference keeps its winner), for more players each divided by the largest
absolute utility so it lies in [-1, 1].

The text of a position is OpenSpiel's serialization (what `serialize_game_and_state` writes) on one line:
the game's string, a colon and the state's serialization (`encode`), e.g. `connect_four(): 3 3 4` (a
history of actions) or `chess(): FEN: \\n12\\n` (a first line that is not). `from_text` reads a history back
by replaying it, each action checked legal before it is applied (OpenSpiel's release build does not check, and
an illegal action writes outside the state's memory), and anything else through OpenSpiel's
`deserialize_state`; it refuses with one line a text of another game (or options) or one OpenSpiel cannot
read. The board shown is OpenSpiel's string of the state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from framework.errors import MoveParseError, PositionError, quoted

#: OpenSpiel's current player at a terminal state (pyspiel.PlayerId.TERMINAL).
_TERMINAL = -4
_INTEGERS = re.compile(r"-?[0-9]+(?: -?[0-9]+)*")  # a line of a history, or the one-line form of a history
_ESCAPES = re.compile(r"\\\\|\\n")


def encode(serialized: str) -> str:
    """OpenSpiel's serialization of a state on one line: integers each on its own line (a history of actions,
    what most games write) separated by spaces; anything else (chess's "FEN: ...") with its backslashes
    doubled and its newlines written `\\n`."""
    if serialized == "\n":  # the empty history
        return ""
    lines = serialized.split("\n")
    if lines[-1] == "" and all(_INTEGERS.fullmatch(line) for line in lines[:-1]):
        return " ".join(lines[:-1])
    return serialized.replace("\\", "\\\\").replace("\n", "\\n")


def decode(body: str) -> str:
    """The serialization `encode` wrote on one line."""
    if not body:
        return "\n"
    if _INTEGERS.fullmatch(body):
        return "".join(f"{line}\n" for line in body.split())
    return _ESCAPES.sub(lambda m: "\n" if m.group() == "\\n" else "\\", body)


def notation(text: str) -> str:
    """A move's notation: OpenSpiel's action_to_string with each run of spaces written `_` ("Roll 1" is
    `Roll_1`), so a record's moves stay one word each (PGN separates moves by spaces)."""
    return "_".join(text.split())


class OpenSpielState:
    """An immutable position: an OpenSpiel state nobody mutates, its history (the key) and the seat to move."""

    __slots__ = ("spiel", "history", "mover", "terminal", "_hash", "_moves", "_notations")

    def __init__(self, spiel: Any, history: tuple[int, ...], players: int) -> None:
        self.spiel = spiel
        self.history = history
        player = spiel.current_player()
        self.terminal = player == _TERMINAL
        self.mover = _last_mover(spiel, players) if self.terminal else int(player)
        self._hash = hash(history)
        self._moves: tuple[int, ...] | None = None
        self._notations: dict[str, int] | None = None

    def legal_actions(self) -> tuple[int, ...]:
        """OpenSpiel's legal actions (the chance outcomes at a chance node), read once."""
        if self._moves is None:
            self._moves = tuple(self.spiel.legal_actions())
        return self._moves

    def notations(self) -> dict[str, int]:
        """Each legal action by its notation (OpenSpiel's action_to_string), made once: reading moves back."""
        if self._notations is None:
            self._notations = {notation(self.spiel.action_to_string(self.mover, action)): action
                               for action in self.legal_actions()}
        return self._notations

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OpenSpielState) and self.history == other.history

    def __hash__(self) -> int:
        return self._hash

    def __copy__(self) -> OpenSpielState:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, Any]) -> OpenSpielState:
        return self  # immutable

    def __repr__(self) -> str:
        return f"OpenSpielState(history={list(self.history)})"


def _last_mover(spiel: Any, players: int) -> int:
    """The seat "to move" at the end: the one after the last seat that moved (OpenSpiel names none there,
    and the Game protocol wants a seat)."""
    seats = [step.player for step in spiel.full_history() if step.player >= 0]
    return (seats[-1] + 1) % players if seats else 0


class OpenSpielGame:
    """An OpenSpiel game (perfect information, sequential) as a Plyground game named `openspiel:NAME`."""

    default_heuristic = "playouts"

    def __init__(self, name: str, spiel_game: Any) -> None:
        self.name = name
        self.spiel_game = spiel_game
        self.num_players: int = spiel_game.num_players()
        self.player_names = tuple(f"P{seat + 1}" for seat in range(self.num_players))
        #: The game's string with its parameters, the first part of every position text.
        self.game_string = str(spiel_game)
        self._scale = max(1.0, abs(spiel_game.max_utility()), abs(spiel_game.min_utility()))
        game_type = spiel_game.get_type()
        if game_type.chance_mode != type(game_type).ChanceMode.DETERMINISTIC:  # a capability of chance games only
            self.chance_outcomes = self._chance_outcomes

    def __repr__(self) -> str:
        return f"OpenSpielGame({self.game_string!r})"

    def _wrap(self, spiel: Any) -> OpenSpielState:
        return OpenSpielState(spiel, tuple(spiel.history()), self.num_players)

    def initial_state(self) -> OpenSpielState:
        return self._wrap(self.spiel_game.new_initial_state())

    def to_move(self, state: OpenSpielState) -> int:
        return state.mover

    def legal_moves(self, state: OpenSpielState) -> Sequence[int]:
        return state.legal_actions()

    def apply(self, state: OpenSpielState, move: int) -> OpenSpielState:
        """The child: a clone of the OpenSpiel state with the action applied (the parent stays as it was)."""
        child = state.spiel.clone()
        child.apply_action(move)
        return OpenSpielState(child, state.history + (move,), self.num_players)

    def is_terminal(self, state: OpenSpielState) -> bool:
        return state.terminal

    def returns(self, state: OpenSpielState) -> tuple[float, ...]:
        return self.spiel_returns(state.spiel)

    def spiel_returns(self, spiel: Any) -> tuple[float, ...]:
        """The returns of a terminal OpenSpiel state as Plyground's (see the module docstring)."""
        values = spiel.returns()
        if self.num_players == 2:
            return tuple(float((v > 0) - (v < 0)) for v in values)
        return tuple(v / self._scale for v in values)

    def _chance_outcomes(self, state: OpenSpielState) -> Sequence[tuple[int, float]]:
        return tuple((action, probability) for action, probability in state.spiel.chance_outcomes())

    def format_move(self, state: OpenSpielState, move: int) -> str:
        return notation(state.spiel.action_to_string(state.mover, move))

    def parse_move(self, state: OpenSpielState, text: str) -> int:
        wanted = notation(text)
        notations = state.notations()
        if wanted in notations:
            return notations[wanted]
        legal = ", ".join(list(notations)[:12]) + (", ..." if len(notations) > 12 else "")
        raise MoveParseError(f"{quoted(text)} is not a legal move of {self.name} here; legal: {legal or 'none'}")

    def render(self, state: OpenSpielState) -> str:
        return str(state.spiel).rstrip("\n")

    def to_text(self, state: OpenSpielState) -> str:
        body = encode(state.spiel.serialize())
        return f"{self.game_string}: {body}" if body else f"{self.game_string}:"

    def from_text(self, text: str) -> OpenSpielState:
        head, colon, body = text.strip().partition(": ")
        if not colon and text.strip().endswith(":"):
            head, colon = text.strip()[:-1], ":"
        if not colon or head != self.game_string:
            raise PositionError(f"{quoted(text)} is not a position of {self.game_string}: expected "
                                f"'{self.game_string}: ACTIONS...' (OpenSpiel's serialization on one line)")
        if not body or _INTEGERS.fullmatch(body):
            return self._wrap(self._replay(text, [int(action) for action in body.split()]))
        try:
            spiel = self.spiel_game.deserialize_state(decode(body))
        except Exception as exc:  # pyspiel.SpielError: OpenSpiel cannot read it
            raise PositionError(f"OpenSpiel cannot read the position {quoted(text)} of {self.game_string}: "
                                f"{str(exc).strip() or type(exc).__name__}") from None
        return self._wrap(spiel)

    def _replay(self, text: str, actions: list[int]) -> Any:
        """The OpenSpiel state after a history of actions, each checked legal before it is applied (an illegal
        one, such as a column past the board, would corrupt memory and crash the process later)."""
        spiel = self.spiel_game.new_initial_state()
        for ply, action in enumerate(actions, 1):
            if spiel.is_terminal() or action not in spiel.legal_actions():
                raise PositionError(f"OpenSpiel cannot read the position {quoted(text)} of {self.game_string}: "
                                    f"action {action} at ply {ply} is not legal there")
            spiel.apply_action(action)
        if spiel.serialize() != decode(" ".join(map(str, actions))):
            raise PositionError(f"OpenSpiel cannot read the position {quoted(text)} of {self.game_string}: "
                                "this game's serialization is not its history of actions")
        return spiel
