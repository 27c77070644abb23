"""The conformance suite on race: every rule of the Game protocol, checked on seeded random playouts."""

from plyground_race import Race

from framework.conformance import GameConformance


class TestRace(GameConformance):
    game_factory = Race
    perft = {1: 3, 2: 9, 3: 27, 4: 76}           # move paths of exactly 1..4 plies from the start
    positions = ["7 1", "9 0"]                   # sample positions to play out from
    bad_positions = ["11 0", "x", "4 2"]         # from_text must raise PositionError quoting them
    bad_moves = [(None, "+4"), ("9 0", "+2")]    # (position or None, move): MoveParseError quoting it
