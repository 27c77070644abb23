"""The `plyground` command line: parses arguments and dispatches to `framework.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from importlib import metadata

from framework.errors import PlygroundError

#: The module of `framework.commands` defining each command, in help order. A run imports only its
#: own command's module: `--version` and `perft` never pay for pandas, scipy or the game-theory code.
COMMANDS = {"list": "list_plugins", "plugins": "list_plugins", "play": "play", "perft": "perft",
            "warmup": "warmup", "run": "run", "validate": "validate", "report": "report", "nash": "nash",
            "spe": "spe", "make-endgames": "make_endgames", "serve": "serve", "export": "export",
            "replay": "replay", "solve": "solve", "engine-check": "engine_check"}


#: Commands that leave nothing to clean up (they only print): their process ends without Python's finalization,
#: which with numba loaded costs about 40 ms (tearing down its objects), a tenth of `plyground perft loa 5`.
QUICK_EXIT = frozenset({"perft"})


def build_parser(command: str | None = None, version_only: bool = False) -> argparse.ArgumentParser:
    """The parser of `command` alone, of none for `--version`, or of every command (for help and errors)."""
    parser = argparse.ArgumentParser(prog="plyground", description="Games, search agents and tournaments.")
    parser.add_argument("--version", action="version", version=f"plyground {metadata.version('plyground')}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = [] if version_only else COMMANDS.values() if command is None else [COMMANDS[command]]
    for module in dict.fromkeys(modules):
        importlib.import_module(f"framework.commands.{module}").add_parser(subparsers)
    return parser


def _command(argv: list[str]) -> str | None:
    """The command `argv` names (its first word that is not an option), if it is one."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = _command(argv)
    args = build_parser(command, version_only=command is None and "--version" in argv).parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()  # inside the try, so a closed pipe is reported here and not at exit
        return code
    except PlygroundError as exc:
        print(f"plyground: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("plyground: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, as Unix tools do (Python docs, "signal" notes).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run() -> None:
    """The process's entry point (`plyground`, `python -m framework.cli`): `main`, and the exit status."""
    code = main()
    if _command(sys.argv[1:]) in QUICK_EXIT:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
