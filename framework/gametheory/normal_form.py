"""Two-player games in normal (strategic) form: payoff matrices, mixed profiles, best responses, pure equilibria.

Definitions follow Shoham & Leyton-Brown, *Multiagent Systems* (2009), ch. 3, which the thesis
follows: a mixed strategy is a probability vector over a player's pure strategies, the expected
payoff of a mixed profile (x, y) is x^T A y for the row player and x^T B y for the column player,
and a profile is a Nash equilibrium when each strategy is a best response to the other. A pure
equilibrium is *strict* when each player's strategy is its unique best response, *weak* otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

from framework.errors import ConfigError
from framework.gametheory.exact import format_number, to_fraction

Matrix = tuple[tuple[Fraction, ...], ...]
Mixed = tuple[Fraction, ...]


@dataclass(frozen=True)
class PureEquilibrium:
    """A pure Nash equilibrium: strategy indices, payoffs, and whether it is strict."""

    row: int
    column: int
    payoffs: tuple[Fraction, Fraction]
    strict: bool


@dataclass(frozen=True)
class MixedEquilibrium:
    """A (possibly pure) Nash equilibrium as two probability vectors and the expected payoffs."""

    row: Mixed
    column: Mixed
    payoffs: tuple[Fraction, Fraction]

    @property
    def supports(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (tuple(i for i, p in enumerate(self.row) if p),
                tuple(j for j, q in enumerate(self.column) if q))


@dataclass(frozen=True)
class NormalFormGame:
    """A two-player game in normal form with exact payoffs.

    `row_payoffs[i][j]` and `column_payoffs[i][j]` are the payoffs of the row player (player 0)
    and the column player (player 1) when they play their strategies i and j.
    """

    name: str
    row_payoffs: Matrix
    column_payoffs: Matrix
    players: tuple[str, str] = ("1", "2")
    strategies: tuple[tuple[str, ...], tuple[str, ...]] = field(default=((), ()))

    def __post_init__(self) -> None:
        m, n = self.shape
        if not self.strategies[0] and not self.strategies[1]:
            object.__setattr__(self, "strategies", (tuple(f"r{i + 1}" for i in range(m)),
                                                    tuple(f"c{j + 1}" for j in range(n))))

    @classmethod
    def from_matrices(cls, row_payoffs: Iterable[Iterable[object]], column_payoffs: Iterable[Iterable[object]],
                      name: str = "game", players: Sequence[str] = ("1", "2"),
                      strategies: Sequence[Sequence[str]] | None = None,
                      where: str = "payoffs") -> NormalFormGame:
        """Build a game from two payoff matrices (nested lists, numpy arrays; numbers or text like '2/3').

        Raises ConfigError naming `where` and the entry for empty or non-rectangular matrices,
        non-numeric payoffs, and strategy labels that do not match the matrix.
        """
        a = _matrix(row_payoffs, f"{where} (row player)")
        b = _matrix(column_payoffs, f"{where} (column player)")
        if (len(a), len(a[0])) != (len(b), len(b[0])):
            raise ConfigError(f"{where}: the row player's matrix is {len(a)} x {len(a[0])} but the column "
                              f"player's is {len(b)} x {len(b[0])}; both must have the same shape")
        labels: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        if strategies is not None:
            if len(strategies) != 2:
                raise ConfigError(f"{where}: 'strategies' must be two lists of labels, one per player, "
                                  f"got {strategies!r}")
            labels = (tuple(str(s) for s in strategies[0]), tuple(str(s) for s in strategies[1]))
            for player, (got, want) in enumerate(zip(labels, (len(a), len(a[0])))):
                if len(got) != want:
                    raise ConfigError(f"{where}: player {player + 1} has {want} strategies in the payoff matrix "
                                      f"but {len(got)} labels {list(got)}")
                if len(set(got)) != len(got):
                    raise ConfigError(f"{where}: player {player + 1}'s strategy labels {list(got)} repeat a label")
        if len(players) != 2:
            raise ConfigError(f"{where}: 'players' must name exactly two players, got {list(players)!r}")
        return cls(name, a, b, (str(players[0]), str(players[1])), labels)

    # -- basic facts ---------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.row_payoffs), len(self.row_payoffs[0])

    def payoff_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The payoff matrices as float arrays, for the fast candidate searches (copies of a cached pair)."""
        return self._floats[0].copy(), self._floats[1].copy()

    @cached_property
    def _floats(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.array(self.row_payoffs, dtype=float), np.array(self.column_payoffs, dtype=float))

    def is_constant_sum(self) -> Fraction | None:
        """The constant c when u1 + u2 = c in every cell (c = 0: zero-sum), else None."""
        sums = {a + b for ra, rb in zip(self.row_payoffs, self.column_payoffs) for a, b in zip(ra, rb)}
        return sums.pop() if len(sums) == 1 else None

    def is_common_payoff(self) -> bool:
        """True when both players get the same payoff in every cell (a pure coordination game)."""
        return self.row_payoffs == self.column_payoffs

    # -- mixed profiles ------------------------------------------------------------

    def expected_payoffs(self, row: Sequence[object], column: Sequence[object]) -> tuple[Fraction, Fraction]:
        """Expected payoffs (x^T A y, x^T B y) of the mixed profile (x, y)."""
        x = self._mixed(row, 0)
        y = self._mixed(column, 1)
        return (_bilinear(x, self.row_payoffs, y), _bilinear(x, self.column_payoffs, y))

    def best_responses(self, player: int, opponent_strategy: Sequence[object]) -> tuple[int, ...]:
        """Indices of `player`'s pure best responses to the opponent's mixed strategy.

        A mixed strategy is a best response exactly when its support lies within them,
        which is what support enumeration relies on.
        """
        values = self.pure_payoffs(player, opponent_strategy)
        best = max(values)
        return tuple(i for i, v in enumerate(values) if v == best)

    def pure_payoffs(self, player: int, opponent_strategy: Sequence[object]) -> tuple[Fraction, ...]:
        """`player`'s expected payoff of each pure strategy against the opponent's mixed strategy."""
        if player == 0:
            y = self._mixed(opponent_strategy, 1)
            return tuple(sum((a * q for a, q in zip(row, y)), Fraction(0)) for row in self.row_payoffs)
        x = self._mixed(opponent_strategy, 0)
        m, n = self.shape
        return tuple(sum((self.column_payoffs[i][j] * x[i] for i in range(m)), Fraction(0)) for j in range(n))

    def pure_equilibria(self) -> list[PureEquilibrium]:
        """All pure Nash equilibria in row-major order, each marked strict or weak."""
        m, n = self.shape
        a, b = self.row_payoffs, self.column_payoffs
        column_best = [max(a[i][j] for i in range(m)) for j in range(n)]   # row player's best against column j
        column_ties = [sum(1 for i in range(m) if a[i][j] == column_best[j]) for j in range(n)]
        found = []
        for i in range(m):
            row_best = max(b[i])
            row_ties = b[i].count(row_best)
            for j in range(n):
                if a[i][j] == column_best[j] and b[i][j] == row_best:
                    found.append(PureEquilibrium(i, j, (a[i][j], b[i][j]), column_ties[j] == 1 and row_ties == 1))
        return found

    def is_equilibrium(self, row: Sequence[object], column: Sequence[object]) -> bool:
        """True when (row, column) is a Nash equilibrium: no pure deviation gains (exact)."""
        x, y = self._mixed(row, 0), self._mixed(column, 1)
        u1, u2 = self.expected_payoffs(x, y)
        return max(self.pure_payoffs(0, y)) <= u1 and max(self.pure_payoffs(1, x)) <= u2

    def describe_profile(self, row: Sequence[Fraction], column: Sequence[Fraction]) -> tuple[str, str]:
        """Mixed strategies as text: 'T' for a pure strategy, '2/3 T + 1/3 B' otherwise."""
        return (describe_mixed(row, self.strategies[0]), describe_mixed(column, self.strategies[1]))

    def _mixed(self, strategy: Sequence[object], player: int) -> Mixed:
        size = self.shape[player]
        where = f"mixed strategy of player {player + 1}"
        if len(strategy) != size:
            raise ConfigError(f"{where}: {list(strategy)!r} has {len(strategy)} probabilities, expected {size}")
        probs = tuple(to_fraction(p, where) for p in strategy)
        if any(p < 0 for p in probs) or sum(probs) != 1:
            raise ConfigError(f"{where}: {list(strategy)!r} is not a probability vector "
                              "(non-negative, summing to 1)")
        return probs


