"""`bind`: the one way a search gets its functions, and the record of which way it got them.

A search module is written once against `framework.kernel.api`. For a game and heuristic, `bind` runs it one
of three ways (its `kernel` parameter, every search agent's option of that name):

- `compiled`: compiled by numba over the game's kernel (`numba_backend.Kernel`, once per game, heuristic
  function and search, cached on disk);
- `interpreted`: the same code objects run as Python over the kernel's plain rule functions;
- `adapter`: the same code run as Python through an adapter over the game's Python methods and the
  heuristic's `evaluate` (`framework.kernel.adapter`), for any game.
- `auto` (the default) chooses `compiled` when the game's kernel fits the search, else `adapter`, and says
  so: the `Bound` it returns names the binding and, when it is not compiled, the reason (agents record both
  per move: `Bound.recorded`, `SearchStats.extra["binding"]` and `["binding_reason"]`). With compiled
  kernels off (`PLYGROUND_JIT=0`) `auto` runs `interpreted` where it would run `compiled`.

A kernel fits when the game offers one, it defines every primitive the search calls (directly or through the
derived functions it imports; of its OPTIONAL ones, those the game calls for: `needed_here`), the heuristic
has a compiled function there when the search calls `score`, and the search's own test (`fits`) passes. Asking
for `compiled` or `interpreted` where it does not fit is a ConfigError naming the reason: never a silent
fallback. Every binding visits the same nodes and gives the same answers (one code).
"""

from __future__ import annotations

import functools
import types
import weakref
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

import numpy as np

from framework.capabilities import capability, has_chance, player_count
from framework.errors import ConfigError
from framework.kernel import api, numba_backend, python_backend
from framework.kernel.adapter import KernelAdapter
from framework.params import Param
from framework.protocols import CHANCE, Budget, Game, Heuristic, State

#: The values of the `kernel` option.
BINDINGS = ("auto", "compiled", "interpreted", "adapter")
#: The `kernel` option every search agent declares.
KERNEL_PARAM = Param("kernel", str, "auto", "how the search runs: compiled (numba, over the game's kernel), "
                     "interpreted (the same code over the kernel's plain rules), adapter (over the game's "
                     "Python methods), auto (compiled when the kernel fits, else adapter)", choices=BINDINGS)


class Bound(NamedTuple):
    """A search module's functions bound for one game and heuristic, and how states and moves cross over."""

    functions: Any                          # the search's functions (attributes), bound
    binding: str                            # "compiled", "interpreted" or "adapter"
    to_kernel: Callable[[State], Any]       # a game state as the search takes it
    move: Callable[[Any], Hashable]         # a move the search returns, as the game's
    move_id: Callable[[Any], Any]           # a game's move as the search takes it
    option: int                             # the game's one int option (`outcome`)
    weights: tuple[float, ...] = ()         # the heuristic's weights, passed to `score` compiled
    kernel: api.GameKernel | None = None    # the game's kernel, unless through an adapter
    adapter: KernelAdapter | None = None    # the adapter, when through one
    reason: str = ""                        # why it is not compiled ("" when it is)

    def returns(self) -> int:
        """1 when the search reads an end's returns from `player_return` (an adapter's, or the kernel's:
        `offers`), else 0 (from `outcome`, which a kernel whose result depends on its option needs): the
        `returns` switch of a search's `work`."""
        return int(self.kernel is None or offers(self.kernel, "player_return"))

    def recorded(self) -> dict[str, str]:
        """What a search agent records in `SearchStats.extra`: the binding, and why it is not the compiled one."""
        return record_binding(self.binding, self.reason)

    def work(self, slots: Any, size: int, node_limit: int) -> Any:
        """A search's `work` (`array`, `size` slots) with the node limit and the game's option in the slots
        `slots.limit` and `slots.option` of its layout."""
        work = self.array(size)
        work[slots.option], work[slots.limit] = self.option, node_limit
        return work

    def array(self, size: int, kind: type = int) -> Any:
        """`size` zeros of `kind` (int or float) as the search keeps its state: a numpy array compiled, a list
        interpreted."""
        if self.binding == "compiled":
            return np.zeros(size, np.int64 if kind is int else np.float64)
        return [kind(0)] * size


def record_binding(binding: str, reason: str) -> dict[str, str]:
    """`SearchStats.extra`'s record of how a search ran: `binding`, and `binding_reason` where it is not compiled
    (match records and `plyground export` carry both per move)."""
    return {"binding": binding, **({"binding_reason": reason} if binding != "compiled" and reason else {})}


