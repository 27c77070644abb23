"""MCTS simulations per second against OpenSpiel's C++ `MCTSBot` with a random-rollout evaluator, in the same run.

    python benchmarks/mcts_vs_openspiel.py [ROW ...] [--simulations N] [--repeat N] [--parallel N]
                                           [--no-peers] [--memory ITERATIONS]

Rows: loa, checkers, pig, einstein (OpenSpiel's `lines_of_action`, `checkers`, `pig`, `einstein_wurfelt_nicht`)
and rolit-2, rolit-3, rolit-4 (OpenSpiel has no Rolit: the peer column is then our own search through
`kernel: adapter`, the same code run as Python over the game's methods, and says so). For each row, both
searches run N simulations from the start position (after its opening rolls in a dice game: OpenSpiel's first
chance outcomes, our `decision_state`): ours (`mcts`, solver off, random playouts to the end, `kernel: auto`,
compiled where the game has a kernel, a first decision beforehand so a compile or cache load is not timed)
and `pyspiel.MCTSBot(game, RandomRolloutEvaluator(1 rollout), uct_c=1, N simulations, solve=False)`. A
simulation is one iteration: descent (outcomes sampled at chance nodes), expansion, one random playout to the
end, back-up (each seat's return). It prints simulations/s for each side, the ratio ours/peer (issue 28's
targets: >= 10x for LOA and checkers), the bytes a node of our tree takes (`plugins/agents/mcts/search.py`:
NODE_SIZE int32 slots and a float64 total compiled; interpreted and adapter bindings keep Python lists, whose
slots hold 8-byte references) and the 1-minute load average as the row ended (the machine is shared).

`--parallel N` also runs ours root-parallel in N processes right after each sequential run (the same simulations in
all, split among them; `--repeat` pairs back to back) and prints its simulations/s, the median of the pairs' speed-
ups over one process, the load average and the median CPU seconds of each side (all processes': on a loaded
machine, where a second process finds no idle core, the CPU shows what splitting the search costs). `--no-peers`
leaves the peers out (for a parallel run at many simulations). `--memory ITERATIONS` then runs one search of that
many iterations on the first row named (from the start, playouts cut after one ply and scored by the game's
heuristic: the tree is what grows; it adds a node an iteration until descents reach ends) in a forked process and
prints its tree nodes and peak resident memory (the tree grows by doubling, so its peak holds the last two sizes at
once). Figures are noisy on a shared machine: compare ratios from one run, the best of `--repeat` runs counting.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import time
from typing import Any, NamedTuple

import numpy as np

from framework.kernel.binding import decision_state
from framework.protocols import UNLIMITED
from framework.registry import Registry
from plugins.agents.mcts.search import NODE_SIZE


class Row(NamedTuple):
    label: str
    game: str
    options: dict[str, Any]
    peer: str | None        # OpenSpiel's name (None: our adapter binding is the peer)


ROWS = (Row("loa", "loa", {}, "lines_of_action"), Row("checkers", "checkers", {}, "checkers"),
        Row("pig", "pig", {}, "pig"), Row("einstein", "einstein", {}, "einstein_wurfelt_nicht"),
        *(Row(f"rolit-{n}", "rolit", {"players": n}, None) for n in (2, 3, 4)))
#: The options of the `--memory` run: a tree as large as the iterations, playouts cheap.
MEMORY_OPTIONS = {"playout_depth": 1}


def ours(registry: Registry, row: Row, simulations: int, parallel: int = 1,
         kernel: str = "auto") -> tuple[float, str, float]:
    """Our simulations/s from the start, the binding that ran, and the CPU seconds it took (worker processes'
    included)."""
    game = registry.create_game(row.game, row.options)
    options = {"iterations": simulations, "solver": False, "playout_depth": None, "parallel": parallel,
               "kernel": kernel}
    state = decision_state(game)
    registry.create_agent("mcts", game, {**options, "iterations": 2}, seed=1).select_move(
        game, state, UNLIMITED)                         # compile or load, untimed
    agent = registry.create_agent("mcts", game, options, seed=1)
    before, start = os.times(), time.perf_counter()
    decision = agent.select_move(game, state, UNLIMITED)
    elapsed, after = time.perf_counter() - start, os.times()
    cpu = sum(after[i] - before[i] for i in range(4))      # user and system, own and the workers'
    return decision.stats.extra["iterations"] / elapsed, decision.stats.extra["binding"], cpu


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
    while state.is_chance_node():       # EinStein opens with chance (the cubes, the roll): from the first decision
        state.apply_action(state.chance_outcomes()[0][0])
    start = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - start)


def bytes_per_node(binding: str) -> int:
    """A tree node's bytes: compiled arrays, or (interpreted, adapter) list slots of 8-byte references."""
    if binding == "compiled":
        return NODE_SIZE * np.dtype(np.int32).itemsize + np.dtype(np.float64).itemsize
    return (NODE_SIZE + 1) * 8


