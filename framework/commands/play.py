"""`plyground play GAME --seat AGENT --seat AGENT [...]` (or `--first`/`--second`): one game in the terminal.

Engines play in guarded worker processes (framework/tournament/engine.py), as in a tournament: a hung
engine forfeits on time, one that crashes or exits forfeits with the reason and its traceback; one that
cannot be built is a one-line error naming its option.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from framework.agentspec import parse_agent_spec
from framework.capabilities import player_count
from framework.commands import options
from framework.engine.programs import engine_argv, parse_program, resolve_program
from framework.errors import ConfigError, PlygroundError, one_line
from framework.match import Termination, play_game, rolled
from framework.protocols import CHANCE, UNLIMITED, Agent, Budget, Game
from framework.records import format_score
from framework.registry import Registry
from framework.timecontrol import Clock, TimeControl, clock_text
from framework.tournament.config import MAX_PLIES, MAX_SEED
from framework.tournament.engine import GuardedAgent
from framework.tournament.entries import MAX_NODES
from framework.tournament.tasks import derive_seed

#: --seed stops this far below MAX_SEED, so seat i's seed+i stays a valid seed (6: the most seats of a built-in game).
MAX_SEATS = 6

#: The coach's time per search when no coach budget is given, so big games do not hang.
DEFAULT_COACH_TIME = 2.0
#: An engine's time per move when neither --time nor --nodes is given: an agent searching to the
#: end of checkers or LOA would otherwise never answer.
DEFAULT_MOVE_TIME = 10.0


def _person(registry: Registry, game: Game, text: str, seed: int, flag: str) -> Agent:
    """A person's agent (interactive: it reads this terminal), built in this process."""
    name, params = parse_agent_spec(text, flag)
    try:
        return registry.create_agent(name, game, params, seed=seed, where=flag)
    except PlygroundError:
        raise
    except Exception as exc:
        raise ConfigError(f"{flag} '{text}': the agent could not be built: {one_line(exc)}") from None


def _interactive(registry: Registry, text: str, flag: str) -> bool:
    """Whether the agent `text` names is a person's (its plugin declares it interactive); a program never is."""
    if parse_program(text, flag) is not None:
        return False
    return registry.agent_spec(parse_agent_spec(text, flag)[0]).interactive


def program_command(text: str, flag: str) -> tuple[str, ...] | None:
    """The argv of the program `text` names (`cmd:PROGRAM ARGS`, `uci:PROGRAM ARGS`; paths relative to the current
    folder), None when it names an agent; ConfigError when the program cannot be run."""
    parsed = parse_program(text, flag)
    if parsed is None:
        return None
    protocol, argv = parsed
    return engine_argv(resolve_program(argv, Path.cwd(), f"{flag} '{text}'"), protocol)


def _engine(registry: Registry, args: argparse.Namespace, game_options: dict, text: str, seed: int,
            flag: str) -> GuardedAgent:
    """The engine `text` names, in a guarded worker; its parameters are refused here, before a worker starts. A
    program (`cmd:PROGRAM ARGS`) plays as it is."""
    clock = None if args.tc is None else Clock(TimeControl.parse(args.tc, "--tc"))
    command = program_command(text, flag)
    if command is not None:
        return GuardedAgent("", {}, args.game, game_options, seed=seed, where=flag, label=f"{flag} '{text}'",
                            command=command, clock=clock)
    name, params = parse_agent_spec(text, flag)
    registry.check_agent(name, registry.create_game(args.game, game_options), params, where=flag)
    return GuardedAgent(name, params, args.game, game_options, seed=seed, plugins=tuple(args.plugin or ()), where=flag,
                        label=f"{flag} '{text}'", clock=clock)


def seat_specs(registry: Registry, game: Game, args: argparse.Namespace) -> list[tuple[str, str]]:
    """(flag, agent text) per seat: the --seat flags in order, else --first and --second (their defaults when not
    given); ConfigError in one line when the count does not fit the game or both spellings are mixed."""
    players = player_count(game)
    if args.seat:
        if args.first or args.second:
            raise ConfigError("give the seats either as --seat (one per seat, in order) or as --first/--second, "
                              "not both")
        if len(args.seat) != players:
            raise ConfigError(f"{args.game} is played by {players} players, got {len(args.seat)} --seat flags; "
                              f"give one --seat AGENT per seat, in order")
        return [(f"--seat {i + 1}", text) for i, text in enumerate(args.seat)]
    if players != 2:
        raise ConfigError(f"{args.game} is played by {players} players; --first/--second seat two: give one "
                          f"--seat AGENT per seat, in order")
    return [(flag, given or registry.default_for(f"play {flag}"))
            for flag, given in (("--first", args.first), ("--second", args.second))]


def run(args: argparse.Namespace) -> int:
    registry, game_options, game = options.game_of(args)
    seats = seat_specs(registry, game, args)
    for flag, text in seats:   # every seat checked before any engine starts (a search may compile for seconds)
        if program_command(text, flag) is None and not _interactive(registry, text, flag):
            name, params = parse_agent_spec(text, flag)
            registry.check_agent(name, game, params, where=flag)
    agents: list[Agent] = []
    people: set[int] = set()
    coach = None
    try:
        for i, (flag, text) in enumerate(seats):
            if _interactive(registry, text, flag):   # a person: reads this terminal, in this process
                people.add(i)
                agents.append(_person(registry, game, text, args.seed + i, flag))
            else:
                agents.append(_engine(registry, args, game_options, text, args.seed + i, flag))
        if args.coach and _interactive(registry, args.coach, "--coach"):
            raise ConfigError(f"--coach '{args.coach}' is a person at the keyboard; a coach is an agent that searches")
        if args.coach:
            coach = _engine(registry, args, game_options, args.coach, args.seed + len(seats), "--coach")
        return _play(args, game, agents, people, coach, tuple(text for _, text in seats))
    finally:
        for agent in (*agents, coach):
            if isinstance(agent, GuardedAgent):
                agent.close()


