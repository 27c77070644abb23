"""A third-party game plugin without `render_svg` or `move_clicks`: the workbench shows its text and move buttons."""

from __future__ import annotations

from framework import GameSpec, MoveParseError, hookimpl

State = tuple[int, int]


class Countdown:
    """Take 1 or 2 from a pile of 7; whoever takes the last one wins."""

    name = "countdown"
    player_names = ("First", "Second")

    def initial_state(self) -> State:
        return (7, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def legal_moves(self, state: State) -> list[int]:
        return [n for n in (1, 2) if n <= state[0]]

    def apply(self, state: State, move: int) -> State:
        return (state[0] - move, 1 - state[1])

    def is_terminal(self, state: State) -> bool:
        return state[0] == 0

    def returns(self, state: State) -> tuple[float, float]:
        if state[0]:
            return (0.0, 0.0)
        return (1.0, -1.0) if state[1] == 1 else (-1.0, 1.0)

    def format_move(self, state: State, move: int) -> str:
        return str(move)

    def parse_move(self, state: State, text: str) -> int:
        if text.strip() in ("1", "2") and int(text) in self.legal_moves(state):
            return int(text)
        raise MoveParseError(f"'{text}' is not a legal take; take 1 or 2, at most the pile")

    def render(self, state: State) -> str:
        return f"pile: {'|' * state[0]} ({state[0]})"

    def to_text(self, state: State) -> str:
        return f"{state[0]} {'ab'[state[1]]}"

    def from_text(self, text: str) -> State:
        pile, mover = text.split()
        return (int(pile), "ab".index(mover))


@hookimpl
def plyground_games() -> list[GameSpec]:
    return [GameSpec("countdown", Countdown, "take 1 or 2; the last one wins")]
