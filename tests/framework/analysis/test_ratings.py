"""Elo from the Bradley-Terry fit and pentanomial pair statistics, checked against closed forms."""

import math

import numpy as np
import pytest

from framework.analysis.pairs import pair_stats, pentanomial
from framework.analysis.ratings import fit_elo


@pytest.mark.parametrize("wins, draws, losses", [(6, 0, 2), (3, 4, 1), (1, 1, 8)])
def test_two_players_match_the_closed_form(wins, draws, losses):
    n = wins + draws + losses
    p = (wins + draws / 2) / n
    fit = fit_elo(["a", "b"], np.array([[0, p * n], [(1 - p) * n, 0]]), np.array([[0, n], [n, 0]]))
    assert fit.elo[0] - fit.elo[1] == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)
    assert fit.elo[0] + fit.elo[1] == pytest.approx(0, abs=1e-9)
    # Fisher information of the log-odds difference is n p (1 - p); each rating carries half of it.
    half_width = 1.959963984540054 * 400 / math.log(10) / math.sqrt(n * p * (1 - p)) / 2
    assert fit.ci95 == pytest.approx([half_width, half_width], rel=1e-6)
    assert fit.prior_draws == 0


def test_three_players_satisfy_the_likelihood_equations():
    # At the maximum, each player's expected score equals its actual score (Zermelo 1929).
    points = np.array([[0, 7, 5.5], [3, 0, 6], [2.5, 4, 0]])
    games = np.array([[0, 10, 8], [10, 0, 10], [8, 10, 0]])
    fit = fit_elo(["a", "b", "c"], points, games)
    gamma = 10 ** (fit.elo / 400)
    expected = (games * gamma[:, None] / (gamma[:, None] + gamma[None, :])).sum(axis=1)
    assert expected == pytest.approx(points.sum(axis=1), abs=1e-7)
    assert list(np.argsort(-fit.elo)) == [0, 1, 2]


def test_an_unbeaten_player_gets_a_finite_rating_from_one_virtual_draw_per_pair():
    fit = fit_elo(["a", "b"], np.array([[4.0, 4.0], [0.0, 0.0]]) * [[0, 1], [1, 0]], np.array([[0, 4], [4, 0]]))
    # 4 wins plus one virtual draw: score 4.5 of 5.
    assert fit.prior_draws == 1
    assert fit.elo[0] - fit.elo[1] == pytest.approx(400 * math.log10(4.5 / 0.5), abs=1e-6)


def test_pentanomial_counts_pair_scores():
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == (1, 1, 2, 1, 3)


def test_pentanomial_statistics_by_hand():
    stats = pair_stats((0, 1, 2, 4, 3))
    score = (0.25 * 1 + 0.5 * 2 + 0.75 * 4 + 1.0 * 3) / 10
    variance = (1 * (0.25 - score) ** 2 + 2 * (0.5 - score) ** 2 + 4 * (0.75 - score) ** 2
                + 3 * (1 - score) ** 2) / 10
    assert stats.pairs == 10 and stats.score == pytest.approx(0.725)
    assert stats.elo == pytest.approx(400 * math.log10(0.725 / 0.275))
    half = 1.959963984540054 * math.sqrt(variance / 10)

    def elo(s):
        return 400 * math.log10(s / (1 - s))

    assert stats.elo_error == pytest.approx((elo(score + half) - elo(score - half)) / 2)
    assert stats.nelo == pytest.approx((score - 0.5) / math.sqrt(2 * variance) * 800 / math.log(10))
    assert stats.los == pytest.approx(0.5 * math.erfc(-(score - 0.5) / math.sqrt(variance / 10) / math.sqrt(2)))


def test_pentanomial_of_an_even_match_and_a_whitewash():
    even = pair_stats((1, 2, 3, 2, 1))
    assert even.score == 0.5 and even.elo == 0 and even.los == pytest.approx(0.5)
    whitewash = pair_stats((0, 0, 0, 0, 5))
    assert whitewash.elo == math.inf and whitewash.los == 1.0
