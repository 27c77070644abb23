"""`bind`: the one way a search gets its functions, and the record of which way it got them.

A search module is written once against `framework.kernel.api`. For a game and heuristic, `bind` runs it one
of three ways (its `kernel` parameter, every search agent's option of that name):

- `compiled`: compiled by numba over the game's kernel (`numba_backend.Kernel`, once per game and search,
  cached on disk: the heuristic is an argument, `framework.kernel.choice`);
- `interpreted`: the same code objects run as Python over the kernel's plain rule functions;
- `adapter`: the same code run as Python through an adapter over the game's Python methods and the
  heuristic's `evaluate` (`framework.kernel.adapter`), for any game.
- `auto` (the default) chooses `compiled` when the game's kernel fits the search, else `adapter`, and says
  so: the `Bound` it returns names the binding and, when it is not compiled, the reason (agents record both
  per move: `Bound.recorded`, `SearchStats.extra["binding"]` and `["binding_reason"]`). With compiled
  kernels off (`PLYGROUND_JIT=0`) `auto` runs `interpreted` where it would run `compiled`.

A search module declares what it needs as data, read here (`declared`): the primitives it calls (those it
imports, `needs`), of them the `OPTIONAL` ones (called only on games that call for them: `needed_here`), the
maps of `GameKernel` whose heuristic functions it binds (`HEURISTIC_FUNCTIONS`), its size `LIMITS`
(`key_words`, `state_words`, `move_space`), its `WORK` layout and `WORK_SIZE`, which adapter serves it
(`ADAPTER`), whether it is `ANYTIME` (what a search cut by the budget found answers) and whether constant
arguments fold (`FOLD_CONSTANT_ARGUMENTS`). A kernel fits when the game offers one, it defines every primitive
the search needs there, it has the heuristic function the search binds, and it is within the search's limits. Asking
for `compiled` or `interpreted` where it does not fit is a ConfigError naming the reason: never a silent
fallback. Every binding visits the same nodes and gives the same answers (one code).

`bind` returns one `Bound`, made once per agent: it builds the search's state (`to_kernel`, `new_work`) and
runs its root calls under the one root driver (`run`, `root_moves`: `framework.kernel.root`).
"""

from __future__ import annotations

import functools
import types
import weakref
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, NamedTuple, TypeVar

import numpy as np

from framework.capabilities import capability, has_chance, player_count
from framework.errors import ConfigError
from framework.kernel import api, choice, numba_backend, python_backend, seat_choice
from framework.kernel.adapter import KernelAdapter, PassThroughAdapter
from framework.kernel.root import Run, drive, root_moves
from framework.params import Param
from framework.protocols import CHANCE, Budget, Game, Heuristic, State
from framework.search import SearchLimits

T = TypeVar("T")

#: The values of the `kernel` option.
BINDINGS = ("auto", "compiled", "interpreted", "adapter")
#: The `kernel` option every search agent declares.
KERNEL_PARAM = Param("kernel", str, "auto", "how the search runs: compiled (numba, over the game's kernel), "
                     "interpreted (the same code over the kernel's plain rules), adapter (over the game's "
                     "Python methods), auto (compiled when the kernel fits, else adapter)", choices=BINDINGS)


class Declared(NamedTuple):
    """What a search module declares of itself as data (`declared`)."""

    name: str                                   # NAME: the search's name in a refusal
    optional: tuple[str, ...]                   # OPTIONAL: primitives called only on games that call for them
    heuristic_functions: tuple[str, ...]        # HEURISTIC_FUNCTIONS: the GameKernel maps it binds a function of
    limits: Mapping[str, int]                   # LIMITS: key_words, state_words (most), move_space (1: needs one)
    work: Any                                   # WORK: the layout of its `work` (None: it keeps none)
    work_size: int                              # WORK_SIZE
    adapter: type[KernelAdapter]                # ADAPTER: "interning" (KernelAdapter) or "pass-through"
    anytime: bool                               # ANYTIME: a root search cut by the budget answers
    fold_constant_arguments: bool               # FOLD_CONSTANT_ARGUMENTS: see `numba_backend.Kernel`


ADAPTERS: dict[str, type[KernelAdapter]] = {"interning": KernelAdapter, "pass-through": PassThroughAdapter}


