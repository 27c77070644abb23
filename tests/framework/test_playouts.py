"""Seeded random positions: reproducible, non-terminal, within the ply range."""

from framework.playouts import final_positions, playout_positions, random_positions
from plugins.games.tictactoe import TicTacToe

GAME = TicTacToe()


def test_the_same_seed_gives_the_same_non_terminal_positions_within_the_ply_range():
    first = random_positions(GAME, 50, seed=3, min_plies=2, max_plies=5)
    assert first == random_positions(GAME, 50, seed=3, min_plies=2, max_plies=5)
    assert first != random_positions(GAME, 50, seed=4, min_plies=2, max_plies=5)
    marks = [bin(x | o).count("1") for x, o, _ in first]
    assert len(first) == 50 and all(2 <= n <= 4 for n in marks) and set(marks) == {2, 3, 4}
    assert not any(GAME.is_terminal(state) for state in first)


def test_playout_positions_take_every_nth_state_of_whole_games_ends_included():
    game = TicTacToe()
    positions = playout_positions(game, 40, seed=3, every=2)
    assert len(positions) == 40 and positions == playout_positions(game, 40, seed=3, every=2)
    assert positions[0] == game.initial_state() and any(game.is_terminal(s) for s in positions)
    # every 2nd ply from the empty board: an even number of marks on the board
    assert all(bin(x | o).count("1") % 2 == 0 for x, o, _ in positions)


def test_playout_positions_alternate_their_starts():
    game = TicTacToe()
    other = game.from_text("X../.../... o")
    positions = playout_positions(game, 30, seed=1, every=100, starts=(game.initial_state(), other))
    assert positions[:4] == [game.initial_state(), other, game.initial_state(), other]


def test_final_positions_lie_the_asked_number_of_plies_before_an_end():
    game = TicTacToe()
    positions = final_positions(game, 6, seed=5, first=3, last=1)
    assert len(positions) == 6 and not any(game.is_terminal(s) for s in positions)
    # three states a game: 3, 2 and 1 ply before its end, so the last of each group has a move that ends the game
    for i in range(2, 6, 3):
        assert any(game.is_terminal(game.apply(positions[i], m)) for m in game.legal_moves(positions[i]))
