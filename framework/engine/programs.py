"""Programs as engines: the text that names one (`cmd:PROGRAM ARGS`, `uci:PROGRAM ARGS`), where its program is,
and the argv that starts it.

A participant can be a program in any language instead of a registered agent (YAML `command: [ARGV...]`,
`plyground play --seat cmd:...`, `plyground engine-check`). It speaks the Plyground engine protocol itself
(`protocol: plyground`, the default), or UCI through the adapter `framework.engine.uci`, which speaks our
protocol to the referee and UCI to the program (`protocol: uci`).

The program is found once, when the config or the command line is read: a path with a `/` is taken relative to
`base` (a YAML file's folder, or the current folder on the command line), a bare name is looked up on PATH; it
must be an executable file. Every later argument that names an existing file relative to `base` is made absolute
too (`[python3, engine.py]`): the engine runs in a private folder of its own, where relative paths mean
nothing. The folders of the program and of those files are the ones an engine may read besides the system's
(client.EngineSpec.readable).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

from framework.errors import ConfigError

#: The protocols a program may speak: ours (the default), or UCI through the adapter.
PROTOCOLS = ("plyground", "uci")
#: The prefix that names a program in a seat's text, per protocol.
PREFIXES = {"cmd:": "plyground", "uci:": "uci"}
#: Most arguments and characters of one command: a command line, not a file.
MAX_ARGS = 256
MAX_ARG_CHARS = 4096


def parse_program(text: str, where: str) -> tuple[str, list[str]] | None:
    """(protocol, argv) of a seat's text `cmd:PROGRAM ARGS...` or `uci:PROGRAM ARGS...` (split as a shell
    would: quote an argument with spaces); None when the text names an agent instead."""
    stripped = text.strip()
    for prefix, protocol in PREFIXES.items():
        if stripped.startswith(prefix):
            try:
                argv = shlex.split(stripped[len(prefix):])
            except ValueError as exc:
                raise ConfigError(f"{where} '{text}': cannot split the command ({exc})") from None
            if not argv:
                raise ConfigError(f"{where} '{text}': names no program; expected {prefix}PROGRAM [ARGS...]")
            return protocol, argv
    return None


def resolve_program(argv: list[str] | tuple[str, ...], base: Path, where: str) -> tuple[str, ...]:
    """`argv` with its program as an absolute path (found as the module's docstring says) and later arguments that
    name existing files made absolute; ConfigError naming `where` when the program cannot be run."""
    if not argv:
        raise ConfigError(f"{where}: expected a list of a program and its arguments, got an empty list")
    if len(argv) > MAX_ARGS:
        raise ConfigError(f"{where}: {len(argv):,} arguments are more than the {MAX_ARGS} a command may have")
    for i, arg in enumerate(argv):
        if not isinstance(arg, str) or not arg or "\0" in arg or len(arg) > MAX_ARG_CHARS:
            raise ConfigError(f"{where}[{i}]: expected a non-empty string without NUL characters of at most "
                              f"{MAX_ARG_CHARS:,} characters, got {str(arg)[:80]!r}")
    program = argv[0]
    if "/" in program:
        path = (base / program).resolve()
        if not path.is_file():
            raise ConfigError(f"{where}[0]: no such program '{program}' (looked for {path})")
    else:
        found = shutil.which(program)
        if found is None:
            raise ConfigError(f"{where}[0]: no program '{program}' on PATH; give its path (with a '/', relative to "
                              f"{base})")
        path = Path(found).resolve()
    if not os.access(path, os.X_OK):
        raise ConfigError(f"{where}[0]: '{program}' ({path}) is not executable; chmod +x it, or name its "
                          "interpreter first (e.g. [python3, engine.py])")
    rest = []
    for arg in argv[1:]:
        candidate = base / arg
        rest.append(str(candidate.resolve()) if not arg.startswith("-") and _is_file(candidate) else arg)
    return (str(path), *rest)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def engine_argv(command: tuple[str, ...], protocol: str) -> tuple[str, ...]:
    """The argv that starts a program's engine: the program itself, or the UCI adapter around it."""
    if protocol == "uci":
        return (sys.executable, "-m", "framework.engine.uci", *command)
    return tuple(command)


def program_id(command: tuple[str, ...] | list[str]) -> str:
    """A participant id for a program: its file's name, in the characters ids may hold."""
    name = Path(command[0]).name if command else "program"
    cleaned = "".join(c if c.isalnum() or c in "_.+-" else "_" for c in name).lstrip("_.+-")
    return cleaned or "program"
