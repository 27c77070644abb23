"""The Plyground engine protocol, version 1: one JSON object per line, each with a `type`.

The referee speaks first and the engine answers; every message is a single line of UTF-8 JSON of at most
MAX_LINE bytes. A line that is not such an object, a message of an unknown type, or an answer out of turn is
a protocol error: during a game, the engine's forfeit with the reason. The exchange (docs/guide/engine-protocol.md
has a transcript):

    referee -> engine                                   engine -> referee
    {"type": "hello", "protocol": 1}                    {"type": "hello", "protocol": 1, "engine": NAME,
                                                          "version": TEXT, "params": {...}}
    {"type": "new", "game": NAME, "options": {...},     (nothing)
     "seat": N, "seed": N, "start": TEXT}
    {"type": "isready"}                                 {"type": "readyok"}       (after loading and warm-up)
    {"type": "go", "moves": [NOTATION...],              {"type": "move", "move": NOTATION, "stats": {...}}
     "budget": {"time": S, "nodes": N}, "clock": {...}}
    {"type": "solve", "budget": {...}}                  {"type": "solved", "value": "win"|"loss"|"draw"|
                                                          "unknown", "move": NOTATION|null, "stats": {...}}
    {"type": "judge", "moves": [...], "move": NOTATION,  {"type": "verdict", "text": TEXT}
     "budget": {...}}
    {"type": "quit"}                                    (exits)

`moves` are every ply since `start`, dice rolls included, in the game's notation: the engine replays them on its
own game object. `clock`, under a time control, holds the mover's clock: {"time": seconds left, "inc": seconds
added after the move, "movestogo": moves until the clock is refilled (when a period ends)}; {} without one. A `go`,
`solve` or `judge` may carry a `start` of its own (a position's text): the moves are then played from there, and
the agent is kept (doors that hold positions rather than games: `play`, the workbench).
An engine may send {"type": "info", ...} lines while it searches (ignored, within bounds) and
{"type": "error", "message": TEXT} instead of any answer when it cannot give one (it cannot play this game, its
parameters are wrong): before a game that is a configuration error, during one its forfeit.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

#: The protocol's version: the referee and the engine say theirs in `hello` and must agree.
PROTOCOL_VERSION = 1
#: The longest line either side may send (bytes, newline included).
MAX_LINE = 1 << 20
#: `info` lines an engine may send during one search before it is judged to flood the referee.
MAX_INFO = 10_000
#: Message types each side may send.
REFEREE_MESSAGES = frozenset({"hello", "new", "isready", "go", "solve", "judge", "quit"})
ENGINE_MESSAGES = frozenset({"hello", "readyok", "move", "solved", "verdict", "info", "error"})


class ProtocolError(Exception):
    """A line that breaks the protocol; the text says how, quoting the line."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as the line that carries it."""
    line = json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a {message.get('type')!r} message of {len(line):,} bytes is longer than "
                            f"the {MAX_LINE:,} the protocol allows")
    return line


def decode(line: bytes, allowed: frozenset[str]) -> dict[str, Any]:
    """The message a line carries; ProtocolError when it is none of `allowed`."""
    if len(line) > MAX_LINE or not line.endswith(b"\n"):
        raise ProtocolError(f"a line longer than {MAX_LINE:,} bytes" if len(line) > MAX_LINE
                            else f"a line cut off before its end: {_quote(line)}")
    try:
        message = json.loads(line, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"not a JSON line ({exc}): {_quote(line)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a JSON object with a 'type': {_quote(line)}")
    if message["type"] not in allowed:
        raise ProtocolError(f"a message of unknown type {message['type']!r}: {_quote(line)}")
    return message


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _quote(line: bytes, limit: int = 120) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def field(message: Mapping[str, Any], name: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    """`message[name]`, checked to be of `kind` (bool is never an int here); ProtocolError otherwise."""
    value = message.get(name)
    if value is None and optional:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        value_ok = False
    else:
        value_ok = isinstance(value, kinds)
    if not value_ok:
        raise ProtocolError(f"its {message.get('type')!r} message has {name}={value!r}, expected "
                            f"{' or '.join(k.__name__ for k in kinds)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError(f"its {message.get('type')!r} message has {name}={value!r}, not a finite number")
    return value


def serve(inbox: IO[bytes], outbox: IO[bytes], answer: Callable[[dict[str, Any]], dict[str, Any] | None]) -> int:
    """An engine's side of the exchange: each referee message in turn to `answer` (None: no reply) until `quit` or
    the end of the input; a line that breaks the protocol, or an answer that cannot be sent, is answered `error`.
    `answer` turns the failures of what it runs into `error` replies itself."""
    while True:
        line = inbox.readline()
        if not line:
            return 0
        try:
            message = decode(line, REFEREE_MESSAGES)
        except ProtocolError as exc:
            reply: dict[str, Any] | None = {"type": "error", "message": f"protocol: {exc}"}
        else:
            if message["type"] == "quit":
                return 0
            reply = answer(message)
        if reply is not None:
            try:
                outbox.write(encode(reply))
            except (ProtocolError, ValueError) as exc:
                outbox.write(encode({"type": "error", "message": f"its answer cannot be sent: {exc}"}))
            outbox.flush()


def protocol_output() -> IO[bytes]:
    """The protocol's output (standard output as it was), with what the engine's code prints sent to standard
    error from now on, never into the protocol."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out
