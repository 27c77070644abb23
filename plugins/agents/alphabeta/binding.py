"""How alpha-beta's one negamax (`search.py`) is bound for a game and heuristic: `framework.kernel.binding.bind`
with what negamax declares it needs of a kernel (`search.LIMITS`, `search.HEURISTIC_FUNCTIONS`) and when it
cannot run on the kernel with its settings (`refusal`).

- compiled: the game's kernel fits and compiled kernels are on, with the solver's win/loss evaluation or a
  heuristic the kernel compiles (`GameKernel.scores`);
- interpreted: the same code run as Python over the plain rules (`kernel: interpreted`, or `auto` with
  `PLYGROUND_JIT=0`), and for a root search deeper than MAX_DEPTH (a search to the end) of a compiled one;
- adapter: any other game or heuristic (tic-tac-toe, matches, a third-party game or heuristic), or
  `kernel: adapter`: the same code run as Python through a `framework.kernel.adapter.KernelAdapter`.

Every binding gives the same node counts, values, moves and principal variations (one code); compiled
state lives in numpy arrays, interpreted state in lists (the table in dicts: only the rows probed exist).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from framework.kernel.binding import Bound, bind
from framework.protocols import Game, Heuristic
from plugins.agents.alphabeta import search
from plugins.agents.alphabeta.settings import MAX_DEPTH as MAX_DEPTH  # MAX_DEPTH re-exported
from plugins.agents.alphabeta.settings import Settings

#: Largest table for which the probe in `search.negamax` cannot overflow 64 bits compiled.
MAX_TT_SIZE = (1 << 31) - 1
#: An adapter's move space: the history rows of the first 65,536 moves a decision interns (a move interned later
#: has none, as a kernel's move beyond its move space), so an interpreted `work` is a list of ~130,000 ints.
ADAPTER_SPACE = 1 << 16
#: An adapter's search key: one word, the game's hash (`KernelAdapter`), its states one word too (an id).
ADAPTER_KEY_SHIFTS = (0,)


def move_space(bound: Bound) -> int:
    """The moves that have a history score: the kernel's move space, or an adapter's first ADAPTER_SPACE."""
    return ADAPTER_SPACE if bound.kernel is None else bound.kernel.move_space


def key_shifts(bound: Bound) -> tuple[int, ...]:
    """Where the table's key words are packed: the kernel's, or an adapter's one word."""
    return ADAPTER_KEY_SHIFTS if bound.kernel is None else bound.kernel.key_shifts


def refusal(settings: Settings) -> str:
    """Why this search cannot run on the game's kernel with these settings, whatever the kernel offers ("" when
    it can)."""
    if settings.tt_size > MAX_TT_SIZE:
        return f"tt_size is above {MAX_TT_SIZE}"
    return ""


def bind_negamax(game: Game, heuristic: Heuristic | None, settings: Settings, proof_score: float | None,
                 kernel: str, switches: Callable[[], dict[int, int]] | dict[int, int]) -> Bound:
    """`negamax` bound as `kernel` says (`framework.kernel.binding.bind`); through an adapter (a fresh one per
    decision: it interns what it meets) `switches` (slots of `search.WORK` fixed for the decision, or a
    function making them) are read as constants."""
    def constants() -> dict[str, dict[int, int]]:
        return {"work": switches() if callable(switches) else switches}

    return bind(search, game, heuristic, kernel, constants=constants,
                refuse=refusal(settings) if kernel != "adapter" else "")


def python_plies() -> int:
    """Per-ply rows an interpreted search may reach: no deeper than Python's recursion allows."""
    return sys.getrecursionlimit() + 2


class CompiledTable:
    """The compiled search's transposition table, kept by an agent across its decisions.

    Each decision takes a new stamp and rows of older stamps read as empty (`search.ROW.stamp`), so
    a decision starts from an empty table, as the interpreted one does, without rewriting or
    newly mapping its megabytes (measured: that cost a tenth of a 10,000-node solve).
    """

    def __init__(self, size: int) -> None:
        self.rows = np.zeros((size, search.ROW_SIZE), np.int64)
        self.values = np.zeros(size, np.float64)
        self.stamp = 0

    def renew(self) -> int:
        """The stamp of a new decision."""
        self.stamp += 1
        return self.stamp
