"""Named slots of one flat array, declared once: a search's state as a record that compiles.

A compiled search keeps its counters and switches in one int64 array (every array argument of a compiled
recursion costs a share of each node: measured, one more took checkers from 3.6 to 2.4 M nodes/s), and its
interpreted binding in a list. `layout` turns one declaration into the names of its slots: a namedtuple of
ints, which numba reads as compile-time constants (`work[WORK.nodes]` compiles to a fixed offset) and
Python as attributes, so no slot is a magic number and no two declarations can drift.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from framework.errors import ConfigError


def layout(name: str, fields: str) -> tuple[Any, int]:
    """The slots of `fields` (space-separated names, `name*n` for n consecutive slots, the name their first)
    as a namedtuple instance called `name`, and the number of slots they take."""
    names, offsets, at = [], [], 0
    for field in fields.split():
        label, _, count = field.partition("*")
        if not label.isidentifier() or (count and not count.isdigit()):
            raise ConfigError(f"layout {name}: {field!r} is not a slot name or `name*count`; "
                              "write names as identifiers, e.g. `nodes` or `shifts*4`")
        names.append(label)
        offsets.append(at)
        at += int(count) if count else 1
    record: Any = namedtuple(name, names)      # type: ignore[misc]  # a name made at run time
    return record(*offsets), at
