"""Parse the compact `NAME:key=value,key=value` form used to name an agent or game on the command line."""

from __future__ import annotations

from typing import Any

from framework.errors import ConfigError
from framework.safeyaml import load_yaml


def parse_key_values(items: list[str] | str, where: str) -> dict[str, Any]:
    """`['depth=3', 'heuristic=lines']` or `'depth=3,heuristic=lines'` to a dict; values are YAML scalars."""
    if isinstance(items, str):
        items = [item for item in items.split(",") if item]
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{where}: '{item}' is not of the form key=value")
        try:
            out[key.strip()] = load_yaml(value, f"{where}: '{item}'") if value.strip() else None
        except ConfigError:
            out[key.strip()] = value
    return out


def parse_agent_spec(text: str, where: str) -> tuple[str, dict[str, Any]]:
    """`'alphabeta:depth=4,heuristic=lines'` to `('alphabeta', {'depth': 4, 'heuristic': 'lines'})`."""
    name, _, rest = text.partition(":")
    if not name.strip():
        raise ConfigError(f"{where}: '{text}' does not name an agent; expected NAME or NAME:key=value,...")
    return name.strip(), parse_key_values(rest, f"{where} '{text}'")
