"""A human at the terminal: reads a move in the game's notation, re-prompting until it is legal."""

from __future__ import annotations

import sys
from typing import TextIO

from framework.errors import MoveParseError
from framework.hookspecs import hookimpl
from framework.protocols import Budget, Decision, Game, SearchStats, State
from framework.search import Stopwatch
from framework.specs import AgentSpec


class HumanAgent:
    """Asks for a move; bad input gets the reason and the list of legal moves, then a new prompt."""

    interactive = True  # a person chooses: `plyground play --coach` coaches these moves

    def __init__(self, game: Game, seed: int = 0, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        name = game.player_names[game.to_move(state)]
        while True:
            self.stdout.write(f"{name} to move, your move: ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input: the human player left the game")
            try:
                move = game.parse_move(state, line.strip())
            except MoveParseError as exc:
                legal = " ".join(game.format_move(state, m) for m in game.legal_moves(state))
                self.stdout.write(f"{exc}\nlegal moves: {legal}\n")
                continue
            return Decision(move, SearchStats(wall_time=watch.wall(), cpu_time=watch.cpu()))


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("human", HumanAgent, "a person at the terminal, typing moves in the game's notation",
                      default_for=("play --first",))]
