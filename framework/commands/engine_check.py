"""`plyground engine-check COMMAND... --game GAME`: check that a program speaks the engine protocol.

One verdict line per check (framework/engine/check.py): handshake, readiness, legal moves from many positions
of random games, answers within the budget, malformed messages, quit. Exit status 0 when every check passed,
1 when one failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from framework.commands import options
from framework.engine.check import Checker, Settings, failed
from framework.engine.client import EngineSpec
from framework.engine.programs import PROTOCOLS, engine_argv, program_id, resolve_program
from framework.protocols import Budget
from framework.tournament.config import MAX_SEED
from framework.tournament.entries import MAX_NODES

#: Most random games one check plays.
MAX_GAMES = 10_000


def run(args: argparse.Namespace) -> int:
    registry, game_options, game = options.game_of(args)
    command = resolve_program(args.command, Path.cwd(), "engine-check COMMAND")
    spec = EngineSpec(program_id(command), command=engine_argv(command, args.protocol))
    budget = Budget(time=args.time, nodes=args.nodes)
    if args.time is None and args.nodes is None:
        budget = Budget(time=1.0)
    settings = Settings(games=args.games, budget=budget, seed=args.seed, setup_limit=args.setup_time)
    print(f"engine-check {' '.join(args.command)} on {args.game} ({args.protocol} protocol)")
    verdicts = Checker(spec, args.game, game_options, game, settings,
                       report=lambda verdict: print(verdict.line(), flush=True)).run()
    bad = [v.check for v in verdicts if v.failed]
    if bad:
        print(f"engine-check: FAILED {len(bad)} of {len(verdicts)} checks ({', '.join(bad)})")
    else:
        passed = sum(v.status == "ok" for v in verdicts)
        print(f"engine-check: passed {passed} of {len(verdicts)} checks")
    sys.stdout.flush()
    return 1 if failed(verdicts) else 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("engine-check", help="check that a program speaks the engine protocol: one verdict "
                              "line per check, exit status 1 when one fails")
    p.add_argument("command", nargs="+", metavar="COMMAND", help="the program and its arguments (put '--' before "
                   "an argument that starts with '-'); a path with a '/' or a name on PATH")
    p.add_argument("--game", required=True, help="the game to check it on (see 'plyground list')")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    p.add_argument("--protocol", choices=PROTOCOLS, default="plyground",
                   help="the protocol the program speaks (uci: through the adapter framework.engine.uci)")
    p.add_argument("--games", type=options.count(1, MAX_GAMES), default=10,
                   help="random games in which the engine is asked for a move at every ply (default 10)")
    p.add_argument("--time", type=options.seconds, help="time budget per move in seconds (default 1 when --nodes "
                   "is not given either)")
    p.add_argument("--nodes", type=options.count(1, MAX_NODES), help="node budget per move")
    p.add_argument("--setup-time", type=options.seconds, default=10.0, help="CPU seconds the engine may take to "
                   "answer hello and isready (default 10; the wall bound is three times that plus 5 s)")
    p.add_argument("--seed", type=options.count(0, MAX_SEED - MAX_GAMES), default=0,
                   help="seed of the random games (and the dice)")
    p.add_argument("--plugin", action="append", metavar="FILE", help="also load the plugins in this Python file")
    p.set_defaults(func=run)
