"""Support enumeration speed: ours against nashpy's, on the same random n x n games in the same run.

    python benchmarks/nash_vs_nashpy.py [--sizes 4 5 6 7 8] [--games N] [--seed S] [--exact-games N]

For each n it draws `--games` random games (payoffs uniform in [0, 1), so nondegenerate with
probability 1) and times, per game:

- ours: `mixed_equilibria(game, check_degeneracy=False)` - equal-size supports, the float batch
  filter, then exact verification over the rationals (the same task nashpy does);
- ours + check: the same plus the exact degeneracy check `plyground nash` also runs;
- exact only: every support pair solved and verified over the rationals, no float filter (the
  naive exact method the float filter replaces; on the first `--exact-games` games only);
- nashpy: `nashpy.Game(A, B).support_enumeration(non_degenerate=True)` (equal-size supports).

It prints milliseconds per game, the ratio nashpy / ours (above 1: ours is faster) and the
equilibria each found. nashpy can drop an equilibrium when a probability it solves for comes out
as -1e-17 instead of 0 (see tests/framework/gametheory/test_support_enumeration.py); such games
are counted in the last column. Without nashpy installed (`pip install -e '.[bench]'`) its columns
are skipped. Timings are noisy on a shared machine: compare ratios from one run.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np

from framework.gametheory.normal_form import NormalFormGame
from framework.gametheory.support_enumeration import _verify, mixed_equilibria


def import_nashpy() -> Any | None:
    try:
        import nashpy
    except ImportError:
        return None
    return nashpy


def exact_only(game: NormalFormGame) -> int:
    """Support enumeration with every support pair solved over the rationals: the baseline."""
    m, n = game.shape
    found = set()
    for k in range(1, min(m, n) + 1):
        for rows in combinations(range(m), k):
            for cols in combinations(range(n), k):
                eq = _verify(game, rows, cols)
                if eq is not None:
                    found.add((eq.row, eq.column))
    return len(found)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7, 8])
    parser.add_argument("--games", type=int, default=20, help="random games per size (default 20)")
    parser.add_argument("--exact-games", type=int, default=2, help="games per size for the exact-only baseline")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    nashpy = import_nashpy()
    if nashpy is None:
        print("nashpy is not installed; peer columns skipped (pip install -e '.[bench]')")
    rng = np.random.default_rng(args.seed)
    header = (f"{'n':>2} {'games':>5} {'ours ms':>9} {'+check ms':>9} {'exact-only ms':>13} {'nashpy ms':>10} "
              f"{'nashpy/ours':>11} {'exact/ours':>10} {'equilibria':>10} {'nashpy eq':>9} {'nashpy missed':>13}")
    print(header)
    for n in args.sizes:
        ours = check = exact = peer = 0.0
        found = peer_found = missed = 0
        exact_games = min(args.exact_games, args.games)
        for g in range(args.games):
            a, b = rng.random((n, n)), rng.random((n, n))
            game = NormalFormGame.from_matrices(a, b)
            t, result = timed(lambda: mixed_equilibria(game, check_degeneracy=False))
            ours += t
            found += len(result.equilibria)
            t, _ = timed(lambda: mixed_equilibria(game))
            check += t
            if g < exact_games:
                t, count = timed(lambda: exact_only(game))
                exact += t
                if count != len(result.equilibria):
                    print(f"MISMATCH: exact-only found {count} equilibria, the float filter {len(result.equilibria)}")
                    return 1
            if nashpy is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    t, theirs = timed(lambda: list(nashpy.Game(a, b).support_enumeration(non_degenerate=True)))
                peer += t
                peer_found += len(theirs)
                missed += len(theirs) != len(result.equilibria)
        per = 1000 / args.games
        exact_ms = exact * 1000 / exact_games if exact_games else float("nan")
        peer_cols = (f"{peer * per:>10.2f} {peer / ours:>11.1f}" if nashpy is not None
                     else f"{'skipped':>10} {'-':>11}")
        tail = f"{peer_found:>9} {missed:>13}" if nashpy is not None else f"{'-':>9} {'-':>13}"
        print(f"{n:>2} {args.games:>5} {ours * per:>9.2f} {check * per:>9.2f} {exact_ms:>13.1f} {peer_cols} "
              f"{exact_ms / (ours * per):>10.0f} {found:>10} {tail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
