"""How alpha-beta's one negamax (`search.py`) is bound for a game and heuristic: `framework.kernel.binding.bind`
with what negamax needs of a kernel (`fits`), which heuristic function it binds as `score` (`score_function`)
and when it cannot run on the kernel at all (`refusal`).

- compiled: the game's kernel fits and compiled kernels are on, with the solver's win/loss evaluation or a
  heuristic the kernel compiles (`GameKernel.scores`);
- interpreted: the same code run as Python over the plain rules (`kernel: interpreted`, or `auto` with
  `PLYGROUND_JIT=0`), and for a root search deeper than MAX_DEPTH (a search to the end) of a compiled one;
- adapter: any other game or heuristic (tic-tac-toe, matches, a third-party game or heuristic), or
  `kernel: adapter`: the same code run as Python through a `framework.kernel.adapter.KernelAdapter`.

Every binding gives the same node counts, values, moves and principal variations (one code); compiled
state lives in numpy arrays, interpreted state in dicts (only the slots a search touches exist).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

import numpy as np

from framework.capabilities import capability
from framework.kernel import api
from framework.kernel.binding import bind
from framework.protocols import Budget, Game, Heuristic, State
from framework.search import SearchLimits
from plugins.agents.alphabeta import search
from plugins.agents.alphabeta.settings import MAX_DEPTH as MAX_DEPTH  # MAX_DEPTH re-exported
from plugins.agents.alphabeta.settings import Settings

#: Largest table for which the probe in `search.negamax` cannot overflow 64 bits compiled.
MAX_TT_SIZE = (1 << 31) - 1
#: An adapter's move space: beyond any interned move id, so every move has a history score.
ADAPTER_SPACE = 1 << 26
#: An adapter's search key: one word, the game's hash (`KernelAdapter`), its states one word too (an id).
ADAPTER_KEY_SHIFTS = (0,)


class Binding(NamedTuple):
    """One way to run `search.negamax`: the function, how states and moves cross over, and the layout."""

    negamax: Callable[..., float]
    to_kernel: Callable[[State], Any]
    move_of: Callable[[int], Hashable]
    option: int
    space: int
    key_shifts: tuple[int, ...]
    weights: tuple[float, ...]
    compiled: bool
    name: str                   # "compiled", "interpreted" or "adapter" (`framework.kernel.binding.BINDINGS`)
    reason: str                 # why it is not compiled ("" when it is: `framework.kernel.binding.Bound.reason`)


def fits(game: Game, kernel: api.GameKernel) -> str:
    """Why `kernel` does not give what `negamax` needs within its fixed limits ("" when it does): a search key
    of at most KEY_WORDS words packed at `key_shifts`, a kernel state of at most STATE_WORDS words (more would
    be compared in part), a `move_space` (the history rows) and compiled heuristics."""
    if kernel.heuristics is None or not kernel.scores:
        return "its kernel compiles no heuristic"
    if not 0 < len(kernel.key_shifts) <= search.KEY_WORDS:
        return f"its kernel's search key is not packed in 1 to {search.KEY_WORDS} words (key_shifts)"
    if kernel.move_space <= 0:
        return "its kernel declares no move_space"
    if len(kernel.to_kernel(game.initial_state())) > search.STATE_WORDS:
        return f"its kernel's states are longer than {search.STATE_WORDS} words"
    return ""


def score_function(kernel: api.GameKernel, heuristic: Heuristic | None) -> str:
    """The kernel's function bound as `score`: the heuristic's, or in solver mode (never called, but compiled
    with the weights of the function bound) the first."""
    return kernel.scores.get(type(heuristic)) or next(iter(kernel.scores.values()))


def refusal(game: Game, heuristic: Heuristic | None, settings: Settings, proof_score: float | None) -> str:
    """Why this search cannot run on the game's kernel whatever the kernel offers ("" when it can)."""
    from plugins.agents.alphabeta.solver import WinLossEvaluation
    kernel: api.GameKernel | None = capability(game, "kernel")
    scores = kernel.scores if kernel is not None else {}
    if proof_score is None and type(heuristic) not in scores:
        return f"heuristic {getattr(heuristic, 'name', heuristic)!r} has no compiled function in the {game.name} kernel"
    if proof_score is not None and (proof_score != 1.0 or type(heuristic) is not WinLossEvaluation):
        return "the solver's evaluation has no compiled function"
    if settings.tt_size > MAX_TT_SIZE:
        return f"tt_size is above {MAX_TT_SIZE}"
    return ""


def bind_negamax(game: Game, heuristic: Heuristic | None, settings: Settings, proof_score: float | None,
                 kernel: str, switches: Callable[[], dict[int, int]] | dict[int, int]) -> Binding:
    """`negamax` bound as `kernel` says (`framework.kernel.binding.bind`); through an adapter (a fresh one per
    decision: it interns what it meets) `switches` (slots of `search.WORK` fixed for the decision, or a
    function making them) are read as constants."""
    def constants() -> dict[str, dict[int, int]]:
        return {"work": switches() if callable(switches) else switches}

    bound = bind(search, game, heuristic, kernel, constants=constants, fits=fits, score=score_function,
                 refuse=refusal(game, heuristic, settings, proof_score) if kernel != "adapter" else "")
    if bound.kernel is None:
        return Binding(bound.functions.negamax, bound.to_kernel, bound.move, 0, ADAPTER_SPACE, ADAPTER_KEY_SHIFTS,
                       bound.weights, False, bound.binding, bound.reason)
    return Binding(bound.functions.negamax, bound.to_kernel, bound.move, bound.option, bound.kernel.move_space,
                   bound.kernel.key_shifts, bound.weights, bound.binding == "compiled", bound.binding, bound.reason)


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


def warmup(game: Game, heuristic: Heuristic | None) -> None:
    """Compile (or load) the compiled search of `game` that `heuristic` runs now (once per process), so no timed
    move pays for it: the one of its function, else the first function's, which a solve runs. Only that one:
    each heuristic's search compiles apart, and a run uses the ones of its agents."""
    from plugins.agents.alphabeta.driver import AlphaBetaSearch
    kernel: api.GameKernel = capability(game, "kernel")
    heuristic_class: Any = type(heuristic) if type(heuristic) in kernel.scores else next(iter(kernel.scores))
    if heuristic_class not in _WARM.setdefault(kernel.tag, set()):
        _WARM[kernel.tag].add(heuristic_class)
        settings = Settings.resolve({"transposition_table": False})     # a table of one row: compiles the same
        search = AlphaBetaSearch(game, heuristic_class(game), settings, SearchLimits.start(Budget(nodes=2)))
        search.deepen(game.initial_state(), 1, True)


#: The heuristic classes whose compiled search `warmup` loaded, by game kernel tag.
_WARM: dict[str, set[type]] = {}