@functools.cache
def declared(search: types.ModuleType) -> Declared:
    """The declarations of `search`, with their defaults."""
    adapter = getattr(search, "ADAPTER", "interning")
    if adapter not in ADAPTERS:
        raise ConfigError(f"{search.__name__}: ADAPTER must be one of {', '.join(ADAPTERS)}, got {adapter!r}")
    return Declared(getattr(search, "NAME", search.__name__.rsplit(".", 2)[-2]), tuple(getattr(search, "OPTIONAL", ())),
                    tuple(getattr(search, "HEURISTIC_FUNCTIONS", ("scores", "seat_scores"))),
                    dict(getattr(search, "LIMITS", {})), getattr(search, "WORK", None),
                    int(getattr(search, "WORK_SIZE", 0)), ADAPTERS[adapter], bool(getattr(search, "ANYTIME", False)),
                    bool(getattr(search, "FOLD_CONSTANT_ARGUMENTS", True)))


class Bound(NamedTuple):
    """A search module's functions bound for one game and heuristic, how states and moves cross over, and the
    one root driver its decisions run under (`run`)."""

    functions: Any                          # the search's functions (attributes), bound
    binding: str                            # "compiled", "interpreted" or "adapter"
    to_kernel: Callable[[State], Any]       # a game state as the search takes it
    move: Callable[[Any], Hashable]         # a move the search returns, as the game's
    move_id: Callable[[Any], Any]           # a game's move as the search takes it
    option: int                             # the game's one int option (`outcome`)
    weights: Any = ()                       # the heuristic's weights (an array where `choice` reads its slot)
    kernel: api.GameKernel | None = None    # the game's kernel, unless through an adapter
    adapter: KernelAdapter | None = None    # the adapter, when through one
    reason: str = ""                        # why it is not compiled ("" when it is)
    search: types.ModuleType | None = None  # the search module bound

    def returns(self) -> int:
        """1 when the search reads an end's returns from `player_return` (an adapter's, or the kernel's:
        `offers`), else 0 (from `outcome`, which a kernel whose result depends on its option needs): the
        `returns` switch of a search's `work`."""
        return int(self.kernel is None or offers(self.kernel, "player_return"))

    def recorded(self) -> dict[str, str]:
        """What a search agent records in `SearchStats.extra`: the binding, and why it is not the compiled one."""
        return record_binding(self.binding, self.reason)

    def new_work(self, node_limit: int) -> Any:
        """The search's `work` (its declared WORK_SIZE slots, as `array`) with the node limit, the game's option
        and the `returns` switch in the slots of its WORK layout that hold them."""
        assert self.search is not None      # made by `bind`
        slots = declared(self.search)
        work = self.array(slots.work_size)
        work[slots.work.limit] = node_limit
        for name, value in (("option", self.option), ("returns", self.returns())):
            if hasattr(slots.work, name):
                work[getattr(slots.work, name)] = value
        return work

    def run(self, budget: Budget | SearchLimits, iteration: Callable[[Run[T], int, T | None], T | None],
            depths: Iterable[int] = (1,), stop: Callable[[T], bool] | None = None,
            switches: Mapping[str, int] | None = None) -> Run[T]:
        """One decision under the root driver (`framework.kernel.root.drive`): the budget's limits, a new
        `work` with `switches` (slot name: value) set, `iteration(run, depth, previous)` at each of `depths`.
        Through an interning adapter, the states it interned in earlier decisions are forgotten first."""
        assert self.search is not None      # made by `bind`
        if self.adapter is not None:
            self.adapter.forget()
        limits = budget if isinstance(budget, SearchLimits) else SearchLimits.start(budget)
        run: Run[T] = Run(limits, self.new_work(limits.nodes_left()), self.recorded())
        slots = declared(self.search).work
        for name, value in (switches or {}).items():
            run.work[getattr(slots, name)] = value
        return drive(run, iteration, depths, stop, declared(self.search).anytime)

    def root_moves(self, run: Run[Any], game: Game, state: State, child: Callable[[Any, float], float],
                   maximise: bool = True) -> tuple[float, Hashable] | None:
        """One root search over the game's moves, each child valued by `child(kernel_child, best so far)`
        (`framework.kernel.root.root_moves`)."""
        return root_moves(run, game, state, self.to_kernel, child, maximise)

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
    chain: api.CompiledModule | None = kernel.heuristics if kernel.heuristics is not None else kernel.rules
    while chain is not None:
        if name in vars(chain.module):
            return True
        chain = chain.rules
    return False


#: Per game kernel: why it does not fit a (search, heuristic class) ("" when it fits), found once.
_MISFITS: weakref.WeakKeyDictionary[api.GameKernel, dict[tuple[Any, ...], str]] = weakref.WeakKeyDictionary()


