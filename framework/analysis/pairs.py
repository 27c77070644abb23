"""Pentanomial statistics of colour-swapped game pairs, as fastchess reports them.

Two games from the same start with colours swapped form a pair; the pair's score for the
row player is 0, 0.5, 1, 1.5 or 2, counted as Ptnml(0-2) = [LL, LD, DD+WL, WD, WW]. Pairs
cancel most of the colour and opening bias, so the variance is computed over pairs
(fastchess, src/matchmaking/elo/elo_pentanomial.cpp): score = mean pair score / 2,
variance over pairs, the 95% interval of the score mapped through the Elo curve, and
normalised Elo nElo = (score - 0.5) / sqrt(2 variance) * 800 / ln 10.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from framework.analysis.ratings import Z95, score_to_elo


@dataclass(frozen=True)
class PairStats:
    """Pentanomial counts of one player against one opponent and what they imply."""

    ptnml: tuple[int, int, int, int, int]
    score: float
    elo: float
    elo_error: float
    nelo: float
    los: float

    @property
    def pairs(self) -> int:
        return sum(self.ptnml)


def pentanomial(pair_points: list[float]) -> tuple[int, int, int, int, int]:
    """Counts of pair scores 0, 0.5, 1, 1.5, 2."""
    counts = [0] * 5
    for points in pair_points:
        counts[round(points * 2)] += 1
    zero, half, one, one_half, two = counts
    return zero, half, one, one_half, two


def pair_stats(ptnml: tuple[int, int, int, int, int]) -> PairStats:
    """Score, Elo with its 95% error, nElo and likelihood of superiority from pentanomial counts."""
    pairs = sum(ptnml)
    values = (0.0, 0.25, 0.5, 0.75, 1.0)
    score = sum(v * n for v, n in zip(values, ptnml)) / pairs
    variance = sum(n * (v - score) ** 2 for v, n in zip(values, ptnml)) / pairs
    half = Z95 * math.sqrt(variance / pairs)
    if 0 < score - half and score + half < 1:
        elo, error = score_to_elo(score), (score_to_elo(score + half) - score_to_elo(score - half)) / 2
    elif 0 < score < 1:
        elo, error = score_to_elo(score), math.inf
    else:
        elo, error = math.copysign(math.inf, score - 0.5), math.inf
    if variance > 0:
        nelo = (score - 0.5) / math.sqrt(2 * variance) * 800 / math.log(10)
        los = 0.5 * math.erfc(-(score - 0.5) / math.sqrt(variance / pairs) / math.sqrt(2))
    else:
        nelo = 0.0 if score == 0.5 else math.copysign(math.inf, score - 0.5)
        los = 0.5 if score == 0.5 else float(score > 0.5)
    return PairStats(ptnml, score, elo, error, nelo, los)
