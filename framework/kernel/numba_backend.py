"""The numba backend: a game's plain rule functions, and searches over them, compiled from the very same code.

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

import contextlib
import functools
import hashlib
import inspect
import itertools
import os
import sys
import time
import types
from collections.abc import Iterator
from typing import Any

import numpy as np

from framework.errors import PluginError
from framework.kernel import api
from framework.kernel.api import (
    add_score,
    as_int64,
    as_uint64,
    borrowed,
    clock,
    float_of_bits,
    next_after,
    prepend,
    sort_by_scores,
    to_front,
)
from framework.kernel.python_backend import compiled_only, rules_twins, twin, twins

_REGISTERED = False
#: Whether `time.perf_counter` is the C library's CLOCK_MONOTONIC (Linux): compiled code then reads that clock
#: itself (tens of nanoseconds, cached with the code), where an object-mode block would cost microseconds a read
#: and a quarter second of compiling in every process that loads a search.
PERF_COUNTER_IS_MONOTONIC = (hasattr(time, "CLOCK_MONOTONIC") and
                             time.get_clock_info("perf_counter").implementation == "clock_gettime(CLOCK_MONOTONIC)")


def enabled() -> bool:
    """Whether compiled kernels are used (set `PLYGROUND_JIT=0` to run everything interpreted)."""
    return os.environ.get("PLYGROUND_JIT", "1") != "0"


class NumbaInternalsError(RuntimeError):
    """The installed numba lacks an internal the compiled kernels rely on (each is checked where it is used)."""


def _require(owner: Any, *names: str) -> None:
    """Refuse a numba without the internals `names` of `owner` (a module or class), naming numba's version and
    what to do: the private touches of this backend are few and each is guarded here or has a fallback."""
    import numba
    missing = [name for name in names if not hasattr(owner, name)]
    if missing:
        raise NumbaInternalsError(
            f"numba {numba.__version__} has no {getattr(owner, '__name__', owner)}.{', '.join(missing)}, an internal "
            "the compiled kernels rely on (tested on the numba range pyproject.toml pins): install a numba in that "
            "range, or run without compiled kernels (kernel: interpreted, or PLYGROUND_JIT=0)")


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

    _require(cgutils, "create_struct_proxy", "get_null_value", "false_bit")   # private: `borrowed_view`, `ctlz`

    @intrinsic
    def ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])
        return x(x), codegen

    @intrinsic
    def ctlz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctlz(args[0], cgutils.false_bit)
        return x(x), codegen

    @intrinsic
    def monotonic(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            from llvmlite import ir
            word, real = ir.IntType(64), ir.DoubleType()
            spec = cgutils.alloca_once(builder, ir.LiteralStructType([word, word]))   # struct timespec
            gettime = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.IntType(32), [ir.IntType(32), spec.type]), "clock_gettime")
            builder.call(gettime, [ir.Constant(ir.IntType(32), time.CLOCK_MONOTONIC), spec])
            seconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 0))
            nanoseconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 1))
            return builder.fadd(builder.sitofp(seconds, real),
                                builder.fmul(builder.sitofp(nanoseconds, real), ir.Constant(real, 1e-9)))
        return nbtypes.float64(), codegen

    @overload(clock)
    def compiled_clock() -> Any:
        if PERF_COUNTER_IS_MONOTONIC:   # the C library's clock, read as perf_counter reads it: no trip into Python
            return lambda: monotonic()  # type: ignore[call-arg]  # an intrinsic's typing context is numba's
        def impl() -> Any:
            with numba.objmode(now="float64"):
                now = time.perf_counter()
            return now
        return impl

    @intrinsic
    def bitcast_double(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.bitcast(args[0], context.get_value_type(nbtypes.float64))
        return nbtypes.float64(nbtypes.int64), codegen

    @intrinsic
    def borrowed_view(typingctx: Any, array: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            view = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
            view.meminfo = cgutils.get_null_value(view.meminfo.type)
            view.parent = cgutils.get_null_value(view.parent.type)
            return view._getvalue()
        return array(array), codegen

    @overload(borrowed)
    def compiled_borrowed(array):  # type: ignore[no-untyped-def]  # numba: the same parameters as its lambda
        return lambda array: borrowed_view(array)  # type: ignore[call-arg]  # an intrinsic's typing context is numba's

    @overload(float_of_bits)
    def compiled_float_of_bits(bits):  # type: ignore[no-untyped-def]  # numba: the same parameters as its lambda
        return lambda bits: bitcast_double(np.int64(bits))  # type: ignore[call-arg]

    @overload(as_int64)
    def compiled_as_int64(value):  # type: ignore[no-untyped-def]  # numba: the same parameters as its lambda
        return lambda value: np.int64(value)

    @overload(as_uint64)
    def compiled_as_uint64(value):  # type: ignore[no-untyped-def]  # numba: the same parameters as its lambda
        return lambda value: np.uint64(value)

    @overload(next_after)
    def compiled_next_after(x, toward):  # type: ignore[no-untyped-def]  # numba: the same parameters as its lambda
        return lambda x, toward: np.nextafter(x, toward)

    @overload(sort_by_scores)
    def compiled_sort_by_scores(items: Any, scores: Any, at: Any, bound: Any) -> Any:
        def impl(items: Any, scores: Any, at: Any, bound: Any) -> Any:
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

    @overload(add_score)
    def compiled_add_score(scores: Any, at: Any, item: Any, bound: Any, amount: Any) -> Any:
        def impl(scores: Any, at: Any, item: Any, bound: Any, amount: Any) -> Any:
            scores[at + item] += amount
        return impl

    @overload(to_front)
    def compiled_to_front(items: Any, item: Any, front: Any) -> Any:
        def impl(items: Any, item: Any, front: Any) -> Any:
            for i in range(front, len(items)):
                if items[i] == item:
                    for j in range(i, front, -1):
                        items[j] = items[j - 1]
                    items[front] = item
                    return front + 1
            return front
        return impl

    @overload(prepend)
    def compiled_prepend(lines: Any, at: Any, item: Any, source: Any) -> Any:
        def impl(lines: Any, at: Any, item: Any, source: Any) -> Any:
            n = lines[source]
            lines[at + 1] = item
            for i in range(n):
                lines[at + 2 + i] = lines[source + 1 + i]
            lines[at] = n + 1
        return impl

    @overload_method(nbtypes.Integer, "bit_count")
    def bit_count(x):  # type: ignore[no-untyped-def]  # numba: the same parameters as its lambda
        return lambda x: np.int64(ctpop(np.uint64(x)))  # type: ignore[call-arg]

    @overload_method(nbtypes.Integer, "bit_length")
    def bit_length(x):  # type: ignore[no-untyped-def]  # numba: the same parameters as its lambda
        return lambda x: 64 - np.int64(ctlz(np.uint64(x)))  # type: ignore[call-arg]

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
    from numba.core.runtime.nrt import rtsys

    if not hasattr(FunctionCache, "_load_overload") or not hasattr(rtsys, "initialize"):
        return None

    class LoadingCache(FunctionCache):
        def load_overload(self, sig: Any, target_context: Any) -> Any:
            rtsys.initialize(target_context)
            return self._load_overload(sig, target_context)  # type: ignore[no-untyped-call]  # private: guarded above

    return LoadingCache


def _one_at_a_time(name: str, compile_for_args: Any) -> Any:
    """`compile_for_args` (a twin's first call from Python: load it from the disk cache, or compile it) under a
    file lock named after the twin in numba's cache folder, so processes sharing that cache (test workers,
    engines) compile each twin once: a second one waits, then loads what the first wrote. Without a cache
    folder of its own (NUMBA_CACHE_DIR) or where the lock cannot be made, it runs unlocked."""
    def locked(*args: Any, **kws: Any) -> Any:
        folder = _numba().config.CACHE_DIR
        try:
            import fcntl
        except ImportError:          # no POSIX file locks (Windows): compile unlocked
            return compile_for_args(*args, **kws)
        if not folder:
            return compile_for_args(*args, **kws)
        path = os.path.join(folder, "locks", hashlib.sha1(name.encode()).hexdigest()[:16] + ".lock")
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            lock = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return compile_for_args(*args, **kws)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            return compile_for_args(*args, **kws)
        finally:
            os.close(lock)   # releases the lock
    return locked


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
        each = todo.pop()
        if id(each) in seen:
            continue
        seen.add(id(each))
        count += not each.signatures
        names = each.py_func.__globals__
        todo.extend(names[n] for n in each.py_func.__code__.co_names if n in names and id(names[n]) in _LABELS)
    return count


def _announce_compiles(numba: Any) -> None:
    """Say on stderr, for each compile not nested in another, that a kernel compiles and about how long it
    takes: a first run is otherwise silent for seconds. numba fires `numba:compile` only on a cache miss."""
    from numba.core import event

    _require(event, "Listener", "register")     # numba's compile events (private: numba.core)
    class Announcer(event.Listener):
        def on_start(self, ev: Any) -> None:
            if "numba.np.arraymath" not in sys.modules:  # loading cached code needs none of it (see `_hidden`)
                with _hidden("scipy", "scipy.linalg.cython_blas"):
                    try:
                        import numba.np.arraymath  # noqa: F401  (decides `_HAVE_BLAS` at import)
                    except ImportError:        # private: numba.np.arraymath
                        _require(sys.modules["numba"].np, "arraymath")
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


def _flat_ints(value: tuple[Any, ...]) -> bool:
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


#: The compiled helpers' source (their overloads and intrinsics) and the kernel interface's (its derived and search
#: functions are compiled into every search), part of every twin's name.
_HELPERS_SOURCE = inspect.getsource(_numba) + inspect.getsource(api)


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
    `bitboards` and `small` names, the compiled helpers, the kernel interface and the whole chain's source:
    edited rules, helpers or interface, or a table newly declared a bitboard, never meet a stale compiled twin.

    `small` names int tables whose entries fit a signed byte (counts, line numbers): compiled code reads
    them as int8 (arithmetic on them is int64, as numba widens), so a large table costs an eighth of its
    int64 size in every compiled twin and cache file that holds it (LOA's 87,381 move counts: 700 kB,
    parsed and linked on each load of its perft).

    numba compiles a function called from compiled code once per constant passed to it (`f(x, 0)`
    and `f(x, -1)` compile apart, each with all it calls): `fold_constant_arguments=False` types int
    constants as int64 and bool constants as booleans, so a module calling its helpers with many (the PN
    searches: -1, 0, INF; df-pn, PDS and PDS-PN are one `depth_first` with two bool switches) compiles each
    helper once (measured on checkers from a cold cache: PDS 3.0 -> 0.9 s of CPU, PDS-PN 5.1 -> 0.8 s once df-pn
    compiled; the branches a switch no longer removes cost a PN node nothing measurable).
    """

    prefix: str

    def __init__(self, module: types.ModuleType, bitboards: tuple[str, ...] = (),
                 rules: api.CompiledModule | None = None, tag: str = "", aliases: dict[str, str] | None = None,
                 small: tuple[str, ...] = (), fold_constant_arguments: bool = True) -> None:
        self.module = module
        compiled_only(module)       # refused now, when the game registers its kernel
        self.fold_constant_arguments = fold_constant_arguments
        self.bitboards = frozenset(bitboards)
        self.small = frozenset(small)
        if rules is not None and not isinstance(rules, Kernel):
            raise PluginError(f"{module.__name__}: rules must be a numba_backend.Kernel, got {rules!r}")
        self.rules: Kernel | None = rules
        self.aliases = dict(aliases or {})
        # numba's cache stamps only the function's own file: the globals rebound here (which tables are
        # bitboards), the chained rules, the compiled helpers (`_numba`'s overloads) and `api` go into the compiled
        # twins' names, so a change meets no stale twin.
        source = _HELPERS_SOURCE + " ".join(sorted(self.bitboards))
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
            made = twin(f, env)
            made.__qualname__ = self.prefix + f.__qualname__
            if self.fold_constant_arguments:
                dispatcher = numba.njit(cache=True)(made)
            else:
                dispatcher = _constant_arguments_unfolded()(made, targetoptions={"nopython": True, "boundscheck": None})
                dispatcher.enable_caching()
            loading = _cache_loading_without_refresh()
            if loading is not None and hasattr(dispatcher, "_cache"):
                dispatcher._cache = loading(made)
            _require(dispatcher, "_compile_for_args")   # private: what a call with new argument types runs
            dispatcher._compile_for_args = _one_at_a_time(made.__qualname__, dispatcher._compile_for_args)
            _LABELS[id(dispatcher)] = self.label
            return dispatcher

        chain = self.rules._namespace if self.rules is not None else {}
        return twins(self.module, chain, self.aliases, compile_twin,
                     lambda name, value: _compiled_value(name, value, self.bitboards, self.small))

    @functools.cached_property
    def interpreted(self) -> types.SimpleNamespace:
        """The same functions run as Python: the module's own code objects with the kernel interface
        (`framework.kernel.api`) bound to the interpreted functions of `rules` (the plain rules module), but
        for its `COMPILED_ONLY` ones (`python_backend.rules_twins`). Same code, so the same answers as the
        compiled twins; no numba is imported."""
        return types.SimpleNamespace(**self._interpreted)

    @functools.cached_property
    def _interpreted(self) -> dict[str, Any]:
        chain = self.rules._interpreted if self.rules is not None else {}
        return rules_twins(self.module, chain, self.aliases)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._namespace[name]
        except KeyError:
            raise AttributeError(f"{self.module.__name__} has no function {name!r} to compile") from None


_UNFOLDED: list[type] = []


def _constant_arguments_unfolded() -> type:
    """The numba dispatcher class of `Kernel(fold_constant_arguments=False)` (made once, numba imported)."""
    if not _UNFOLDED:
        from numba.core import types as nbtypes
        from numba.core.registry import CPUDispatcher

        _require(CPUDispatcher, "get_call_template")    # private: overridden below

        def plain(t: Any) -> Any:
            return nbtypes.unliteral(t) if isinstance(t, (nbtypes.IntegerLiteral, nbtypes.BooleanLiteral)) else t

        class ConstantArgumentsUnfolded(CPUDispatcher):
            def get_call_template(self, args: Any, kws: Any) -> Any:
                return super().get_call_template(tuple(map(plain, args)), {k: plain(v) for k, v in kws.items()})

        _UNFOLDED.append(ConstantArgumentsUnfolded)
    return _UNFOLDED[0]
