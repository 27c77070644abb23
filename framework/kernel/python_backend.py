"""The interpreted backend: a search's (or rules module's) own code objects run as Python with the kernel
interface's names rebound, folded as numba folds them.

`twins` makes, for each function of a module, a twin whose globals are the module's with the game's
functions bound over the kernel interface (`framework.kernel.api`); the numba backend compiles such twins,
this one runs them: `interpret(module, functions, constants)` over any functions (an adapter's), and
`framework.kernel.numba_backend.Kernel.interpreted` over a game's plain rules. The twins run the module's
functions recompiled from its source with what numba folds folded too (`folded_codes`): layout slots read
as int constants, identity conversions (`as_int64(x)`) as `x`, and a binding's constant slots as ints.
A rules module's `COMPILED_ONLY` functions are not run here (`rules_twins`): the kernel interface's derived
defaults take their place.
"""

from __future__ import annotations

import ast
import inspect
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

from framework.errors import PluginError
from framework.kernel import api
from framework.kernel.api import as_int64, as_uint64, borrowed


def twin(f: types.FunctionType, env: dict[str, Any]) -> types.FunctionType:
    """`f`'s code object with `env` as its globals."""
    twin = types.FunctionType(f.__code__, env, f.__name__, f.__defaults__, f.__closure__)
    twin.__qualname__, twin.__module__ = f.__qualname__, f.__module__
    return twin


#: Slots an interpreted binding reads as constants (`bind`): per argument name, the ints at its int indices.
Constants = Mapping[str, Mapping[int, int]]


def python_twins(constants: Constants) -> Callable[[types.FunctionType, dict[str, Any]], types.FunctionType]:
    """How `twins` makes a Python twin: `f` with `env` as its globals, folded as numba folds it and with the
    `constants` slots read as ints (`folded_codes`)."""
    key = tuple(sorted((name, tuple(sorted(slots.items()))) for name, slots in constants.items()))

    def python_twin(f: types.FunctionType, env: dict[str, Any]) -> types.FunctionType:
        made = twin(f, env)
        made.__code__ = folded_codes(sys.modules.get(f.__module__), constants, key).get(f.__name__, f.__code__)
        return made
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
            visited: ast.AST = self.visit(node.args[0])
            return visited
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


_FOLDED: dict[tuple[str, tuple[Any, ...]], dict[str, types.CodeType]] = {}


def folded_codes(module: types.ModuleType | None, constants: Constants,
                  constants_key: tuple[Any, ...]) -> dict[str, types.CodeType]:
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


#: Primitives whose stubs are twinned where a kernel lacks them: a search calls them only on games that have them
#: (its `OPTIONAL`), and compiles over the others.
OPTIONAL_STUBS = ("chance_probability", "player_return")


def twins(module: types.ModuleType, functions: dict[str, Any], aliases: dict[str, str],
          make: Callable[[types.FunctionType, dict[str, Any]], Any],
          value_of: Callable[[str, Any], Any] | None = None) -> dict[str, Any]:
    """Twins (`make(f, env)`) of the module's functions whose globals are the module's (as `value_of` shows
    them) with `functions` bound over them, `aliases` naming more of them; the kernel interface's derived
    functions (`api.DERIVED` and `SEARCH`) neither bound nor defined by the module are made the same way
    over `api`'s globals, so the module calls them by name too. Returns `functions` (with the aliases),
    the SEARCH twins (a search's driver calls them too; they call no game function) and the twins of the
    module's own functions. No `value_of`: the globals as they are (interpreted
    twins; an interpreted search binds once a decision, so the copy is kept cheap)."""
    bound = dict(functions)
    bound.update({alias: bound[target] for alias, target in aliases.items() if target in bound})
    if value_of is None:
        derived_env, env = {**vars(api), "CLOCK_MASK": 0}, dict(vars(module))
    else:
        derived_env = {name: value_of(name, value) for name, value in vars(api).items()}
        env = {name: value_of(name, value) for name, value in vars(module).items()}
    derived_env.update(bound)
    env.update(bound)
    twins = {name: make(getattr(api, name), derived_env)
             for name in api.DERIVED + api.SEARCH + OPTIONAL_STUBS if name not in bound}
    derived_env.update(twins)
    env.update(twins)
    own = {name: make(f, env) for name, f in _own_functions(module).items()}
    env.update(own)
    return {**bound, **{name: twins[name] for name in api.SEARCH if name in twins}, **own}


def compiled_only(module: types.ModuleType) -> tuple[str, ...]:
    """The module's `COMPILED_ONLY`: derived functions of the kernel interface (`api.DERIVED`) it defines whose
    own bodies are for the compiled backend only (`api`, "Compiled only"); PluginError naming the module for a
    name that is not one it defines."""
    names = tuple(getattr(module, "COMPILED_ONLY", ()))
    wrong = [name for name in names if name not in api.DERIVED or name not in _own_functions(module)]
    if wrong:
        raise PluginError(f"{module.__name__}: COMPILED_ONLY names {', '.join(map(repr, wrong))}, not a function of "
                          f"framework.kernel.api's DERIVED ({', '.join(api.DERIVED)}) that the module defines")
    return names


def rules_twins(module: types.ModuleType, chain: dict[str, Any], aliases: dict[str, str]) -> dict[str, Any]:
    """A rules (or heuristics) kernel's functions run as Python (`numba_backend.Kernel.interpreted`): `twins`
    over the interpreted `chain`, but for the module's `compiled_only` functions, left out so that a search
    bound over them makes the kernel interface's derived defaults over the module's primitives in their place."""
    made = twins(module, chain, aliases, python_twins({}))
    for name in compiled_only(module):
        del made[name]
    return made


def interpret(module: types.ModuleType, functions: dict[str, Callable[..., Any]],
         constants: Constants | None = None) -> types.SimpleNamespace:
    """The functions of `module` run as Python with the kernel interface bound to `functions` (e.g. a
    `framework.kernel.adapter.KernelAdapter`'s, over a plain-Python game): the interpreted binding of a
    search written once against `framework.api`. `constants` names slots its functions only read
    while bound (`{"work": {slot: value}}`: a search's switches): their reads become those ints, as a
    literal argument would be compiled."""
    return types.SimpleNamespace(**twins(module, functions, {}, python_twins(constants or {})))

