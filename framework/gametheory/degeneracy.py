"""Is a bimatrix game degenerate? Found by exhibiting a witness, exactly.

A two-player game is *nondegenerate* when no mixed strategy with support of size k has more
than k pure best responses (von Stengel, "Equilibrium computation for two-player games in
strategic and extensive form", ch. 3 of *Algorithmic Game Theory*, 2007, Definition 3.2).
Only then does support enumeration find every equilibrium.

The search: for each player, support I of size k and set J of k opponent strategies, solve
"x on I makes the opponent indifferent over J" as a float batch, and look for a further opponent
strategy paying as much; candidates are re-solved exactly and kept only if x >= 0 and the k + 1
strategies are best responses. If any witness exists, one at a vertex of its polytope exists
too, where x is the unique solution of such a system, so this search is complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from framework.gametheory.indifference import solve_batch, solve_exact_indifference
from framework.gametheory.normal_form import Matrix, NormalFormGame, describe_mixed

TOLERANCE = 1e-7
_BATCH = 20_000


@dataclass(frozen=True)
class DegeneracyWitness:
    """A mixed strategy of `player` with more pure best responses (`responses`, opponent's indices) than its support."""

    player: int
    strategy: tuple[Fraction, ...]
    responses: tuple[int, ...]

    def describe(self, game: NormalFormGame) -> str:
        own, other = game.strategies[self.player], game.strategies[1 - self.player]
        support = [i for i, p in enumerate(self.strategy) if p]
        profile = describe_mixed(self.strategy, own)
        names = ", ".join(other[j] for j in self.responses)
        return (f"player {game.players[self.player]}'s strategy {profile} (support of size {len(support)}: "
                f"{', '.join(own[i] for i in support)}) has {len(self.responses)} pure best responses: {names}")


def degeneracy_witness(game: NormalFormGame) -> DegeneracyWitness | None:
    """A witness that `game` is degenerate, or None when it is nondegenerate."""
    a, b = game.payoff_arrays()
    scale = max(np.abs(a).max(), np.abs(b).max(), 1.0)
    # the row player's strategies against the column player's payoffs, and vice versa
    for player, payoffs, floats in ((0, game.column_payoffs, b / scale),
                                    (1, tuple(zip(*game.row_payoffs)), a.T / scale)):
        witness = _witness(player, payoffs, floats)
        if witness is not None:
            return witness
    return None


def _witness(player: int, p: Matrix, pf: np.ndarray) -> DegeneracyWitness | None:
    """A strategy x on k of the m own strategies (rows of p) with k + 1 or more best responses among the n columns.

    x is found from k of those best responses: it makes the opponent indifferent over them
    (`solve_batch`); any further column paying as much makes the witness. Some k of the
    responses determine x whenever all of them do (exchange lemma), so none is missed.
    """
    m, n = pf.shape  # p[i][j]: the opponent's payoff when the player plays i and the opponent j
    p_t = tuple(zip(*p))
    for k in range(1, min(m, n - 1) + 1):
        own = np.array(list(combinations(range(m), k)), dtype=np.intp)
        other = np.array(list(combinations(range(n), k)), dtype=np.intp)
        step = max(1, _BATCH // len(other))
        for start in range(0, len(own), step):
            rows = own[start:start + step]
            x, u, ok = solve_batch(pf.T, other, rows)                       # (c, r, k), (c, r)
            pay = np.einsum("rkn,crk->crn", pf[rows], x)                    # opponent's payoff of each column
            ok &= (x > -TOLERANCE).all(axis=2) & (pay <= u[..., None] + TOLERANCE).all(axis=2)
            ok &= (pay >= u[..., None] - TOLERANCE).sum(axis=2) > k
            for i, j in zip(*np.nonzero(ok.T)):  # the player's supports in order
                support, responses = tuple(rows[i]), tuple(other[j])
                for extra in np.nonzero(pay[j, i] >= u[j, i] - TOLERANCE)[0]:
                    if extra not in responses:
                        witness = _exact(player, p, p_t, support, tuple(sorted(responses + (int(extra),))), m)
                        if witness is not None:
                            return witness
    return None


def _exact(player: int, p: Matrix, p_t: Matrix, support: tuple[int, ...], responses: tuple[int, ...],
           m: int) -> DegeneracyWitness | None:
    solved = solve_exact_indifference(p_t, responses, support)
    if solved is None or min(solved[0].values()) < 0:
        return None
    x, value = solved
    payoffs = [sum((x[i] * p[i][j] for i in support), Fraction(0)) for j in range(len(p[0]))]
    if max(payoffs) != value:
        return None
    strategy = tuple(x.get(i, Fraction(0)) for i in range(m))
    return DegeneracyWitness(player, strategy, tuple(j for j, v in enumerate(payoffs) if v == value))
