"""Compiled kernels: a game's plain rule functions compiled by numba, from the very same code.

One source of truth: a `Kernel` takes a rules module written as plain functions over ints
and flat tuples of ints (see DESIGN.md) and compiles *the same code objects* with
`numba.njit(cache=True)`. Only the globals they read are rebound: bitboard constants and
tables named in `bitboards` become `numpy.uint64` scalars and arrays, tables named in `small`
`int8` arrays, other (nested) int tuples `int64` arrays, and every sibling function becomes its compiled twin. The
interpreted module is untouched, so the Python plugin and the compiled path cannot drift;
tests run both over hundreds of positions and compare every count, value and node.

Where Python ints and uint64 differ the rules must stay on the safe side, which the
equality tests check: bitboards never go negative, a left shift that overflows 64 bits is
masked before it matters, and a bitboard is never built from an int literal (`1 << s`
types as int64 under numba, whose right shift then sign-extends), so rules take single
bits from a table instead. `int.bit_count()` and `int.bit_length()` compile to the LLVM
`ctpop` and `ctlz` intrinsics (registered here), so rules keep the Python spelling.

numba is imported lazily (it costs half a second) and compiled code is cached on disk,
so the compile cost is paid once per machine; `plyground warmup` pays it ahead of time.
`PLYGROUND_JIT=0` in the environment turns every kernel off (the interpreted path runs).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import inspect
import itertools
import math
import os
import sys
import time
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

_REGISTERED = False

#: `outcome(state, player, option)` of a rules kernel: the player won, lost, drew, or the game goes on.
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


def enabled() -> bool:
    """Whether compiled kernels are used (set `PLYGROUND_JIT=0` to run everything interpreted)."""
    return os.environ.get("PLYGROUND_JIT", "1") != "0"


def _numba() -> Any:
    """Import numba and teach it `int.bit_count()` / `int.bit_length()` (once)."""
    global _REGISTERED
    if _REGISTERED:
        import numba
        return numba
    with _hidden("scipy"):
        import numba
    _announce_compiles(numba)
    from numba import types as nbtypes
    from numba.core import cgutils
    from numba.extending import intrinsic, overload, overload_method

    @intrinsic
    def ctpop(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return x(x), codegen

    @intrinsic
    def ctlz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctlz(args[0], cgutils.false_bit)
        return x(x), codegen

    @overload(clock)
    def compiled_clock():
        def impl():
            with numba.objmode(now="float64"):
                now = time.perf_counter()
            return now
        return impl

    @intrinsic
    def bitcast_double(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(nbtypes.float64))
        return nbtypes.float64(nbtypes.int64), codegen

    @intrinsic
    def borrowed_view(typingctx, array):
        def codegen(context, builder, signature, args):
            view = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
            view.meminfo = cgutils.get_null_value(view.meminfo.type)
            view.parent = cgutils.get_null_value(view.parent.type)
            return view._getvalue()
        return array(array), codegen

    @overload(borrowed)
    def compiled_borrowed(array):
        return lambda array: borrowed_view(array)

    @overload(float_of_bits)
    def compiled_float_of_bits(bits):
        return lambda bits: bitcast_double(np.int64(bits))

    @overload(as_int64)
    def compiled_as_int64(value):
        return lambda value: np.int64(value)

    @overload(as_uint64)
    def compiled_as_uint64(value):
        return lambda value: np.uint64(value)

    @overload(next_after)
    def compiled_next_after(x, toward):
        return lambda x, toward: np.nextafter(x, toward)

    @overload(sort_by_scores)
    def compiled_sort_by_scores(items, scores, at, bound):
        def impl(items, scores, at, bound):
            n = len(items)
            if n < 2:
                return
            item = items[0]
            previous = scores[at + item] if item < bound else 0   # the score of items[i - 1], kept by an insertion
            for i in range(1, n):
                item = items[i]
                score = scores[at + item] if item < bound else 0
                if score <= previous:
                    previous = score
                    continue
                j = i - 1
                while j > 0:
                    before = items[j - 1]
                    if (scores[at + before] if before < bound else 0) >= score:
                        break
                    items[j + 1] = items[j]
                    j -= 1
                items[j + 1] = items[j]
                items[j] = item
        return impl

    @overload(to_front)
    def compiled_to_front(items, item, front):
        def impl(items, item, front):
            for i in range(front, len(items)):
                if items[i] == item:
                    for j in range(i, front, -1):
                        items[j] = items[j - 1]
                    items[front] = item
                    return front + 1
            return front
        return impl

    @overload(prepend)
    def compiled_prepend(lines, at, item, source):
        def impl(lines, at, item, source):
            n = lines[source]
            lines[at + 1] = item
            for i in range(n):
                lines[at + 2 + i] = lines[source + 1 + i]
            lines[at] = n + 1
        return impl

    @overload_method(nbtypes.Integer, "bit_count")
    def bit_count(x):
        return lambda x: np.int64(ctpop(np.uint64(x)))

    @overload_method(nbtypes.Integer, "bit_length")
    def bit_length(x):
        return lambda x: 64 - np.int64(ctlz(np.uint64(x)))

    _REGISTERED = True
    return numba


@contextlib.contextmanager
def _hidden(*names: str) -> Iterator[None]:
    """Make `import` of the modules `names` not loaded yet raise ImportError for the duration.

    numba imports SciPy on import (only to check its version) and SciPy's BLAS (for `np.dot` and
    `np.linalg` in compiled code) with its NumPy support, before a first compile: a quarter of a second
    that kernels over ints never use. Hidden, numba's linear algebra is off for this process; SciPy itself
    imports normally afterwards (the game-theory code uses it).
    """
    hidden = [name for name in names if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # makes `import` raise ImportError
    try:
        yield
    finally:
        for name in hidden:
            del sys.modules[name]


@functools.cache
def _cache_loading_without_refresh() -> type | None:
    """numba's on-disk cache of compiled functions (`FunctionCache`), loading without a refresh of numba's
    target context first.

    numba's `Cache.load_overload` refreshes the whole context before it reads a cached function: it imports
    and installs every typing and lowering registry numba has (arrays, typed containers, jitclass, random,
    ...), a tenth of a second of a run that only loads compiled code (`plyground perft`). Loaded code needs
    numba's runtime (NRT) alone, initialised here; a compile (a cache miss) refreshes the context itself.
    None on a numba without the private method this relies on: its own cache is kept, only slower to load.
    """
    from numba.core.caching import FunctionCache
    from numba.core.runtime import rtsys

    if not hasattr(FunctionCache, "_load_overload") or not hasattr(rtsys, "initialize"):
        return None

    class LoadingCache(FunctionCache):
        def load_overload(self, sig: Any, target_context: Any) -> Any:
            rtsys.initialize(target_context)
            return self._load_overload(sig, target_context)

    return LoadingCache


#: Set while a compile is announced: the functions it compiles on the way need no line of their own.
_COMPILING: list[Any] = []
#: The label of each compiled twin (a numba dispatcher, by id: twins live as long as their kernel), set by `Kernel`.
_LABELS: dict[int, str] = {}
#: Seconds numba takes to compile one function of a kernel, on average (LOA and checkers, 2026), to estimate.
SECONDS_PER_FUNCTION = 1.0


def _uncompiled_reach(dispatcher: Any) -> int:
    """How many twins a call of `dispatcher` compiles: itself and the twins it calls, transitively, not yet
    compiled or loaded in this process (a twin's globals are its kernel's namespace)."""
    seen: set[int] = set()
    todo, count = [dispatcher], 0
    while todo:
        twin = todo.pop()
        if id(twin) in seen:
            continue
        seen.add(id(twin))
        count += not twin.signatures
        names = twin.py_func.__globals__
        todo.extend(names[n] for n in twin.py_func.__code__.co_names if n in names and id(names[n]) in _LABELS)
    return count


def _announce_compiles(numba: Any) -> None:
    """Say on stderr, for each compile not nested in another, that a kernel compiles and about how long it
    takes: a first run is otherwise silent for seconds. numba fires `numba:compile` only on a cache miss."""
    from numba.core import event

    class Announcer(event.Listener):
        def on_start(self, ev: Any) -> None:
            if "numba.np.arraymath" not in sys.modules:  # loading cached code needs none of it (see `_hidden`)
                with _hidden("scipy", "scipy.linalg.cython_blas"):
                    import numba.np.arraymath  # noqa: F401  (decides `_HAVE_BLAS` at import)
            dispatcher = ev.data["dispatcher"]
            _COMPILING.append(dispatcher)
            if len(_COMPILING) == 1 and id(dispatcher) in _LABELS:
                seconds = SECONDS_PER_FUNCTION * _uncompiled_reach(dispatcher)
                print(f"compiling {_LABELS[id(dispatcher)]}.{dispatcher.py_func.__name__} "
                      f"(first use, ~{max(seconds, 1):.0f} s; cached on disk afterwards)...",
                      file=sys.stderr, flush=True)

        def on_end(self, ev: Any) -> None:
            _COMPILING.pop()

    event.register("numba:compile", Announcer())


def _int_table(value: Any) -> np.ndarray | None:
    """A (nested) tuple of ints as an int64 array, masks keeping their 64 bits; None when it is not one."""
    if not (isinstance(value, tuple) and _int_leaves(value)):
        return None
    try:
        return np.array(value, dtype=np.int64)
    except OverflowError:  # a mask with bit 63 set: numpy refuses it, its int64 bit pattern is kept
        return np.array(_wrap64(value), dtype=np.int64)


def _flat_ints(value: tuple) -> bool:
    """A tuple of ints alone (checked at C speed: the LOA tables hold 87,381 entries)."""
    return set(map(type, value)) == {int}


def _int_leaves(value: Any) -> bool:
    """True for an int or a non-empty tuple nesting only ints (a table numba can hold as an array).

    Checked a nesting level at a time, each at C speed (a call per row cost LOA's 4,096 rows of 7 about
    8 ms of `plyground perft`'s start-up)."""
    level = [value]
    while True:
        kinds = set(map(type, level))
        if kinds == {int}:
            return True
        if kinds != {tuple} or not all(level):
            return False
        level = list(itertools.chain.from_iterable(level))


def _wrap64(value: Any) -> Any:
    """Ints as int64 bit patterns: a mask with bit 63 set becomes negative, keeping its 64 bits."""
    if isinstance(value, tuple):
        if value and _flat_ints(value) and max(value) < 1 << 63:
            return value
        return [_wrap64(v) for v in value]
    return value - (1 << 64) if value >= 1 << 63 else value


def _compiled_value(name: str, value: Any, bitboards: frozenset[str], small: frozenset[str] = frozenset()) -> Any:
    """The global as compiled code sees it: bitboards as uint64, `small` tables as int8 arrays (numpy refuses an
    entry outside -128..127), other int tables as int64 arrays.

    An int64 table may still hold masks (e.g. a mask beside an index in one row): they keep
    their 64 bits, and `&` with a uint64 bitboard followed by `bit_count` reads them right.
    """
    if name in bitboards:
        return np.array(value, dtype=np.uint64) if isinstance(value, tuple) else np.uint64(value)
    if name in small:
        return np.array(value, dtype=np.int8)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return value    # a namedtuple of ints (`framework.layout`) stays: numba reads it as constants
    table = _int_table(value)
    return value if table is None else table


class Kernel:
    """The functions of a rules module, compiled lazily from their own code objects.

    `kernel.fn` is the compiled twin of `module.fn`, compiled (or loaded from numba's
    on-disk cache) on its first call.

    A search module is compiled once per game: `rules` (the game's rules Kernel) binds
    the game's compiled functions as the search's globals (with the functions `rules` was
    itself built on, so kernels chain: a search over a heuristics kernel over the rules);
    `aliases` binds more names to functions found there (a search calls `score`, bound to
    one heuristic's function). numba's cache only watches a function's own file, so every
    twin is cached under a name carrying the game's `tag`, the aliases and a digest of the
    `bitboards` and `small` names and the whole chain's source: edited rules or a table newly declared
    a bitboard never meet a stale compiled twin.

    `small` names int tables whose entries fit a signed byte (counts, line numbers): compiled code reads
    them as int8 (arithmetic on them is int64, as numba widens), so a large table costs an eighth of its
    int64 size in every compiled twin and cache file that holds it (LOA's 87,381 move counts: 700 kB,
    parsed and linked on each load of its perft).

    numba compiles a function called from compiled code once per constant passed to it (`f(x, 0)`
    and `f(x, -1)` compile apart, each with all it calls): `fold_int_arguments=False` types int
    constants as int64, so a module calling its helpers with many (the PN searches: -1, 0, INF)
    compiles each helper once; bool constants (a search's switches) are still folded.
    """

    prefix: str

    def __init__(self, module: types.ModuleType, bitboards: tuple[str, ...] = (),
                 rules: Kernel | None = None, tag: str = "", aliases: dict[str, str] | None = None,
                 small: tuple[str, ...] = (), fold_int_arguments: bool = True) -> None:
        self.module = module
        self.fold_int_arguments = fold_int_arguments
        self.bitboards = frozenset(bitboards)
        self.small = frozenset(small)
        self.rules = rules
        self.aliases = dict(aliases or {})
        # numba's cache stamps only the function's own file: the globals rebound here (which tables are
        # bitboards) and the chained rules go into the compiled twins' names, so a change meets no stale twin.
        source = " ".join(sorted(self.bitboards))
        if self.small:
            source += " int8: " + " ".join(sorted(self.small))
        if rules is not None:
            source += inspect.getsource(rules.module) + rules.prefix
        digest = hashlib.sha1(source.encode()).hexdigest()[:10]
        named = "".join(f"_{alias}_{target}" for alias, target in sorted(self.aliases.items()))
        self.prefix = f"{tag}{named}_{digest}."
        #: How the announcement of a compile names this kernel.
        self.label = module.__name__ + (f" for {tag}" if tag else "") + "".join(
            f", {alias}={target}" for alias, target in sorted(self.aliases.items()))

    @functools.cached_property
    def _namespace(self) -> dict[str, Any]:
        numba = _numba()

        def compile_twin(f: types.FunctionType, env: dict[str, Any]) -> Any:
            twin = _twin(f, env)
            twin.__qualname__ = self.prefix + f.__qualname__
            if self.fold_int_arguments:
                dispatcher = numba.njit(cache=True)(twin)
            else:
                dispatcher = _int_arguments_unfolded()(twin, targetoptions={"nopython": True, "boundscheck": None})
                dispatcher.enable_caching()
            loading = _cache_loading_without_refresh()
            if loading is not None and hasattr(dispatcher, "_cache"):
                dispatcher._cache = loading(twin)
            _LABELS[id(dispatcher)] = self.label
            return dispatcher

        chain = self.rules._namespace if self.rules is not None else {}
        return _bind(self.module, chain, self.aliases, compile_twin,
                     lambda name, value: _compiled_value(name, value, self.bitboards, self.small))

    @functools.cached_property
    def interpreted(self) -> types.SimpleNamespace:
        """The same functions run as Python: the module's own code objects with the kernel interface
        (`framework.kernel_api`) bound to the interpreted functions of `rules` (the plain rules module).
        Same code, so the same answers as the compiled twins; no numba is imported."""
        return types.SimpleNamespace(**self._interpreted)

    @functools.cached_property
    def _interpreted(self) -> dict[str, Any]:
        chain = self.rules._interpreted if self.rules is not None else {}
        return _bind(self.module, chain, self.aliases, _python_twins({}))

    def __getattr__(self, name: str) -> Callable:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._namespace[name]
        except KeyError:
            raise AttributeError(f"{self.module.__name__} has no function {name!r} to compile") from None


_UNFOLDED: list[type] = []


def _int_arguments_unfolded() -> type:
    """The numba dispatcher class of `Kernel(fold_int_arguments=False)` (made once, numba imported)."""
    if not _UNFOLDED:
        from numba.core import types as nbtypes
        from numba.core.registry import CPUDispatcher

        def plain(t: Any) -> Any:
            return nbtypes.unliteral(t) if isinstance(t, nbtypes.IntegerLiteral) else t

        class IntArgumentsUnfolded(CPUDispatcher):
            def get_call_template(self, args: Any, kws: Any) -> Any:
                return super().get_call_template(tuple(map(plain, args)), {k: plain(v) for k, v in kws.items()})

        _UNFOLDED.append(IntArgumentsUnfolded)
    return _UNFOLDED[0]


def _twin(f: types.FunctionType, env: dict[str, Any]) -> types.FunctionType:
    """`f`'s code object with `env` as its globals."""
    twin = types.FunctionType(f.__code__, env, f.__name__, f.__defaults__, f.__closure__)
    twin.__qualname__, twin.__module__ = f.__qualname__, f.__module__
    return twin


#: Slots an interpreted binding reads as constants (`bind`): per argument name, the ints at its int indices.
Constants = Mapping[str, Mapping[int, int]]


def _python_twins(constants: Constants) -> Callable[[types.FunctionType, dict[str, Any]], types.FunctionType]:
    """How `_bind` makes a Python twin: `f` with `env` as its globals, folded as numba folds it and with the
    `constants` slots read as ints (`_folded_codes`)."""
    key = tuple(sorted((name, tuple(sorted(slots.items()))) for name, slots in constants.items()))

    def python_twin(f: types.FunctionType, env: dict[str, Any]) -> types.FunctionType:
        twin = _twin(f, env)
        twin.__code__ = _folded_codes(sys.modules.get(f.__module__), constants, key).get(f.__name__, f.__code__)
        return twin
    return python_twin


def _is_layout(value: Any) -> bool:
    """A namedtuple of ints (`framework.layout`): numba reads its fields as constants."""
    return isinstance(value, tuple) and hasattr(value, "_fields") and all(type(v) is int for v in value)


class _Fold(ast.NodeTransformer):
    """Folds a function's reads of layout slots (`WORK.nodes`) to their ints and drops the identity
    conversions (`as_int64(x)` is `x` in Python), the names being the module's globals, not the function's
    locals; reads of the `constants` slots of its arguments (`work[WORK.use_table]`) to their ints, and a
    boolean operation they decide to its constant."""

    def __init__(self, module_globals: dict[str, Any], local_names: set[str], constants: Constants) -> None:
        self.globals, self.locals, self.constants = module_globals, local_names, constants

    def _global(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Name) and node.id not in self.locals:
            return self.globals.get(node.id)
        return None

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        record = self._global(node.value)
        if isinstance(node.ctx, ast.Load) and _is_layout(record) and node.attr in record._fields:
            return ast.copy_location(ast.Constant(getattr(record, node.attr)), node)
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if (self._global(node.func) in (as_int64, as_uint64, borrowed) and len(node.args) == 1 and not node.keywords
                and not isinstance(node.args[0], ast.Starred)):
            return self.visit(node.args[0])
        return self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        """`1 or x` is 1 and `0 and x` is 0, as numba prunes them: so a constant slot's test costs nothing."""
        self.generic_visit(node)
        first = node.values[0]
        if isinstance(first, ast.Constant) and bool(first.value) == isinstance(node.op, ast.Or):
            return first
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and node.value.id in self.locals:
            slots = self.constants.get(node.value.id, {})
            index = node.slice.value if isinstance(node.slice, ast.Constant) else None
            if type(index) is int and index in slots:
                return ast.copy_location(ast.Constant(slots[index]), node)
        return node


_FOLDED: dict[tuple[str, tuple], dict[str, types.CodeType]] = {}


def _folded_codes(module: types.ModuleType | None, constants: Constants,
                  constants_key: tuple) -> dict[str, types.CodeType]:
    """The code objects of `module`'s top-level functions with layout slots read as ints and identity
    conversions dropped: what compiled code sees as constants costs an attribute lookup or a call per
    use in Python (measured, a third of an interpreted alpha-beta node); and with the `constants` slots
    read as ints, so Python's compiler drops the branches of a switch that is off. Same source, same line
    numbers; {} when the source cannot be read (the functions then run unfolded). Kept per module and
    constants (`constants_key`: their items sorted)."""
    if module is None:
        return {}
    key = (module.__name__, constants_key)
    if key not in _FOLDED:
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError):
            _FOLDED[key] = {}
            return {}
        own = _own_functions(module)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in own:
                code = own[node.name].__code__
                _Fold(vars(module), set(code.co_varnames) | set(code.co_cellvars), constants).visit(node)
        compiled = compile(tree, inspect.getfile(module), "exec", dont_inherit=True)
        _FOLDED[key] = {c.co_name: c for c in compiled.co_consts
                        if isinstance(c, types.CodeType) and c.co_name in own
                        and c.co_firstlineno == own[c.co_name].__code__.co_firstlineno}
    return _FOLDED[key]


