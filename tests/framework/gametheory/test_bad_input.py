"""Every way a game file or matrix can be wrong gets a ConfigError naming the file, the key and what was expected."""

from fractions import Fraction as F

import numpy as np
import pytest

from framework.errors import ConfigError
from framework.gametheory.exact import solve_exact, to_fraction
from framework.gametheory.files import load_game
from framework.gametheory.n_player import NPlayerGame
from framework.gametheory.normal_form import NormalFormGame


def load_error(path, text):
    """The message of the ConfigError that loading `text` from `path` raises, with the folder left out."""
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_game(path)
    return str(info.value).replace(str(path.parent) + "/", "")


BOS = "payoffs:\n  - [[2, 1], [0, 0]]\n  - [[0, 0], [1, 2]]\n"


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "bad.yaml: expected a mapping with 'payoffs' (normal form) or 'tree' (extensive form), got list"),
    (BOS + "colour: red\n", "bad.yaml: unknown key(s) 'colour'; known keys: name, players, strategies, payoffs, tree"),
    (BOS + "players: [a]\n", "bad.yaml: 'players' must be a list of two or more names, got ['a']"),
    ("players: [a, b, c]\ntree: {payoffs: [1, 1]}\n", "bad.yaml: extensive-form trees are for two players, but "
                                                      "'players' names 3: ['a', 'b', 'c']"),
    ("name: x\n", "bad.yaml: give exactly one of 'payoffs' (normal form) and 'tree' (extensive form)"),
    (BOS + "tree: {payoffs: [1, 1]}\n", "bad.yaml: give exactly one of 'payoffs'"),
    ("tree: {payoffs: [1, 1]}\nstrategies: [[a], [b]]\n", "bad.yaml: 'strategies' belongs to normal-form games"),
    ("payoffs: []\n", "bad.yaml: 'payoffs' must be a non-empty list of rows of [u1, u2] cells, got []"),
    ("payoffs: [3]\n", "bad.yaml: 'payoffs' row 1 must be a non-empty list of [u1, u2] cells, got 3"),
    ("payoffs:\n  - [[2, 1], [0]]\n", "bad.yaml: 'payoffs' row 1 column 2: expected a cell [u1, u2] with the two "
                                     "players' payoffs, got [0]"),
    ("payoffs:\n  - [[2, 1], [0, 0]]\n  - [[0, 0]]\n", "bad.yaml: 'payoffs' (row player): row 2 has 1 entries but "
                                                       "row 1 has 2; the matrix must be rectangular"),
    ("payoffs:\n  - [[2, one], [0, 0]]\n", "bad.yaml: 'payoffs' row 1 column 1: 'one' is not a number; expected an "
                                          "integer, decimal or fraction like 2/3"),
    ("payoffs:\n  - [[.nan, 1]]\n", "bad.yaml: 'payoffs' row 1 column 1: nan is not a finite number"),
    ("payoffs:\n  - [[true, 1]]\n", "'payoffs' row 1 column 1: True is not a number"),
    (BOS + "strategies: [a, b]\n", "bad.yaml: 'strategies' must be two lists of labels, got ['a', 'b']"),
    (BOS + "strategies: [[a, b, c], [x, y]]\n", "bad.yaml: 'payoffs': player 1 has 2 strategies in the payoff matrix "
                                                "but 3 labels ['a', 'b', 'c']"),
    (BOS + "strategies: [[a, a], [x, y]]\n", "bad.yaml: 'payoffs': player 1's strategy labels ['a', 'a'] "
                                             "repeat a label"),
    (BOS + "strategies: [[a, b], [x, y], [z]]\n", "bad.yaml: 'payoffs': 'strategies' must be two lists of labels, one "
                                                  "per player"),
    ("tree: [1]\n", "bad.yaml: 'tree': expected a node, a mapping with 'player' and 'actions' or with 'payoffs', "
                    "got [1]"),
    ("tree: {payoffs: [1, 1], player: 1}\n", "bad.yaml: 'tree': a terminal node has only 'payoffs', got keys "
                                             "['payoffs', 'player']"),
    ("tree: {payoffs: [1]}\n", "bad.yaml: 'tree'.payoffs: expected [u1, u2], got [1]"),
    ("tree: {payoffs: [1, x]}\n", "bad.yaml: 'tree'.payoffs: 'x' is not a number"),
    ("tree: {player: 1}\n", "bad.yaml: 'tree': a decision node has exactly 'player' and 'actions' (a terminal node has "
                            "'payoffs', a chance node 'chance'), got keys ['player']"),
    ("tree: {player: 3, actions: {a: {payoffs: [1, 1]}}}\n", "bad.yaml: 'tree'.player: expected 1 or 2, got 3"),
    ("tree: {player: 1, actions: {}}\n", "bad.yaml: 'tree'.actions: expected a non-empty mapping from action label to "
                                         "node, got {}"),
    ("tree: {player: 1, actions: {a: {player: 2, actions: {yes: {payoffs: [1, 1]}}}}}\n",
     "bad.yaml: 'tree'.actions.a.actions: the action label True is not text (YAML reads unquoted yes, no, on, off, "
     "null as booleans or null); quote it"),
    ("tree: {player: 1, actions: {a: {payoffs: [1, 1]}, b: 7}}\n", "bad.yaml: 'tree'.actions.b: expected a node"),
    ("payoffs: [[[1, 2]]\n", "bad.yaml: not valid YAML"),
    # chance nodes
    ("tree: {chance: [[1, {payoffs: [1, 1]}]], player: 1}\n", "bad.yaml: 'tree': a chance node has only 'chance', "
                                                             "got keys ['chance', 'player']"),
    ("tree: {chance: {a: 1}}\n", "bad.yaml: 'tree'.chance: expected a list of [probability, node] pairs, "
                                 "got {'a': 1}"),
    ("tree: {chance: [[1, {payoffs: [1, 1]}, x]]}\n", "bad.yaml: 'tree'.chance outcome 1: expected [probability, "
                                                      "node], got [1, {'payoffs': [1, 1]}, 'x']"),
    ("tree: {chance: []}\n", "bad.yaml: 'tree'.chance: a chance node needs at least one [probability, child] outcome"),
    ("tree: {chance: [[1/2, {payoffs: [1, 1]}], [half, {payoffs: [0, 0]}]]}\n",
     "bad.yaml: 'tree'.chance outcome 2 probability: 'half' is not a number"),
    ("tree: {chance: [[3/2, {payoffs: [1, 1]}], [-1/2, {payoffs: [0, 0]}]]}\n",
     "bad.yaml: 'tree'.chance: outcome 2 has probability -1/2; chance probabilities must be positive"),
    ("tree: {chance: [[1, {payoffs: [1, 1]}], [0, {payoffs: [0, 0]}]]}\n",
     "bad.yaml: 'tree'.chance: outcome 2 has probability 0; chance probabilities must be positive"),
    ("tree: {chance: [[1/3, {payoffs: [1, 1]}], [0.6, {payoffs: [0, 0]}]]}\n",
     "bad.yaml: 'tree'.chance: the probabilities 1/3, 3/5 sum to 14/15, not 1; write them as exact fractions"),
    ("tree: {chance: [['1/2', {payoffs: [1, 1]}], ['1/2', {payoffs: [1]}]]}\n",
     "bad.yaml: 'tree'.chance[1].payoffs: expected [u1, u2], got [1]"),
    # n-player normal form
    ("players: [a, b, c]\npayoffs: []\n", "bad.yaml: 'payoffs': expected player 1's strategies as a non-empty list "
                                          "(one nesting level per player), got []"),
    ("players: [a, b, c]\npayoffs: [[[[1, 1, 1]]], [[[1, 1, 1]], [[1, 1, 1]]]]\n",
     "bad.yaml: 'payoffs' at [1]: expected 1 entries for player 2's strategies (every level alike), got "
     "[[[1, 1, 1]], [[1, 1, 1]]]"),
    ("players: [a, b, c]\npayoffs: [[[[1, 1]]]]\n", "bad.yaml: 'payoffs' at [0][0][0]: expected a cell of 3 payoffs, "
                                                    "one per player, got [1, 1]"),
    ("players: [a, b, c]\npayoffs: [[[[1, x, 1]]]]\n", "bad.yaml: 'payoffs' at [0][0][0]: 'x' is not a number"),
    ("payoffs: [[[[1, 1, 1]]]]\nstrategies: [[a], [b]]\n", "bad.yaml: 'payoffs': 'strategies' must be 3 lists of "
                                                           "labels, one per player, got [['a'], ['b']]"),
    ("payoffs: [[[[1, 1, 1]]]]\nstrategies: [[a], [b], [c, d]]\n", "bad.yaml: 'payoffs': player 3 has 1 strategies "
                                                                   "in the payoffs but the labels ['c', 'd']; give 1 "
                                                                   "different labels"),
])
def test_bad_yaml_games(tmp_path, text, message):
    assert message in load_error(tmp_path / "bad.yaml", text)


