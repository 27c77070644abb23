"""Elo ratings from a Bradley-Terry maximum-likelihood fit, with 95% confidence intervals.

Model: player i scores against j with probability p_ij = g_i / (g_i + g_j); a draw counts as
half a win and half a loss. Elo = 400 log10(g), shifted so the field averages 0. The fit uses
the MM algorithm of Hunter (2004), "MM algorithms for generalized Bradley-Terry models",
Annals of Statistics 32(1): g_i <- W_i / sum_j n_ij / (g_i + g_j). Standard errors come from
the observed Fisher information at the optimum (its pseudo-inverse, as the ratings are only
determined up to a common shift).

The maximum-likelihood estimate exists only when every group of players scored at least
half a point against the rest (Ford 1957); an unbeaten player's rating would be infinite.
Then, as BayesElo does, each pair that met gets one virtual draw (`prior_draws`), and the
fit says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO_PER_NATURAL = 400 / math.log(10)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class RatingFit:
    """Elo (field mean 0) and its 95% half-width per player; `prior_draws` virtual draws were added per pair."""

    ids: tuple[str, ...]
    elo: np.ndarray
    ci95: np.ndarray
    prior_draws: float
    iterations: int


def _strongly_connected(wins: np.ndarray) -> bool:
    """True when every player can reach every other through 'scored against' edges, both ways."""
    edges = wins > 0
    for graph in (edges, edges.T):
        seen, frontier = {0}, [0]
        while frontier:
            i = frontier.pop()
            for j in np.flatnonzero(graph[i]):
                if j not in seen:
                    seen.add(int(j))
                    frontier.append(int(j))
        if len(seen) < len(edges):
            return False
    return True


def fit_elo(ids: list[str], points: np.ndarray, games: np.ndarray, *, tol: float = 1e-10,
            max_iterations: int = 100_000) -> RatingFit:
    """Fit ratings from `points[i, j]` (points i scored against j) and `games[i, j]` (games they played)."""
    points, games = np.asarray(points, float), np.asarray(games, float)
    prior = 0.0
    if not _strongly_connected(points):
        prior = 1.0
        met = games > 0
        points = points + 0.5 * prior * met
        games = games + prior * met
    wins = points.sum(axis=1)
    gamma = np.ones(len(ids))
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        denominator = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = wins / denominator
        new /= np.exp(np.log(new).mean())
        change = np.abs(np.log(new) - np.log(gamma)).max()
        gamma = new
        if change < tol:
            break
    theta = np.log(gamma)
    p = gamma[:, None] / (gamma[:, None] + gamma[None, :])
    info = -games * p * p.T
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    covariance = np.linalg.pinv(info)
    se = np.sqrt(np.clip(np.diag(covariance), 0, None))
    return RatingFit(tuple(ids), theta * ELO_PER_NATURAL, Z95 * se * ELO_PER_NATURAL, prior, iterations)


def score_to_elo(score: float) -> float:
    """The Elo difference that gives an expected score `score` (0 < score < 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no '-0' in tables
