"""`plyground spe GAME --position TEXT`: the subgame-perfect equilibrium of a small game position."""

from __future__ import annotations

import argparse

from framework.agentspec import parse_key_values
from framework.gametheory.from_game import DEFAULT_MAX_NODES, tree_from_game
from framework.gametheory.report import position_report
from framework.registry import Registry


def run(args: argparse.Namespace) -> int:
    registry = Registry()
    game = registry.create_game(args.game, parse_key_values(args.option or [], "--option"))
    state = game.from_text(args.position) if args.position else game.initial_state()
    tree = tree_from_game(game, state, args.max_nodes)
    print(position_report(tree, tree.players))
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("spe", help="subgame-perfect equilibrium of a game position by backward induction")
    p.add_argument("game", help="game name (see 'plyground list')")
    p.add_argument("--position", help="position in the game's text format (default: the start)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                   help=f"refuse game trees with more nodes (default {DEFAULT_MAX_NODES})")
    p.set_defaults(func=run)
