"""Which binding runs alpha-beta's one negamax (`negamax.py`) for a game and heuristic.

- compiled: the game's kernel fits (`fits`) and compiled kernels are on, with the solver's win/loss
  evaluation or a heuristic the kernel compiles (`GameKernel.scores`): `framework.kernel.numba_backend.Kernel` compiles
  `negamax` with the kernel interface bound to the game's compiled rules and `score` to the heuristic's.
- interpreted rules: the same, with compiled kernels off (`PLYGROUND_JIT=0`), or a root search deeper
  than MAX_DEPTH (a search to the end): the same code run as Python over the plain rules functions.
- adapter: any other game or heuristic (tic-tac-toe, matches, a third-party game or heuristic): the same
  code run as Python through a `framework.kernel.adapter.KernelAdapter` over the Game protocol.

Every binding gives the same node counts, values, moves and principal variations (one code); compiled
state lives in numpy arrays, interpreted state in dicts (only the slots a search touches exist).
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

import numpy as np

from framework.capabilities import capability
from framework.kernel import api, numba_backend, python_backend
from framework.kernel.adapter import KernelAdapter
from framework.kernel.api import PRIMITIVES
from framework.protocols import Budget, Game, Heuristic, State
from framework.search import SearchLimits
from plugins.agents.alphabeta import negamax
from plugins.agents.alphabeta.settings import MAX_DEPTH as MAX_DEPTH  # MAX_DEPTH re-exported
from plugins.agents.alphabeta.settings import Settings

#: Largest table for which the probe in `negamax.negamax` cannot overflow 64 bits compiled.
MAX_TT_SIZE = (1 << 31) - 1
#: An adapter's move space: beyond any interned move id, so every move has a history score.
ADAPTER_SPACE = 1 << 26
#: An adapter's search key: one word, the game's hash (`KernelAdapter`), its states one word too (an id).
ADAPTER_KEY_SHIFTS = (0,)
#: The compiled search of each game and heuristic function (compiled on first use, then cached on disk).
_COMPILED: dict[tuple[str, str], numba_backend.Kernel] = {}
#: `fits(game)` per game kernel, computed once (it builds the initial state).
_FITS: weakref.WeakKeyDictionary[api.GameKernel, bool] = weakref.WeakKeyDictionary()


class Binding(NamedTuple):
    """One way to run `negamax.negamax`: the function, how states and moves cross over, and the layout."""

    negamax: Callable[..., float]
    to_kernel: Callable[[State], Any]
    move_of: Callable[[int], Hashable]
    option: int
    space: int
    key_shifts: tuple[int, ...]
    weights: tuple[float, ...]
    compiled: bool


def game_kernel(game: Game) -> api.GameKernel:
    """The game's compiled kernel: its optional `kernel` capability, which `kernel_fits` tests for."""
    kernel: api.GameKernel | None = capability(game, "kernel")
    assert kernel is not None          # callers test `kernel_fits` first
    return kernel


def kernel_fits(game: Game) -> bool:
    """Whether the game has a kernel that fits `negamax` (`fits`), whether compiled kernels are on or not."""
    kernel = capability(game, "kernel")
    if kernel is None:
        return False
    fit = _FITS.get(kernel)
    if fit is None:
        fit = _FITS[kernel] = fits(game)
    return fit


def compiled_game(game: Game) -> bool:
    """Whether compiled kernels are on and the game's kernel fits `negamax`."""
    return numba_backend.enabled() and kernel_fits(game)


def fits(game: Game) -> bool:
    """Whether `game.kernel` gives what `negamax` needs within its fixed limits: a search key of at most
    KEY_WORDS words packed at `key_shifts`, a kernel state of at most STATE_WORDS words (more would be
    compared in part), a `move_space` (the history rows), compiled heuristics and the kernel functions."""
    kernel = game_kernel(game)
    if kernel.heuristics is None or not kernel.scores:
        return False
    modules: set[str] = set()
    chain: numba_backend.Kernel | None = kernel.heuristics
    while chain is not None:
        modules |= set(vars(chain.module))
        chain = chain.rules
    return (0 < len(kernel.key_shifts) <= negamax.KEY_WORDS and kernel.move_space > 0
            and len(kernel.to_kernel(game.initial_state())) <= negamax.STATE_WORDS
            and all(name in modules for name in PRIMITIVES if name != "score"))


