"""The contracts between the core, games, heuristics and agents.

Vocabulary (see DESIGN.md): a *state* is an immutable, hashable position including the
player to move; a *move* is what `legal_moves` yields; its *notation* is its text form.
Players are seats 0 (moves first) to n-1 (`num_players`, 2 unless a game declares more). At a *chance
node* the dice move: `to_move` is `CHANCE` and `chance_outcomes` gives each *outcome* with its exact
probability.

A *node* is every state a search visits, the root and the leaves included: an agent
counts one node each time it examines a state (calls `is_terminal` on it as part of its
search), so full-width minimax to the end of tic-tac-toe counts exactly the 549,946
states of the game tree.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from framework.errors import ConfigError

#: A state is an immutable, hashable position and a move what `legal_moves` yields; each game narrows them to
#: its own types (a tuple of bitboards, a named tuple...), which a protocol's parameter types cannot express
#: without making every game generic, so they are `Any` to the type checker.
State = Any
Move = Any

#: What `to_move` returns at a chance node: no seat moves, the dice do (OpenSpiel's kChancePlayerId).
CHANCE = -1

#: Terminal scores of search agents are `returns * WIN_SCORE`; heuristics stay well inside it.
WIN_SCORE = 1_000_000.0


@runtime_checkable
class Game(Protocol):
    """Rules of a perfect-information game: two-player zero-sum unless it declares otherwise.

    Required methods are pure functions of their arguments. `apply` never mutates its
    input state. Optional capabilities are attributes a game may have; each is declared once
    in `framework.capabilities` (with what it must agree with) and read through
    `framework.capabilities.capabilities(game)`, never probed by name:

    - `hash_key(state) -> int`: a fast exact hash for transposition tables and repetitions;
    - `repetition_limit: int | None`: the number of occurrences of a state that draws the game
      (the match runner enforces it, since a state carries no history); declaring it at all
      tells solvers that positions can repeat on a path;
    - `repetition_key(state) -> Hashable`: what the repetition rule compares (default: the whole state,
      by `hash_key`); a rule that compares less says so (LOA's `repetition: board`: the board alone);
    - `is_noisy(state, move) -> bool`: moves a quiescence search should extend (captures);
    - `ordered_moves(state) -> Sequence[Move]`: legal moves, most promising first;
    - `perft(state, depth) -> int`: a fast count of the move paths of exactly `depth`
      plies (e.g. bulk-counting the last ply); it must count exactly what
      `framework.perft.generic_perft` counts: a state without legal moves is a leaf only
      at exactly `depth` plies;
    - `kernel: framework.kernel.api.GameKernel`: the rules compiled, for compiled searches;
    - `warmup() -> None`: compile or load the kernels now (`plyground warmup` calls it);
    - `end_reason(state) -> str`: why a terminal state ended the game, for the match record;
    - `default_heuristic: str`: the heuristic an agent uses when its parameters name none;
    - `render_svg(state, flipped=False) -> str` and `move_clicks(state, move) -> tuple[str, ...]`:
      the board as SVG with clickable `data-square` names, and the names a player clicks to make
      a move (`plyground serve`; without them the page shows `render` and takes typed moves);
    - `num_players: int`: the number of seats (2 without it); `player_names` has one name per seat and
      `returns` one entry per seat. With more than two, returns need not be zero-sum (each in [-1, 1]);
    - `chance_outcomes(state) -> Sequence[tuple[Move, float]]`: at a chance node (`to_move` is `CHANCE`)
      every outcome with its exact probability (a float or a `fractions.Fraction`), summing to 1. Outcomes
      are moves in all else: `legal_moves` lists the same outcomes, `apply` plays one, and
      `format_move`/`parse_move` give and read their notation, so records replay and `perft` counts
      move and chance paths alike. Agents are never asked to move at a chance node: the match runner
      samples the outcome from its seeded stream;
    - `pass_to(state, seat) -> State`: the same position with `seat` to move (best-reply search needs it);
    - `exact_values(state) -> tuple[float, ...]`: each seat's value under optimal play, computed exactly
      (`plyground solve` prints it);
    - `pdn_game_type: int`: a draughts game whose text format is PDN FEN and whose notation is PDN's
      declares its PDN GameType (English checkers: 21); `plyground export --format pdn` needs it.

    The conformance suite (`framework.conformance.GameConformance`) checks every rule
    above on random playouts; a terminal state has no legal moves and a non-terminal
    state has at least one (a game with passes makes the pass a legal move).
    """

    name: str

    @property
    def player_names(self) -> tuple[str, ...]:
        """One name per seat (a class attribute in a game; read-only here, so a two-seat tuple fits)."""

    def initial_state(self) -> State: ...
    def to_move(self, state: State) -> int: ...
    def legal_moves(self, state: State) -> Sequence[Move]: ...
    def apply(self, state: State, move: Move) -> State: ...
    def is_terminal(self, state: State) -> bool: ...
    def returns(self, state: State) -> tuple[float, ...]: ...
    def format_move(self, state: State, move: Move) -> str: ...
    def parse_move(self, state: State, text: str) -> Move: ...
    def render(self, state: State) -> str: ...
    def to_text(self, state: State) -> str: ...
    def from_text(self, text: str) -> State: ...


@runtime_checkable
class Heuristic(Protocol):
    """A static evaluation of a state from `player`'s point of view.

    `evaluate` is called on non-terminal leaves; its values must stay well inside
    +-WIN_SCORE. `terminal` scores terminal states; `ply` is the distance from the search
    root, so a heuristic can prefer quick wins (the thesis scoring does).
    """

    name: str

    def evaluate(self, state: State, player: int) -> float: ...
    def terminal(self, state: State, player: int, ply: int) -> float: ...


class BaseHeuristic:
    """Convenience base: terminal states score `returns * WIN_SCORE`, independent of ply."""

    name = "base"

    def __init__(self, game: Game) -> None:
        self.game = game

    def evaluate(self, state: State, player: int) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def terminal(self, state: State, player: int, ply: int) -> float:
        return self.game.returns(state)[player] * WIN_SCORE

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


@dataclass(frozen=True)
class Budget:
    """Limits for one decision: wall time in seconds and/or nodes. None means unlimited."""

    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not self.time > 0:
            raise ConfigError(f"budget time must be a positive number of seconds, got {self.time!r}")
        if self.nodes is not None and (isinstance(self.nodes, bool) or not isinstance(self.nodes, int)
                                       or self.nodes < 1):
            raise ConfigError(f"budget nodes must be a positive integer, got {self.nodes!r}")

    def __repr__(self) -> str:
        parts = [f"time={self.time}" if self.time is not None else "",
                 f"nodes={self.nodes}" if self.nodes is not None else ""]
        return "Budget(" + ", ".join(p for p in parts if p) + ")"


UNLIMITED = Budget()


@dataclass(frozen=True)
class SearchStats:
    """What a search did: nodes visited, depth completed, score for the mover, PV, times.

    `extra` holds algorithm-specific figures (e.g. a solver's proven value, or alpha-beta
    nodes counted only in the first iteration reaching each depth); tables *total* them over
    positions. `peak_entries` is a size, not a count of work, so it is kept out of `extra`:
    the most entries the search's own memory held — tree nodes, transposition-table entries,
    the children on a depth-first path — each structure at its largest, summed (None: not
    reported). The compiled and interpreted paths of a search report the same number.
    """

    nodes: int = 0
    depth: int = 0
    score: float | None = None
    pv: tuple[Move, ...] = ()
    wall_time: float = 0.0
    cpu_time: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)
    peak_entries: int | None = None


@dataclass(frozen=True)
class Decision:
    """An agent's answer: the move to play plus how it was found."""

    move: Move
    stats: SearchStats = SearchStats()


@runtime_checkable
class Agent(Protocol):
    """A move chooser. Constructed with its parameters and a seed; same seed, same moves.

    Instead of answering, `select_move` may raise `Resign` (the mover gives the game up) or, in a game
    at the terminal, `TakeBack` (the person asks to take back their last move).
    """

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision: ...


class Resign(Exception):
    """Raised by an agent's `select_move` to resign: the mover loses, recorded as a resignation, not a crash."""


class TakeBack(Exception):
    """Raised by an interactive agent's `select_move` to take back its own last move (and the reply to it)."""


class Proof(enum.Enum):
    """The game-theoretic value of a position for the side to move, as far as a solver proved it."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SolveResult:
    """A solver's answer: the proven value for the side to move, a best move when known, and its stats.

    A solver that can read the length of its proof off it reports it as `stats.extra["proof_length"]`:
    the winner forces the win within that many plies (None: proved, but the length is not known).
    `plyground make-endgames` records it for every position it keeps.
    """

    value: Proof
    move: Move | None
    stats: SearchStats


@runtime_checkable
class Solver(Protocol):
    """An agent that can also try to *solve* a position within a budget (a capability, not required)."""

    def solve(self, game: Game, state: State, budget: Budget) -> SolveResult: ...