def _own_functions(module: types.ModuleType) -> dict[str, types.FunctionType]:
    return {f.__name__: f for f in vars(module).values()
            if isinstance(f, types.FunctionType) and f.__module__ == module.__name__}


def _bind(module: types.ModuleType, functions: dict[str, Any], aliases: dict[str, str],
          make: Callable[[types.FunctionType, dict[str, Any]], Any],
          value_of: Callable[[str, Any], Any] | None = None) -> dict[str, Any]:
    """Twins (`make(f, env)`) of the module's functions whose globals are the module's (as `value_of` shows
    them) with `functions` bound over them, `aliases` naming more of them; the kernel interface's derived
    functions (`kernel_api.DERIVED` and `SEARCH`) neither bound nor defined by the module are made the same way
    over `kernel_api`'s globals, so the module calls them by name too. Returns `functions` (with the aliases),
    the SEARCH twins (a search's driver calls them too; they call no game function) and the twins of the
    module's own functions. No `value_of`: the globals as they are (interpreted
    twins; an interpreted search binds once a decision, so the copy is kept cheap)."""
    from framework import kernel_api
    bound = dict(functions)
    bound.update({alias: bound[target] for alias, target in aliases.items() if target in bound})
    if value_of is None:
        derived_env, env = dict(vars(kernel_api)), dict(vars(module))
    else:
        derived_env = {name: value_of(name, value) for name, value in vars(kernel_api).items()}
        env = {name: value_of(name, value) for name, value in vars(module).items()}
    derived_env.update(bound)
    env.update(bound)
    twins = {name: make(getattr(kernel_api, name), derived_env)
             for name in kernel_api.DERIVED + kernel_api.SEARCH if name not in bound}
    derived_env.update(twins)
    env.update(twins)
    own = {name: make(f, env) for name, f in _own_functions(module).items()}
    env.update(own)
    return {**bound, **{name: twins[name] for name in kernel_api.SEARCH if name in twins}, **own}


