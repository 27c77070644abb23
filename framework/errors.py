"""The exceptions Plyground raises on bad input.

Each derives from a builtin so callers that do not know Plyground can still catch it,
and each message quotes the offending input and says what was expected.
"""


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
