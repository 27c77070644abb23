"""The OpenSpiel bridge's overhead per node: perft of `openspiel:NAME` against a plain pyspiel perft, same run.

    python benchmarks/openspiel_bridge_overhead.py [--repeat N]

For each row it counts perft(depth) from the initial state twice: through the bridge with
`framework.perft.perft` (the Game protocol: `legal_moves`, `apply` cloning the wrapped OpenSpiel state, the
history kept as the key) and on OpenSpiel's states directly (`spiel_perft_actions` of perft_vs_openspiel.py:
`legal_actions`, `child`). Both bulk-count the last ply, so a node is an expanded state: the root and every
state above the last ply, 1 + perft(1) + ... + perft(depth - 1). It prints the leaves (which must agree:
a mismatch makes the exit status 1), microseconds per node of each side, the bridge's extra microseconds per
node and the ratio. Figures are noisy on a shared machine: each side's best of `--repeat` runs counts.
"""

from __future__ import annotations

import argparse
import time
import warnings
from typing import Any

from perft_vs_openspiel import import_pyspiel, spiel_perft_actions  # this script's folder is on sys.path

from framework.perft import perft
from framework.registry import Registry

#: (OpenSpiel game, parameters, depth): a deterministic game, an n-player dice game, a chance game.
ROWS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("tic_tac_toe", {}, 7),
    ("connect_four", {}, 6),
    ("breakthrough", {"rows": 6, "columns": 6}, 4),
    ("othello", {}, 8),
    ("pig", {"players": 3, "winscore": 10}, 10),
    ("backgammon", {}, 3),
)


def best(repeat: int, count: Any) -> tuple[int, float]:
    """(leaves, the least seconds) of `count()` over `repeat` runs."""
    seconds = float("inf")
    leaves = 0
    for _ in range(repeat):
        start = time.perf_counter()
        leaves = count()
        seconds = min(seconds, time.perf_counter() - start)
    return leaves, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the best counts (default 3)")
    args = parser.parse_args(argv)
    pyspiel = import_pyspiel()
    if pyspiel is None:
        print("OpenSpiel is not installed: pip install -e '.[openspiel]'")
        return 1
    warnings.simplefilter("ignore")
    registry = Registry()
    status = 0
    print(f"{'game':<36} {'depth':>5} {'leaves':>11} {'nodes':>10} {'pyspiel us/node':>15} "
          f"{'bridge us/node':>14} {'overhead us':>11} {'ratio':>6}")
    for name, params, depth in ROWS:
        game = registry.create_game(f"openspiel:{name}", params)
        start = game.initial_state()
        spiel_game = pyspiel.load_game(name, params)
        spiel_start = spiel_game.new_initial_state()
        nodes = 1 + sum(perft(game, start, d) for d in range(1, depth))
        ours, bridge_seconds = best(args.repeat, lambda: perft(game, start, depth))
        theirs, spiel_seconds = best(args.repeat, lambda: spiel_perft_actions(spiel_start, depth))
        if ours != theirs:
            print(f"MISMATCH {name} perft({depth}): bridge {ours:,}, pyspiel {theirs:,}")
            status = 1
        spiel_us, bridge_us = 1e6 * spiel_seconds / nodes, 1e6 * bridge_seconds / nodes
        label = str(spiel_game).removesuffix("()")
        print(f"{label:<36} {depth:>5} {ours:>11,} {nodes:>10,} {spiel_us:>15.2f} {bridge_us:>14.2f} "
              f"{bridge_us - spiel_us:>11.2f} {bridge_us / spiel_us:>6.1f}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
