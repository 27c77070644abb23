"""`plyground perft GAME DEPTH`: move-path counts per depth, with speed, or divided by root move."""

from __future__ import annotations

import argparse
import time

from framework.agentspec import parse_key_values
from framework.errors import ConfigError
from framework.perft import divide, perft
from framework.registry import Registry


def _rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds:,.0f}" if seconds > 0 else "-"


#: The deepest perft the command counts: beyond it no game's count finishes, and the count's recursion would
#: outgrow Python's stack (`perft pig 3000` was a RecursionError).
MAX_DEPTH = 64


def run(args: argparse.Namespace) -> int:
    text = args.depth
    depth = int(text) if text.isascii() and text.isdigit() else -1
    if not 1 <= depth <= MAX_DEPTH:
        raise ConfigError(f"perft DEPTH must be a positive integer (at most {MAX_DEPTH}), got '{text}'")
    registry = Registry(autoload=False)
    registry.load_entry_points(only={args.game})  # a plugin named like the game first: no other plugin's imports
    if args.game not in registry.games:
        registry.load_entry_points()
    game = registry.create_game(args.game, parse_key_values(args.option or [], "--option"))
    state = game.from_text(args.position) if args.position else game.initial_state()
    perft(game, state, 1)  # loads (or compiles) the game's kernel outside the timings: depth 1 was charged for it
    if args.divide:
        start = time.perf_counter()
        rows = divide(game, state, depth)
        seconds = time.perf_counter() - start
        width = max((len(notation) for notation, _ in rows), default=5)
        for notation, count in rows:
            print(f"{notation:<{width}}  {count:,}")
        total = sum(count for _, count in rows)
        print(f"total {total:,} at depth {depth} in {seconds:.3f} s ({_rate(total, seconds)} nodes/s)")
        return 0
    print(f"{'depth':>5} {'nodes':>15} {'seconds':>9} {'nodes/s':>13}")
    for d in range(1, depth + 1):
        start = time.perf_counter()
        count = perft(game, state, d)
        seconds = time.perf_counter() - start
        print(f"{d:>5} {count:>15,} {seconds:>9.3f} {_rate(count, seconds):>13}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("perft", help="count the move paths of each depth up to DEPTH, with nodes/s")
    p.add_argument("game", help="game name (see 'plyground list')")
    p.add_argument("depth", metavar="DEPTH", help="the deepest ply to count (a positive integer)")
    p.add_argument("--position", help="start position in the game's text format (default: the initial state)")
    p.add_argument("--divide", action="store_true",
                   help="print the count below each root move in notation, at DEPTH only")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    p.set_defaults(func=run)