@functools.cache
def needs(search: types.ModuleType) -> frozenset[str]:
    """The game's primitives `search` calls: those it imports from `api`, and those the derived functions it
    imports call, but its `OPTIONAL` ones (of `python_backend.OPTIONAL_STUBS`: called only on games that call
    for them, `needed_here`; e.g. MCTS's `chance_probability` at a chance node)."""
    primitives = set(api.PRIMITIVES + api.DICE_AND_SEATS)
    found: set[str] = set()
    for name, value in vars(search).items():
        if value is getattr(api, name, None) and callable(value):
            if name in primitives:
                found.add(name)
            elif name in api.DERIVED:
                found |= primitives & set(value.__code__.co_names)
    return frozenset(found - set(getattr(search, "OPTIONAL", ())))


def needed_here(search: types.ModuleType, game: Game) -> frozenset[str]:
    """The `OPTIONAL` primitives of `search` that `game` makes it call: `chance_probability` when it has dice,
    `player_return` when it has more than two seats (with two, a search scores an end by `outcome`'s WIN, LOSS
    and DRAW, 1, -1 and 0: `offers`)."""
    called = {"chance_probability": has_chance(game), "player_return": player_count(game) > 2}
    return frozenset(name for name in getattr(search, "OPTIONAL", ()) if called[name])


def offers(kernel: api.GameKernel, name: str) -> bool:
    """Whether the game's kernel (its heuristics kernel, its rules, or a kernel they are built on) defines `name`:
    a search told so in its `work` calls an OPTIONAL primitive only where it is (MCTS, expectiminimax and the
    n-seat searches read an end's returns from `player_return` where the kernel has it, else from `outcome`)."""
    chain: numba_backend.Kernel | None = kernel.heuristics if kernel.heuristics is not None else kernel.rules
    while chain is not None:
        if name in vars(chain.module):
            return True
        chain = chain.rules
    return False


#: Per game kernel: why it does not fit a (search, heuristic class, fits) ("" when it fits), found once.
_MISFITS: weakref.WeakKeyDictionary[api.GameKernel, dict[tuple[Any, ...], str]] = weakref.WeakKeyDictionary()


def misfit(search: types.ModuleType, game: Game, heuristic: Heuristic | None,
           fits: Callable[[Game, api.GameKernel], str] | None = None, own_score: bool = False) -> str:
    """Why the game's kernel does not fit `search` with `heuristic` ("" when it fits); `own_score`: the search
    chooses the function it binds as `score` itself (so the heuristic need not have one)."""
    kernel: api.GameKernel | None = capability(game, "kernel")
    if kernel is None:
        return f"{game.name} has no kernel"
    key = (search.__name__, None if own_score else type(heuristic), fits)
    found = _MISFITS.setdefault(kernel, {})
    if key not in found:
        found[key] = _misfit(search, game, kernel, heuristic, fits, own_score)
    return found[key]


def _misfit(search: types.ModuleType, game: Game, kernel: api.GameKernel, heuristic: Heuristic | None,
            fits: Callable[[Game, api.GameKernel], str] | None, own_score: bool) -> str:
    wanted = needs(search) | needed_here(search, game)
    scored = "score" in wanted
    missing = sorted(name for name in wanted - {"score"} if not offers(kernel, name))
    if missing:
        return f"the {game.name} kernel has no {', '.join(missing)}"
    if scored and not own_score and type(heuristic) not in kernel.scores and type(heuristic) not in kernel.seat_scores:
        return f"heuristic {getattr(heuristic, 'name', heuristic)!r} has no compiled function in the {game.name} kernel"
    return fits(game, kernel) if fits is not None else ""


#: Compiled searches, by search module, game kernel tag, heuristic functions and int folding (made on first use).
_COMPILED: dict[tuple[str, str, tuple[tuple[str, str], ...], bool], numba_backend.Kernel] = {}


def compiled_search(search: types.ModuleType, kernel: api.GameKernel, aliases: dict[str, str],
                    fold_int_arguments: bool = True) -> numba_backend.Kernel:
    """`search` over `kernel` (compiled as attributes, `.interpreted` as Python), `aliases` binding `score` (or
    `evaluate`) to the heuristic function of that name (empty: the search calls no heuristic)."""
    key = (search.__name__, kernel.tag, tuple(sorted(aliases.items())), fold_int_arguments)
    made = _COMPILED.get(key)
    if made is None:
        rules = kernel.rules if not aliases else kernel.heuristics
        made = _COMPILED[key] = numba_backend.Kernel(search, rules=rules, tag=kernel.tag, aliases=aliases or None,
                                                     fold_int_arguments=fold_int_arguments)
    return made


