"""The kernel contract: every function a search may call on a game's kernel, declared once, with the outcome
codes, the helpers that read the same compiled and interpreted, and `GameKernel`, what a game offers.

A search written once (DESIGN.md, "One source"; framework/SEARCH_DESIGN.md) imports these names from
here, so ruff, mypy and an IDE can follow every call. `framework.kernel.numba_backend.Kernel` compiles a
search with these globals rebound to a game's compiled rule functions; its `interpreted` binding runs the
same code objects as Python over the game's plain rule functions (`framework.kernel.python_backend`), and a
`framework.kernel.adapter.KernelAdapter` answers them over a plain-Python game; `framework.kernel.bind`
chooses among the three. A kernel state is a tuple of ints (bitboards and counters; an adapter's is the
1-tuple of an interned state's id), a move an int >= 0.

Two kinds of names. The primitives (PRIMITIVES) are the game's: their bodies here are stubs that are never
run. The derived functions (DERIVED) have real bodies written over the primitives, run (compiled or
interpreted) wherever the bound functions do not provide their own: an adapter provides them all, from the
Game protocol and the agent's Python heuristic, so a plain-Python game gives its own answers.

Compiled only: a rules (or heuristics) module may define a derived function for its compiled twin alone and
say so in a module constant, `COMPILED_ONLY = ("move_count", "random_move")` (LOA's): the interpreted binding
(`numba_backend.Kernel.interpreted`, `python_backend.rules_twins`) leaves the module's own out and makes the
derived default here over the module's primitives, which gives the same answers by contract. For a function
whose own body pays compiled and costs interpreted: LOA counts its moves line by line (46 table lookups), 10x
faster compiled than building the list, but a Python loop of 46 lookups is slower than `len` of a list that
Python's own code builds. A name that is not a DERIVED function the module defines is refused when its
`Kernel` is made (PluginError).

The helpers (`clock`, `float_of_bits`, `borrowed`, `as_int64`, ...) are plain Python here; the numba
backend gives each its compiled meaning, so one text reads right in both worlds.
"""

from __future__ import annotations

import math
import time
import types
from collections.abc import Callable, Mapping, MutableSequence
from typing import Any, Protocol

import numpy as np

from framework.errors import PluginError
from framework.layout import layout
from framework.protocols import CHANCE, WIN_SCORE

__all__ = ["CHANCE", "DRAW", "LOSS", "ONGOING", "WIN"]


#: `outcome(state, player, option)` of a rules kernel: the player won, lost, drew, or the game goes on;
#: `to_move` is CHANCE (framework.protocols) at a chance node.
WIN, LOSS, DRAW, ONGOING = 1, -1, 0, 2

def clock() -> float:
    """`time.perf_counter()`, callable from compiled code too (a search reads it to keep a time budget)."""
    return time.perf_counter()


def float_of_bits(bits: int) -> float:
    """The float64 whose bit pattern is the int64 `bits`: a float kept in an int64 array, read back (compiled
    code too, as one register move)."""
    return float(np.array(bits, np.int64).view(np.float64))


def borrowed(array: Any) -> Any:
    """`array` itself, which compiled code passes on without counting references: a search's arrays, borrowed
    once at its root, cost its recursion no atomic reference count per call (interpreted: the same object)."""
    return array


def as_int64(value: int) -> int:
    """`value` as compiled code keeps it in an int64 array (a uint64 bitboard keeps its 64 bits); Python ints
    are unbounded, so interpreted code takes the value itself."""
    return value


def as_uint64(value: int) -> int:
    """`value` in uint64 arithmetic compiled (modular sums that must not overflow into a sign); interpreted,
    the exact Python int (equal wherever the compiled sum does not wrap, which the caller ensures)."""
    return value


def next_after(x: float, toward: float) -> float:
    """`math.nextafter` in Python, `numpy.nextafter` compiled (numba has no `math.nextafter`)."""
    return math.nextafter(x, toward)


def sort_by_scores(items: Any, scores: Any, at: int, bound: int) -> None:
    """Sort the int `items` in place by `scores[at + item]` (0 for an item >= `bound`), highest first, stable:
    Python's own sort interpreted (one key read per item), an insertion sort compiled (no allocation).
    A search orders its moves by a table this way (alpha-beta's history)."""
    items.sort(key=lambda item: scores[at + item] if item < bound else 0, reverse=True)


def add_score(scores: Any, at: int, item: int, bound: int, amount: int) -> None:
    """`scores[at + item] += amount` (alpha-beta's history). Interpreted, only for an item below `bound` (an
    adapter interns moves past its move space, which keep none); compiled, always: a kernel's moves that gain a
    score lie below its `GameKernel.move_space`, so the compiled search pays no test."""
    if item < bound:
        scores[at + item] += amount


def to_front(items: Any, item: int, front: int) -> int:
    """Move `item`, if it is among items[front:], to index `front` (the others keep their order) and return
    `front + 1`, else `front`: list methods interpreted, a loop compiled."""
    if item in items:
        i = items.index(item)
        if i >= front:
            items.insert(front, items.pop(i))
            return front + 1
    return front