def on_kernel(game: Game, heuristic: Heuristic | None, settings: Settings, proof_score: float | None) -> bool:
    """Whether the search runs over the game's kernel (compiled, or its rules interpreted), not an adapter."""
    from plugins.agents.alphabeta.solver import WinLossEvaluation
    if not kernel_fits(game):
        return False
    if proof_score is None:
        evaluation = heuristic is not None and type(heuristic) in game_kernel(game).scores
    else:
        evaluation = proof_score == 1.0 and type(heuristic) is WinLossEvaluation
    return evaluation and settings.tt_size <= MAX_TT_SIZE


def supported(game: Game, heuristic: Heuristic | None, settings: Settings, proof_score: float | None) -> bool:
    """Whether this search runs compiled."""
    return numba_backend.enabled() and on_kernel(game, heuristic, settings, proof_score)


def kernel_of(game: Game, heuristic: Heuristic | None) -> numba_backend.Kernel:
    """`negamax` over `game`'s kernel with `score` bound to the heuristic's function (any, in solver mode)."""
    kernel = game_kernel(game)
    scores = kernel.scores
    name = scores[type(heuristic)] if type(heuristic) in scores else next(iter(scores.values()))
    search = _COMPILED.get((kernel.tag, name))
    if search is None:
        search = _COMPILED[kernel.tag, name] = numba_backend.Kernel(negamax, rules=kernel.heuristics, tag=kernel.tag,
                                                          aliases={"score": name})
    return search


def _weights(game: Game, heuristic: Heuristic | None) -> tuple[float, ...]:
    """The heuristic's parameters as a tuple (passed by value compiled); in solver mode `score` is never
    called, but compiles for the weights of the function bound."""
    scores = game_kernel(game).scores
    scored: Any = heuristic if type(heuristic) in scores else next(iter(scores))(game)
    return tuple(float(w) for w in scored.weights)


def kernel_binding(game: Game, heuristic: Heuristic | None, compiled: bool) -> Binding:
    """`negamax` over the game's kernel: compiled, or the same code over the plain rules."""
    kernel = game_kernel(game)
    search = kernel_of(game, heuristic)
    if compiled:
        return Binding(search.negamax, kernel.to_kernel, int, kernel.option, kernel.move_space,
                       kernel.key_shifts, _weights(game, heuristic), True)
    to_kernel = kernel.to_kernel
    return Binding(search.interpreted.negamax, lambda state: tuple(int(w) for w in to_kernel(state)), int,
                   kernel.option, kernel.move_space, kernel.key_shifts, _weights(game, heuristic), False)


def adapter_binding(game: Game, heuristic: Heuristic | None, switches: dict[int, int]) -> Binding:
    """`negamax` over a fresh `KernelAdapter` of the game (one per decision: it interns what it meets), the
    `switches` (slots of `negamax.WORK` fixed for the decision) read as constants."""
    adapter = KernelAdapter(game, heuristic)
    search = python_backend.interpret(negamax, adapter.functions(), {"work": switches})
    return Binding(search.negamax, adapter.to_kernel, adapter.move, 0, ADAPTER_SPACE, ADAPTER_KEY_SHIFTS, (),
                   False)


def python_plies() -> int:
    """Per-ply rows an interpreted search may reach: no deeper than Python's recursion allows."""
    return sys.getrecursionlimit() + 2


class CompiledTable:
    """The compiled search's transposition table, kept by an agent across its decisions.

    Each decision takes a new stamp and rows of older stamps read as empty (`negamax.ROW.stamp`), so
    a decision starts from an empty table, as the interpreted one does, without rewriting or
    newly mapping its megabytes (measured: that cost a tenth of a 10,000-node solve).
    """

    def __init__(self, size: int) -> None:
        self.rows = np.zeros((size, negamax.ROW_SIZE), np.int64)
        self.values = np.zeros(size, np.float64)
        self.stamp = 0

    def renew(self) -> int:
        """The stamp of a new decision."""
        self.stamp += 1
        return self.stamp


def warmup(game: Game, heuristic: Heuristic | None) -> None:
    """Compile (or load) the compiled search of `game` that `heuristic` runs now (once per process), so no timed
    move pays for it: the one of its function, else the first function's, which a solve runs (`kernel_of`).
    Only that one: each heuristic's search compiles apart, and a run uses the ones of its agents."""
    from plugins.agents.alphabeta.search import AlphaBetaSearch
    kernel = game_kernel(game)
    heuristic_class: Any = type(heuristic) if type(heuristic) in kernel.scores else next(iter(kernel.scores))
    if (kernel.tag, kernel.scores[heuristic_class]) not in _COMPILED:
        settings = Settings.resolve({"transposition_table": False})     # a table of one row: compiles the same
        search = AlphaBetaSearch(game, heuristic_class(game), settings, SearchLimits.start(Budget(nodes=2)))
        search.deepen(game.initial_state(), 1, True)