def misfit(search: types.ModuleType, game: Game, heuristic: Heuristic | None) -> str:
    """Why the game's kernel does not fit `search` with `heuristic` ("" when it fits)."""
    kernel: api.GameKernel | None = capability(game, "kernel")
    if kernel is None:
        return f"{game.name} has no kernel"
    key = (search.__name__, None if heuristic is None else type(heuristic))
    found = _MISFITS.setdefault(kernel, {})
    if key not in found:
        found[key] = _misfit(search, game, kernel, heuristic)
    return found[key]


def _misfit(search: types.ModuleType, game: Game, kernel: api.GameKernel, heuristic: Heuristic | None) -> str:
    wanted = needs(search) | needed_here(search, game)
    own = declared(search)
    missing = sorted(name for name in wanted - {"score"} if not offers(kernel, name))
    if missing:
        return f"the {game.name} kernel has no {', '.join(missing)}"
    if "score" in wanted:
        functions = heuristic_functions(kernel, own)
        if kernel.heuristics is None or not functions:
            return f"the {game.name} kernel has no compiled heuristic (a compiled {own.name} binds one, even unused)"
        if type(heuristic) not in functions and not unscored(heuristic):
            return (f"heuristic {getattr(heuristic, 'name', heuristic)!r} has no compiled function in the {game.name} "
                    "kernel")
    limits = own.limits
    if "key_words" in limits and not 0 < len(kernel.key_shifts) <= limits["key_words"]:
        return f"the {game.name} kernel's search key is not packed in 1 to {limits['key_words']} words (key_shifts)"
    if limits.get("move_space") and kernel.move_space <= 0:
        return f"the {game.name} kernel declares no move_space"
    if "state_words" in limits and len(kernel.to_kernel(game.initial_state())) > limits["state_words"]:
        return f"the {game.name} kernel's states are longer than {limits['state_words']} words"
    return ""


def heuristic_functions(kernel: api.GameKernel, own: Declared) -> dict[Any, str]:
    """The kernel's compiled heuristic functions a search may bind, by Heuristic class, from the maps it
    declares (`HEURISTIC_FUNCTIONS`: first-seat `scores`, any-seat `seat_scores`)."""
    return {cls: name for kind in own.heuristic_functions for cls, name in getattr(kernel, kind).items()}


def unscored(heuristic: Heuristic | None) -> bool:
    """Whether a search never calls `heuristic`'s evaluation (none, or one that says so: `UNSCORED`, as the
    solver's win/loss one), so that any compiled function may stand bound in its place."""
    return heuristic is None or bool(getattr(heuristic, "UNSCORED", False))


#: Compiled searches, by search module, game kernel tag, heuristic functions and int folding (made on first use).
_COMPILED: dict[tuple[str, str, tuple[tuple[str, str], ...], bool], numba_backend.Kernel] = {}
#: The heuristic choosers (`framework.kernel.choice` over a game's heuristics), by game kernel tag and slots.
_CHOOSERS: dict[tuple[str, tuple[tuple[str, str], ...]], numba_backend.Kernel] = {}


def heuristic_slots(kernel: api.GameKernel, aliases: Mapping[str, str]) -> tuple[str, ...]:
    """The functions a search's `score` (or `evaluate`) chooses among at run time, slot by slot: every function of
    the map the bound one is from, in the game's order; () when the search binds none, or when the game declares
    more than `choice.SLOTS` (its searches are then compiled per heuristic function)."""
    if not aliases:
        return ()
    ((kind, _),) = aliases.items()
    functions = tuple(dict.fromkeys((kernel.seat_scores if kind == "evaluate" else kernel.scores).values()))
    return functions if len(functions) <= choice.SLOTS else ()


def chooser(kernel: api.GameKernel, kind: str, functions: tuple[str, ...]) -> numba_backend.Kernel:
    """`choice` (`seat_choice` for `evaluate`) over the game's heuristics kernel, its `kind` slots (`score_0`, ...
    or `evaluate_0`, ...) bound to `functions` (the slots past them to the first)."""
    aliases = {f"{kind}_{i}": functions[i if i < len(functions) else 0] for i in range(choice.SLOTS)}
    key = (kernel.tag, tuple(sorted(aliases.items())))
    made = _CHOOSERS.get(key)
    if made is None:
        module = seat_choice if kind == "evaluate" else choice
        made = _CHOOSERS[key] = numba_backend.Kernel(module, rules=kernel.heuristics, tag=kernel.tag, aliases=aliases)
    return made


