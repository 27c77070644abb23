"""The kernel interface: every function a compiled search may call on a game's kernel, declared once.

A search written once (DESIGN.md, "One source") imports these names from here, so ruff, mypy and an
IDE can follow every call. The bodies are never run: `framework.jit.Kernel` compiles a search with
these globals rebound to a game's compiled rule functions, and the interpreted path binds them to the
same functions run as Python (or to an adapter over a plain-Python game). A game kernel's state is a
tuple of ints (bitboards and counters), a move an int.
"""

from __future__ import annotations

from typing import Any, Sequence

KernelState = tuple[int, ...]


def _unbound(name: str) -> NotImplementedError:
    return NotImplementedError(f"kernel function {name!r} called unbound: a search runs through "
                               "framework.jit.Kernel, which binds it to a game's kernel")


def legal_moves(state: KernelState) -> Sequence[int]:
    """The legal moves of a state that is not over (a mutable sequence the search may reorder)."""
    raise _unbound("legal_moves")


def apply_move(state: KernelState, move: int) -> KernelState:
    """The state after `move` (unchecked: the fast path)."""
    raise _unbound("apply_move")


def to_move(state: KernelState) -> int:
    """The seat to move."""
    raise _unbound("to_move")


def outcome(state: KernelState, player: int, option: int) -> int:
    """`framework.jit.WIN`, `LOSS`, `DRAW` for `player`, or `ONGOING`; `option` is the game's one int option."""
    raise _unbound("outcome")


def search_key(state: KernelState) -> tuple[int, ...]:
    """What tells positions apart for tables and repetitions (equal keys are one position)."""
    raise _unbound("search_key")


def is_capture(state: KernelState, move: int) -> bool:
    """True for the game's noisy moves (never killers, searched by quiescence)."""
    raise _unbound("is_capture")


def move_rank(state: KernelState, move: int) -> int:
    """The move's place in the game's move hints, lower first."""
    raise _unbound("move_rank")


def score(state: KernelState, weights: Any) -> float:
    """A heuristic's evaluation for the first player (bound to one heuristic's compiled function)."""
    raise _unbound("score")
