"""Lines of Action passes the game conformance suite, with perft counts cross-checked against OpenSpiel."""

from framework.conformance import GameConformance
from plugins.games.loa.game import SCRAMBLED_START, STANDARD_START, LinesOfAction

# Cross-checked against OpenSpiel 2.0.2's `lines_of_action` (bulk-counted perft, and a lockstep walk that
# compares move sets, terminal flags and returns at every node; see test_loa_openspiel.py). The midgame
# positions come from seeded random play; their depth-3 counts are ones OpenSpiel's board-repetition
# rule (any earlier board draws at once) leaves untouched.
MIDGAME_PERFT = {
    "..bb.b.b/.....b.w/...w.b../www...ww/.b....../w....b.w/b.w..w../...b.bb. b": {1: 33, 2: 1_062, 3: 34_691},
    "..b...w./...w.b../wb...w../w...b..w/.b...w../..bwb.../wb...b../...w.wb. w": {1: 38, 2: 1_420, 3: 51_451},
    "bb..b.b./w......./.......w/w..b...w/..b...../bww..b.w/w....w.b/..b.bw.. b": {1: 31, 2: 812, 3: 25_808},
}
MIDGAME_POSITIONS = tuple(MIDGAME_PERFT)


class TestLinesOfAction(GameConformance):
    game_factory = LinesOfAction
    perft = {1: 36, 2: 1_244, 3: 44_952, 4: 1_563_208}
    position_perft = MIDGAME_PERFT
    positions = [*MIDGAME_POSITIONS, SCRAMBLED_START,
                 ".......w/.......w/......../......../.b....../......../.w....../b....... b"]
    bad_positions = [STANDARD_START.replace("w......w/", "w.....w/", 1), STANDARD_START[:-1] + "x",
                     STANDARD_START.replace(".bbbbbb.", ".bbqbbb.", 1), ""]
    bad_moves = [(None, "b1-b4"), (None, "b1xb3"), (None, "z9-a1"), (None, "pass")]
    playouts = 8


class TestScrambledEggs(GameConformance):
    game_factory = staticmethod(lambda: LinesOfAction(start="scrambled", simultaneous="mover_wins"))
    playouts = 4
