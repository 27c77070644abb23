"""Exact rational arithmetic for game theory: reading payoffs as fractions and solving linear systems.

Payoffs are kept as `fractions.Fraction` so equilibria of games with rational payoffs are
reported exactly (the thesis' 2/3 is 2/3, not 0.6666666666666666). Floats are read by their
shortest decimal form (`0.1` is 1/10), which is what a person typing the number meant.
Fast float algorithms (support enumeration, linear programming) find candidates; the helpers
here verify and rationalise them.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction

from framework.errors import ConfigError


def to_fraction(value: object, where: str) -> Fraction:
    """`value` (int, float, Fraction, numpy number or text such as '2/3' or '-1.5') as an exact Fraction.

    Raises ConfigError naming `where` for anything else (booleans, None, words, NaN, infinity).
    """
    if isinstance(value, bool) or value is None:
        raise ConfigError(f"{where}: {value!r} is not a number; expected an integer, decimal or fraction like 2/3")
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):
        if not math.isfinite(float(value)):
            raise ConfigError(f"{where}: {value!r} is not a finite number")
        return Fraction(repr(float(value)))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise ConfigError(f"{where}: {value!r} is not a number; expected an integer, decimal or fraction like 2/3")


def solve_exact(rows: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> tuple[Fraction, ...] | None:
    """The unique solution of the (possibly overdetermined) system `rows @ z = rhs`, or None.

    None when the system is inconsistent or its solution is not unique (rank below the number
    of unknowns). Gauss-Jordan elimination over the rationals, so the answer is exact.
    """
    n = len(rows[0])
    m = [list(row) + [b] for row, b in zip(rows, rhs)]
    pivot_row = 0
    for col in range(n):
        pivot = next((r for r in range(pivot_row, len(m)) if m[r][col] != 0), None)
        if pivot is None:
            return None  # a free variable: no unique solution
        m[pivot_row], m[pivot] = m[pivot], m[pivot_row]
        lead = m[pivot_row]
        inv = 1 / lead[col]
        for k in range(col, n + 1):
            lead[k] *= inv
        for r, row in enumerate(m):
            if r != pivot_row and row[col] != 0:
                factor = row[col]
                for k in range(col, n + 1):
                    row[k] -= factor * lead[k]
        pivot_row += 1
    if any(row[n] != 0 for row in m[pivot_row:]):
        return None  # the extra equations contradict the solution
    return tuple(m[i][n] for i in range(n))


def format_number(value: Fraction | float) -> str:
    """A Fraction as '2/3' or '-1', a float with up to 6 significant digits."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return f"{value:.6g}"