@pytest.mark.parametrize("text, message", [
    (",L,R\n", "bad.csv': expected a header row of column strategies and at least one row of payoffs"),
    (",L,R\nT,1 1\n", "bad.csv' line 2: 1 payoff cells but the header names 2 column strategies; the matrix must be "
                      "rectangular"),
    (",L\nT,1 1 1\n", "bad.csv' line 2, column 'L': expected two payoffs like '2 1', got '1 1 1'"),
    (",L\nT,1 x\n", "bad.csv' line 2, column 'L': 'x' is not a number"),
    (",L\nT,1 1\nT,0 0\n", "bad.csv': player 1's strategy labels ['T', 'T'] repeat a label"),
])
def test_bad_csv_games(tmp_path, text, message):
    assert message in load_error(tmp_path / "bad.csv", text)


def test_csv_cells_accept_spaces_semicolons_and_quoted_commas_and_fractions(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text(',L,R\nT,2 1,"0, 0"\nB,0;0,1/2 3.5\n')
    game = load_game(path)
    assert game.strategies == (("T", "B"), ("L", "R")) and game.name == "g"
    assert game.row_payoffs == ((2, 0), (0, F(1, 2))) and game.column_payoffs == ((1, 0), (0, F(7, 2)))


def test_unreadable_and_unknown_files(tmp_path):
    with pytest.raises(ConfigError, match="cannot read game file '.*missing.yaml': No such file or directory"):
        load_game(tmp_path / "missing.yaml")
    (tmp_path / "g.txt").write_text("x")
    with pytest.raises(ConfigError, match="unknown game file type '.txt'; expected .yaml, .yml or .csv"):
        load_game(tmp_path / "g.txt")


@pytest.mark.parametrize("a, b, message", [
    ([[1, 2]], [[1], [2]], "payoffs: the row player's matrix is 1 x 2 but the column player's is 2 x 1"),
    ([], [], "payoffs (row player): the payoff matrix is empty"),
    ("12", [[1]], "payoffs (row player): expected a matrix (a list of rows), got '12'"),
    ([1, 2], [[1]], "payoffs (row player): row 1 is 1, expected a list of payoffs"),
    ([[1, None]], [[1, 1]], "payoffs (row player) row 1 column 2: None is not a number"),
    ([[1, float("inf")]], [[1, 1]], "payoffs (row player) row 1 column 2: inf is not a finite number"),
    ([[1, object]], [[1, 1]], "is not a number"),
])
def test_bad_matrices_in_python(a, b, message):
    with pytest.raises(ConfigError) as info:
        NormalFormGame.from_matrices(a, b)
    assert message in str(info.value)


def test_bad_player_names_and_mixed_strategies():
    with pytest.raises(ConfigError, match=r"'players' must name exactly two players, got \['a'\]"):
        NormalFormGame.from_matrices([[1]], [[1]], players=["a"])
    with pytest.raises(ConfigError, match="payoffs: a game needs at least two players, got 1"):
        NPlayerGame.from_nested([[1]], players=["a"])
    game = NormalFormGame.from_matrices(np.eye(2), np.eye(2))
    with pytest.raises(ConfigError, match=r"mixed strategy of player 1: \[1\] has 1 probabilities, expected 2"):
        game.expected_payoffs([1], [1, 0])
    with pytest.raises(ConfigError, match=r"mixed strategy of player 2: \['1/2', '1/3'\] is not a probability vector"):
        game.expected_payoffs([1, 0], ["1/2", "1/3"])


def test_numbers_are_read_exactly():
    assert to_fraction(0.1, "x") == F(1, 10) and to_fraction("2/3", "x") == F(2, 3)
    assert to_fraction(np.int64(3), "x") == 3 and to_fraction(np.float64(0.25), "x") == F(1, 4)
    with pytest.raises(ConfigError, match="x: '1/0' is not a number"):
        to_fraction("1/0", "x")


def test_exact_solve_refuses_inconsistent_and_underdetermined_systems():
    one = F(1)
    assert solve_exact([[one, one], [one, -one]], [F(3), F(1)]) == (2, 1)
    assert solve_exact([[one, one], [one, one]], [F(1), F(2)]) is None            # rank 1 and contradictory
    assert solve_exact([[one, one], [2 * one, 2 * one]], [F(1), F(2)]) is None     # a free variable
    assert solve_exact([[one], [one]], [F(1), F(2)]) is None                      # overdetermined, inconsistent
    assert solve_exact([[one], [2 * one]], [F(1), F(2)]) == (1,)                   # overdetermined, consistent
