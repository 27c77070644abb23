"""`plyground replay RESULTS [GAME]`: step through one stored game in the terminal; without GAME, list the games."""

from __future__ import annotations

import argparse
import shlex
import sys

import pandas as pd

from framework.analysis.tables import Results
from framework.errors import ConfigError
from framework.match import rolled
from framework.protocols import CHANCE
from framework.records import format_score, game_for, replay_states, seating

HELP = "Enter: next ply · b: back · number: go to that ply · q: quit"


def run(args: argparse.Namespace) -> int:
    results = Results(args.results)
    games = results.games
    if args.game is None:
        print(game_list(results))
        print(f"\nreplay one: plyground replay {shlex.quote(str(args.results))} NUMBER (or its key)")
        return 0
    rows = games[games["key"] == args.game]
    if not len(rows) and args.game.isdigit() and 1 <= int(args.game) <= len(games):
        rows = games.iloc[[int(args.game) - 1]]
    if not len(rows):
        raise ConfigError(f"no game '{args.game}' in '{args.results}'; give a game's key or its number "
                          f"1-{len(games)} (plyground replay {shlex.quote(str(args.results))} lists them)")
    g = next(rows.itertuples(index=False))
    moves = results.moves[results.moves["key"] == g.key].sort_values("ply")
    game = game_for(results, g.game)
    states = replay_states(game, g.start, list(moves["move"]))
    lines = [f"{m.ply}. {rolled(m.move)}" if m.mover == CHANCE else
             f"{m.ply}. {game.player_names[m.mover]} ({m.participant}) plays {m.move}  depth {m.depth}, "
             f"nodes {m.nodes:,}, {m.wall_time:.3f}s, score {format_score(None if m.score != m.score else m.score)}"
             + (f", pv {m.pv}" if m.pv else "") for m in moves.itertuples(index=False)]
    result = "draw" if g.winner is None or g.winner != g.winner else f"{g.winner} wins"
    print(f"{seating(results, g)} ({g.game}): {result} — {g.termination}{': ' + g.reason if g.reason else ''}")
    interactive = sys.stdin.isatty() and not args.all
    ply = 0
    while True:
        if ply:
            print(lines[ply - 1])
        print(game.render(states[ply]), end="\n\n")
        if not interactive:
            if ply == len(states) - 1:
                return 0
            ply += 1
            continue
        answer = input(f"[ply {ply}/{len(states) - 1}] {HELP}> ").strip().lower()
        if answer == "q":
            return 0
        if answer == "b":
            ply = max(0, ply - 1)
        elif answer.isdigit():
            ply = min(len(states) - 1, int(answer))
        elif ply < len(states) - 1:
            ply += 1


def game_list(results: Results) -> str:
    """The stored games, numbered as `replay` takes them: who sat where, the result and how it ended."""
    games = results.games
    table = pd.DataFrame({
        "number": range(1, len(games) + 1), "key": games["key"], "game": games["game"],
        "seats": [seating(results, g) for g in games.itertuples(index=False)],
        "result": ["draw" if w is None or w != w else f"{w} wins" for w in games["winner"]],
        "termination": games["termination"], "plies": games["plies"]})
    return table.to_string(index=False) if len(table) else "no games stored yet"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("replay", help="step through a stored game in the terminal (without GAME: list them)")
    p.add_argument("results", help="results folder")
    p.add_argument("game", nargs="?", help="the game's key, or its number in the results' games table (1 = first); "
                                           "without it, the games are listed")
    p.add_argument("--all", action="store_true", help="print every position at once (also when not a terminal)")
    p.set_defaults(func=run)