def _bilinear(x: Mixed, matrix: Matrix, y: Mixed) -> Fraction:
    return sum((p * sum((u * q for u, q in zip(row, y)), Fraction(0)) for p, row in zip(x, matrix) if p),
               Fraction(0))


def describe_mixed(probs: Sequence[Fraction], labels: Sequence[str]) -> str:
    """A mixed strategy as text: 'T' when pure, '2/3 T + 1/3 B' otherwise."""
    parts = [(p, label) for p, label in zip(probs, labels) if p]
    if len(parts) == 1:
        return parts[0][1]
    return " + ".join(f"{format_number(p)} {label}" for p, label in parts)


def _matrix(rows: Iterable[Iterable[object]], where: str) -> Matrix:
    if isinstance(rows, np.ndarray):
        rows = rows.tolist()
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise ConfigError(f"{where}: expected a matrix (a list of rows), got {rows!r}")
    out = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise ConfigError(f"{where}: row {i + 1} is {row!r}, expected a list of payoffs")
        out.append(tuple(to_fraction(v, f"{where} row {i + 1} column {j + 1}") for j, v in enumerate(row)))
    if not out or not out[0]:
        raise ConfigError(f"{where}: the payoff matrix is empty; each player needs at least one strategy")
    for i, row in enumerate(out):
        if len(row) != len(out[0]):
            raise ConfigError(f"{where}: row {i + 1} has {len(row)} entries but row 1 has {len(out[0])}; "
                              "the matrix must be rectangular")
    return tuple(out)
