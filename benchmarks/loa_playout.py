"""Where a random LOA playout spends its time: each compiled rules function timed alone on playout positions.

    python benchmarks/loa_playout.py [--games N] [--seed S]

A compiled MCTS iteration (`plugins/agents/mcts/search.py`) is almost all playout (cProfile: 99.5% of a
2,000-simulation LOA search is the one compiled `run` call), and a ply of the playout is `outcome`, a draw,
`random_move` and `apply_move` (before issue 28's change: `legal_moves` and an index into its list). This
plays N random games from the standard start with the Python rules, keeps every position that is not over,
and times each compiled function over them all from a compiled loop (no dispatch from Python counted):
nanoseconds of CPU time per call, best of 5. The `playout ply` row runs N whole random playouts from the
start the way `play_out` does (same generator, same draw; a new seed each repeat) and gives nanoseconds per
ply; `list playout ply` the same playouts (the same moves) picking each from `legal_moves`' list. The rows
sum to more than a ply (each row reads its own positions); compare rows within one run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from plugins.games.loa import rules
from plugins.games.loa.game import STANDARD_START, parse_position
from plugins.games.loa.kernel import KERNEL


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The positions (black, white, mover arrays) of `games` random games, and the plies a game lasts."""
    rng = random.Random(seed)
    start = parse_position(STANDARD_START)
    found, plies = [], 0
    for _ in range(games):
        state = start
        while rules.winner(state[0], state[1], state[2], 0) == rules.ONGOING:
            found.append(state)
            state = rules.apply_move(state, rng.choice(rules.legal_moves(state)))
            plies += 1
    black, white, mover = zip(*found)
    return (np.array(black, np.uint64), np.array(white, np.uint64), np.array(mover, np.int64), plies / games)


def loops() -> dict[str, Callable[..., Any]]:
    """Per row, a compiled loop over the positions (black, white, mover) returning a checksum."""
    import numba

    legal_moves, apply_move, outcome = KERNEL.legal_moves, KERNEL.apply_move, KERNEL.outcome
    generate_moves, is_connected = KERNEL.generate_moves, KERNEL.is_connected
    count_moves, random_move = KERNEL.count_moves, KERNEL.random_move

    @numba.njit
    def outcome_loop(black, white, mover):
        total = 0
        for i in range(black.size):
            total += outcome((black[i], white[i], mover[i]), 0, 0)
        return total

    @numba.njit
    def connected_loop(black, white, mover):
        total = 0
        for i in range(black.size):
            total += is_connected(black[i]) + is_connected(white[i])
        return total

    @numba.njit
    def legal_loop(black, white, mover):
        total = 0
        for i in range(black.size):
            total += len(legal_moves((black[i], white[i], mover[i])))
        return total

    @numba.njit
    def generate_loop(black, white, mover):
        total = 0
        for i in range(black.size):
            total += len(generate_moves(white[i], black[i]) if mover[i] else generate_moves(black[i], white[i]))
        return total

    @numba.njit
    def count_loop(black, white, mover):
        total = 0
        for i in range(black.size):
            total += count_moves(white[i], black[i]) if mover[i] else count_moves(black[i], white[i])
        return total

    @numba.njit
    def random_loop(black, white, mover):
        total = 0
        for i in range(black.size):
            total += random_move((black[i], white[i], mover[i]), (i * 2654435761) & 0xFFFFFFFF)
        return total

    @numba.njit
    def apply_loop(black, white, mover):
        total = 0
        for i in range(black.size):
            after = apply_move((black[i], white[i], mover[i]), i & 4095)     # the bits of some move
            total += after[2] + (after[0] & 1) + (after[1] & 1)
        return total

    @numba.njit
    def playout_loop(black, white, mover, seed):
        """Plies of black.size random playouts from the first position, each move `random_move`'s, drawn
        as `play_out` draws (xorshift32 from `seed`)."""
        x, plies = seed, 0
        for _ in range(black.size):
            state = (black[0], white[0], mover[0])
            while outcome(state, 0, 0) == 2:
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                state = apply_move(state, random_move(state, x))
                plies += 1
        return plies

    @numba.njit
    def list_playout_loop(black, white, mover, seed):
        """The same playouts, each move picked from the list `legal_moves` builds (the same moves)."""
        x, plies = seed, 0
        for _ in range(black.size):
            state = (black[0], white[0], mover[0])
            while outcome(state, 0, 0) == 2:
                moves = legal_moves(state)
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                state = apply_move(state, moves[(x * len(moves)) >> 32])
                plies += 1
        return plies

    return {"outcome": outcome_loop, "is_connected x2": connected_loop, "legal_moves": legal_loop,
            "generate_moves": generate_loop, "count_moves": count_loop, "random_move": random_loop,
            "apply_move": apply_loop, "playout ply": playout_loop, "list playout ply": list_playout_loop}


def best_time(loop: Callable[..., Any], arguments: tuple[Any, ...], seeded: bool = False) -> tuple[float, int]:
    """The best of 5 timings of `loop(*arguments)` in CPU time (the machine's load does not stretch it), and
    its result (compiled beforehand). A `seeded` loop takes a seed last, a new one each time: the same
    playouts played again are learnt by the branch predictor (measured: 50 playouts replayed ran 3x faster
    than fresh ones)."""
    seeds = iter(range(2463534242, 2463534242 + 6 * 7919, 7919))

    def call() -> int:
        result: int = loop(*arguments, next(seeds)) if seeded else loop(*arguments)
        return result

    result = call()
    best = 1e9
    for _ in range(5):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best, result


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    black, white, mover, length = positions(args.games, args.seed)
    print(f"{black.size:,} positions from {args.games} random games ({length:.1f} plies a game)")
    print(f"{'part':16} {'ns/call':>9} {'checksum':>12}")
    for name, loop in loops().items():
        if name.endswith("playout ply"):
            starts = (black[:args.games], white[:args.games], mover[:args.games])     # from the first: the start
            seconds, plies = best_time(loop, starts, seeded=True)
            print(f"{name:16} {seconds / plies * 1e9:9.1f} {plies:12,}   "
                  f"({args.games / seconds:,.0f} playouts/s, {plies / args.games:.1f} plies each)")
        else:
            seconds, result = best_time(loop, (black, white, mover))
            print(f"{name:16} {seconds / black.size * 1e9:9.1f} {result:12,}")


if __name__ == "__main__":
    main()
