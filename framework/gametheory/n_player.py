"""Normal-form games of any number of players: a payoff vector per pure strategy profile, pure equilibria.

A pure profile is a Nash equilibrium when no player gains by a unilateral deviation (Shoham &
Leyton-Brown, *Multiagent Systems*, 2009, def. 3.3.4, for n players); it is *strict* when every
deviation loses. Two-player games keep their richer analysis in `normal_form` (mixed equilibria,
dominance, maxmin); this module is what applies to three or more players, exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from framework.errors import ConfigError
from framework.gametheory.exact import to_fraction

Profile = tuple[int, ...]


@dataclass(frozen=True)
class NPlayerEquilibrium:
    """A pure Nash equilibrium: each player's strategy index, the payoffs, and whether it is strict."""

    profile: Profile
    payoffs: tuple[Fraction, ...]
    strict: bool


@dataclass(frozen=True)
class NPlayerGame:
    """An n-player game in normal form with exact payoffs: `payoffs[profile]` is the payoff vector of the
    pure profile (one strategy index per player); every profile of `strategies` has one."""

    name: str
    players: tuple[str, ...]
    strategies: tuple[tuple[str, ...], ...]
    payoffs: dict[Profile, tuple[Fraction, ...]]

    @classmethod
    def from_nested(cls, cells: Any, name: str = "game", players: Sequence[str] | None = None,
                    strategies: Sequence[Sequence[str]] | None = None, where: str = "payoffs") -> NPlayerGame:
        """Build a game from payoffs nested one list level per player (player 1's strategy first), each
        innermost cell the list of the n players' payoffs; n is the nesting depth, or len(players).

        Raises ConfigError naming `where` and the cell for ragged nesting, cells of the wrong length,
        non-numbers, fewer than two players and strategy labels that do not match.
        """
        n = len(players) if players is not None else nesting_depth(cells)
        if n < 2:
            raise ConfigError(f"{where}: a game needs at least two players, got {n}")
        sizes: list[int] = []
        level = cells
        for player in range(n):
            if not isinstance(level, list) or not level:
                raise ConfigError(f"{where}: expected player {player + 1}'s strategies as a non-empty list "
                                  f"(one nesting level per player), got {level!r}")
            sizes.append(len(level))
            level = level[0]
        table: dict[Profile, tuple[Fraction, ...]] = {}
        for profile in product(*(range(size) for size in sizes)):
            cell = cells
            for depth, index in enumerate(profile):
                if not isinstance(cell, list) or len(cell) != sizes[depth]:
                    raise ConfigError(f"{where} at {_position(profile[:depth])}: expected {sizes[depth]} entries "
                                      f"for player {depth + 1}'s strategies (every level alike), got {cell!r}")
                cell = cell[index]
            at = f"{where} at {_position(profile)}"
            if not isinstance(cell, list) or len(cell) != n:
                raise ConfigError(f"{at}: expected a cell of {n} payoffs, one per player, got {cell!r}")
            table[profile] = tuple(to_fraction(u, at) for u in cell)
        names = tuple(str(p) for p in players) if players is not None else tuple(str(i + 1) for i in range(n))
        labels = tuple(tuple(f"s{j + 1}" for j in range(size)) for size in sizes)
        if strategies is not None:
            if (not isinstance(strategies, (list, tuple)) or len(strategies) != n
                    or not all(isinstance(own, (list, tuple)) for own in strategies)):
                raise ConfigError(f"{where}: 'strategies' must be {n} lists of labels, one per player, "
                                  f"got {strategies!r}")
            labels = tuple(tuple(str(s) for s in own) for own in strategies)
            for player, (got, want) in enumerate(zip(labels, sizes)):
                if len(got) != want or len(set(got)) != len(got):
                    raise ConfigError(f"{where}: player {player + 1} has {want} strategies in the payoffs but the "
                                      f"labels {list(got)}; give {want} different labels")
        return cls(name, names, labels, table)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(own) for own in self.strategies)

    def pure_equilibria(self) -> list[NPlayerEquilibrium]:
        """Every pure Nash equilibrium, profiles in lexicographic order, each marked strict or weak.

        For each player, the best payoff against each profile of the others is computed once, so the
        cost is n times the number of profiles."""
        best: list[dict[Profile, tuple[Fraction, int]]] = []  # per player: others' profile -> (best, ties)
        for player in range(len(self.players)):
            table: dict[Profile, tuple[Fraction, int]] = {}
            for profile, payoffs in self.payoffs.items():
                others = profile[:player] + profile[player + 1:]
                top, ties = table.get(others, (payoffs[player], 0))
                if payoffs[player] > top:
                    top, ties = payoffs[player], 0
                table[others] = (top, ties + (payoffs[player] == top))
            best.append(table)
        found = []
        for profile in sorted(self.payoffs):
            payoffs = self.payoffs[profile]
            marks = [best[p][profile[:p] + profile[p + 1:]] for p in range(len(self.players))]
            if all(payoffs[p] == top for p, (top, _) in enumerate(marks)):
                found.append(NPlayerEquilibrium(profile, payoffs, all(ties == 1 for _, ties in marks)))
        return found

    def describe(self, profile: Profile) -> tuple[str, ...]:
        """The strategy labels of a profile."""
        return tuple(self.strategies[p][s] for p, s in enumerate(profile))

    def cells(self) -> int:
        return math.prod(self.shape)


def nesting_depth(cells: Any) -> int:
    """Nesting depth down to the payoff cell (a list of numbers): the number of players a file implies."""
    depth = 0
    while isinstance(cells, list) and cells and isinstance(cells[0], list):
        cells = cells[0]
        depth += 1
    return depth


def _position(profile: Sequence[int]) -> str:
    return "[" + "][".join(str(i) for i in profile) + "]" if profile else "the top level"