def prepend(lines: Any, at: int, item: int, source: int) -> None:
    """The line at slot `at` becomes `item` followed by the line at slot `source` (a principal variation: a
    move, then its child's line). Interpreted, a line is one tuple kept at its slot (0 when empty), made in one
    step; compiled, its length at its slot, then its items, copied one by one (slot by slot, the copy cost an
    eighth of an interpreted node). `line` reads one back."""
    tail = lines[source]
    lines[at] = (item, *tail) if tail else (item,)


def line(lines: Any, at: int) -> tuple[int, ...]:
    """The items of the line at slot `at` (`prepend`): a dict's tuple, or an int64 array's slots after the length."""
    head = lines[at]
    if isinstance(head, tuple):
        return head
    return tuple(int(item) for item in lines[at + 1:at + 1 + head]) if head else ()



def uint64(value: int) -> np.uint64:
    """A Python bitboard as the uint64 a kernel takes."""
    return np.uint64(value)



KernelState = tuple[int, ...]


def _unbound(name: str) -> NotImplementedError:
    return NotImplementedError(f"kernel function {name!r} called unbound: a search runs through "
                               "framework.kernel.bind, which binds it to a game's kernel")


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
    """`WIN`, `LOSS`, `DRAW` for `player`, or `ONGOING`; `option` is the game's one int option."""
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
    """The exact probability of `outcome` (one of `legal_moves`) at a chance node (`to_move` is CHANCE).

    This stub (and `player_return`'s) is typed as returning a float, so a search that calls it only on games
    that have dice (its `OPTIONAL`, `binding.needs`) compiles over a kernel without it; reached, it raises."""
    if outcome >= -1:  # always: a move is an int >= 0
        raise NotImplementedError("kernel function 'chance_probability' called unbound: the game has no dice")
    return 0.0


def player_return(state: KernelState, player: int) -> float:
    """The return of seat `player` at a state that is over (one of the game's `returns`); the stub is typed as
    `chance_probability`'s is. A two-seat kernel may go without: the searches then score an end by `outcome`
    (`binding.needed_here`), as on LOA, whose result depends on its option, which only `outcome` takes."""
    if player >= -1:  # always: a seat is an int >= 0
        raise NotImplementedError("kernel function 'player_return' called unbound: the kernel has no returns")
    return 0.0


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


def random_move(state: KernelState, draw: int) -> int:
    """The move a uniform 32-bit `draw` picks among the n legal moves of a state that is not over,
    `legal_moves(state)[draw_index(draw, n)]`: a random playout's move. A game may give its own that builds no
    list (LOA counts its moves line by line and generates up to the one drawn: 2.7x faster playouts)."""
    moves = legal_moves(state)
    return moves[draw_index(draw, len(moves))]


def random_outcome(state: KernelState, draw: int) -> int:
    """The chance outcome a uniform 32-bit `draw` picks at a chance node, with the game's probabilities: the
    first of `legal_moves(state)` whose cumulative `chance_probability` exceeds draw / 2**32 (the last when
    rounding leaves the sum short of it): MCTS's sampled outcome. A game may give its own that builds no list
    if it draws the same outcome for every draw (Pig's and EinStein's die, `1 + draw_index(draw, 6)`, do: the
    sums of 1/6 round to no draw's side of k/6, checked at each boundary)."""
    moves = legal_moves(state)
    r = draw / 4294967296.0
    total = 0.0
    for move in moves:
        total += chance_probability(state, move)
        if r < total:
            return move
    return moves[len(moves) - 1]


def evaluate(state: KernelState, player: int, weights: Any) -> float:
    """A heuristic's value of a state that is not over, for `player`: `score` negated for the second seat
    (heuristics are zero-sum)."""
    value = score(state, weights)
    return -value if player else value


def terminal_score(state: KernelState, player: int, ply: int, result: int) -> float:
    """A heuristic's score of a state that is over, for `player`, `result` being its `outcome` code:
    `BaseHeuristic.terminal`, the returns times WIN_SCORE (whatever the ply)."""
    return result * WIN_SCORE


def draw_index(draw: int, n: int) -> int:
    """The index a uniform 32-bit `draw` picks among `n` items: the high 32 bits of `draw * n` (each index has
    2**32 / n draws, rounded down or up). `random_move`'s, and the adapter's."""
    return (draw * n) >> 32


#: The first slots of a search's `work` array that `counted` keeps: nodes so far, the node limit, the aborted flag
#: (a search declares its own layout starting with these names: `layout("Work", "nodes limit aborted ...")`).
BUDGET, BUDGET_SLOTS = layout("Budget", "nodes limit aborted")


#: `counted` reads the clock when the node count has none of these bits: every 256 nodes compiled, where a node
#: costs tens of nanoseconds; every node in Python (`python_backend.twins` sets 0), where a node of an adapted game
#: may cost milliseconds (OpenSpiel's chess scored by random playouts: 20 ms, so 256 nodes overran 1 s by 4).
CLOCK_MASK = 255


