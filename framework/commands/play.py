"""`plyground play GAME --first AGENT --second AGENT`: one game in the terminal."""

from __future__ import annotations

import argparse

from framework.agentspec import parse_agent_spec, parse_key_values
from framework.match import play_game
from framework.protocols import Budget
from framework.registry import Registry


def run(args: argparse.Namespace) -> int:
    registry = Registry()
    game = registry.create_game(args.game, parse_key_values(args.option or [], "--option"))
    agents = []
    for i, (flag, text) in enumerate((("--first", args.first), ("--second", args.second))):
        name, params = parse_agent_spec(text, flag)
        agents.append(registry.create_agent(name, game, params, seed=args.seed + i, where=flag))
    start = game.from_text(args.position) if args.position else None
    budget = Budget(time=args.time, nodes=args.nodes)

    def show(before, record, after) -> None:
        print(f"{record.ply}. {game.player_names[record.mover]} plays {record.move}"
              + (f"  (nodes {record.nodes}, score {record.score})" if record.nodes > 1 else ""))
        print(game.render(after), end="\n\n")

    print(game.render(start if start is not None else game.initial_state()), end="\n\n")
    record = play_game(game, agents, budgets=(budget, budget), start=start, players=(args.first, args.second),
                       max_plies=args.max_plies, on_move=show)
    outcome = ("draw" if record.winner is None
               else f"{game.player_names[record.winner]} ({record.players[record.winner]}) wins")
    print(f"Result: {outcome} — {record.termination.value}{': ' + record.reason if record.reason else ''}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("play", help="play one game between two agents (use 'human' to play yourself)")
    p.add_argument("game", help="game name (see 'plyground list')")
    p.add_argument("--first", default="human", help="agent for the first player: NAME[:key=value,...]")
    p.add_argument("--second", default="alphabeta", help="agent for the second player: NAME[:key=value,...]")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    p.add_argument("--position", help="start position in the game's text format")
    p.add_argument("--seed", type=int, default=0, help="seed of the first agent; the second gets seed+1")
    p.add_argument("--time", type=float, help="time budget per move in seconds")
    p.add_argument("--nodes", type=int, help="node budget per move")
    p.add_argument("--max-plies", type=int, help="adjudicate a draw after this many plies")
    p.set_defaults(func=run)
