"""The `plyground` command line: parses arguments and dispatches to `framework.commands`."""

from __future__ import annotations

import argparse
import os
import sys
from importlib import metadata

from framework.commands import (export, list_plugins, make_endgames, nash, perft, play, replay, report, run, serve, spe,
                                validate, warmup)
from framework.errors import PlygroundError

COMMANDS = (list_plugins, play, perft, warmup, run, validate, report, nash, spe, make_endgames, serve, export, replay)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="plyground", description="Games, search agents and tournaments.")
    parser.add_argument("--version", action="version", version=f"plyground {metadata.version('plyground')}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
