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
from framework.gametheory.indifference import solve_batch, solve_exact_indifference
from framework.gametheory.normal_form import MixedEquilibrium, NormalFormGame

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
    y, v, ok_y = solve_batch(a, rows, cols)          # column strategy on J, row player's value
    x, u, ok_x = solve_batch(b.T, cols, rows)        # row strategy on I, column player's value
    ok = ok_y & ok_x.T
    ok &= (y > -TOLERANCE).all(axis=2) & (x > -TOLERANCE).all(axis=2).T
    # no pure strategy pays more than the value: rows against y, columns against x
    row_pay = np.einsum("mck,rck->rcm", a[:, cols], y)
    ok &= (row_pay <= v[..., None] + TOLERANCE).all(axis=2)
    col_pay = np.einsum("nrk,crk->crn", b.T[:, rows], x)
    ok &= (col_pay <= u[..., None] + TOLERANCE).all(axis=2).T
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(ok))]


def _verify(game: NormalFormGame, rows: tuple[int, ...], cols: tuple[int, ...]) -> MixedEquilibrium | None:
    """The exact equilibrium on supports (rows, cols), or None if the exact check fails.

    y on `cols` makes the row player indifferent over `rows` at value v, x on `rows` makes the
    column player indifferent over `cols` at value u; it is an equilibrium when x, y >= 0 and no
    pure strategy pays more than v (rows against y) or u (columns against x). Then x^T A y = v
    and x^T B y = u, the expected payoffs.
    """
    a, b = game.row_payoffs, game.column_payoffs
    solved_y = solve_exact_indifference(a, rows, cols)
    solved_x = solve_exact_indifference(tuple(zip(*b)), cols, rows)
    if solved_x is None or solved_y is None:
        return None
    (y, v), (x, u) = solved_y, solved_x
    if min(y.values()) < 0 or min(x.values()) < 0:
        return None
    if any(sum(a[i][j] * q for j, q in y.items()) > v for i in range(len(a))):
        return None
    if any(sum(b[i][j] * p for i, p in x.items()) > u for j in range(len(a[0]))):
        return None
    m, n = game.shape
    return MixedEquilibrium(tuple(x.get(i, Fraction(0)) for i in range(m)),
                            tuple(y.get(j, Fraction(0)) for j in range(n)), (v, u))
