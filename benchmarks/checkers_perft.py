"""Checkers perft from the start: our pure-Python move generation against OpenSpiel's C++ `checkers`.

Run: `python benchmarks/checkers_perft.py [--depth 8] [--ours-to 10]`. Both sides count the
same leaves (845,931 at depth 8) in the same run, so the ratio is meaningful on a busy
machine even when the absolute figures are not. OpenSpiel is driven through its Python API
(`state.child(action)`: its `undo_action` does not restore the quiet counter or the pending
multi-jump, so undo-based perft would be wrong). OpenSpiel splits a multi-jump into one action
per jump, so its perft follows an action sequence until the player changes and counts one leaf
per full move. Two modes, each the same algorithm on both sides:
- bulk: the last ply is counted without applying its moves (ours: population counts; OpenSpiel:
  `len(legal_actions())` unless a capture is among them, whose continuations it must expand);
- expand: every leaf is applied (`apply` / `child`), so leaves/s is generation plus application.
Skips cleanly (exit 0 with a message) when pyspiel is not installed.
"""

from __future__ import annotations

import argparse
import sys
import time

from perft_vs_openspiel import import_pyspiel, spiel_perft_turns  # this script's folder is on sys.path

from plugins.games.checkers import Checkers

PUBLISHED = {1: 7, 2: 49, 3: 302, 4: 1_469, 5: 7_361, 6: 36_768, 7: 179_740, 8: 845_931, 9: 3_963_680,
             10: 18_391_564}


def ours_expand(game: Checkers, state, depth: int) -> int:
    moves = game.legal_moves(state)
    if depth == 1:
        for move in moves:
            game.apply(state, move)
        return len(moves)
    return sum(ours_expand(game, game.apply(state, m), depth - 1) for m in moves)


def spiel_perft_bulk(state, depth: int) -> int:
    """Full-move perft over OpenSpiel's single-jump actions, the last ply in bulk unless it holds a capture.

    An OpenSpiel checkers action is odd exactly when it is a capture, and only a capture can
    leave the same player to move.
    """
    actions = state.legal_actions()
    if depth == 1 and not any(a & 1 for a in actions):
        return len(actions)
    player = state.current_player()
    total = 0
    for action in actions:
        child = state.child(action)
        if action & 1 and not child.is_terminal() and child.current_player() == player:
            total += spiel_perft_bulk(child, depth)   # the same move goes on jumping
        elif depth == 1:
            total += 1
        else:
            total += spiel_perft_bulk(child, depth - 1)
    return total


def timed(run) -> tuple[int, float, float]:
    """Leaves, wall seconds and CPU seconds of one run (CPU time is steadier on a shared machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    leaves = run()
    tick = 1e-9  # a floor, so a run faster than the clock's resolution does not divide by zero
    return leaves, max(time.perf_counter() - wall, tick), max(time.process_time() - cpu, tick)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8, help="depth compared with OpenSpiel (default 8)")
    parser.add_argument("--ours-to", type=int, default=None, help="also report our bulk perft up to this depth")
    args = parser.parse_args(argv)
    game = Checkers()
    start = game.initial_state()
    depth = args.depth
    rows = [("ours", "bulk", *timed(lambda: game.perft(start, depth))),
            ("ours", "expand", *timed(lambda: ours_expand(game, start, depth)))]
    pyspiel = import_pyspiel()
    if pyspiel is None:
        print("OpenSpiel (pyspiel) is not installed: skipping the peer; pip install -e '.[bench]'")
    else:
        root = pyspiel.load_game("checkers").new_initial_state()
        rows += [("openspiel", "bulk", *timed(lambda: spiel_perft_bulk(root, depth))),
                 ("openspiel", "expand", *timed(lambda: spiel_perft_turns(root, depth)))]
    print(f"checkers perft({depth}) from the start, published {PUBLISHED.get(depth, '?'):,}")
    print(f"{'engine':<10} {'mode':<7} {'leaves':>12} {'wall s':>8} {'cpu s':>8} {'leaves/s':>11} {'leaves/cpu s':>13}")
    for engine, mode, leaves, wall, cpu in rows:
        print(f"{engine:<10} {mode:<7} {leaves:>12,} {wall:>8.3f} {cpu:>8.3f} {leaves / wall:>11,.0f} "
              f"{leaves / cpu:>13,.0f}")
        if depth in PUBLISHED and leaves != PUBLISHED[depth]:
            print(f"  MISMATCH: {engine} {mode} counted {leaves:,}")
            return 1
    if pyspiel is not None:
        for mode in ("bulk", "expand"):
            ours = next(r for r in rows if r[:2] == ("ours", mode))
            theirs = next(r for r in rows if r[:2] == ("openspiel", mode))
            print(f"speed ratio ours/OpenSpiel ({mode}): {theirs[3] / ours[3]:.2f}x wall, "
                  f"{theirs[4] / ours[4]:.2f}x cpu")
    if args.ours_to:
        for d in range(depth + 1, args.ours_to + 1):
            leaves, wall, cpu = timed(lambda: game.perft(start, d))
            status = "ok" if leaves == PUBLISHED.get(d) else "MISMATCH"
            print(f"ours bulk perft({d}) = {leaves:,} in {wall:.2f} s wall, {cpu:.2f} s cpu, "
                  f"{leaves / wall:,.0f} leaves/s ({status})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