def _play(args: argparse.Namespace, game: Game, agents: list[Agent], people: set[int],
          coach: GuardedAgent | None, players: tuple[str, ...]) -> int:
    start = game.from_text(args.position) if args.position else None
    budget = Budget(time=args.time, nodes=args.nodes)
    if args.time is None and args.nodes is None and args.tc is None:
        budget = Budget(time=DEFAULT_MOVE_TIME)
    # a person at the keyboard is never timed out; budgets bind the engines
    budgets = tuple(UNLIMITED if i in people else budget for i in range(len(agents)))
    coach_budget = Budget(time=args.coach_time, nodes=args.coach_nodes)
    if args.coach_time is None and args.coach_nodes is None:
        coach_budget = Budget(time=DEFAULT_COACH_TIME)
    coached = people or set(range(len(agents)))   # coach the people at the keyboard; with none playing, every move

    def show(before, record, after) -> None:
        if record.mover == CHANCE:   # the dice moved (match.Dice): nobody chose it
            print(f"{record.ply}. {rolled(record.move)}")
            print(game.render(after), end="\n\n")
            return
        print(f"{record.ply}. {game.player_names[record.mover]} plays {record.move}"
              + (f"  (nodes {record.nodes}, score {format_score(record.score)})" if record.nodes > 1 else "")
              + (f"  clock {clock_text(record.clock)}" if record.clock is not None else ""))
        if coach is not None and record.mover in coached:
            print(f"   coach: {coach.verdict(game, before, record.move, coach_budget)}")
        print(game.render(after), end="\n\n")

    def take_back(state, plies) -> None:
        if not plies:
            print("nothing to take back yet")
            return
        print(f"took back {plies} plies")
        print(game.render(state), end="\n\n")

    print(game.render(start if start is not None else game.initial_state()), end="\n\n")
    record = play_game(game, agents, budgets=budgets, start=start, players=players, max_plies=args.max_plies,
                       on_move=show, on_take_back=take_back, seed=derive_seed(args.seed, "chance"))
    outcome = ("no result" if record.termination is Termination.VOID
               else "draw" if record.winner is None
               else f"{game.player_names[record.winner]} ({record.players[record.winner]}) wins")
    print(f"Result: {outcome} — {record.termination.value}{': ' + record.reason if record.reason else ''}")
    if record.traceback:
        print(record.traceback, end="")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("play", help="play one game between agents, one per seat (an interactive agent is you)")
    p.add_argument("game", help="game name (see 'plyground list')")
    p.add_argument("--seat", action="append", metavar="AGENT", help="agent for the next seat: NAME[:key=value,...] "
                   "(repeat once per seat, in order: the first --seat moves first; for two seats --first/--second "
                   "say the same), or a program: 'cmd:PROGRAM ARGS' (it speaks the engine protocol) or "
                   "'uci:PROGRAM ARGS' (a UCI engine)")
    p.add_argument("--first", help="agent for the first player: NAME[:key=value,...] (default: the agent a plugin "
                                   "declares for it, the interactive one; 'plyground list' marks it)")
    p.add_argument("--second", help="agent for the second player: NAME[:key=value,...] (default: the agent a "
                                    "plugin declares for it; 'plyground list' marks it)")
    p.add_argument("--plugin", action="append", metavar="FILE", help="also load the plugins in this Python file "
                   "(repeatable; it is code that runs, as a tournament's 'plugins:' are)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    p.add_argument("--position", help="start position in the game's text format")
    p.add_argument("--seed", type=options.count(0, MAX_SEED - MAX_SEATS), default=0,
                   help="seed of the first agent; seat i gets seed+i, a coach the next one; the dice are seeded "
                        "from it too")
    p.add_argument("--time", type=options.seconds, help="time budget per engine move in seconds "
                   f"(default {DEFAULT_MOVE_TIME} when --nodes is not given either; a human is never timed)")
    p.add_argument("--nodes", type=options.count(1, MAX_NODES), help="node budget per move")
    p.add_argument("--tc", metavar="TC", help="time control of each engine, as fastchess writes it: BASE+INC or "
                                              "MOVES/BASE+INC in seconds, e.g. 10+0.1 (a person has no clock)")
    p.add_argument("--max-plies", type=options.count(1, MAX_PLIES), help="adjudicate a draw after this many plies")
    p.add_argument("--coach", metavar="AGENT", help="after every human move (every move if no human plays) "
                   "say whether it was optimal, judged by this agent: NAME[:key=value,...], e.g. a solver, or a "
                   "search with depth=4")
    p.add_argument("--coach-time", type=options.seconds, help="coach's time budget per search in seconds "
                   f"(default {DEFAULT_COACH_TIME} when --coach-nodes is not given either)")
    p.add_argument("--coach-nodes", type=options.count(1, MAX_NODES), help="coach's node budget per search")
    p.set_defaults(func=run)