def compiled_search(search: types.ModuleType, kernel: api.GameKernel, aliases: dict[str, str],
                    slots: tuple[str, ...] = ()) -> numba_backend.Kernel:
    """`search` over `kernel` (compiled as attributes, `.interpreted` as Python), `aliases` binding `score` (or
    `evaluate`) to the heuristic function of that name (empty: the search calls no heuristic). Given `slots`
    (`heuristic_slots`), the search calls `choice`'s `score` instead, which chooses among them by the weights'
    last entry: one compile serves every heuristic (interpreted, where nothing compiles, `bind` gives none: the
    direct call saves a Python call per evaluation)."""
    fold_constant_arguments = declared(search).fold_constant_arguments
    rules: api.CompiledModule | None = kernel.rules if not aliases else kernel.heuristics
    if slots:
        ((kind, _),) = aliases.items()
        rules, aliases = chooser(kernel, kind, slots), {kind: kind}
    key = (search.__name__, kernel.tag, tuple(sorted(aliases.items())) + tuple((s, s) for s in slots),
           fold_constant_arguments)
    made = _COMPILED.get(key)
    if made is None:
        made = _COMPILED[key] = numba_backend.Kernel(search, rules=rules, tag=kernel.tag, aliases=aliases or None,
                                                     fold_constant_arguments=fold_constant_arguments)
    return made


def bind(search: types.ModuleType, game: Game, heuristic: Heuristic | None = None, kernel: str = "auto", *,
         constants: python_backend.Constants | Callable[[], python_backend.Constants] | None = None,
         refuse: str = "") -> Bound:
    """`search` bound for `game` and `heuristic` the way `kernel` (one of BINDINGS) says, as it declares
    (`declared`).

    `constants` (or a function making them when needed): slots the adapter binding's functions read as ints
    (`python_backend.interpret`); `refuse`: a reason the caller found why the search cannot run on the kernel
    with its parameters, whatever the kernel offers ("" for none)."""
    if kernel not in BINDINGS:
        raise ConfigError(f"kernel: must be one of {', '.join(BINDINGS)}, got {kernel!r}")
    reason = "asked for" if kernel == "adapter" else misfit(search, game, heuristic)
    if not reason and refuse:
        reason = refuse
    if reason:
        if kernel != "auto" and kernel != "adapter":
            raise ConfigError(f"kernel: {kernel} does not fit {search.__name__} on {game.name}: {reason} "
                              "(kernel: adapter runs it over the game's Python methods)")
        made = declared(search).adapter(game, heuristic)
        if callable(constants):
            constants = constants()
        return Bound(python_backend.interpret(search, made.functions(), constants), "adapter", made.to_kernel,
                     made.move, made.move_id, 0, adapter=made, reason=reason, search=search)
    offered: api.GameKernel = capability(game, "kernel")
    if kernel == "compiled" and not numba_backend.enabled():
        raise ConfigError("kernel: compiled, but PLYGROUND_JIT=0 turns compiled kernels off here "
                          "(kernel: interpreted runs the same code as Python)")
    aliases = _aliases(offered, heuristic, declared(search)) if "score" in needs(search) else {}
    weights = _weights(game, offered, heuristic, aliases)
    if kernel == "compiled" or (kernel == "auto" and numba_backend.enabled()):
        slots = heuristic_slots(offered, aliases)
        if slots:   # the slot `choice` calls, after the heuristic's own weights
            weights = (*weights, float(slots.index(next(iter(aliases.values())))))
        return Bound(compiled_search(search, offered, aliases, slots), "compiled", offered.to_kernel, offered.move,
                     offered.move_id, offered.option, np.array(weights, np.float64) if slots else weights, offered,
                     search=search)
    to_kernel = offered.to_kernel
    compiled = compiled_search(search, offered, aliases)
    return Bound(compiled.interpreted, "interpreted", lambda state: tuple(int(w) for w in to_kernel(state)),
                 offered.move, offered.move_id, offered.option, weights, offered,
                 reason="asked for" if kernel == "interpreted" else "compiled kernels are off (PLYGROUND_JIT=0)",
                 search=search)


def _aliases(kernel: api.GameKernel, heuristic: Heuristic | None, own: Declared) -> dict[str, str]:
    """The heuristic function bound in the search: the heuristic's own of the maps the search declares, else
    (a search that never calls it: `unscored`) the first of them; as `evaluate` when it is a function for any
    seat (`GameKernel.seat_scores`), else as `score` (the first seat's)."""
    functions = heuristic_functions(kernel, own)
    chosen = functions.get(type(heuristic)) or next(iter(functions.values()))
    return {"evaluate" if chosen in kernel.seat_scores.values() else "score": chosen}


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