def bind(search: types.ModuleType, game: Game, heuristic: Heuristic | None = None, kernel: str = "auto", *,
         adapter: type[KernelAdapter] = KernelAdapter,
         constants: python_backend.Constants | Callable[[], python_backend.Constants] | None = None,
         fits: Callable[[Game, api.GameKernel], str] | None = None, fold_int_arguments: bool = True,
         score: Callable[[api.GameKernel, Heuristic | None], str] | None = None, refuse: str = "") -> Bound:
    """`search` bound for `game` and `heuristic` the way `kernel` (one of BINDINGS) says.

    `adapter`: the adapter class for the adapter binding (`constants`, or a function making them when
    needed: slots its functions read as ints, `python_backend.interpret`); `fits(game, kernel)`: the
    search's own test of a kernel, the reason it does not fit or ""; `score(kernel, heuristic)`: the name of
    the kernel's heuristic function to bind as `score`, or as `evaluate` when it is a function for any seat
    (`GameKernel.seat_scores`) (default: the heuristic's own, `GameKernel.scores` or `seat_scores`);
    `refuse`: a reason the caller found why the search cannot run on the kernel now, whatever it offers (""
    for none); `fold_int_arguments`: see `numba_backend.Kernel`."""
    if kernel not in BINDINGS:
        raise ConfigError(f"kernel: must be one of {', '.join(BINDINGS)}, got {kernel!r}")
    reason = "asked for" if kernel == "adapter" else misfit(search, game, heuristic, fits, score is not None)
    if not reason and refuse:
        reason = refuse
    if reason:
        if kernel != "auto" and kernel != "adapter":
            raise ConfigError(f"kernel: {kernel} does not fit {search.__name__} on {game.name}: {reason} "
                              "(kernel: adapter runs it over the game's Python methods)")
        made = adapter(game, heuristic)
        if callable(constants):
            constants = constants()
        return Bound(python_backend.interpret(search, made.functions(), constants), "adapter", made.to_kernel,
                     made.move, made.move_id, 0, adapter=made, reason=reason)
    offered: api.GameKernel = capability(game, "kernel")
    if kernel == "compiled" and not numba_backend.enabled():
        raise ConfigError("kernel: compiled, but PLYGROUND_JIT=0 turns compiled kernels off here "
                          "(kernel: interpreted runs the same code as Python)")
    aliases = _aliases(offered, heuristic, score) if "score" in needs(search) else {}
    compiled = compiled_search(search, offered, aliases, fold_int_arguments)
    weights = _weights(game, offered, heuristic, aliases)
    if kernel == "compiled" or (kernel == "auto" and numba_backend.enabled()):
        return Bound(compiled, "compiled", offered.to_kernel, offered.move, offered.move_id, offered.option, weights,
                     offered)
    to_kernel = offered.to_kernel
    return Bound(compiled.interpreted, "interpreted", lambda state: tuple(int(w) for w in to_kernel(state)),
                 offered.move, offered.move_id, offered.option, weights, offered,
                 reason="asked for" if kernel == "interpreted" else "compiled kernels are off (PLYGROUND_JIT=0)")


def _aliases(kernel: api.GameKernel, heuristic: Heuristic | None,
             score: Callable[[api.GameKernel, Heuristic | None], str] | None) -> dict[str, str]:
    """The heuristic function bound in the search: the search's own choice (as `evaluate` when it is a function
    for any seat, else as `score`), else the heuristic's function for any seat as `evaluate`
    (`GameKernel.seat_scores`), else its first seat's as `score`."""
    if score is not None:
        chosen = score(kernel, heuristic)
        return {"evaluate" if chosen in kernel.seat_scores.values() else "score": chosen}
    if type(heuristic) in kernel.seat_scores:
        return {"evaluate": kernel.seat_scores[type(heuristic)]}
    return {"score": kernel.scores[type(heuristic)]}


def _weights(game: Game, kernel: api.GameKernel, heuristic: Heuristic | None,
             aliases: dict[str, str]) -> tuple[float, ...]:
    """The weights the heuristic function takes: the heuristic's, or (a search that binds a function for no
    heuristic of its class, as alpha-beta's solver) those of the function's own class."""
    if not aliases:
        return ()
    scored: Any = heuristic
    if type(heuristic) not in kernel.scores and type(heuristic) not in kernel.seat_scores:
        chosen = next(iter(aliases.values()))
        scored = next(cls for cls, function in (*kernel.scores.items(), *kernel.seat_scores.items())
                      if function == chosen)(game)
    return tuple(float(w) for w in getattr(scored, "weights", ()))


def decision_state(game: Game) -> State | None:
    """The first state from the start where a seat moves (first moves and outcomes followed), on which an agent
    runs its compiled search once when built, so that no timed move pays for the compile; None if the game ends
    first."""
    state = game.initial_state()
    while not game.is_terminal(state):
        if game.to_move(state) != CHANCE:
            return state
        state = game.apply(state, game.legal_moves(state)[0])
    return None


def warm_up(agent: Any, game: Game) -> None:
    """Compile (or load) `agent`'s compiled search now, a decision of one node at `decision_state`, so that no
    timed move pays for it."""
    state = decision_state(game)
    if state is not None:
        agent.select_move(game, state, Budget(nodes=1))
