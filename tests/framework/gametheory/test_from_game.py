"""Game-plugin positions as trees: tic-tac-toe facts from the tree and from the plugin's own minimax agent."""

import pytest

from framework.errors import ConfigError
from framework.gametheory.extensive_form import backward_induction, count_subgame_perfect
from framework.gametheory.from_game import tree_from_game
from framework.protocols import UNLIMITED
from plugins.agents.minimax import MinimaxAgent
from plugins.games.tictactoe import TicTacToe

GAME = TicTacToe()


def test_the_tic_tac_toe_tree_from_the_empty_board_has_549946_nodes_and_its_spe_is_a_draw():
    tree = tree_from_game(GAME, GAME.initial_state())
    assert tree.size() == 549_946
    result = backward_induction(tree.root)
    assert result.payoffs == (0, 0) and len(result.path) == 9
    assert set(count_subgame_perfect(tree.root)) == {(0, 0)}  # zero-sum: every SPE has the game value


@pytest.mark.parametrize("text", ["XXO/.X./O.. o", "X../.O./... x", "XO./.X./..O x", "XOX/.O./... x"])
def test_spe_values_of_each_move_agree_with_minimax_search(text):
    state = GAME.from_text(text)
    tree = tree_from_game(GAME, state)
    mover = GAME.to_move(state)
    for (label, child), move in zip(tree.root.actions, GAME.legal_moves(state)):
        assert label == GAME.format_move(state, move)
        after = GAME.apply(state, move)
        if GAME.is_terminal(after):
            expected = GAME.returns(after)[mover]
        else:
            expected = -MinimaxAgent(GAME).select_move(GAME, after, UNLIMITED).stats.score
        assert backward_induction(child).payoffs[mover] == expected


def test_in_the_thesis_position_x_wins_whatever_o_does_in_96_subgame_perfect_equilibria():
    tree = tree_from_game(GAME, GAME.from_text("XXO/.X./O.. o"))
    assert tree.size() == 35
    assert count_subgame_perfect(tree.root) == {(1, -1): 96}
    assert tree.subgame_perfect_equilibria(limit=100) and len(tree.subgame_perfect_equilibria(limit=100)) == 96


def test_trees_over_the_limit_are_refused_with_the_position_and_the_option_to_raise_it():
    with pytest.raises(ConfigError, match=r"the game tree of tictactoe from 'X\.\./\.O\./\.\.\. x' has 7,332 nodes, "
                                          r"over the limit of 5,000; .*\(--max-nodes\)"):
        tree_from_game(GAME, GAME.from_text("X../.O./... x"), max_nodes=5_000)
    with pytest.raises(ConfigError, match=r"has more than 1,000 nodes, over the limit of 1,000"):
        tree_from_game(GAME, GAME.initial_state(), max_nodes=1_000)


def test_a_tree_deeper_than_the_recursion_limit_is_built_and_solved():
    """A chain of 5,000 forced moves: built, sized and solved without recursion."""
    import sys

    from framework.gametheory.extensive_form import backward_induction, count_subgame_perfect
    from framework.gametheory.from_game import tree_from_game

    class Countdown:
        name, player_names = "countdown", ("A", "B")

        def initial_state(self): return 5000
        def is_terminal(self, s): return s == 0
        def returns(self, s): return (1, -1)
        def to_move(self, s): return s % 2
        def legal_moves(self, s): return (1,)
        def apply(self, s, m): return s - m
        def format_move(self, s, m): return "-"
        def to_text(self, s): return str(s)

    assert 5000 > sys.getrecursionlimit()
    game = Countdown()
    tree = tree_from_game(game, 5000)
    assert tree.size() == 5001
    assert backward_induction(tree.root).payoffs == (1, -1)
    assert count_subgame_perfect(tree.root) == {(1, -1): 1}


def test_a_position_that_can_recur_is_refused_by_name():
    import pytest

    from framework.errors import ConfigError
    from framework.gametheory.from_game import tree_from_game

    class Loop:
        name, player_names = "loop", ("A", "B")

        def is_terminal(self, s): return False
        def to_move(self, s): return s % 2
        def legal_moves(self, s): return (1,)
        def apply(self, s, m): return (s + m) % 4
        def format_move(self, s, m): return "+"
        def to_text(self, s): return f"pos{s}"

    with pytest.raises(ConfigError, match="from 'pos0' is not finite: the position 'pos0' can recur"):
        tree_from_game(Loop(), 0)
