"""Is a bimatrix game degenerate? Found by exhibiting a witness, exactly.

A two-player game is *nondegenerate* when no mixed strategy with support of size k has more
than k pure best responses (von Stengel, "Equilibrium computation for two-player games in
strategic and extensive form", ch. 3 of *Algorithmic Game Theory*, 2007, Definition 3.2).
Only then does support enumeration find every equilibrium.

The search: for each player, support I of size k and set J of k+1 opponent strategies, solve
"x on I makes the opponent indifferent over J" (k+2 equations, k+1 unknowns) as a float batch;
candidates are re-solved exactly and kept only if x >= 0 and J are best responses. If any
witness exists, one at a vertex of its polytope exists too, where that system has a unique
solution, so this search is complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from framework.gametheory.exact import solve_exact
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
    m, n = pf.shape  # m own strategies, n opponent strategies; p[i][j] is the opponent's payoff
    for k in range(1, min(m, n - 1) + 1):
        own = np.array(list(combinations(range(m), k)), dtype=np.intp)
        other = np.array(list(combinations(range(n), k + 1)), dtype=np.intp)
        step = max(1, _BATCH // len(other))
        for start in range(0, len(own), step):
            rows = own[start:start + step]
            sub = pf[rows[:, None, :, None], other[None, :, None, :]]        # (r, c, k, k+1)
            system = np.zeros(sub.shape[:2] + (k + 2, k + 1))
            system[..., :k + 1, :k] = np.swapaxes(sub, 2, 3)                  # equation per j in J
            system[..., :k + 1, k] = -1.0
            system[..., k + 1, :k] = 1.0
            rhs = np.zeros(k + 2)
            rhs[k + 1] = 1.0
            sol = np.einsum("rcij,j->rci", np.linalg.pinv(system), rhs)
            residual = np.abs(np.einsum("rcij,rcj->rci", system, sol) - rhs).max(axis=2)
            x, u = sol[..., :k], sol[..., k]
            pay = np.einsum("rkn,rck->rcn", pf[rows], x)
            ok = (residual < TOLERANCE) & (x > -TOLERANCE).all(axis=2) & (pay <= u[..., None] + TOLERANCE).all(axis=2)
            for i, j in zip(*np.nonzero(ok)):
                witness = _exact(player, p, tuple(rows[i]), tuple(other[j]), m)
                if witness is not None:
                    return witness
    return None


def _exact(player: int, p: Matrix, support: tuple[int, ...], responses: tuple[int, ...],
           m: int) -> DegeneracyWitness | None:
    k = len(support)
    equations = [[p[i][j] for i in support] + [Fraction(-1)] for j in responses] + [[Fraction(1)] * k + [Fraction(0)]]
    solution = solve_exact(equations, [Fraction(0)] * (k + 1) + [Fraction(1)])
    if solution is None or min(solution[:k]) < 0:
        return None
    x = dict(zip(support, solution[:k]))
    payoffs = [sum((x[i] * p[i][j] for i in support), Fraction(0)) for j in range(len(p[0]))]
    best = max(payoffs)
    if best != solution[k]:
        return None
    strategy = tuple(x.get(i, Fraction(0)) for i in range(m))
    return DegeneracyWitness(player, strategy, tuple(j for j, v in enumerate(payoffs) if v == best))
