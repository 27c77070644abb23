"""Seeded random positions: reproducible, non-terminal, within the ply range."""

from framework.playouts import random_positions
from plugins.games.tictactoe import TicTacToe

GAME = TicTacToe()


def test_the_same_seed_gives_the_same_non_terminal_positions_within_the_ply_range():
    first = random_positions(GAME, 50, seed=3, min_plies=2, max_plies=5)
    assert first == random_positions(GAME, 50, seed=3, min_plies=2, max_plies=5)
    assert first != random_positions(GAME, 50, seed=4, min_plies=2, max_plies=5)
    marks = [bin(x | o).count("1") for x, o, _ in first]
    assert len(first) == 50 and all(2 <= n <= 4 for n in marks) and set(marks) == {2, 3, 4}
    assert not any(GAME.is_terminal(state) for state in first)
