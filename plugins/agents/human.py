"""A human at the terminal: reads a move in the game's notation, re-prompting until it is legal.

Besides moves it understands `help` (the legal moves and these commands), `undo` (take back your
last move and the reply) and `resign`; the end of input (Ctrl-D, a closed pipe) is a resignation.
"""

from __future__ import annotations

import sys
from typing import TextIO

from framework.errors import MoveParseError
from framework.hookspecs import hookimpl
from framework.protocols import Budget, Decision, Game, Resign, SearchStats, State, TakeBack
from framework.search import Stopwatch
from framework.specs import AgentSpec

COMMANDS = "commands: help (this list), undo (take back your last move), resign"


class HumanAgent:
    """Asks for a move; bad input gets the reason and the legal moves once, then a new prompt."""

    def __init__(self, game: Game, seed: int = 0, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        name = game.player_names[game.to_move(state)]
        while True:
            self.stdout.write(f"{name} to move, your move (or help): ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.stdout.write("\n")
                raise Resign("the input ended")
            text = line.strip()
            command = text.lower()
            if command in ("help", "?"):
                self.stdout.write(f"legal moves: {_legal(game, state)}\n{COMMANDS}\n")
                continue
            if command == "undo":
                raise TakeBack()
            if command == "resign":
                raise Resign()
            try:
                move = game.parse_move(state, text)
            except MoveParseError as exc:
                legal = _legal(game, state)
                # many games list the legal moves in the message already: say them once
                self.stdout.write(f"{exc}\n" + ("" if legal in str(exc) else f"legal moves: {legal}\n"))
                continue
            return Decision(move, SearchStats(wall_time=watch.wall(), cpu_time=watch.cpu()))


def _legal(game: Game, state: State) -> str:
    return " ".join(game.format_move(state, m) for m in game.legal_moves(state))


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("human", HumanAgent, "a person at the terminal, typing moves in the game's notation "
                                           "(help, undo and resign too)",
                      default_for=("play --first",), interactive=True, chance=True, multiplayer=True)]
