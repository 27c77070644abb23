"""Maxmin and minmax strategies and values by linear programming.

Shoham & Leyton-Brown, *Multiagent Systems* (2009), §3.4.1: player i's *maxmin* strategy
maximises the payoff i can guarantee whatever the other does; the *minmax* strategy against i
is the other player's strategy that holds i down to the least i can then get. For player i's
payoff matrix U (rows: i's strategies):

    maxmin:  max v  s.t.  x^T U >= v 1,  sum x = 1,  x >= 0
    minmax:  min w  s.t.  U y <= w 1,    sum y = 1,  y >= 0

By the minimax theorem (von Neumann, 1928) v = w. scipy's HiGHS solves the
LPs in floats; the solution is then rationalised exactly from its support and tight
constraints and checked exactly, so when both checks pass the value is proven, a Fraction.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from framework.gametheory.exact import solve_exact
from framework.gametheory.normal_form import Matrix, NormalFormGame

TOLERANCE = 1e-9


@dataclass(frozen=True)
class Security:
    """Player `player`'s maxmin value, their maxmin strategy, and the opponent's minmax strategy against them.

    `exact` is True when the value and both strategies were verified over the rationals (all
    numbers are then Fractions); otherwise they are the LP's floats.
    """

    player: int
    value: Fraction | float
    maxmin_strategy: tuple[Fraction | float, ...]
    minmax_strategy: tuple[Fraction | float, ...]
    exact: bool


def security(game: NormalFormGame, player: int) -> Security:
    """Maxmin value and strategy of `player`, and the opponent's minmax strategy against `player`."""
    own = game.row_payoffs if player == 0 else tuple(zip(*game.column_payoffs))  # rows: player's strategies
    u = np.array(own, dtype=float)
    x, v = _maxmin_lp(u)
    y, w = _maxmin_lp(-u.T)  # the opponent minimising the player's payoff is maxmin of -U^T
    exact_x = _rationalise(own, x, maximise=True)
    exact_y = _rationalise(tuple(zip(*own)), y, maximise=False)
    if exact_x is not None and exact_y is not None and exact_x[1] == exact_y[1]:
        return Security(player, exact_x[1], exact_x[0], exact_y[0], True)
    return Security(player, float(v), tuple(map(float, x)), tuple(map(float, y)), False)


def _maxmin_lp(u: np.ndarray) -> tuple[np.ndarray, float]:
    """Float maxmin strategy and value of the row chooser of `u`: variables (x_1..x_m, v), minimise -v."""
    m, n = u.shape
    cost = np.zeros(m + 1)
    cost[m] = -1.0
    upper = np.hstack([-u.T, np.ones((n, 1))])          # v - x^T U[:, j] <= 0
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    from scipy.optimize import linprog  # imported here: scipy costs ~0.5 s at every CLI start otherwise

    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    return result.x[:m], float(result.x[m])


def _rationalise(u: Matrix, x: np.ndarray, maximise: bool) -> tuple[tuple[Fraction, ...], Fraction] | None:
    """Exact (strategy, guaranteed value) from a float LP solution, or None when the check fails.

    With `maximise`, x (over the rows of u) guarantees at least the value against every column;
    otherwise x (over the columns of u, as rows of its transpose given here) concedes at most it.
    """
    m, n = len(u), len(u[0])
    support = [i for i in range(m) if x[i] > TOLERANCE]
    pay = np.array(u, dtype=float)[support].T @ x[support]
    value = pay.min() if maximise else pay.max()
    tight = [j for j in range(n) if abs(pay[j] - value) <= 1e-7 * max(1.0, abs(value))]
    k = len(support)
    equations = [[u[i][j] for i in support] + [Fraction(-1)] for j in tight] + [[Fraction(1)] * k + [Fraction(0)]]
    solution = solve_exact(equations, [Fraction(0)] * len(tight) + [Fraction(1)])
    if solution is None or min(solution[:k]) < 0:
        return None
    exact = dict(zip(support, solution[:k]))
    strategy = tuple(exact.get(i, Fraction(0)) for i in range(m))
    payoffs = [sum((strategy[i] * u[i][j] for i in support), Fraction(0)) for j in range(n)]
    guaranteed = min(payoffs) if maximise else max(payoffs)
    return (strategy, guaranteed) if guaranteed == solution[k] else None
