"""The thesis' stated results on its example games, computed from the shipped data files."""

from fractions import Fraction as F

from framework.gametheory.dominance import Dominance, dominant_strategy_equilibrium, iterated_elimination
from framework.gametheory.extensive_form import count_subgame_perfect
from framework.gametheory.maxmin import security
from framework.gametheory.support_enumeration import mixed_equilibria


def labelled(game, equilibria):
    return {game.describe_profile(e.row, e.column) for e in equilibria}


def test_battle_of_the_sexes_has_two_strict_pure_equilibria_and_one_mixed_at_two_thirds(example):
    game = example("battle-of-the-sexes")
    pure = game.pure_equilibria()
    assert [(game.strategies[0][e.row], game.strategies[1][e.column], e.strict) for e in pure] == \
        [("LW", "LW", True), ("WL", "WL", True)]
    result = mixed_equilibria(game)
    assert result.complete and len(result.equilibria) == 3
    mixed = [e for e in result.equilibria if len(e.supports[0]) == 2]
    assert len(mixed) == 1
    assert mixed[0].row == (F(2, 3), F(1, 3)) and mixed[0].column == (F(1, 3), F(2, 3))
    assert mixed[0].payoffs == (F(2, 3), F(2, 3))


def test_matching_pennies_has_only_the_half_half_mixed_equilibrium_and_is_zero_sum(example):
    game = example("matching-pennies")
    assert game.pure_equilibria() == []
    result = mixed_equilibria(game)
    assert result.complete
    half = (F(1, 2), F(1, 2))
    assert [(e.row, e.column, e.payoffs) for e in result.equilibria] == [(half, half, (0, 0))]
    assert game.is_constant_sum() == 0 and not game.is_common_payoff()
    assert security(game, 0).value == 0 and security(game, 0).maxmin_strategy == (F(1, 2), F(1, 2))


def test_prisoners_dilemma_has_an_equilibrium_in_strictly_dominant_strategies(example):
    game = example("prisoners-dilemma")
    assert dominant_strategy_equilibrium(game, Dominance.STRICT) == (1, 1)  # (D, D)
    steps, alive = iterated_elimination(game, Dominance.STRICT)
    assert [(s.player, game.strategies[s.player][s.strategy]) for s in steps] == [(0, "C"), (1, "C")]
    assert alive == ([1], [1])
    assert [(e.row, e.column, e.strict) for e in game.pure_equilibria()] == [(1, 1, True)]
    assert labelled(game, mixed_equilibria(game).equilibria) == {("D", "D")}
    assert game.expected_payoffs((0, 1), (0, 1)) == (-3, -3) < game.expected_payoffs((1, 0), (1, 0))


def test_driving_game_is_common_payoff_with_two_pure_and_one_mixed_equilibrium(example):
    game = example("driving-game")
    assert game.is_common_payoff() and game.is_constant_sum() is None
    result = mixed_equilibria(game)
    assert labelled(game, result.equilibria) == {("Left", "Left"), ("Right", "Right"),
                                                 ("1/2 Left + 1/2 Right", "1/2 Left + 1/2 Right")}


def test_rock_paper_scissors_from_csv_has_value_zero_and_the_uniform_equilibrium(example):
    game = example("rock-paper-scissors")
    third = (F(1, 3),) * 3
    assert [(e.row, e.column) for e in mixed_equilibria(game).equilibria] == [(third, third)]
    s = security(game, 1)
    assert s.exact and s.value == 0 and s.maxmin_strategy == third and s.minmax_strategy == third


def test_the_8x4_tree_has_exactly_the_four_pure_equilibria_the_thesis_lists(example):
    tree = example("thesis-tree")
    game = tree.to_normal_form()
    assert game.shape == (8, 4)
    assert game.strategies[0][:3] == ("(1,7,9)", "(1,7,10)", "(1,8,9)")
    found = {(game.strategies[0][e.row], game.strategies[1][e.column]) for e in game.pure_equilibria()}
    assert found == {("(1,7,9)", "(4,6)"), ("(1,7,10)", "(4,6)"), ("(2,7,10)", "(4,5)"), ("(2,8,10)", "(4,5)")}


def test_the_8x4_tree_has_the_unique_subgame_perfect_equilibrium_2_7_10_and_4_5(example):
    tree = example("thesis-tree")
    assert tree.subgame_perfect_equilibria() == [(("2", "7", "10"), ("4", "5"))]
    assert sum(count_subgame_perfect(tree.root).values()) == 1


def test_sharing_game_has_two_subgame_perfect_equilibria_from_the_sisters_indifference(example):
    tree = example("sharing-game")
    assert tree.to_normal_form().shape == (3, 8)
    assert sorted(tree.subgame_perfect_equilibria()) == [(("1-1",), ("no", "yes", "yes")),
                                                         (("2-0",), ("yes", "yes", "yes"))]


def test_expected_payoffs_and_best_responses_of_mixed_profiles(example):
    game = example("battle-of-the-sexes")
    assert game.expected_payoffs(["1/2", "1/2"], [1, 0]) == (1, F(1, 2))
    assert game.best_responses(0, [F(1, 3), F(2, 3)]) == (0, 1)  # the wife is indifferent at 1/3 LW
    assert game.best_responses(0, [F(1, 2), F(1, 2)]) == (0,)
    assert game.best_responses(1, [1, 0]) == (0,)
    assert game.pure_payoffs(1, [F(2, 3), F(1, 3)]) == (F(2, 3), F(2, 3))


def test_constant_sum_games_other_than_zero_sum_are_recognised():
    from framework.gametheory.normal_form import NormalFormGame
    game = NormalFormGame.from_matrices([[1, 0], [0.25, 1]], [[0, 1], [0.75, 0]])
    assert game.is_constant_sum() == 1 and not game.is_common_payoff()