def bind(module: types.ModuleType, functions: dict[str, Callable],
         constants: Constants | None = None) -> types.SimpleNamespace:
    """The functions of `module` run as Python with the kernel interface bound to `functions` (e.g. a
    `framework.kernel_adapter.KernelAdapter`'s, over a plain-Python game): the interpreted binding of a
    search written once against `framework.kernel_api`. `constants` names slots its functions only read
    while bound (`{"work": {slot: value}}`: a search's switches): their reads become those ints, as a
    literal argument would be compiled."""
    return types.SimpleNamespace(**_bind(module, functions, {}, _python_twins(constants or {})))


def uint64(value: int) -> np.uint64:
    """A Python bitboard as the uint64 a kernel takes."""
    return np.uint64(value)


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
    int below it, so per-move tables such as history scores fit in an array.
    """

    def __init__(self, tag: str, rules: Kernel, to_kernel: Callable[[Any], Any], option: int = 0,
                 heuristics: Kernel | None = None, scores: Mapping[Any, str] | None = None,
                 key_shifts: tuple[int, ...] = (), move_space: int = 0) -> None:
        self.tag, self.rules, self.to_kernel, self.option = tag, rules, to_kernel, option
        self.heuristics, self.scores = heuristics, dict(scores or {})
        self.key_shifts, self.move_space = key_shifts, move_space

    def __repr__(self) -> str:
        return f"GameKernel({self.tag!r}, option={self.option})"

