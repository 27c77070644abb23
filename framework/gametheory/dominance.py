"""Dominated strategies and their iterated elimination.

Definitions of Shoham & Leyton-Brown, *Multiagent Systems* (2009), §3.4.3 "Removal of dominated strategies", as the
thesis states them, for pure strategies s, s' of one player against every pure strategy t
of the other:

- s *strictly* dominates s' when u(s, t) > u(s', t) for all t;
- s *weakly* dominates s' when u(s, t) >= u(s', t) for all t, and > for at least one t;
- s *very weakly* dominates s' when u(s, t) >= u(s', t) for all t.

Iterated elimination removes one dominated pure strategy at a time, in a fixed order: the
row player's strategies before the column player's, lower index first (a strategy dominated
by several is reported with the first dominator). Order does not matter for strict dominance
(the result is unique) but it does for weak and very weak dominance, which is why every step
is reported. Dominance here is by pure strategies only.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from framework.gametheory.normal_form import NormalFormGame


class Dominance(enum.Enum):
    STRICT = "strictly"
    WEAK = "weakly"
    VERY_WEAK = "very weakly"


@dataclass(frozen=True)
class Elimination:
    """One step: `player`'s strategy (original index) removed as dominated by another of theirs."""

    player: int
    strategy: int
    dominated_by: int
    kind: Dominance


def dominates(better: Sequence[Fraction], worse: Sequence[Fraction], kind: Dominance) -> bool:
    """Whether payoff vector `better` dominates `worse` (same opponent strategies) in the given sense."""
    pairs = list(zip(better, worse))
    if kind is Dominance.STRICT:
        return all(b > w for b, w in pairs)
    if not all(b >= w for b, w in pairs):
        return False
    return kind is Dominance.VERY_WEAK or any(b > w for b, w in pairs)


def _payoff_vectors(game: NormalFormGame, player: int, alive: tuple[list[int], list[int]]) -> dict[int, list[Fraction]]:
    """Each alive strategy of `player` as its payoffs against the opponent's alive strategies."""
    if player == 0:
        return {i: [game.row_payoffs[i][j] for j in alive[1]] for i in alive[0]}
    return {j: [game.column_payoffs[i][j] for i in alive[0]] for j in alive[1]}


def iterated_elimination(game: NormalFormGame,
                         kind: Dominance) -> tuple[list[Elimination], tuple[list[int], list[int]]]:
    """Eliminate dominated strategies until none is left; return the steps and the surviving strategies."""
    alive: tuple[list[int], list[int]] = (list(range(game.shape[0])), list(range(game.shape[1])))
    steps: list[Elimination] = []
    while True:
        step = _first_dominated(game, alive, kind)
        if step is None:
            return steps, alive
        steps.append(step)
        alive[step.player].remove(step.strategy)


def _first_dominated(game: NormalFormGame, alive: tuple[list[int], list[int]], kind: Dominance) -> Elimination | None:
    for player in (0, 1):
        if len(alive[player]) < 2:
            continue
        vectors = _payoff_vectors(game, player, alive)
        for s in alive[player]:
            for d in alive[player]:
                if d != s and dominates(vectors[d], vectors[s], kind):
                    return Elimination(player, s, d, kind)
    return None


def dominant_strategy(game: NormalFormGame, player: int, kind: Dominance = Dominance.STRICT) -> int | None:
    """The strategy of `player` that dominates every other of theirs in the given sense, if any."""
    alive = (list(range(game.shape[0])), list(range(game.shape[1])))
    vectors = _payoff_vectors(game, player, alive)
    for s, vector in vectors.items():
        if all(dominates(vector, other, kind) for t, other in vectors.items() if t != s):
            return s
    return None


def dominant_strategy_equilibrium(game: NormalFormGame, kind: Dominance = Dominance.STRICT) -> tuple[int, int] | None:
    """The profile of both players' dominant strategies, when both have one (an equilibrium in dominant strategies)."""
    row, column = dominant_strategy(game, 0, kind), dominant_strategy(game, 1, kind)
    return None if row is None or column is None else (row, column)
