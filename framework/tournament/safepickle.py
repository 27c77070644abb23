"""Reading what a process that runs agents' code sends back, without letting it run code here.

A game's process runs untrusted agents, so the bytes it writes (beats, results) may be forged. A plain
`pickle.loads` would call whatever the bytes name; `safe_loads` builds only plain values (numbers, text,
containers) and the framework's own data types: dataclasses and enums defined under `framework.`. Any
other name is refused with `pickle.UnpicklingError`, which the supervisor treats as damage done by the
agent whose code ran (guard.py).
"""

from __future__ import annotations

import copyreg
import dataclasses
import enum
import io
import pickle
from typing import Any

#: Names outside `framework.` that pickles of the framework's data need (protocol 2+ object reconstruction).
ALLOWED = {("copyreg", "_reconstructor"): copyreg._reconstructor,   # type: ignore[attr-defined]
           ("copyreg", "__newobj__"): copyreg.__newobj__,           # type: ignore[attr-defined]
           ("builtins", "object"): object, ("builtins", "frozenset"): frozenset, ("builtins", "set"): set,
           ("builtins", "complex"): complex}
#: numpy scalars (an agent's statistics may hold them): rebuilt from their dtype and raw bytes only.
NUMPY = {("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"), ("numpy", "dtype")}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in ALLOWED:
            return ALLOWED[(module, name)]
        if (module, name) in NUMPY:
            return super().find_class(module, name)
        if module.startswith("framework.") and "." not in name:
            found = super().find_class(module, name)
            if isinstance(found, type) and (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)):
                return found
        raise pickle.UnpicklingError(f"refused to load {module}.{name}: not a framework data type")


def safe_loads(data: bytes) -> Any:
    """`pickle.loads(data)` restricted to plain values and the framework's dataclasses and enums."""
    return _Unpickler(io.BytesIO(data)).load()
