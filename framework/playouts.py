"""Positions sampled by seeded random playouts, for tests and benchmarks that need many varied states.

The same game, count and seed give the same positions, so a failing position can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from framework.protocols import CHANCE, Game, State


def random_positions(game: Game, count: int, seed: int, min_plies: int = 0, max_plies: int = 60) -> list[State]:
    """`count` non-terminal states, each reached from the start by a uniformly random playout of
    between `min_plies` and `max_plies - 1` plies (cut short where the game ends: such playouts are redrawn)."""
    rng, out = random.Random(seed), list[State]()
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(min_plies, max_plies)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(list(game.legal_moves(state))))
        if not game.is_terminal(state):
            out.append(state)
    return out


def playout_positions(game: Game, count: int, seed: int, every: int = 3, max_plies: int = 200,
                      starts: Sequence[State] = ()) -> list[State]:
    """Every `every`-th state of seeded random games, each played to its end or `max_plies`, terminal
    states included; the games start from `starts` in turn (default: the initial state)."""
    rng, out = random.Random(seed), list[State]()
    starts = tuple(starts) or (game.initial_state(),)
    while len(out) < count:
        state = starts[len(out) % len(starts)]
        for ply in range(max_plies):
            if ply % every == 0:
                out.append(state)
            moves = list(game.legal_moves(state))
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
    return out[:count]


def final_positions(game: Game, count: int, seed: int, first: int = 10, last: int = 1,
                    max_plies: int = 400) -> list[State]:
    """From seeded random games that end within `max_plies`, the states `first` down to `last` plies
    before the end (where solvers find proofs)."""
    rng, out = random.Random(seed), list[State]()
    while len(out) < count:
        line = [game.initial_state()]
        while not game.is_terminal(line[-1]) and len(line) < max_plies:
            line.append(game.apply(line[-1], rng.choice(list(game.legal_moves(line[-1])))))
        if game.is_terminal(line[-1]):
            out += line[len(line) - 1 - first:len(line) - last]
    return out[:count]


def decision_positions(game: Game, count: int, seed: int, share: float = 0.3) -> list[State]:
    """`count` decision states met along seeded random games, each kept with probability `share`: never a
    chance node, never the end (sample positions for searches of dice games)."""
    rng, found = random.Random(seed), list[State]()
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(found) < count:
            if game.to_move(state) != CHANCE and rng.random() < share:
                found.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return found
