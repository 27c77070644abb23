"""The default heuristic of every OpenSpiel game: the average outcome of random playouts.

OpenSpiel's games come without evaluation functions, and alpha-beta, expectiminimax and the n-player
searches need one at their depth limit. `playouts` plays `playouts` games from the state to their end
with uniformly random actions (chance outcomes drawn with their probabilities), straight on OpenSpiel's
states, and scores the mean return of `player` times SCALE. The random stream is seeded by `seed` and the
state's history, so a state always gets the same value: searches stay deterministic and a transposition
table never sees two values for one state. (Monte-Carlo evaluation as in Abramson 1990, "Expected-outcome:
a general model of static evaluation".)
"""

from __future__ import annotations

import random

from framework.protocols import BaseHeuristic
from plugins.games.openspiel_bridge.game import OpenSpielGame, OpenSpielState

#: A mean return in [-1, 1] times SCALE: well inside the terminal scores (returns * WIN_SCORE).
SCALE = 1000.0


class PlayoutHeuristic(BaseHeuristic):
    """Mean return of seeded random playouts to the end of the game (OpenSpiel's games have no heuristic)."""

    name = "playouts"

    def __init__(self, game: OpenSpielGame, playouts: int = 8, seed: int = 0) -> None:
        super().__init__(game)
        self.bridge = game
        self.playouts = playouts
        self.seed = seed

    def evaluate(self, state: OpenSpielState, player: int) -> float:
        rng = random.Random(hash((self.seed, state.history)))
        total = 0.0
        for _ in range(self.playouts):
            spiel = state.spiel.clone()
            while not spiel.is_terminal():
                if spiel.is_chance_node():
                    actions, weights = zip(*spiel.chance_outcomes())
                    spiel.apply_action(rng.choices(actions, weights)[0])
                else:
                    spiel.apply_action(rng.choice(spiel.legal_actions()))
            total += self.bridge.spiel_returns(spiel)[player]
        return SCALE * total / self.playouts
