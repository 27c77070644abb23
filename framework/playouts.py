"""Positions sampled by seeded random playouts, for tests and benchmarks that need many varied states.

The same game, count and seed give the same positions, so a failing position can be replayed.
"""

from __future__ import annotations

import random

from framework.protocols import Game, State


def random_positions(game: Game, count: int, seed: int, min_plies: int = 0, max_plies: int = 60) -> list[State]:
    """`count` non-terminal states, each reached from the start by a uniformly random playout of
    between `min_plies` and `max_plies - 1` plies (cut short where the game ends: such playouts are redrawn)."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(min_plies, max_plies)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(list(game.legal_moves(state))))
        if not game.is_terminal(state):
            out.append(state)
    return out
