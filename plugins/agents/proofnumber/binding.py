"""Where the PN family (`search`, written once) meets a game: which binding of the kernel interface runs it.

Three bindings of the same code objects, so the same answers, moves and node counts:

- compiled: a game with a kernel (`game.kernel`, see `framework.kernel`) and compiled kernels on: `search`
  compiled by numba over the game's compiled rules (once per game, cached on disk), its helpers once each
  rather than once per int constant passed to them (`fold_int_arguments=False`: measured a third less
  compile time, the same nodes/s);
- interpreted over the rules: a game with a kernel and `PLYGROUND_JIT=0`: the same functions run as Python
  over the game's plain rule functions (the kernel state's words as Python ints);
- through an adapter: any other game, its own states and moves passed through
  (`framework.kernel.adapter.PassThroughAdapter`: the searches keep states only in Python lists and dicts,
  so nothing needs interning, and a bounded table keeps the memory bounded).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from framework.capabilities import capabilities
from framework.kernel import api, numba_backend, python_backend
from framework.kernel.adapter import PassThroughAdapter
from framework.protocols import Game, Move, State
from plugins.agents.proofnumber import search

#: The `search` module compiled over each game's kernel, by the kernel's tag (compiled on first use).
_KERNELS: dict[str, numba_backend.Kernel] = {}


class Binding(NamedTuple):
    """`search`'s functions bound for one game, and how its states and moves cross over."""

    searches: Any                          # pn_search, pn2_search, dfpn_search, ... bound
    to_kernel: Callable[[State], Any]      # a game state as the searches take it
    move: Callable[[Any], Move]            # a move the searches return, as the game's
    option: int                            # the one int of game options `outcome` takes
    cyclic: bool                           # the game can repeat a state (it declares a repetition limit)


def kernel_searches(kernel: api.GameKernel) -> numba_backend.Kernel:
    """`search` over a game's kernel: compiled as attributes, `.interpreted` as Python (built once per game)."""
    searches = _KERNELS.get(kernel.tag)
    if searches is None:
        searches = _KERNELS[kernel.tag] = numba_backend.Kernel(search, rules=kernel.rules, tag=kernel.tag,
                                                     fold_int_arguments=False)
    return searches


def bind(game: Game) -> Binding:
    """The binding a search of `game` runs in now (compiled kernels can be turned off between searches)."""
    offered = capabilities(game)
    cyclic = offered.offers("repetition_limit")
    kernel = offered.kernel
    if kernel is not None:
        searches = kernel_searches(kernel)
        if numba_backend.enabled():
            return Binding(searches, kernel.to_kernel, int, kernel.option, cyclic)
        to_kernel = kernel.to_kernel
        return Binding(searches.interpreted, lambda state: tuple(int(w) for w in to_kernel(state)), int,
                       kernel.option, cyclic)
    adapter = PassThroughAdapter(game)
    return Binding(python_backend.interpret(search, adapter.functions()), adapter.to_kernel, adapter.move, 0, cyclic)