def load() -> str:
    """The 1-minute load average."""
    return f"{os.getloadavg()[0]:.1f}"


def _memory_run(row: Row, iterations: int) -> tuple[int, int, float, str, int, int]:
    """In a forked process: one search of `iterations` on `row`; its iterations, tree nodes, seconds, binding,
    and the peak resident memory in bytes before and after it."""
    registry = Registry()
    game = registry.create_game(row.game, row.options)
    options = {"solver": False, **MEMORY_OPTIONS}
    state = decision_state(game)
    registry.create_agent("mcts", game, {**options, "iterations": 2}, seed=1).select_move(game, state, UNLIMITED)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    agent = registry.create_agent("mcts", game, {**options, "iterations": iterations}, seed=1)
    start = time.perf_counter()
    stats = agent.select_move(game, state, UNLIMITED).stats
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return stats.extra["iterations"], stats.peak_entries or 0, elapsed, stats.extra["binding"], before, peak


def memory(row: Row, iterations: int) -> None:
    """Print the tree and peak resident memory of one search of `iterations` on `row` (`--memory`)."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=lambda: sender.send(_memory_run(row, iterations)))     # forked: not pickled
    child.start()
    done, nodes, elapsed, binding, before, peak = receiver.recv()
    child.join()
    print(f"memory: {row.label} {binding}, {done:,} iterations in {elapsed:.0f} s: {nodes:,} tree nodes, "
          f"{nodes * bytes_per_node(binding) / 2**30:.2f} GiB of tree by the layout; peak resident "
          f"{peak / 2**30:.2f} GiB ({before / 2**30:.2f} GiB before the search), "
          f"{'within' if peak <= 2 * 2**30 else 'OVER'} 2 GiB", flush=True)


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", default=[row.label for row in ROWS])
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--memory", type=int, default=0, metavar="ITERATIONS")
    parser.add_argument("--no-peers", action="store_true", help="ours only (a --parallel run at many simulations)")
    args = parser.parse_args(argv)
    labels = [row.label for row in ROWS]
    unknown = [label for label in args.rows if label not in labels]
    if unknown:
        parser.error(f"no benchmark row for {', '.join(unknown)}; rows: {', '.join(labels)}")
    registry = Registry()
    pyspiel = import_pyspiel()
    if pyspiel is None:
        print("OpenSpiel (pyspiel) is not installed; peer columns skipped")
    print(f"{'row':9} {'binding':12} {'ours sims/s':>12} {'peer':>10} {'peer sims/s':>12} {'ratio':>7} "
          f"{'bytes/node':>10} {'load':>5}")
    for row in ROWS:
        if row.label not in args.rows:
            continue
        runs = [ours(registry, row, args.simulations) for _ in range(args.repeat)]
        mine, binding, _ = max(runs)
        if args.no_peers:
            peer, theirs = "(skipped)", None
        elif row.peer is None:
            peer, theirs = "adapter", max(ours(registry, row, args.simulations, kernel="adapter")[0]
                                          for _ in range(args.repeat))
        elif pyspiel is not None:
            peer, theirs = "OpenSpiel", max(openspiel(pyspiel, row.peer, args.simulations)
                                            for _ in range(args.repeat))
        else:
            peer, theirs = "(skipped)", None
        ratio = f"{mine / theirs:7.2f}" if theirs else "      -"
        peer_text = f"{theirs:12,.0f}" if theirs else f"{'-':>12}"
        print(f"{row.label:9} {binding:12} {mine:12,.0f} {peer:>10} {peer_text} {ratio} "
              f"{bytes_per_node(binding):10} {load():>5}", flush=True)
        if args.parallel > 1:
            pairs = [(ours(registry, row, args.simulations), ours(registry, row, args.simulations, args.parallel))
                     for _ in range(args.repeat)]
            spread = max(pair[1][0] for pair in pairs)
            speed_up = statistics.median(pair[1][0] / pair[0][0] for pair in pairs)
            cpu = [statistics.median(pair[i][2] for pair in pairs) for i in (0, 1)]
            print(f"{'':9} {f'parallel {args.parallel}':12} {spread:12,.0f} {'':10} {'':12} {'':7} {'':10} "
                  f"{load():>5} speed-up {speed_up:.2f}x (CPU {cpu[1]:.2f} s, one process {cpu[0]:.2f} s)",
                  flush=True)
    print(f"10,000,000 iterations, compiled: {10_000_001 * bytes_per_node('compiled') / 2**30:.2f} GiB of tree "
          "(at most one node per iteration)")
    if args.memory:
        memory(next(row for row in ROWS if row.label == args.rows[0]), args.memory)


if __name__ == "__main__":
    main()
