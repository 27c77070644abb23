"""Security values by LP against exact equilibrium values, and dominance in its three strengths."""

from fractions import Fraction as F

import numpy as np

from framework.gametheory import maxmin
from framework.gametheory.dominance import (
    Dominance,
    dominant_strategy,
    dominant_strategy_equilibrium,
    dominates,
    iterated_elimination,
)
from framework.gametheory.maxmin import security
from framework.gametheory.normal_form import NormalFormGame
from framework.gametheory.support_enumeration import mixed_equilibria


def test_maxmin_value_of_random_zero_sum_games_equals_their_exact_equilibrium_value():
    rng = np.random.default_rng(3)
    for _ in range(40):
        m, n = rng.integers(2, 6, size=2)
        a = rng.integers(-9, 10, (m, n))
        game = NormalFormGame.from_matrices(a, -a)
        s0, s1 = security(game, 0), security(game, 1)
        assert s0.exact and s1.exact
        # the minimax theorem: the row player's maxmin value is the game value, the column player's its negative
        assert s0.value == -s1.value
        assert max(game.pure_payoffs(1, s0.maxmin_strategy)) == -s0.value  # x guarantees the value exactly
        assert max(game.pure_payoffs(0, s0.minmax_strategy)) == s0.value   # y concedes no more
        equilibria = mixed_equilibria(game, check_degeneracy=False).equilibria
        assert all(e.payoffs[0] == s0.value for e in equilibria)  # every equilibrium pays the value


def test_battle_of_the_sexes_maxmin_is_two_thirds_for_both(example):
    game = example("battle-of-the-sexes")
    wife, husband = security(game, 0), security(game, 1)
    assert (wife.value, wife.maxmin_strategy, wife.minmax_strategy) == (F(2, 3), (F(1, 3), F(2, 3)), (F(1, 3), F(2, 3)))
    assert (husband.value, husband.maxmin_strategy) == (F(2, 3), (F(2, 3), F(1, 3)))


def test_an_lp_solution_that_cannot_be_rationalised_is_reported_as_floats(monkeypatch):
    game = NormalFormGame.from_matrices([[1, 1], [1, 1]], [[0, 0], [0, 0]])
    # every strategy is optimal here; an interior LP answer leaves the exact system without a unique solution
    monkeypatch.setattr(maxmin, "_maxmin_lp", lambda u: (np.full(u.shape[0], 1 / u.shape[0]), float(u.mean())))
    s = security(game, 0)
    assert not s.exact and s.value == 1.0 and s.maxmin_strategy == (0.5, 0.5)


def test_the_three_dominance_strengths():
    assert dominates([F(2), F(3)], [F(1), F(2)], Dominance.STRICT)
    assert not dominates([F(2), F(2)], [F(1), F(2)], Dominance.STRICT)
    assert dominates([F(2), F(2)], [F(1), F(2)], Dominance.WEAK)
    assert not dominates([F(1), F(2)], [F(1), F(2)], Dominance.WEAK)
    assert dominates([F(1), F(2)], [F(1), F(2)], Dominance.VERY_WEAK)
    assert not dominates([F(0), F(3)], [F(1), F(2)], Dominance.VERY_WEAK)


def test_weak_elimination_removes_what_strict_cannot_and_very_weak_removes_duplicates():
    # row T weakly dominates B (equal against L, better against R); rows T and M are identical
    game = NormalFormGame.from_matrices([[1, 1], [1, 1], [1, 0]], [[0, 1], [0, 1], [0, 1]],
                                        strategies=[["T", "M", "B"], ["L", "R"]])
    strict, alive = iterated_elimination(game, Dominance.STRICT)
    # L < R for the column player; once L is gone, B (0) is strictly worse than T (1)
    assert [(s.player, s.strategy, s.dominated_by) for s in strict] == [(1, 0, 1), (0, 2, 0)]
    assert alive == ([0, 1], [1])
    weak, alive = iterated_elimination(game, Dominance.WEAK)
    assert [(s.player, s.strategy, s.dominated_by) for s in weak] == [(0, 2, 0), (1, 0, 1)]
    assert alive == ([0, 1], [1])
    very_weak, alive = iterated_elimination(game, Dominance.VERY_WEAK)
    # T and M dominate each other very weakly: the first found (T, by M) goes, the other stays
    assert [(s.player, s.strategy, s.dominated_by) for s in very_weak] == [(0, 0, 1), (0, 2, 1), (1, 0, 1)]
    assert alive == ([1], [1])


def test_dominant_strategies_exist_only_when_one_strategy_beats_every_other(example):
    bos = example("battle-of-the-sexes")
    assert dominant_strategy(bos, 0) is None and dominant_strategy_equilibrium(bos) is None
    pd = example("prisoners-dilemma")
    assert dominant_strategy(pd, 1, Dominance.WEAK) == 1
