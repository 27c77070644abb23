"""The exceptions Plyground raises on bad input.

Each derives from a builtin so callers that do not know Plyground can still catch it,
and each message quotes the offending input and says what was expected.
"""

import reprlib


class PlygroundError(Exception):
    """Base class of every error Plyground raises on purpose."""


class ConfigError(PlygroundError, ValueError):
    """A configuration value (YAML key, CLI option, agent parameter) is wrong."""


class PluginError(PlygroundError, LookupError):
    """A plugin could not be found, loaded or registered."""


class PositionError(PlygroundError, ValueError):
    """A position text could not be parsed into a state."""


class MoveParseError(PlygroundError, ValueError):
    """A move text could not be parsed, or names a move that is not legal."""


class IllegalMoveError(PlygroundError, ValueError):
    """An agent returned a move that is not among the legal moves."""


class WorkerError(PlygroundError, RuntimeError):
    """A task failed in a worker for a reason other than an agent's misbehaviour (which is a forfeit)."""


class SolveDisagreementError(PlygroundError, RuntimeError):
    """Two solvers (or a solver and a positions file) proved different values for one position: a bug somewhere."""


class _Quote(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        # repr() of an int past 4300 digits raises ValueError; a YAML `0x...` literal can be that long
        return f"<an integer of {x.bit_length()} bits>" if x.bit_length() > 256 else repr(x)


_QUOTE = _Quote()
_QUOTE.maxstring = _QUOTE.maxother = _QUOTE.maxlong = 80
_QUOTE.maxlist = _QUOTE.maxtuple = _QUOTE.maxdict = _QUOTE.maxset = _QUOTE.maxfrozenset = 6
_QUOTE.maxlevel = 2
#: The longest quotation of an input in a message.
QUOTE_LIMIT = 160


def quoted(value: object) -> str:
    """A bounded repr of `value` for an error message: a few levels and items and at most QUOTE_LIMIT
    characters, so a huge or deeply shared input (a YAML alias bomb) costs an excerpt, never its expansion."""
    text = _QUOTE.repr(value)
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT - 3] + "..."


def one_line(exc: BaseException, limit: int = 200) -> str:
    """`Type: message` on one line and at most `limit` characters, for an error that wraps another."""
    text = " ".join(f"{type(exc).__name__}: {exc}"[:4 * limit].split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def cap_text(text: str, limit: int = 1 << 16) -> str:
    """`text` cut to about `limit` characters, keeping its head and its tail (a traceback's last lines say most)."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n... [{len(text) - 2 * half:,} characters cut] ...\n{text[-half:]}"
