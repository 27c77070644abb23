"""`plyground make-endgames`: generate the proven endgame test set (framework/endgames.py) into a file."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from framework.commands import options
from framework.endgames import Settings, generate, parse_bands, render
from framework.registry import Registry

#: Positions files go here unless --out says otherwise.
FOLDER = Path("tournaments/positions")


def run(args: argparse.Namespace) -> int:
    registry = Registry()
    game, player, solver = (getattr(args, option) or registry.default_for(f"make-endgames --{option}")
                            for option in ("game", "player", "solver"))
    settings = Settings(game=game, player=player, solver=solver, count=args.count, seed=args.seed,
                        budget=args.budget, easy=args.easy, medium=args.medium,
                        quotas_on=not args.no_quotas, patience=args.patience, referees=tuple(args.referee or ()),
                        referee_budget=args.referee_budget, bands=parse_bands(args.bands),
                        min_win_plies=args.min_win_plies)
    started = time.perf_counter()

    def progress(kept: int, games: int) -> None:
        if not args.quiet:
            print(f"\r{kept}/{settings.count} positions from {games} games, {time.perf_counter() - started:.0f}s",
                  end="", file=sys.stderr, flush=True)

    out = Path(args.out) if args.out else FOLDER / f"{settings.game}-endgames-{settings.count}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    journal = out.with_name(out.name + ".journal")
    if journal.exists() and not args.quiet:
        print(f"resuming from {journal} (games already played are not played again)", file=sys.stderr)
    try:
        kept, tally = generate(settings, workers=args.workers, progress=progress, journal=journal)
    finally:
        if not args.quiet:
            print(file=sys.stderr)  # end the progress line
    out.write_text(render(settings, kept, tally), encoding="utf-8")
    journal.unlink()
    print(f"{len(kept)} positions written to {out} in {time.perf_counter() - started:.0f}s")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    d = Settings
    declared = "(default: the one a plugin declares for it; 'plyground list' marks it)"
    p = subparsers.add_parser("make-endgames", help="generate proven endgame positions by seeded self-play "
                                                    "and a solver")
    p.add_argument("--game", help=f"game {declared}")
    p.add_argument("--player", help=f"self-play agent, one with depth and heuristic parameters {declared}")
    p.add_argument("--solver", help=f"agent that proves the wins and reports their proof length: "
                                    f"NAME[:key=value,...] {declared}")
    p.add_argument("--count", type=int, default=d.count, help=f"positions to keep (default {d.count})")
    p.add_argument("--seed", type=int, default=d.seed, help=f"seed of the whole set (default {d.seed})")
    p.add_argument("--budget", type=int, default=d.budget, help=f"solver node budget per proof (default {d.budget})")
    p.add_argument("--easy", type=int, default=d.easy, help=f"proofs below this many nodes are easy (default {d.easy})")
    p.add_argument("--medium", type=int, default=d.medium,
                   help=f"proofs below this many nodes are medium, the rest hard (default {d.medium})")
    p.add_argument("--no-quotas", action="store_true",
                   help="keep any proven win, whatever its difficulty (for small games whose proofs are all easy)")
    p.add_argument("--patience", type=int, default=d.patience,
                   help=f"stop with an error after this many games in a row add no position (default {d.patience})")
    p.add_argument("--referee", action="append", metavar="SOLVER",
                   help="label by referees instead of --solver (give it at least twice: NAME[:key=value,...]): "
                        "positions sampled at distances from the game's end (--bands), kept when every referee "
                        "proves a win within --referee-budget, whatever any solver's cost")
    p.add_argument("--referee-budget", type=int, default=d.referee_budget,
                   help=f"each referee's node budget per position (default {d.referee_budget})")
    p.add_argument("--bands", default=",".join(f"{lo}-{hi}" for lo, hi in d.bands),
                   help="with --referee: distance bands in plies before the game's end, FROM-TO,..., one position "
                        "per band sampled from each game and an equal share of --count kept from each "
                        "(default %(default)s)")
    p.add_argument("--min-win-plies", type=int, default=d.min_win_plies, metavar="N",
                   help="with --referee: keep only positions whose shortest forced win needs at least N plies; a "
                        "sample whose side to move forces a win within N-1 plies (found by an exhaustive search "
                        "over the game's rules, no heuristic, no budget) is dropped before any referee is asked "
                        "and counted in the header (default 0: off)")
    p.add_argument("--workers", type=options.workers, default=1,
                   help="processes playing games (the file does not depend on it)")
    p.add_argument("--out", help=f"file to write (default {FOLDER}/GAME-endgames-COUNT.txt); every game played is "
                                 f"journaled in OUT.journal until it is written, and a run stopped before that "
                                 f"resumes from it")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.set_defaults(func=run)
