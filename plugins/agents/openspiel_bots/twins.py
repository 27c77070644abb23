"""Our games that have an OpenSpiel twin, and how a position of ours becomes OpenSpiel's: by replaying moves.

A `Twin` follows one game of ours on OpenSpiel's twin game, move by move: each of our moves (a chance outcome
included) is turned into OpenSpiel's action(s) by its notation, applied, and the two positions are compared
(`check`) after every ply, so a notation that does not map, or a rule that differs, stops the agent with an error
naming the ply, never with a wrong search. The twins:

- `loa` -> `lines_of_action`: the same notation ("b1-b3", "c1xa3"); OpenSpiel's `x` is our Black.
- `tictactoe` -> `tic_tac_toe`: our square "a3" is OpenSpiel's "x(0,0)" (row 0 is our rank 3).
- `checkers` -> `checkers`: our move "11-15" or "15x24x31" names PDN squares; OpenSpiel names a jump by its
  two squares ("a3b4") and plays a multi-jump as one action per jump, so one of our moves is an action
  sequence (the board turned half a circle: our square on row r, column c is its file h - c, rank r + 1;
  tests/plugins/games/test_checkers_openspiel.py).
- `pig` -> `pig` (`players`, `goal` as `winscore`): "roll" and "hold" are "roll" and "stop"; our outcome (the
  face) k is OpenSpiel's chance action k - 1 ("Roll k").

Where the rules differ the twin's game may end first (checkers: OpenSpiel draws after 40 actions without a
capture; LOA: at any repeated board, whoever is to move, unless our `loa` plays with `repetition: board`, the same
rule): the agent then says so and cannot move.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from framework.errors import ConfigError
from framework.protocols import CHANCE, Game, State

#: OpenSpiel's player id of a terminal state.
TERMINAL = -4


class MappingError(Exception):
    """A move or a position of ours that has no counterpart in OpenSpiel's twin: the text says which and where."""


class Twin:
    """One of our games and OpenSpiel's twin: notation both ways and the comparison of positions."""

    spiel_name = ""

    def __init__(self, pyspiel: Any, game: Game) -> None:
        self.game = game
        self.spiel_game = pyspiel.load_game(self.spiel_name, self.spiel_options(game))

    def spiel_options(self, game: Game) -> dict[str, Any]:
        return {}

    def actions(self, spiel: Any, state: State, move: Any) -> list[int]:
        """OpenSpiel's actions for our `move` at `state` (`spiel` is OpenSpiel's state there)."""
        text = self.game.format_move(state, move)
        wanted = self.spiel_text(text, spiel)
        player = spiel.current_player()
        for action in spiel.legal_actions():
            if spiel.action_to_string(player, action) == wanted:
                return [action]
        raise MappingError(f"our move {text!r} ({wanted!r} in OpenSpiel's notation) is none of OpenSpiel's legal "
                           f"actions at {spiel_board(spiel)!r}")

    def spiel_text(self, text: str, spiel: Any) -> str:
        """OpenSpiel's notation of our move `text` (the same by default)."""
        return text

    def our_text(self, text: str, spiel: Any) -> str:
        """Our notation of OpenSpiel's action text (the same by default)."""
        return text

    def move(self, spiel: Any, state: State, actions: Sequence[int]) -> Any:
        """Our move for OpenSpiel's `actions` (one move of ours) at `state`."""
        player = spiel.current_player()
        text = self.our_text(spiel.action_to_string(player, actions[0]), spiel)
        try:
            return self.game.parse_move(state, text)
        except Exception as exc:
            raise MappingError(f"OpenSpiel's action {spiel.action_to_string(player, actions[0])!r} ({text!r} in "
                               f"our notation) is no legal move of {self.game.name} at "
                               f"{self.game.to_text(state)!r}: {exc}") from None

    def continues(self, spiel: Any, player: int) -> bool:
        """Whether OpenSpiel's state, after an action of `player`, still waits for the rest of the same move."""
        return False

    def check(self, state: State, spiel: Any) -> None:
        """MappingError unless `spiel` stands for our `state`."""
        ours, theirs = self.key(state), self.spiel_key(spiel)
        if ours != theirs:
            raise MappingError(f"OpenSpiel's position {theirs!r} is not ours {ours!r} ({self.game.to_text(state)})")

    def key(self, state: State) -> Any:
        raise NotImplementedError

    def spiel_key(self, spiel: Any) -> Any:
        raise NotImplementedError


