"""Support enumeration against nashpy, and honest reporting on degenerate games."""

from fractions import Fraction as F

import numpy as np
import pytest

from framework.gametheory.degeneracy import degeneracy_witness
from framework.gametheory.normal_form import NormalFormGame
from framework.gametheory.support_enumeration import mixed_equilibria

nashpy = pytest.importorskip("nashpy")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:nashpy")  # its "even number: degenerate?" hint

# nashpy is asked for ALL support pairs (non_degenerate=False: unequal sizes too, so it also proves we
# miss nothing) with tolerance 1e-9 (its default 1e-16 is below float rounding).
NASHPY_TOL = 1e-9


def as_float_set(equilibria):
    return [np.concatenate([np.array(x, dtype=float), np.array(y, dtype=float)]) for x, y in equilibria]


def same_sets(ours, theirs, tol=1e-8):
    if len(ours) != len(theirs):
        return False
    return all(any(np.allclose(a, b, atol=tol) for b in theirs) for a in ours) and \
        all(any(np.allclose(a, b, atol=tol) for a in ours) for b in theirs)


def random_games(count, seed, low=2, high=5):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m, n = rng.integers(low, high + 1, size=2)
        yield rng.random((m, n)), rng.random((m, n))


def nashpy_support_enumeration(a, b):
    return [np.concatenate(eq) for eq in nashpy.Game(a, b).support_enumeration(non_degenerate=False, tol=NASHPY_TOL)]


def test_equilibria_of_300_random_games_up_to_5x5_are_exactly_nashpys():
    """Equal to nashpy's support enumeration, or, where that drops one, to nashpy's vertex enumeration.

    nashpy's support enumeration drops a real equilibrium when a probability it solves for comes out
    as -1e-17 instead of 0 (it requires `prob >= 0` exactly, whatever the tolerance). How many of these
    300 games that hits depends on the CPU and the BLAS build (7 with OpenBLAS's Haswell kernels, 11 with
    SkylakeX's), so no count is asserted: every game must match one of nashpy's two algorithms exactly,
    nashpy's support enumeration must never find an equilibrium we miss, and it must agree with us on
    most games (else the comparison would prove nothing).
    """
    rounding_misses = 0
    for a, b in random_games(300, seed=7):
        result = mixed_equilibria(NormalFormGame.from_matrices(a, b))
        assert result.complete  # random real payoffs are nondegenerate with probability 1
        assert len(result.equilibria) % 2 == 1  # nondegenerate games have an odd number of equilibria
        ours = as_float_set((e.row, e.column) for e in result.equilibria)
        theirs = nashpy_support_enumeration(a, b)
        if not same_sets(ours, theirs):
            rounding_misses += 1
            assert all(any(np.allclose(t, o, atol=1e-8) for o in ours) for t in theirs)  # nothing extra
            assert same_sets(ours, [np.concatenate(eq) for eq in nashpy.Game(a, b).vertex_enumeration()]), (a, b)
    assert rounding_misses < 30


def test_equilibria_are_exact_and_verified_exactly():
    a, b = next(random_games(1, seed=3, low=4, high=4))
    game = NormalFormGame.from_matrices(a, b)
    for eq in mixed_equilibria(game).equilibria:
        assert all(isinstance(p, F) for p in eq.row + eq.column) and sum(eq.row) == sum(eq.column) == 1
        assert game.is_equilibrium(eq.row, eq.column)
        assert game.expected_payoffs(eq.row, eq.column) == eq.payoffs


def test_small_integer_games_are_either_flagged_degenerate_or_have_an_odd_number_of_equilibria_all_found():
    rng = np.random.default_rng(11)
    flagged = 0
    for _ in range(150):
        m, n = rng.integers(2, 4, size=2)
        a, b = rng.integers(0, 4, (m, n)), rng.integers(0, 4, (m, n))
        game = NormalFormGame.from_matrices(a, b)
        result = mixed_equilibria(game)
        for eq in result.equilibria:
            assert game.is_equilibrium(eq.row, eq.column)
        if result.degenerate is not None:
            flagged += 1
            w = result.degenerate
            opponent_strategy = w.strategy
            assert len(game.best_responses(1 - w.player, opponent_strategy)) > sum(1 for p in w.strategy if p)
            continue
        # nondegenerate: nashpy over ALL support pairs (unequal sizes too) finds nothing more; where its
        # exact `prob >= 0` drops one to rounding (CPU-dependent, as above), vertex enumeration decides
        ours = as_float_set((e.row, e.column) for e in result.equilibria)
        if not same_sets(ours, nashpy_support_enumeration(a, b)):
            assert same_sets(ours, [np.concatenate(eq) for eq in nashpy.Game(a, b).vertex_enumeration()]), (a, b)
        assert len(result.equilibria) % 2 == 1
    assert 20 < flagged < 150  # both kinds occur


def test_a_degenerate_game_is_reported_with_a_witness_and_what_was_found():
    # the column player is indifferent: every mixture of L and R against T is an equilibrium
    game = NormalFormGame.from_matrices([[1, 2]], [[5, 5]], strategies=[["T"], ["L", "R"]])
    result = mixed_equilibria(game)
    assert not result.complete
    assert [game.describe_profile(e.row, e.column) for e in result.equilibria] == [("T", "L"), ("T", "R")]
    assert result.degenerate.player == 0 and result.degenerate.responses == (0, 1)
    assert result.degenerate.describe(game) == \
        "player 1's strategy T (support of size 1: T) has 2 pure best responses: L, R"


def test_a_mixed_witness_is_found_when_no_pure_strategy_has_tied_best_responses():
    # no ties against pure strategies, but x = (1/2, 1/2) makes the column player indifferent among all three
    game = NormalFormGame.from_matrices([[0, 0, 0], [0, 0, 0]], [[2, 0, 1], [0, 2, 1]])
    w = degeneracy_witness(game)
    assert w is not None and w.player == 0 and w.strategy == (F(1, 2), F(1, 2)) and w.responses == (0, 1, 2)
