"""`plyground nash FILE`: equilibria, dominance and security values of a game in a file or a shipped example."""

from __future__ import annotations

import argparse
from pathlib import Path

from framework.errors import ConfigError
from framework.gametheory.files import load_game
from framework.gametheory.n_player import NPlayerGame
from framework.gametheory.normal_form import NormalFormGame
from framework.gametheory.report import extensive_form_report, n_player_report, normal_form_report
from framework.registry import Registry


def resolve(name: str) -> Path:
    """A path to an existing file, or the file of a registered game-file example of that name."""
    path = Path(name)
    if path.exists():
        return path
    registry = Registry()
    if name in registry.game_files:
        return Path(registry.game_file_spec(name).path)
    examples = ", ".join(sorted(registry.game_files)) or "none"
    if path.suffix or len(path.parts) > 1:  # meant as a file: say that it is missing, not that it is no example
        raise ConfigError(f"no file '{name}' (from {Path.cwd()}); give a game file or a shipped example: {examples}")
    raise ConfigError(f"'{name}' is neither a game file nor a shipped example; examples: {examples}")


def run(args: argparse.Namespace) -> int:
    game = load_game(resolve(args.file))
    if isinstance(game, NormalFormGame):
        print(normal_form_report(game))
    elif isinstance(game, NPlayerGame):
        print(n_player_report(game))
    else:
        print(extensive_form_report(game, args.max_cells))
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("nash", help="Nash equilibria, dominance and maxmin values of a game file")
    p.add_argument("file", metavar="FILE", help="a .yaml/.csv game file, or a shipped example name "
                                                "(see 'plyground list')")
    p.add_argument("--max-cells", type=int, default=100_000,
                   help="refuse extensive-form games whose normal form has more cells (default 100000)")
    p.set_defaults(func=run)
