"""The kernel interface: every function a compiled search may call on a game's kernel, declared once.

A search written once (DESIGN.md, "One source"; framework/SEARCH_DESIGN.md) imports these names from
here, so ruff, mypy and an IDE can follow every call. `framework.jit.Kernel` compiles a search with these
globals rebound to a game's compiled rule functions; its `interpreted` binding runs the same code objects as
Python over the game's plain rule functions, and `framework.jit.bind` over any other functions, such as a
`framework.kernel_adapter.KernelAdapter`'s over a plain-Python game. A kernel state is a tuple of ints
(bitboards and counters; an adapter's is the 1-tuple of an interned state's id), a move an int >= 0.

Two kinds of names. The primitives (PRIMITIVES) are the game's: their bodies here are stubs that are never
run. The derived functions (DERIVED) have real bodies written over the primitives, run (compiled or
interpreted) wherever the bound functions do not provide their own: an adapter provides them all, from the
Game protocol and the agent's Python heuristic, so a plain-Python game gives its own answers.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from framework.jit import clock
from framework.layout import layout
from framework.protocols import WIN_SCORE

KernelState = tuple[int, ...]


def _unbound(name: str) -> NotImplementedError:
    return NotImplementedError(f"kernel function {name!r} called unbound: a search runs through "
                               "framework.jit.Kernel, which binds it to a game's kernel")


def legal_moves(state: KernelState) -> MutableSequence[int]:
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


# -- dice and more seats: primitives of games that have them (never called on a game without) --------------


def chance_probability(state: KernelState, outcome: int) -> float:
    """The exact probability of `outcome` (one of `legal_moves`) at a chance node (`to_move` is CHANCE)."""
    raise _unbound("chance_probability")


def player_return(state: KernelState, player: int) -> float:
    """The return of seat `player` at a state that is over (one of the game's `returns`)."""
    raise _unbound("player_return")


def pass_to(state: KernelState, seat: int) -> KernelState:
    """The state with `seat` to move and nothing else changed (the game's `pass_to`; best-reply search)."""
    raise _unbound("pass_to")


# -- derived: real bodies over the primitives (an adapter binds its own) ------------------------------------


def ordered_moves(state: KernelState) -> MutableSequence[int]:
    """The game's move hints: the legal moves stably sorted by `move_rank` (an insertion sort in place).

    `move_rank` runs about twice per move here. Ranking each move once into a local array was measured
    slower compiled (LOA from the start at depth 5, 5.8 -> 5.2 M nodes/s): the array's allocation per node
    costs more than the ranks it saves, which are a few bit operations."""
    moves = legal_moves(state)
    for i in range(1, len(moves)):
        m = moves[i]
        rank = move_rank(state, m)
        j = i
        while j > 0 and move_rank(state, moves[j - 1]) > rank:
            moves[j] = moves[j - 1]
            j -= 1
        moves[j] = m
    return moves


def move_count(state: KernelState) -> int:
    """How many legal moves a state that is not over has (a proof-number search's mobility)."""
    return len(legal_moves(state))


def evaluate(state: KernelState, player: int, weights: Any) -> float:
    """A heuristic's value of a state that is not over, for `player`: `score` negated for the second seat
    (heuristics are zero-sum)."""
    value = score(state, weights)
    return -value if player else value


def terminal_score(state: KernelState, player: int, ply: int, result: int) -> float:
    """A heuristic's score of a state that is over, for `player`, `result` being its `outcome` code:
    `BaseHeuristic.terminal`, the returns times WIN_SCORE (whatever the ply)."""
    return result * WIN_SCORE


#: The first slots of a search's `work` array that `counted` keeps: nodes so far, the node limit, the aborted flag
#: (a search declares its own layout starting with these names: `layout("Work", "nodes limit aborted ...")`).
BUDGET, BUDGET_SLOTS = layout("Budget", "nodes limit aborted")


def counted(work: Any, deadline: float) -> bool:
    """Count a node; False (and work[aborted] set) when the node limit or the clock (read every 256 nodes) is
    spent. For searches whose `work` starts with BUDGET's slots."""
    nodes = work[BUDGET.nodes]
    if nodes >= work[BUDGET.limit] or (not nodes & 255 and clock() >= deadline):
        work[BUDGET.aborted] = 1
        return False
    work[BUDGET.nodes] = nodes + 1
    return True


#: The game's functions (stubs here) and the functions written here over them.
PRIMITIVES = ("legal_moves", "apply_move", "to_move", "outcome", "search_key", "is_capture", "move_rank", "score")
#: The game's functions a search of chance nodes or n seats calls besides (`to_move` gives CHANCE, -1, at a
#: chance node, whose `legal_moves` are the outcomes).
DICE_AND_SEATS = ("chance_probability", "player_return", "pass_to")
DERIVED = ("ordered_moves", "move_count", "evaluate", "terminal_score")
#: Search machinery written here over no game function: made like DERIVED for every binding, never a game's.
SEARCH = ("counted",)
