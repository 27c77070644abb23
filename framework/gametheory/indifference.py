"""Indifference systems: the mixed strategy that makes the opponent indifferent among a set of their strategies.

For supports I (the strategies to be made indifferent) and J (where the mixed strategy z lives):
p[i] . z = w for every i in I, sum z = 1 (Nisan et al., *Algorithmic Game Theory*, 2007, §3.3).
Support enumeration and the degeneracy check both solve it: many at once in floats with numpy to
find candidates, then the few candidates again exactly over the rationals.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from framework.gametheory.exact import solve_exact
from framework.gametheory.normal_form import Matrix


def solve_batch(p: np.ndarray, own: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Float solutions for every (I in own, J in other), |I| = |J| = k: z on J with p[I, J] z = w 1, sum z = 1.

    Returns z (|own|, |other|, k), w (|own|, |other|) and a mask of the non-singular systems.
    """
    k = own.shape[1]
    sub = p[own[:, None, :, None], other[None, :, None, :]]          # (r, c, k, k)
    system = np.zeros(sub.shape[:2] + (k + 1, k + 1))
    system[..., :k, :k] = sub
    system[..., :k, k] = -1.0
    system[..., k, :k] = 1.0
    flat = system.reshape(-1, k + 1, k + 1)
    rhs = np.zeros((len(flat), k + 1, 1))
    rhs[:, k] = 1.0
    ok = np.ones(len(flat), dtype=bool)
    try:
        sol = np.linalg.solve(flat, rhs)[..., 0]
    except np.linalg.LinAlgError:  # some pair has a singular system: solve the others
        ok = np.linalg.matrix_rank(flat) == k + 1
        sol = np.zeros((len(flat), k + 1))
        if ok.any():
            sol[ok] = np.linalg.solve(flat[ok], rhs[ok])[..., 0]
    shape = sub.shape[:2]
    return sol[:, :k].reshape(shape + (k,)), sol[:, k].reshape(shape), ok.reshape(shape)


def solve_exact_indifference(p: Matrix, own: tuple[int, ...],
                             other: tuple[int, ...]) -> tuple[dict[int, Fraction], Fraction] | None:
    """Exact (z on `other`, w) with p[i] . z = w for every i in `own` and sum z = 1, or None.

    `own` may be larger than `other` (an overdetermined system): None unless it is consistent
    with a unique solution.
    """
    k = len(other)
    equations = [[p[i][j] for j in other] + [Fraction(-1)] for i in own] + [[Fraction(1)] * k + [Fraction(0)]]
    solution = solve_exact(equations, [Fraction(0)] * len(own) + [Fraction(1)])
    return None if solution is None else (dict(zip(other, solution[:k])), solution[k])