def over_budget(used: int, more: int, limit: int, tick: int, deadline: float) -> bool:
    """The one budget test of every search: whether `more` on top of `used` passes `limit`, or the clock, read
    when the count `tick` has none of CLOCK_MASK's bits, is at `deadline` (`counted`'s nodes one at a time; the
    proof-number searches' generated nodes an expansion at a time, ticking by expansions)."""
    return used + more > limit or (not tick & CLOCK_MASK and clock() >= deadline)


def counted(work: Any, deadline: float) -> bool:
    """Count a node; False (and work[aborted] set) when the node limit or the clock (read as CLOCK_MASK says) is
    spent. For searches whose `work` starts with BUDGET's slots."""
    nodes = work[BUDGET.nodes]
    if over_budget(nodes, 1, work[BUDGET.limit], nodes, deadline):
        work[BUDGET.aborted] = 1
        return False
    work[BUDGET.nodes] = nodes + 1
    return True


#: The game's functions (stubs here) and the functions written here over them.
PRIMITIVES = ("legal_moves", "apply_move", "to_move", "outcome", "search_key", "is_capture", "move_rank", "score")
#: The game's functions a search of chance nodes or n seats calls besides (`to_move` gives CHANCE, -1, at a
#: chance node, whose `legal_moves` are the outcomes).
DICE_AND_SEATS = ("chance_probability", "player_return", "pass_to")
DERIVED = ("ordered_moves", "move_count", "random_move", "random_outcome", "evaluate", "terminal_score")
#: Search machinery written here over no game function: made like DERIVED for every binding, never a game's.
SEARCH = ("over_budget", "counted", "draw_index")


class CompiledModule(Protocol):
    """A module of kernel functions as `framework.kernel.numba_backend.Kernel` compiles it: the module, and the
    kernel it is chained on (a heuristics kernel on its rules). Named here so that the contract imports nothing
    of the backend that compiles it."""

    @property
    def module(self) -> types.ModuleType: ...

    @property
    def rules(self) -> CompiledModule | None: ...


class GameKernel:
    """What a game with compiled rules offers searches (its optional `kernel` capability).

    `rules` is its rules Kernel, which must provide `legal_moves(state)` (of a state that is
    not over), `apply_move(state, move)`, `to_move(state)`, `outcome(state, player, option)`
    (codes WIN, LOSS, DRAW, ONGOING above) and `search_key(state)` (what the game's
    `hash_key` tells apart, as a tuple: equal keys are one position for tables and repetitions);
    `tag` names the game (and its compiled searches' cache files);
    `to_kernel` turns a Python state into the kernel's; `option` is the one int of game
    options `outcome` needs. Moves are ints in both worlds. Optionally `heuristics`, a Kernel
    chained on `rules`, and `scores`: per Heuristic class, the name of its function there
    (`score(state, weights)`, for the first player, the weights being the heuristic's `weights`)
    that a compiled search may call instead. `key_shifts`: the bit offsets at which the game's
    `hash_key` packs the words of `search_key` (`hash_key(s) == sum(k << shift)`), so compiled
    tables hash as the interpreted ones do; `move_space`: every quiet (non-capturing) move is an
    int below it, so per-move tables such as history scores fit in an array. `seat_scores`: per Heuristic
    class, the name of its function `evaluate(state, player, weights)` for any seat, bound as `evaluate` in
    place of the two-seat one derived from `score` (a heuristic of more than two seats is not one score
    negated). `move_id` and `move`: a game move as the kernel's int and back, for a game whose moves are
    not ints (default `int`, both ways).

    What a record cannot be is refused here (PluginError naming the field); whether it fits a given
    search is `framework.kernel.binding.bind`'s question.
    """

    def __init__(self, tag: str, rules: CompiledModule, to_kernel: Callable[[Any], Any], option: int = 0,
                 heuristics: CompiledModule | None = None, scores: Mapping[Any, str] | None = None,
                 key_shifts: tuple[int, ...] = (), move_space: int = 0,
                 seat_scores: Mapping[Any, str] | None = None, move_id: Callable[[Any], int] = int,
                 move: Callable[[int], Any] = int) -> None:
        if not isinstance(tag, str) or not tag.isidentifier():
            raise PluginError(f"GameKernel: tag must be a name (it names the compiled searches' cache files), "
                              f"got {tag!r}")
        for field, value in (("option", option), ("move_space", move_space),
                             *(("key_shifts", shift) for shift in key_shifts)):
            if type(value) is not int or value < 0:
                raise PluginError(f"GameKernel {tag!r}: {field} must be ints >= 0, got {value!r}")
        self.tag, self.rules, self.to_kernel, self.option = tag, rules, to_kernel, option
        self.heuristics, self.scores = heuristics, dict(scores or {})
        self.key_shifts, self.move_space = key_shifts, move_space
        self.seat_scores, self.move_id, self.move = dict(seat_scores or {}), move_id, move

    def __repr__(self) -> str:
        return f"GameKernel({self.tag!r}, option={self.option})"

