"""MCTS simulations per second against OpenSpiel's C++ `MCTSBot` with a random-rollout evaluator, in the same run.

    python benchmarks/mcts_vs_openspiel.py [GAME ...] [--simulations N] [--repeat N] [--parallel N]

For each row, both searches run N simulations from the start position: ours (`mcts`, solver off, random
playouts to the end, `kernel: auto`, compiled where the game has a kernel, a first decision beforehand so a
compile or cache load is not timed) and `pyspiel.MCTSBot(game, RandomRolloutEvaluator(1 rollout), uct_c=1,
N simulations, solve=False)`. A simulation is one iteration: descent, expansion, one random playout to the
end, back-up. It prints simulations/s for each side, the ratio ours/OpenSpiel (issue 28's targets: >= 10x
for LOA and checkers) and the bytes a node of our tree takes (`plugins/agents/mcts/search.py`: NODE_SIZE
int32 slots and a float64 total compiled; interpreted and adapter bindings keep Python lists, whose slots
hold 8-byte references). `--parallel N` also runs ours root-parallel in N processes (the same simulations in
all, split among them) and prints its simulations/s and speed-up over one process. Rolit has no OpenSpiel
peer: ours alone is reported. Figures are noisy on a shared machine: compare ratios from one run, the best of
`--repeat` runs counting.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from framework.protocols import UNLIMITED
from framework.registry import Registry
from plugins.agents.mcts.search import NODE_SIZE

#: Our game, OpenSpiel's (None: no peer).
ROWS = (("loa", "lines_of_action"), ("checkers", "checkers"), ("pig", "pig"),
        ("einstein", "einstein_wurfelt_nicht"), ("rolit", None))


def ours(registry: Registry, name: str, simulations: int, parallel: int = 1) -> tuple[float, str]:
    """Our simulations/s from the start, and the binding that ran."""
    game = registry.create_game(name)
    options = {"iterations": simulations, "solver": False, "playout_depth": None, "parallel": parallel}
    registry.create_agent("mcts", game, {**options, "iterations": 2}, seed=1).select_move(
        game, game.initial_state(), UNLIMITED)                         # compile or load, untimed
    agent = registry.create_agent("mcts", game, options, seed=1)
    start = time.perf_counter()
    decision = agent.select_move(game, game.initial_state(), UNLIMITED)
    elapsed = time.perf_counter() - start
    return decision.stats.extra["iterations"] / elapsed, decision.stats.extra["binding"]


def import_pyspiel() -> Any | None:
    """pyspiel, or None when OpenSpiel is not installed (`pip install -e '.[bench]'`)."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def openspiel(pyspiel: Any, peer: str, simulations: int) -> float:
    game = pyspiel.load_game(peer)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 1.0, simulations, 100_000, False, 1, False)
    state = game.new_initial_state()
    while state.is_chance_node():       # Pig and EinStein open with a roll: search from the first decision
        state.apply_action(state.chance_outcomes()[0][0])
    start = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - start)


def bytes_per_node(binding: str) -> int:
    """A tree node's bytes: compiled arrays, or (interpreted, adapter) list slots of 8-byte references."""
    if binding == "compiled":
        return NODE_SIZE * np.dtype(np.int32).itemsize + np.dtype(np.float64).itemsize
    return (NODE_SIZE + 1) * 8


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=[row[0] for row in ROWS])
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--parallel", type=int, default=1)
    args = parser.parse_args(argv)
    names = [row[0] for row in ROWS]
    unknown = [name for name in args.games if name not in names]
    if unknown:
        parser.error(f"no benchmark row for {', '.join(unknown)}; rows: {', '.join(names)}")
    registry = Registry()
    pyspiel = import_pyspiel()
    if pyspiel is None:
        print("OpenSpiel (pyspiel) is not installed; peer columns skipped")
    print(f"{'game':10} {'binding':12} {'ours sims/s':>12} {'OpenSpiel sims/s':>17} {'ratio':>7} {'bytes/node':>10}")
    for name, peer in ROWS:
        if name not in args.games:
            continue
        runs = [ours(registry, name, args.simulations) for _ in range(args.repeat)]
        mine, binding = max(runs)
        theirs = max(openspiel(pyspiel, peer, args.simulations)
                     for _ in range(args.repeat)) if peer and pyspiel else None
        ratio = f"{mine / theirs:7.2f}" if theirs else "      -"
        peer_text = f"{theirs:17,.0f}" if theirs else f"{'(no peer)' if pyspiel else '(skipped)':>17}"
        print(f"{name:10} {binding:12} {mine:12,.0f} {peer_text} {ratio} {bytes_per_node(binding):10}", flush=True)
        if args.parallel > 1:
            spread = max(ours(registry, name, args.simulations, args.parallel)[0] for _ in range(args.repeat))
            print(f"{'':10} {f'parallel {args.parallel}':12} {spread:12,.0f} {'':17} {'':7} {'':10} "
                  f"speed-up {spread / mine:.2f}x", flush=True)
    print(f"10,000,000 iterations, compiled: {10_000_001 * bytes_per_node('compiled') / 2**30:.2f} GiB of tree "
          "(at most one node per iteration)")


if __name__ == "__main__":
    main()