def spiel_board(spiel: Any) -> str:
    return str(spiel).split("\n\n")[0].replace("\n", "/")


def _mover(game: Game, state: State) -> int | None:
    return None if game.is_terminal(state) else game.to_move(state)


def _spiel_mover(spiel: Any) -> int | None:
    player = spiel.current_player()
    return None if player == TERMINAL else int(player)


class LinesOfActionTwin(Twin):
    spiel_name = "lines_of_action"

    def key(self, state: State) -> Any:
        return self.game.to_text(state).split()[0], _mover(self.game, state)

    def spiel_key(self, spiel: Any) -> Any:
        rows = str(spiel).splitlines()[:8]
        return "/".join(row[1:].replace("x", "b").replace("o", "w") for row in rows), _spiel_mover(spiel)


_CELL = re.compile(r"[xo]\((\d),(\d)\)")


class TicTacToeTwin(Twin):
    spiel_name = "tic_tac_toe"

    def key(self, state: State) -> Any:
        return self.game.to_text(state).split()[0].upper(), _mover(self.game, state)

    def spiel_text(self, text: str, spiel: Any) -> str:
        column, rank = "abc".index(text[0]), int(text[1])
        return f"{'xo'[spiel.current_player()]}({3 - rank},{column})"

    def our_text(self, text: str, spiel: Any) -> str:
        found = _CELL.fullmatch(text)
        if found is None:
            raise MappingError(f"OpenSpiel's tic-tac-toe action {text!r} names no cell")
        return f"{'abc'[int(found[2])]}{3 - int(found[1])}"

    def spiel_key(self, spiel: Any) -> Any:
        return "/".join(str(spiel).splitlines()[:3]).upper(), _spiel_mover(spiel)


def _checkers_names() -> dict[int, str]:
    """Our PDN square -> OpenSpiel's square name (row r from Black's side, column c: file h - c, rank r + 1)."""
    names = {}
    for square in range(1, 33):
        row, pos = divmod(square - 1, 4)
        column = 2 * pos + (1 if row % 2 == 0 else 0)
        names[square] = f"{'abcdefgh'[7 - column]}{row + 1}"
    return names


CHECKERS_NAME = _checkers_names()
CHECKERS_SQUARE = {name: square for square, name in CHECKERS_NAME.items()}
_PDN = re.compile(r"[-x]")


class CheckersTwin(Twin):
    spiel_name = "checkers"

    def actions(self, spiel: Any, state: State, move: Any) -> list[int]:
        text = self.game.format_move(state, move)
        squares = [int(s) for s in _PDN.split(text)]
        player, path, actions = spiel.current_player(), spiel.clone(), []
        for a, b in zip(squares, squares[1:]):
            wanted = CHECKERS_NAME[a] + CHECKERS_NAME[b]
            action = next((x for x in path.legal_actions() if path.action_to_string(player, x) == wanted), None)
            if action is None:
                raise MappingError(f"our move {text!r}: its step {wanted!r} is none of OpenSpiel's legal actions at "
                                   f"{spiel_board(path)!r}")
            actions.append(action)
            path.apply_action(action)
        return actions

    def move(self, spiel: Any, state: State, actions: Sequence[int]) -> Any:
        player, path = spiel.current_player(), spiel.clone()
        squares: list[int] = []
        for action in actions:
            text = path.action_to_string(player, action)
            step = (CHECKERS_SQUARE[text[:2]], CHECKERS_SQUARE[text[2:4]])
            squares += step if not squares else step[1:]
            path.apply_action(action)
        capture = abs(squares[1] - squares[0]) > 5 or len(squares) > 2
        text = ("x" if capture else "-").join(map(str, squares))
        try:
            return self.game.parse_move(state, text)
        except Exception as exc:
            raise MappingError(f"OpenSpiel's move {text!r} is no legal move of checkers at "
                               f"{self.game.to_text(state)!r}: {exc}") from None

    def continues(self, spiel: Any, player: int) -> bool:
        return not spiel.is_terminal() and spiel.current_player() == player

    def key(self, state: State) -> Any:
        text = self.game.to_text(state).split(":H")[0]
        return text if not self.game.is_terminal(state) else text[1:]

    def spiel_key(self, spiel: Any) -> Any:
        rows = str(spiel).splitlines()[:8]
        fields: dict[str, list[str]] = {"W": [], "B": []}
        for square, name in sorted(CHECKERS_NAME.items()):
            cell = rows[8 - int(name[1])][1 + "abcdefgh".index(name[0])]
            if cell != ".":
                fields["B" if cell in "o8" else "W"].append(("K" if cell in "8*" else "") + str(square))
        player = _spiel_mover(spiel)
        body = f":W{','.join(fields['W'])}:B{','.join(fields['B'])}"
        return body if player is None else "BW"[player] + body


