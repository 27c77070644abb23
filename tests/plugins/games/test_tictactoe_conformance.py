"""Tic-tac-toe passes the game conformance suite, including perft 1-9 from the empty board."""

from framework.conformance import GameConformance
from plugins.games.tictactoe import TicTacToe


class TestTicTacToe(GameConformance):
    game_factory = TicTacToe
    # Terminal positions are not expanded: 15,120 games reach ply 5, 1,440 of them won by X there.
    perft = {1: 9, 2: 72, 3: 504, 4: 3_024, 5: 15_120, 6: 54_720, 7: 148_176, 8: 200_448, 9: 127_872}
    # O has 4 replies, X 3 after each; at ply 3 only the 6 of those 12 X moves that do not win leave O 2 moves each
    # (b1 completes the b-file and c1 the a3-c1 diagonal).
    position_perft = {"XXO/.X./O.. o": {1: 4, 2: 12, 3: 12}, "XXX/OO./... o": {1: 0, 2: 0}}
    positions = ["XXO/.X./O.. o", "X../.O./... x", "XOX/XOO/OXX o"]
    bad_positions = ["XXO/.X. o", "XXO/.X./O.. z", "XXQ/.X./O.. o", "XXO/.X./O.. x", "XXX/OOO/... x", ""]
    bad_moves = [(None, "d4"), (None, "b"), ("XXO/.X./O.. o", "a3")]
    playouts = 30
