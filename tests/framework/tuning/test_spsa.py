"""SPSA's gains, draws and update, against fishtest's formulas computed by hand."""

import math

from framework.tournament.tune import TunedParam
from framework.tuning.spsa import ALPHA, GAMMA, Spsa

KING = TunedParam("king", start=100.0, min=50.0, max=400.0, c_end=20.0, r_end=0.002, integer=False)
DEPTH = TunedParam("depth", start=3.0, min=1.0, max=8.0, c_end=1.0, r_end=0.01, integer=True)


def test_the_gains_reach_c_end_and_r_end_at_the_last_iteration():
    spsa = Spsa([KING], 500, seed=1)
    assert spsa.big_a == 50
    assert math.isclose(spsa.c(KING, 499), 20.0) and math.isclose(spsa.r(KING, 499), 0.002)
    # iteration 0: c = c_end N^γ, R = a / (A + 1)^α / c², a = r_end c_end² (A + N)^α (fishtest's parse_spsa_params)
    c0 = 20.0 * 500 ** GAMMA
    assert math.isclose(spsa.c(KING, 0), c0)
    assert math.isclose(spsa.r(KING, 0), 0.002 * 20.0 ** 2 * 550 ** ALPHA / 51 ** ALPHA / c0 ** 2)


def test_flips_are_seeded_rademacher_draws():
    spsa = Spsa([KING, DEPTH], 100, seed=7)
    flips = [spsa.flips(k) for k in range(400)]
    assert flips == [Spsa([KING, DEPTH], 100, seed=7).flips(k) for k in range(400)]
    assert flips != [Spsa([KING, DEPTH], 100, seed=8).flips(k) for k in range(400)]
    values = [f for pair in flips for f in pair]
    assert set(values) == {-1, 1} and abs(sum(values)) < 0.1 * len(values)


def test_probes_are_clamped_and_integers_rounded_stochastically():
    spsa = Spsa([KING, DEPTH], 100, seed=3)
    probe = spsa.probe({"king": 55.0, "depth": 3.3}, 0)
    low = probe.plus if spsa.flips(0)[0] < 0 else probe.minus
    assert low["king"] == 50.0   # 55 - c_0 (about 32) is below min
    real = [3.3 + spsa.c(DEPTH, k) * spsa.flips(k)[1] for k in range(2000)]   # inside [1, 8]: no clamping
    rounded = [spsa.probe({"king": 100.0, "depth": 3.3}, k).plus["depth"] for k in range(2000)]
    assert all(r == int(r) for r in rounded)
    # floor(v + u) has the mean v: the rounded probes average the real-valued ones
    assert abs(sum(rounded) / len(rounded) - sum(real) / len(real)) < 0.05


def test_the_update_moves_theta_by_r_c_result_flip_and_clamps():
    spsa = Spsa([KING], 500, seed=1)
    flip = spsa.flips(10)[0]
    moved = spsa.update({"king": 100.0}, 10, 2.0)["king"]
    assert math.isclose(moved, 100.0 + spsa.r(KING, 10) * spsa.c(KING, 10) * 2.0 * flip)
    assert spsa.update({"king": 100.0}, 10, 0.0) == {"king": 100.0}
    far = Spsa([KING], 5, seed=1)
    assert far.update({"king": 400.0}, 0, 1e9 * far.flips(0)[0])["king"] == 400.0
