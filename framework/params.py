"""Declared parameters of games, agents and heuristics.

Plugins own their options: each declares its parameters here once, so configuration
errors can name the bad key and `plyground list --verbose` documents every plugin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from framework.errors import ConfigError, quoted

#: The range of an int Param that declares no bound of its own: what SQLite and numba's int64 hold.
INT_RANGE = (-(1 << 63), (1 << 63) - 1)


class HeuristicRef(str):
    """Marker type: the parameter names a heuristic registered for the agent's game, as `NAME` or, with
    options of the heuristic's own Params, `{name: NAME, options: {key: value, ...}}` (tuning sets these)."""


def heuristic_choice(value: Any) -> tuple[str | None, dict[str, Any]]:
    """(name, options) of a HeuristicRef parameter's value (None: the game's default heuristic)."""
    if isinstance(value, Mapping):
        return value["name"], dict(value.get("options") or {})
    return value, {}


class AgentRef(str):
    """Marker type: the parameter names another agent, `NAME`, `NAME:key=value,...` or a
    mapping `{agent: NAME, key: value, ...}`; the registry builds it (same game, same seed)
    and the factory receives the Agent, so an agent never needs the registry itself."""


_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               HeuristicRef: "a heuristic name (NAME or {name: NAME, options: {...}})",
               AgentRef: "an agent (NAME, NAME:key=value or {agent: NAME, ...})"}


@dataclass(frozen=True)
class Param:
    """One option: its name, type, default, one-line help and optional constraints.

    Numbers are bounded: `minimum` and `maximum` when declared (every built-in plugin declares both,
    so a typo like `depth: 100000000000000000000` is refused at `validate`, not found mid-run), an
    int is always within INT_RANGE, and a float is always finite (no `.inf` or `.nan`).
    """

    name: str
    type: type
    default: Any
    help: str
    choices: Sequence[Any] | None = None
    minimum: float | None = None
    nullable: bool = False
    maximum: float | None = None

    def coerce(self, value: Any, where: str) -> Any:
        """Return `value` checked and converted to this parameter's type, or raise ConfigError."""
        if value is None:
            if self.nullable or self.default is None:
                return None
            raise ConfigError(f"{where}: '{self.name}' must be {self.describe()}, got null")
        value = self._typed(value, where)
        if self.choices is not None and value not in self.choices:
            options = ", ".join(repr(c) for c in self.choices)
            raise ConfigError(f"{where}: '{self.name}' must be one of {options}, got {quoted(value)}")
        if self.type in (int, float):
            self._check_range(value, where)
        return value

    def _typed(self, value: Any, where: str) -> Any:
        """`value` checked against (and converted to) this parameter's type."""
        expected = _TYPE_NAMES.get(self.type, self.type.__name__)
        if self.type is bool:
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: '{self.name}' must be true or false, got {quoted(value)}")
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{where}: '{self.name}' must be {expected}, got {quoted(value)}")
        elif self.type is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(f"{where}: '{self.name}' must be {expected}, got {quoted(value)}")
            try:
                value = float(value)
            except OverflowError:   # an int past 1.8e308
                raise ConfigError(f"{where}: '{self.name}' must be a finite number, got {quoted(value)}") from None
        elif self.type is HeuristicRef and isinstance(value, Mapping):
            if not isinstance(value.get("name"), str) or set(value) - {"name", "options"} \
                    or not isinstance(value.get("options", {}), Mapping):
                raise ConfigError(f"{where}: '{self.name}' must be a heuristic name or {{name: NAME, options: "
                                  f"{{...}}}}, got {quoted(dict(value))}")
            value = {"name": value["name"], "options": dict(value.get("options") or {})}
        elif self.type in (str, HeuristicRef):
            if not isinstance(value, str):
                raise ConfigError(f"{where}: '{self.name}' must be {expected}, got {quoted(value)}")
        elif self.type is AgentRef:
            if isinstance(value, Mapping):
                if not isinstance(value.get("agent"), str):
                    raise ConfigError(f"{where}: '{self.name}' must name its agent under the key 'agent', "
                                      f"got {quoted(dict(value))}")
                value = dict(value)
            elif not isinstance(value, str):
                raise ConfigError(f"{where}: '{self.name}' must be {expected}, got {quoted(value)}")
        elif self.type in (list, tuple):
            if not isinstance(value, (list, tuple)):
                raise ConfigError(f"{where}: '{self.name}' must be a list, got {quoted(value)}")
            value = tuple(value)
        return value

    def _check_range(self, value: float, where: str) -> None:
        if self.type is float and not math.isfinite(value):
            raise ConfigError(f"{where}: '{self.name}' must be a finite number, got {value}")
        low: float | None
        high: float | None
        low, high = INT_RANGE if self.type is int else (None, None)
        low = self.minimum if self.minimum is not None else low
        high = self.maximum if self.maximum is not None else high
        if low is not None and value < low:
            raise ConfigError(f"{where}: '{self.name}' must be at least {low}, got {quoted(value)}")
        if high is not None and value > high:
            raise ConfigError(f"{where}: '{self.name}' must be at most {high}, got {quoted(value)}")

    def describe(self) -> str:
        """Human-readable type and constraints, for errors and `plyground list --verbose`."""
        text = _TYPE_NAMES.get(self.type, self.type.__name__)
        if self.choices is not None:
            text += " (one of " + ", ".join(map(str, self.choices)) + ")"
        if self.minimum is not None and self.maximum is not None:
            text += f" from {self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            text += f" >= {self.minimum}"
        elif self.maximum is not None:
            text += f" <= {self.maximum}"
        if self.nullable:
            text += " or null"
        return text


def resolve_params(params: Sequence[Param], given: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Validate `given` against the declared `params`, filling defaults.

    Unknown keys are an error that lists the known ones, so a typo never passes silently.
    """
    known = {p.name: p for p in params}
    for key in given:
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise ConfigError(f"{where}: unknown parameter '{key}' (known parameters: {names})")
    return {p.name: p.coerce(given[p.name], where) if p.name in given else p.default for p in params}
