"""Chance nodes: expected payoffs in the induced normal form and backward induction by expectation, checked by hand
and against an enumeration of the chance outcomes written here."""

import random
from fractions import Fraction as F
from itertools import count, product

from framework.cli import main
from framework.gametheory.extensive_form import ExtensiveFormGame, Node, backward_induction, count_subgame_perfect
from framework.gametheory.files import load_game

# A poker-like deal with open cards: nature deals player 1 a high card (1/3) or a low one (2/3); player 1 checks
# (showdown for the ante: +-1) or bets; after a bet player 2 calls (showdown for 2) or folds (player 1 wins 1).
POKER = """\
name: Open-card poker
players: [Dealer, Caller]
tree:
  chance:
    - ['1/3', {player: 1, actions: {check: {payoffs: [1, -1]},
                                    bet: {player: 2, actions: {call: {payoffs: [2, -2]}, fold: {payoffs: [1, -1]}}}}}]
    - ['2/3', {player: 1, actions: {check: {payoffs: [-1, 1]},
                                    bet: {player: 2, actions: {call: {payoffs: [-2, 2]}, fold: {payoffs: [1, -1]}}}}}]
"""


def deal(card, bets, calls):
    """Player 1's payoff for one card under the given choices, by the rules above."""
    if not bets:
        return 1 if card == "high" else -1
    if not calls:
        return 1
    return 2 if card == "high" else -2


def poker(tmp_path):
    path = tmp_path / "poker.yaml"
    path.write_text(POKER)
    return load_game(path)


def test_the_normal_form_holds_payoffs_averaged_over_the_deal(tmp_path):
    game = poker(tmp_path)
    normal = game.to_normal_form()
    assert normal.shape == (4, 4)  # player 1 chooses at both deals, player 2 after both bets
    assert normal.strategies[0] == ("(check,check)", "(check,bet)", "(bet,check)", "(bet,bet)")
    for (i, s), (j, t) in product(enumerate(game.pure_strategies(0)), enumerate(game.pure_strategies(1))):
        expected = sum(p * deal(card, s[k] == "bet", t[k] == "call")
                       for k, (p, card) in enumerate([(F(1, 3), "high"), (F(2, 3), "low")]))
        assert normal.row_payoffs[i][j] == expected and normal.column_payoffs[i][j] == -expected
    assert normal.row_payoffs[0][0] == F(-1, 3)   # always check: 1/3 * 1 + 2/3 * -1, by hand
    assert normal.strategies[1] == ("(call,call)", "(call,fold)", "(fold,call)", "(fold,fold)")
    assert normal.row_payoffs[3][0] == F(-2, 3)   # always bet, always call: 1/3 * 2 + 2/3 * -2
    assert normal.row_payoffs[3][1] == F(4, 3)    # always bet; caller calls high, folds low: 1/3 * 2 + 2/3 * 1
    assert normal.row_payoffs[3][3] == 1          # always bet, always fold
    assert normal.is_constant_sum() == 0


def test_backward_induction_takes_the_expectation_at_the_deal(tmp_path):
    game = poker(tmp_path)
    # High card: a bet is folded (1) and a check wins 1, a tie, so two SPE; low card: a bet is called (-2), so
    # player 1 checks (-1). Value 1/3 * 1 + 2/3 * -1 = -1/3 for player 1.
    result = backward_induction(game.root)
    assert result.payoffs == (F(-1, 3), F(1, 3))
    assert result.path == ()  # play starts with the deal
    assert count_subgame_perfect(game.root) == {(F(-1, 3), F(1, 3)): 2}
    assert game.subgame_perfect_equilibria() == [(("check", "check"), ("fold", "call")),
                                                 (("bet", "check"), ("fold", "call"))]
    normal = game.to_normal_form()
    for s, t in game.subgame_perfect_equilibria():
        i, j = game.pure_strategies(0).index(s), game.pure_strategies(1).index(t)
        assert normal.is_equilibrium([int(k == i) for k in range(4)], [int(k == j) for k in range(4)])


def test_nature_moving_mid_tree_stops_the_equilibrium_path_there():
    gamble = Node.chance_node([(F(1, 4), Node(payoffs=(F(8), F(0)))), ("3/4", Node(payoffs=(F(0), F(1))))])
    root = Node(player=0, actions=(("safe", Node(payoffs=(F(1), F(1)))), ("gamble", gamble)))
    result = backward_induction(root)
    assert result.payoffs == (F(2), F(3, 4)) and result.path == ("gamble",)
    assert [label for label, _ in gamble.actions] == ["chance 1", "chance 2"]


def random_tree(rng, depth, labels):
    roll = rng.random()
    if depth == 0 or roll < 0.2:
        return Node(payoffs=(F(rng.randrange(3)), F(rng.randrange(3))))
    children = [random_tree(rng, depth - 1, labels) for _ in range(rng.choice((2, 3)))]
    if roll < 0.45:
        weights = [rng.randrange(1, 4) for _ in children]
        return Node.chance_node([(F(w, sum(weights)), child) for w, child in zip(weights, children)])
    return Node(player=rng.randrange(2), actions=tuple((next(labels), child) for child in children))


def expected_by_enumeration(game, profile):
    """Sum over every leaf the profile can reach of (product of chance probabilities on the way) * payoffs."""
    where = [{path: k for k, path in enumerate(game.decision_paths(p))} for p in (0, 1)]
    total = [F(0), F(0)]
    stack = [(game.root, (), F(1))]
    while stack:
        node, path, prob = stack.pop()
        if node.payoffs is not None:
            total = [total[0] + prob * node.payoffs[0], total[1] + prob * node.payoffs[1]]
        elif node.probabilities:
            stack += [(child, path + (i,), prob * p)
                      for i, ((_, child), p) in enumerate(zip(node.actions, node.probabilities))]
        else:
            label = profile[node.player][where[node.player][path]]
            i = [a for a, _ in node.actions].index(label)
            stack.append((node.actions[i][1], path + (i,), prob))
    return tuple(total)


def test_random_trees_expected_payoffs_match_enumerating_chance_outcomes():
    rng = random.Random(15)
    checked = 0
    for trial in range(150):
        game = ExtensiveFormGame(f"t{trial}", random_tree(rng, 4, (f"a{i}" for i in count())))
        rows, cols = game.strategy_counts()
        if rows * cols > 400:
            continue
        normal = game.to_normal_form()
        for (i, s), (j, t) in product(enumerate(game.pure_strategies(0)), enumerate(game.pure_strategies(1))):
            assert (normal.row_payoffs[i][j], normal.column_payoffs[i][j]) == expected_by_enumeration(game, (s, t))
        equilibria = game.subgame_perfect_equilibria()
        assert len(equilibria) == sum(count_subgame_perfect(game.root).values())
        assert game.outcome(equilibria[0]) == backward_induction(game.root).payoffs
        for s, t in equilibria:  # every SPE is a Nash equilibrium of the induced normal form
            x = [int(k == game.pure_strategies(0).index(s)) for k in range(rows)]
            y = [int(k == game.pure_strategies(1).index(t)) for k in range(cols)]
            assert normal.is_equilibrium(x, y)
        checked += game.has_chance()
    assert checked >= 20


def test_nash_names_chance_nodes_in_its_report(tmp_path, capsys):
    (tmp_path / "poker.yaml").write_text(POKER)
    assert main(["nash", str(tmp_path / "poker.yaml")]) == 0
    out = capsys.readouterr().out
    assert "Open-card poker: extensive form with perfect information and chance nodes (payoffs are expectations)" in out
    assert "Subgame-perfect equilibria (backward induction; every tie gives one): 2" in out
