"""Argument types for numeric command-line options: each refuses what the matching YAML key refuses.

argparse calls the type on the text and turns ArgumentTypeError into a usage error (exit 2) that
names the option, so `--workers 0` or `--max-plies -1` never start a run.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

from framework.agentspec import parse_key_values
from framework.errors import ConfigError
from framework.protocols import Game
from framework.registry import Registry, load_plugin_file
from framework.tournament.config import check_workers
from framework.tournament.entries import MAX_SECONDS


def _integer(text: str) -> int:
    """An integer in ASCII digits (Python's int() would take '٣' as 3 and '1_000' as 1000)."""
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")
    return int(text)


#: The largest TCP port.
MAX_PORT = 65535


def port(text: str) -> int:
    """A TCP port number, 0 to MAX_PORT, in ASCII digits."""
    return count(0, MAX_PORT)(text)


def count(minimum: int, maximum: int) -> Callable[[str], int]:
    """An integer from `minimum` to `maximum`."""
    def parse(text: str) -> int:
        value = _integer(text)
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"expected an integer from {minimum:,} to {maximum:,}, got {text}")
        return value
    return parse


def seconds(text: str) -> float:
    """A positive, finite number of seconds, at most MAX_SECONDS (a week)."""
    try:
        if not text.isascii():
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, at most {MAX_SECONDS:,.0f} "
                                         f"(a week), got {text}")
    return value


def workers(text: str) -> int:
    """A number of worker processes this machine can run (`config.check_workers`)."""
    try:
        return check_workers(_integer(text), "")
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(": ")) from None


def game_of(args: argparse.Namespace) -> tuple[Registry, dict[str, Any], Game]:
    """The registry with the `--plugin` files loaded, the `--option` values, and the game `args.game` they make
    (the commands that play one game: play, engine-check)."""
    registry = Registry()
    for file in args.plugin or ():
        load_plugin_file(registry, file)
    options = parse_key_values(args.option or [], "--option")
    return registry, options, registry.create_game(args.game, options)