_SCORES = re.compile(r"Scores: ([\d ]+), Turn total: (\d+)")


class PigTwin(Twin):
    spiel_name = "pig"

    def spiel_options(self, game: Game) -> dict[str, Any]:
        return {"players": int(game.num_players), "winscore": int(game.goal)}   # type: ignore[attr-defined]

    def spiel_text(self, text: str, spiel: Any) -> str:
        if spiel.is_chance_node():
            return f"Roll {text}"
        return {"roll": "roll", "hold": "stop"}.get(text, text)

    def actions(self, spiel: Any, state: State, move: Any) -> list[int]:
        if spiel.is_chance_node():   # chance outcomes are named by the chance player
            wanted = self.spiel_text(self.game.format_move(state, move), spiel)
            for action, _ in spiel.chance_outcomes():
                if spiel.action_to_string(-1, action) == wanted:
                    return [action]
            raise MappingError(f"our outcome {move!r} is none of OpenSpiel's ({wanted!r})")
        return super().actions(spiel, state, move)

    def our_text(self, text: str, spiel: Any) -> str:
        return {"roll": "roll", "stop": "hold"}.get(text, text)

    def key(self, state: State) -> Any:
        scores, total, player, rolling = state
        return tuple(scores), total, None if self.game.is_terminal(state) else player, rolling

    def spiel_key(self, spiel: Any) -> Any:
        found = _SCORES.match(str(spiel))
        if found is None:
            raise MappingError(f"OpenSpiel's pig position {str(spiel)!r} cannot be read")
        player = None if spiel.is_terminal() else _pig_player(spiel)
        return tuple(int(n) for n in found[1].split()), int(found[2]), player, spiel.is_chance_node()


def _pig_player(spiel: Any) -> int:
    """The seat whose turn it is (OpenSpiel's current player is -1 while the die rolls: the roller's)."""
    player = spiel.current_player()
    if player >= 0:
        return int(player)
    return int(next(step.player for step in reversed(spiel.full_history()) if step.player >= 0))


#: Our game -> its twin.
TWINS: dict[str, type[Twin]] = {"loa": LinesOfActionTwin, "tictactoe": TicTacToeTwin, "checkers": CheckersTwin,
                                "pig": PigTwin}


def twin_of(pyspiel: Any, game: Game) -> Twin:
    """The twin of our `game`; ConfigError naming the games that have one when it has none."""
    kind = TWINS.get(game.name)
    if kind is None:
        raise ConfigError(f"openspiel bots play the openspiel:NAME games and our games with an OpenSpiel twin "
                          f"({', '.join(sorted(TWINS))}), not {game.name}")
    return kind(pyspiel, game)


def path_between(game: Game, start: State, target: State, max_plies: int, max_states: int) -> list[Any] | None:
    """The shortest list of moves (chance outcomes included) from `start` to `target`, at most `max_plies` long,
    searching at most `max_states` positions; None when there is none within those bounds."""
    if start == target:
        return []
    frontier: list[tuple[State, list[Any]]] = [(start, [])]
    seen = {start}
    for _ in range(max_plies):
        following = []
        for state, path in frontier:
            if game.is_terminal(state):
                continue
            if game.to_move(state) == CHANCE:
                moves = [outcome for outcome, _ in game.chance_outcomes(state)]   # type: ignore[attr-defined]
            else:
                moves = list(game.legal_moves(state))
            for move in moves:
                child = game.apply(state, move)
                if child == target:
                    return [*path, move]
                if child not in seen:
                    seen.add(child)
                    following.append((child, [*path, move]))
                    if len(seen) > max_states:
                        return None
        frontier = following
    return None
