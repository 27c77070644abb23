"""`plyground solve GAME`: the proven value of a position for the player to move.

A game that computes its values exactly (the `exact_values` capability, e.g. a dice game's optimal win
probability) answers with solver `exact`, its default; any other game is solved by an agent that can
solve (the Solver protocol; by default the agent declaring `solve --solver`) within `--nodes` / `--time`, in
an engine process of its own as every agent's search runs (framework/engine/).
"""

from __future__ import annotations

import argparse
from typing import Any

from framework.agentspec import parse_key_values
from framework.capabilities import capabilities
from framework.engine.client import Engine, EngineFailure, EngineSpec
from framework.engine.referee import solve_with
from framework.errors import ConfigError
from framework.match import Forfeit
from framework.protocols import CHANCE, Budget, Game, SolveResult, State
from framework.registry import Registry
from framework.specs import solve_refusal
from framework.tournament.tasks import hard_limit

#: The solver name meaning the game's own `exact_values`.
EXACT = "exact"


def run(args: argparse.Namespace) -> int:
    registry = Registry()
    game = registry.create_game(args.game, parse_key_values(args.option or [], "--option"))
    state = game.from_text(args.position) if args.position else game.initial_state()
    exact = capabilities(game).exact_values
    name = args.solver or (EXACT if exact is not None else registry.default_for("solve --solver"))
    if name == EXACT:
        if exact is None:
            raise ConfigError(f"{game.name} computes no exact values; give --solver with an agent that solves "
                              f"({', '.join(_solvers(registry))})")
        values = exact(state)
        mover = game.to_move(state)
        if mover == CHANCE or game.is_terminal(state):
            print("  ".join(f"{game.player_names[seat]} {value:.6f}" for seat, value in enumerate(values)))
        else:
            print(f"{values[mover]:.6f}  ({game.player_names[mover]} to move: optimal value, exact)")
        return 0
    params = parse_key_values(args.param or [], "--param")
    spec = registry.check_agent(name, game, params, where="--solver")   # builds nothing: it runs in an engine
    if not callable(getattr(spec.factory, "solve", None)):
        raise ConfigError(f"--solver '{name}' plays but cannot solve; agents that solve: "
                          f"{', '.join(_solvers(registry))}" + (f", or '{EXACT}'" if exact is not None else ""))
    refusal = solve_refusal(spec, params)
    if refusal is not None:
        raise ConfigError(f"--param: {refusal}")
    budget = Budget(nodes=args.nodes, time=args.time)
    result = _solve_in_engine(name, params, game, args, state, budget)
    move = "" if result.move is None else f", best move {game.format_move(state, result.move)}"
    print(f"{result.value.value}  ({game.player_names[game.to_move(state)]} to move{move}; "
          f"{name}, {result.stats.nodes:,} nodes)")
    return 0


def _solve_in_engine(name: str, params: dict[str, Any], game: Game, args: argparse.Namespace, state: State,
                     budget: Budget) -> SolveResult:
    """The solver's answer from an engine process of its own (framework/engine/), as a solve run asks it."""
    try:
        engine = Engine(EngineSpec(f"--solver '{name}'", name, params, solver=True, where="--solver"))
    except EngineFailure as failure:
        raise ConfigError(f"--solver '{name}' could not be started: {failure.reason}") from None
    try:
        engine.new_game(game.name, parse_key_values(args.option or [], "--option"), 0, 0, game.to_text(state))
        return solve_with(engine, game, state, budget, hard_limit(budget))
    except (EngineFailure, Forfeit) as failure:
        raise ConfigError(f"--solver '{name}' failed: {failure.reason}") from None
    finally:
        engine.close()


def _solvers(registry: Registry) -> list[str]:
    """The agents whose class has `solve` (the Solver protocol)."""
    return sorted(name for name, r in registry.agents.items() if callable(getattr(r.spec.factory, "solve", None)))


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("solve", help="print the proven value of a position for the player to move")
    p.add_argument("game", help="game name (see 'plyground list')")
    p.add_argument("--position", help="position in the game's text format (default: the initial state)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    p.add_argument("--solver", help=f"'{EXACT}' (the game's exact values, default where it has them) or an agent "
                                    "that solves (default: the one declaring 'solve --solver')")
    p.add_argument("--param", "-p", action="append", metavar="KEY=VALUE", help="solver parameter (repeatable)")
    p.add_argument("--nodes", type=int, help="node budget of an agent's solve (default: none)")
    p.add_argument("--time", type=float, help="time budget in seconds of an agent's solve (default: none)")
    p.set_defaults(func=run)
