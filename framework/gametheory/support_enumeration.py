"""All Nash equilibria of a nondegenerate bimatrix game by support enumeration.

Algorithm 3.4 of Nisan, Roughgarden, Tardos & Vazirani, *Algorithmic Game Theory* (2007),
ch. 3 (von Stengel): in a nondegenerate game every equilibrium has supports I, J of equal size
k, and is the unique solution of the indifference equations on them. For each k and each pair
(I, J): solve for y on J making the row player indifferent over I, and for x on I making the
column player indifferent over J; keep the pair when x, y are probability vectors and no pure
strategy outside the supports pays more.

Speed: all support pairs of one size are solved at once as a batch of float systems with numpy;
only the pairs that pass (with a loose tolerance) are solved again exactly over the rationals
and verified exactly, so the reported equilibria are exact and a rounding error can neither add
nor drop one in a nondegenerate game. In a degenerate game equilibria can have supports of
unequal size or come in continua, so support enumeration may miss some: `mixed_equilibria`
then reports a concrete witness of the degeneracy (see `framework.gametheory.degeneracy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from framework.gametheory.degeneracy import DegeneracyWitness, degeneracy_witness
from framework.gametheory.exact import solve_exact
from framework.gametheory.normal_form import Matrix, MixedEquilibrium, NormalFormGame

TOLERANCE = 1e-7  # float filter only; exact verification decides
_BATCH = 20_000   # support pairs solved per numpy call, bounding memory


@dataclass(frozen=True)
class EnumerationResult:
    """The equilibria support enumeration found, and why the list may be incomplete (degeneracy)."""

    equilibria: tuple[MixedEquilibrium, ...]
    degenerate: DegeneracyWitness | None

    @property
    def complete(self) -> bool:
        """True when the game is nondegenerate, so `equilibria` is every Nash equilibrium."""
        return self.degenerate is None


def mixed_equilibria(game: NormalFormGame, check_degeneracy: bool = True) -> EnumerationResult:
    """All equilibria with equal-size supports, exact, in order of support size then supports.

    With `check_degeneracy` the game is also tested for degeneracy; when degenerate, the
    result says so with a witness and the list may miss equilibria.
    """
    a, b = game.payoff_arrays()
    scale = max(np.abs(a).max(), np.abs(b).max(), 1.0)
    a, b = a / scale, b / scale
    m, n = game.shape
    found: list[MixedEquilibrium] = []
    seen: set[tuple] = set()
    for k in range(1, min(m, n) + 1):
        rows = np.array(list(combinations(range(m), k)), dtype=np.intp)
        cols = np.array(list(combinations(range(n), k)), dtype=np.intp)
        step = max(1, _BATCH // len(cols))
        for start in range(0, len(rows), step):
            for i, j in _candidates(a, b, rows[start:start + step], cols):
                eq = _verify(game, tuple(rows[start + i]), tuple(cols[j]))
                if eq is not None and (eq.row, eq.column) not in seen:
                    seen.add((eq.row, eq.column))
                    found.append(eq)
    witness = degeneracy_witness(game) if check_degeneracy else None
    return EnumerationResult(tuple(found), witness)


def _candidates(a: np.ndarray, b: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> list[tuple[int, int]]:
    """Index pairs (into rows, cols) whose float indifference solutions look like equilibria."""
    y, v, ok_y = _indifference(a, rows, cols)          # column strategy on J, row player's value
    x, u, ok_x = _indifference(b.T, cols, rows)        # row strategy on I, column player's value
    ok = ok_y & ok_x.T
    ok &= (y > -TOLERANCE).all(axis=2) & (x > -TOLERANCE).all(axis=2).T
    # no pure strategy pays more than the value: rows against y, columns against x
    row_pay = np.einsum("mck,rck->rcm", a[:, cols], y)
    ok &= (row_pay <= v[..., None] + TOLERANCE).all(axis=2)
    col_pay = np.einsum("nrk,crk->crn", b.T[:, rows], x)
    ok &= (col_pay <= u[..., None] + TOLERANCE).all(axis=2).T
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(ok))]


def _indifference(p: np.ndarray, own: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Batch-solve, for every (I in own, J in other), for z on J with p[I, J] z = w 1 and sum z = 1.

    Returns z (|own|, |other|, k), w (|own|, |other|) and a mask of the non-singular systems.
    """
    k = own.shape[1]
    sub = p[own[:, None, :, None], other[None, :, None, :]]          # (r, c, k, k)
    system = np.zeros(sub.shape[:2] + (k + 1, k + 1))
    system[..., :k, :k] = sub
    system[..., :k, k] = -1.0
    system[..., k, :k] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    flat = system.reshape(-1, k + 1, k + 1)
    ok = np.ones(len(flat), dtype=bool)
    try:
        sol = np.linalg.solve(flat, np.broadcast_to(rhs, (len(flat), k + 1))[..., None])[..., 0]
    except np.linalg.LinAlgError:  # some support pair has a singular system: solve the others
        ok = np.linalg.matrix_rank(flat) == k + 1
        sol = np.zeros((len(flat), k + 1))
        if ok.any():
            sol[ok] = np.linalg.solve(flat[ok], np.broadcast_to(rhs, (int(ok.sum()), k + 1))[..., None])[..., 0]
    shape = sub.shape[:2]
    return sol[:, :k].reshape(shape + (k,)), sol[:, k].reshape(shape), ok.reshape(shape)


def _verify(game: NormalFormGame, rows: tuple[int, ...], cols: tuple[int, ...]) -> MixedEquilibrium | None:
    """The exact equilibrium on supports (rows, cols), or None if the exact check fails."""
    m, n = game.shape
    y = _exact_indifference(game.row_payoffs, rows, cols)
    x = _exact_indifference(tuple(zip(*game.column_payoffs)), cols, rows)
    if x is None or y is None:
        return None
    row = tuple(x.get(i, Fraction(0)) for i in range(m))
    column = tuple(y.get(j, Fraction(0)) for j in range(n))
    if min(row) < 0 or min(column) < 0 or not game.is_equilibrium(row, column):
        return None
    return MixedEquilibrium(row, column, game.expected_payoffs(row, column))


def _exact_indifference(p: Matrix, own: tuple[int, ...], other: tuple[int, ...]) -> dict[int, Fraction] | None:
    k = len(own)
    equations = [[p[i][j] for j in other] + [Fraction(-1)] for i in own] + [[Fraction(1)] * k + [Fraction(0)]]
    solution = solve_exact(equations, [Fraction(0)] * k + [Fraction(1)])
    return None if solution is None else dict(zip(other, solution[:k]))
