"""The SPRT: its LLR against a brute-force second implementation, and its error rates by simulation."""

import math

import numpy as np
import pytest
from scipy.optimize import brentq, minimize

from framework.errors import ConfigError
from framework.sprt import NELO_PER_T, VALUES, Sprt, elo_to_score, wald_bounds


def brute_force_llr(counts, elo0, elo1, model, normalized):
    """The GSPRT by definition: maximise the likelihood over all distributions meeting each hypothesis
    with a general constrained optimiser (SLSQP), then N * sum phat ln(p1 / p0)."""
    a = np.array(VALUES[model])
    n = np.array([c if c > 0 else 1e-3 for c in counts], dtype=float)
    phat = n / n.sum()

    def constraint(elo):
        if normalized:
            t = elo / NELO_PER_T * (math.sqrt(2) if model == "pentanomial" else 1)

            def f(p):
                mu = p @ a
                return (mu - 0.5) - t * math.sqrt(p @ (a - mu) ** 2)
            return f
        s = elo_to_score(elo)
        return lambda p: p @ a - s

    def mle(elo):
        result = minimize(lambda p: -(phat @ np.log(p)), phat, method="SLSQP", bounds=[(1e-12, 1)] * len(a),
                          constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1},
                                       {"type": "eq", "fun": constraint(elo)}],
                          options={"ftol": 1e-15, "maxiter": 1000})
        assert result.success, result.message
        return result.x

    p0, p1 = mle(elo0), mle(elo1)
    return n.sum() * (phat @ (np.log(p1) - np.log(p0)))


CASES = [
    ([10, 200, 500, 210, 12], "pentanomial"),
    ([0, 31, 80, 40, 3], "pentanomial"),
    ([3, 0, 17, 0, 9], "pentanomial"),
    ([300, 400, 330], "trinomial"),
    ([12, 0, 25], "trinomial"),
]


@pytest.mark.parametrize("counts, model", CASES)
@pytest.mark.parametrize("normalized", [False, True])
def test_the_llr_matches_a_brute_force_maximum_likelihood(counts, model, normalized):
    elo0, elo1 = (0.0, 5.0) if not normalized else (0.0, 10.0)
    ours = Sprt(elo0, elo1, model=model, normalized=normalized).llr(counts)
    assert ours == pytest.approx(brute_force_llr(counts, elo0, elo1, model, normalized), rel=1e-4, abs=1e-6)


def test_wald_bounds_and_decisions():
    lower, upper = wald_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-2.944439, 2.944439), abs=1e-6)  # ln(0.05 / 0.95), ln(19)
    assert wald_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    test = Sprt(0, 5)
    assert test.state([0, 0, 0, 0, 0]).llr == 0 and test.state([0, 0, 0, 0, 0]).decision is None
    strong = test.state([0, 10, 100, 300, 200])
    assert strong.decision == "H1" and strong.llr >= upper
    assert test.state([200, 300, 100, 10, 0]).decision == "H0"
    assert strong.describe(test).endswith("[0, 5]: H1 accepted (Elo >= 5)")


def test_the_llr_is_near_the_quadratic_approximation_for_many_games():
    """For small Elo differences the GSPRT's LLR approaches N (s1 - s0)(2 s - s0 - s1) / (2 var)."""
    counts = [400, 3000, 6200, 3100, 420]
    a = np.array(VALUES["pentanomial"])
    p = np.array(counts) / sum(counts)
    s = p @ a
    var = p @ (a - s) ** 2
    s0, s1 = elo_to_score(0), elo_to_score(5)
    approximate = sum(counts) * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert Sprt(0, 5).llr(counts) == pytest.approx(approximate, rel=0.01)


def _outcomes(score, draw):
    return [1 - score - draw / 2, draw, score - draw / 2]  # loss, draw, win of one game


def _score_of_nelo(nelo, draw):
    def t(score):
        losses, d, w = _outcomes(score, draw)
        return (score - 0.5) / math.sqrt(w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + losses * score ** 2)
    return brentq(lambda s: t(s) * NELO_PER_T - nelo, 0.5 - 0.2, 0.5 + 0.2)


def _error_rate(test, score, wrong, runs, seed, draw=0.4, step=4):
    """The share of `runs` simulated matches (games independent with the given expected score and draw
    ratio, checked every `step` pairs or games) that ended in the `wrong` decision."""
    rng = np.random.default_rng(seed)
    probabilities = _outcomes(score, draw)
    errors = 0
    for _ in range(runs):
        counts = np.zeros(5 if test.model == "pentanomial" else 3, dtype=int)
        while True:
            games = rng.choice(3, size=(step, 2) if test.model == "pentanomial" else step, p=probabilities)
            np.add.at(counts, games.sum(axis=1) if test.model == "pentanomial" else games, 1)
            decision = test.state(counts.tolist()).decision
            if decision is not None:
                break
        errors += decision == wrong
    return errors / runs


def _slack(rate, runs):
    return rate + 3 * math.sqrt(rate * (1 - rate) / runs)  # three standard errors of the observed rate


@pytest.mark.slow
@pytest.mark.parametrize("model", ["pentanomial", "trinomial"])
def test_simulated_error_rates_stay_within_alpha_and_beta(model):
    test, runs = Sprt(0, 30, alpha=0.05, beta=0.1, model=model), 400
    assert _error_rate(test, elo_to_score(0), "H1", runs, seed=1) <= _slack(test.alpha, runs)
    assert _error_rate(test, elo_to_score(30), "H0", runs, seed=2) <= _slack(test.beta, runs)


def test_simulated_error_rates_of_normalized_elo():
    test, runs = Sprt(0, 60, normalized=True), 150
    assert _error_rate(test, 0.5, "H1", runs, seed=3, step=8) <= _slack(test.alpha, runs)
    assert _error_rate(test, _score_of_nelo(60, 0.4), "H0", runs, seed=4, step=8) <= _slack(test.beta, runs)


@pytest.mark.parametrize("kwargs, message", [
    ({"elo0": 0, "elo1": 5, "model": "binomial"}, "unknown SPRT model 'binomial'; expected one of pentanomial, "
                                                  "trinomial"),
    ({"elo0": 5, "elo1": 5}, "an SPRT needs elo0 < elo1, got elo0=5, elo1=5"),
    ({"elo0": 0, "elo1": 5, "alpha": 0.7}, "SPRT alpha must be between 0 and 0.5, got 0.7"),
    ({"elo0": 0, "elo1": 5, "beta": 0}, "SPRT beta must be between 0 and 0.5, got 0"),
])
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        Sprt(**kwargs)


def test_counts_must_fit_the_model():
    with pytest.raises(ConfigError, match=r"the pentanomial model takes 5 counts, got \[1, 2, 3\]"):
        Sprt(0, 5).llr([1, 2, 3])


def test_a_hypothesis_out_of_reach_is_refused():
    with pytest.raises(ConfigError, match="outside what the outcomes can score"):
        Sprt(0, 5000, normalized=True).llr([1, 2, 3, 4, 5])
