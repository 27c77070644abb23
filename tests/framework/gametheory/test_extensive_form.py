"""Extensive-form trees: strategies, normal form, and subgame-perfect equilibria checked by brute force."""

import random
from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest

from framework.errors import ConfigError
from framework.gametheory.extensive_form import (
    ExtensiveFormGame,
    Node,
    backward_induction,
    count_subgame_perfect,
    strategy_label,
)


def random_tree(rng, depth, labels):
    if depth == 0 or rng.random() < 0.25:
        return Node(payoffs=(F(rng.randrange(3)), F(rng.randrange(3))))  # few values: many ties
    actions = tuple((next(labels), random_tree(rng, depth - 1, labels)) for _ in range(rng.choice((2, 2, 3))))
    return Node(player=rng.randrange(2), actions=actions)


def is_subgame_perfect(game, profile, where):
    """The definition: no player gains by deviating at any node, whoever moves before (one-shot deviations
    suffice in finite trees, Shoham & Leyton-Brown §5.1.3). Checked on every subtree's induced play."""

    def play(node, path):  # outcome of the subgame at `node` under `profile`
        while not node.is_terminal:
            index = [a for a, _ in node.actions].index(profile[node.player][where[node.player][path]])
            node, path = node.actions[index][1], path + (index,)
        return node.payoffs

    for p in (0, 1):
        for path in where[p]:
            node = game.node_at(path)
            chosen = play(node, path)[p]
            if any(play(child, path + (i,))[p] > chosen for i, (_, child) in enumerate(node.actions)):
                return False
    return True


def test_subgame_perfect_equilibria_of_random_trees_are_exactly_the_profiles_passing_the_definition():
    rng = random.Random(5)
    checked = 0
    for _ in range(200):
        game = ExtensiveFormGame("random", random_tree(rng, 3, iter(str(i) for i in range(1, 10_000))))
        if game.root.is_terminal:
            continue
        strategies = (game.pure_strategies(0), game.pure_strategies(1))
        if len(strategies[0]) * len(strategies[1]) > 2_000:
            continue
        where = {p: {path: i for i, path in enumerate(game.decision_paths(p))} for p in (0, 1)}
        brute = {(s, t) for s, t in product(*strategies) if is_subgame_perfect(game, (s, t), where)}
        found = game.subgame_perfect_equilibria()
        assert len(found) == len(set(found)) and set(found) == brute
        counts = count_subgame_perfect(game.root)
        assert sum(counts.values()) == len(brute)
        assert counts == Counter(game.outcome(p) for p in brute)
        nf = game.to_normal_form()
        pure_ne = {(nf.strategies[0][e.row], nf.strategies[1][e.column]) for e in nf.pure_equilibria()}
        assert {(strategy_label(s), strategy_label(t)) for s, t in brute} <= pure_ne  # every SPE is a NE
        one = backward_induction(game.root)
        assert one.payoffs in counts
        checked += 1
    assert checked > 120


def test_backward_induction_breaks_ties_by_the_first_action():
    tie = Node(player=0, actions=(("a", Node(payoffs=(F(1), F(0)))), ("b", Node(payoffs=(F(1), F(5))))))
    result = backward_induction(tie)
    assert result.path == ("a",) and result.payoffs == (1, 0)
    assert count_subgame_perfect(tie) == {(1, 0): 1, (1, 5): 1}


def test_strategies_follow_the_pre_order_of_a_players_decision_nodes(example):
    tree = example("thesis-tree")
    assert tree.pure_strategies(1) == [("3", "5"), ("3", "6"), ("4", "5"), ("4", "6")]
    assert tree.outcome((("2", "8", "10"), ("3", "5"))) == (4, 2)
    assert tree.size() == 11


def test_limits_refuse_large_normal_forms_and_too_many_equilibria(example):
    tree = example("thesis-tree")
    with pytest.raises(ConfigError, match=r"the normal form of 'Thesis 8x4 tree' has 8 x 4 = 32 cells, more than "
                                          r"the limit of 10"):
        tree.to_normal_form(max_cells=10)
    with pytest.raises(ConfigError, match="'Sharing game' has 2 subgame-perfect equilibria, more than the limit of 1"):
        example("sharing-game").subgame_perfect_equilibria(limit=1)


def test_strategy_counts_and_the_listing_cap_of_the_report(example):
    from framework.gametheory.from_game import tree_from_game
    from framework.gametheory.report import extensive_form_report
    from plugins.games.tictactoe import TicTacToe
    assert example("thesis-tree").strategy_counts() == (8, 4)
    game = TicTacToe()
    tree = tree_from_game(game, game.from_text("XXO/.X./O.. o"))  # 96 SPE, a normal form beyond any limit
    report = extensive_form_report(tree, max_cells=1000, max_listed=10)
    assert ("every tie gives one): 96\n  too many to list; "
            "the first-best-action one plays a2 c2 b1 c1 for payoffs 1, -1") in report
    rows, cols = tree.strategy_counts()
    assert f"The induced normal form has {rows:,} x {cols:,}" in report and rows * cols > 1000
