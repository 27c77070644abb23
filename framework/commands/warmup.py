"""`plyground warmup`: compile (or load from numba's cache) every compiled kernel ahead of time.

The kernels are compiled into the engines' cache (framework/engine/client.py ENGINE_CACHE): searches run in
engine processes, which compile and load there, so the work is done in fresh processes that use that cache.

Compiled kernels (`framework.kernel`) are compiled on first use and cached on disk, and a run compiles
only what it uses (saying so on stderr), so this command is never needed for correctness: it pays
the whole cost once, e.g. before timing anything. Games warm their rules (`game.warmup()`); agents
with a compiled search warm the one they run when built for a game with a kernel (`kernel` capability), so
every registered agent is built once per such game and heuristic: with the game's default options, and
for a game whose `players` option ranges over seat counts, with the first count the agent plays (Rolit's
two-player searches run only with `players: 2`; its kernel, and so its compiled searches, serve every
count). `--jobs N` spreads the work over N processes: the games' rules first (searches chain on them), then
every agent and heuristic. Games named on the command line are the only ones warmed (a run warms what it
plays: a Pig study need not compile the Lines of Action searches).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from framework.capabilities import capabilities
from framework.engine.client import ENGINE_CACHE
from framework.engine.sandbox import killed_with_parent
from framework.errors import PlygroundError
from framework.kernel import numba_backend
from framework.params import HeuristicRef
from framework.registry import Registry


def warm_game(name: str) -> bool:
    """Compile or load `name`'s rules kernels; False when the game has none (neither `warmup` nor `kernel`:
    a game with only a kernel compiles its rules with the searches that chain on them)."""
    offered = capabilities(Registry().create_game(name))
    if offered.warmup is not None:
        offered.warmup()
    return offered.warmup is not None or offered.kernel is not None


def warm_agent(game_name: str, options: dict[str, Any], agent: str, params: dict[str, Any]) -> set[tuple[str, str]]:
    """Build `agent` for the game with `options`: an agent with a compiled search compiles or loads it. What this
    process has compiled or loaded so far, as (search, game) pairs; an agent that refuses the game when built
    (a plugin's own rule, beyond what its spec declares) is left out."""
    from framework.kernel import binding

    registry = Registry()
    try:
        registry.create_agent(agent, registry.create_game(game_name, options), params)
    except PlygroundError:
        pass
    return {(search.rsplit(".", 2)[-2], tag) for search, tag, *_ in binding._COMPILED}


def game_options(registry: Registry, game_name: str) -> list[dict[str, Any]]:
    """The options the game is warmed with: its defaults, then each seat count its `players` option allows."""
    players = next((p for p in registry.game_spec(game_name).params if p.name == "players" and p.type is int), None)
    if players is None or players.minimum is None or players.maximum is None:
        return [{}]
    counts = range(int(players.minimum), int(players.maximum) + 1)
    return [{}, *({"players": n} for n in counts if n != players.default)]


Build = tuple[str, dict[str, Any], str, dict[str, Any]]


def agent_builds(registry: Registry, game_name: str) -> list[Build]:
    """(game, options, agent, params) for every agent that plays the game with some of its `game_options` (the
    first), once per heuristic of the game when it takes one."""
    builds: list[Build] = []
    heuristics = sorted(spec.name for spec in registry.heuristics_for(game_name))
    built: set[str] = set()
    for options in game_options(registry, game_name):
        game = registry.create_game(game_name, options)
        for agent in sorted(set(registry.agents) - built):
            if not registry.plays(registry.agent_spec(agent), game):
                continue
            built.add(agent)
            param = next((p.name for p in registry.agent_spec(agent).params if p.type is HeuristicRef), None)
            if param is None or not heuristics:
                builds.append((game_name, options, agent, {}))
                continue
            builds.extend((game_name, options, agent, {param: heuristic}) for heuristic in heuristics)
    return builds


def _each(pool: ProcessPoolExecutor, function: Callable[..., Any], *arguments: list) -> list:
    return list(pool.map(function, *arguments))


def run(args: argparse.Namespace) -> int:
    registry = Registry()
    for name in args.games:
        registry.game_spec(name)    # an unknown name is an error naming the games there are, before any work
    if not numba_backend.enabled():
        print("compiled kernels are off (PLYGROUND_JIT=0): nothing to warm up")
        return 0
    names = sorted(set(args.games) or registry.games)
    start = time.perf_counter()
    os.environ["NUMBA_CACHE_DIR"] = str(ENGINE_CACHE)   # read by numba in the processes started below
    ENGINE_CACHE.mkdir(parents=True, exist_ok=True)
    pool = ProcessPoolExecutor(max(args.jobs, 1), mp_context=multiprocessing.get_context("spawn"),
                               initializer=killed_with_parent, initargs=(os.getpid(),))   # none outlives a kill
    try:
        compiled = [name for name, has in zip(names, _each(pool, warm_game, names)) if has]
        builds = [build for name in compiled for build in agent_builds(registry, name)]
        warmed = set().union(*_each(pool, warm_agent, *map(list, zip(*builds)))) if builds else set()
    finally:
        pool.shutdown()
    for name in names:
        print(f"{name:<16} " + ("kernels ready" if name in compiled else "no compiled kernels (runs interpreted)"))
    searches = sorted({search for search, _ in warmed})
    print("compiled searches ready: " + "; ".join(
        f"{search} on {', '.join(sorted(game for s, game in warmed if s == search))}" for search in searches))
    print(f"warmed up in {time.perf_counter() - start:.1f} s with {args.jobs} process(es)")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("warmup", help="compile and cache the compiled kernels of every game and agent now")
    p.add_argument("games", nargs="*", metavar="GAME", help="only these games and their agents (default: every game)")
    p.add_argument("--jobs", "-j", type=int, default=1,
                   help="processes compiling at once (default 1: on a busy machine more only add CPU time)")
    p.set_defaults(func=run)
