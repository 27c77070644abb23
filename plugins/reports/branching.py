"""Nodes against depth for minimax and alpha-beta, and the effective branching factors they imply.

Theory (Knuth & Moore, "An Analysis of Alpha-Beta Pruning", Artificial Intelligence 6, 1975;
Pearl, "The Solution for the Branching Factor of the Alpha-Beta Pruning Algorithm", CACM 25,
1982): minimax visits about b^d nodes at depth d; alpha-beta with perfect move ordering about
b^(d/2) (effective branching factor b^(1/2)); with random ordering about b^(3d/4) (b^(3/4)).
We measure from a game's start position: minimax, alpha-beta with good ordering (the default
exact enhancements: iterative deepening, transposition table, TT move, the game's hints,
killers, history; every iteration counted) and alpha-beta with every enhancement off on seeded
random move order, and fit the effective branching factor as the slope of log(nodes) against
depth. `benchmarks/alphabeta_growth.py` prints the same table from this module.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pandas as pd

from framework.capabilities import GameWrapper, capabilities
from framework.protocols import UNLIMITED, Budget, Game, State
from framework.registry import Registry


class ShuffledMoves(GameWrapper):
    """A game whose legal moves come in a seeded random order that depends only on the state.

    Overriding `legal_moves` hides, by rule, the capabilities derived from it (the game's own
    `ordered_moves` would undo the shuffle, its compiled `kernel` would bypass it).
    """

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(game)
        self._seed = seed
        self._key = capabilities(game).hash_key or hash

    def legal_moves(self, state: State) -> list:
        moves = list(self._game.legal_moves(state))
        random.Random(self._key(state) ^ self._seed).shuffle(moves)
        return moves


SEARCHES = ("minimax", "alphabeta good ordering", "alphabeta random ordering")

#: A node budget that never binds but switches iterative deepening on (alpha-beta deepens only under a budget).
DEEPENING = Budget(nodes=10**12)

#: Alpha-beta parameters for good ordering: the exact enhancements on, the selective ones off (its EXACT_ONLY).
GOOD_ORDERING = {"quiescence": False, "lmr": False, "singular": False}


def every_switch_off(registry: Registry) -> dict[str, bool]:
    """Alpha-beta with every enhancement switched off: plain fail-soft alpha-beta in the given move order."""
    return {p.name: False for p in registry.agent_spec("alphabeta").params if p.type is bool}


def nodes_by_depth(registry: Registry, game_name: str, depths: dict[str, int], seed: int = 0) -> pd.DataFrame:
    """Nodes of a fixed-depth search from the start position, for each search and depth up to its maximum."""
    game = registry.create_game(game_name)
    state = game.initial_state()
    rows = []
    for search in SEARCHES:
        for depth in range(1, depths[search] + 1):
            if search == "minimax":
                agent, played, budget = registry.create_agent("minimax", game, {"depth": depth}), game, UNLIMITED
            elif search == "alphabeta good ordering":
                agent = registry.create_agent("alphabeta", game, {"depth": depth, **GOOD_ORDERING})
                played, budget = game, DEEPENING
            else:
                played, budget = ShuffledMoves(game, seed), UNLIMITED
                agent = registry.create_agent("alphabeta", game, {"depth": depth, **every_switch_off(registry)})
            stats = agent.select_move(played, state, budget).stats
            rows.append({"game": game_name, "search": search, "depth": depth, "nodes": stats.nodes,
                         "seconds": round(stats.wall_time, 3)})
    return pd.DataFrame(rows)


def fitted_branching(nodes: list[int], first_depth: int = 1) -> float:
    """exp of the least-squares slope of log(nodes) against depth first_depth, first_depth + 1, ...
    (nan below 2 points)."""
    if len(nodes) < 2:
        return float("nan")
    slope = np.polyfit(np.arange(first_depth, first_depth + len(nodes), dtype=float), np.log(nodes), 1)[0]
    return float(math.exp(slope))


def fitted_ebf(table: pd.DataFrame) -> float:
    """The fitted branching factor of one search's rows (depths >= 2 when there are three or more)."""
    rows = table[table["depth"] >= 2] if len(table) >= 3 else table
    return fitted_branching(rows["nodes"].tolist(), int(rows["depth"].min())) if len(rows) else float("nan")


def branching_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per game: the fitted EBF of each search, b (minimax's EBF) and the theory's b^(1/2), b^(3/4)."""
    rows = []
    for game_name, group in table.groupby("game", sort=False):
        ebf = {s: fitted_ebf(group[group["search"] == s]) for s in SEARCHES}
        b = ebf["minimax"]
        rows.append({"game": game_name, "b (minimax EBF)": b, "alphabeta good ordering": ebf[SEARCHES[1]],
                     "b^(1/2)": math.sqrt(b), "alphabeta random ordering": ebf[SEARCHES[2]], "b^(3/4)": b ** 0.75})
    return pd.DataFrame(rows)
