"""Pig heuristics: a quick race count, and the exact two-player win probability."""

from __future__ import annotations

from typing import Any

from framework.errors import ConfigError
from framework.protocols import BaseHeuristic
from plugins.games.pig import solver

#: Scale of heuristic values (inside +-WIN_SCORE, as every heuristic's).
SCALE = 1000.0


class RaceHeuristic(BaseHeuristic):
    """Race: the player's share of the way to the goal (turn total counted for the player whose turn it is)
    minus the best opponent's, times 1000."""

    name = "race"

    game: Any    # a Pig

    def evaluate(self, state: Any, player: int) -> float:
        scores, total, turn, _ = state
        goal = self.game.goal
        progress = [min(score + (total if seat == turn else 0), goal) / goal for seat, score in enumerate(scores)]
        return SCALE * (progress[player] - max(p for seat, p in enumerate(progress) if seat != player))


class OptimalHeuristic(BaseHeuristic):
    """Optimal: the exact win probability under optimal play (two players), as 1000 * (2p - 1); a search one
    ply deep over it plays Neller & Presser's optimal policy."""

    name = "optimal"

    game: Any    # a Pig

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        if game.num_players != 2:
            raise ConfigError(f"pig heuristic 'optimal' is exact for two players; this game has {game.num_players}"
                              "; use 'race'")
        solver.require_memory(game.goal)   # refused when built, not at its first move

    def evaluate(self, state: Any, player: int) -> float:
        return SCALE * (2.0 * self.game.exact_values(state)[player] - 1.0)
