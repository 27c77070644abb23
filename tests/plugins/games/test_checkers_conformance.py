"""English checkers passes the game conformance suite, with the published perft counts for depths 1-7."""

from framework.conformance import GameConformance
from plugins.games.checkers import Checkers


class TestCheckers(GameConformance):
    game_factory = Checkers
    # Published counts from the start position, each capture path counted once.
    perft = {1: 7, 2: 49, 3: 302, 4: 1_469, 5: 7_361, 6: 36_768, 7: 179_740}
    # A king that can circle back to its square two ways, then kings and men mixed; counted by hand:
    # Black's two capture paths each leave White without pieces (no replies).
    position_perft = {"B:W14,15,22,23:BK10": {1: 2, 2: 0}, "B:W14,23:B1,9": {1: 1, 2: 0}}
    positions = ["B:W14,15,22,23,31:BK10,27", "W:WK3,18,24:B6,K26", "B:WK32:BK1,5:H79", "W:W5:BK1"]
    bad_positions = ["X:W21:B1", "B:W33:B1", "B:W21-32:B1-13", "B:W5:B5", "B:W21:B30", ""]
    bad_moves = [(None, "11-14"), (None, "11x15"), (None, "c3-d4"), ("B:W14,23:B1,9", "1-6"),
                 ("B:W14,15,22,23:BK10", "10x10")]
    playouts = 12
