"""EinStein würfelt nicht!: the conformance suite, the die's rule of the nearest cube, captures and wins."""

import pytest

from framework.conformance import GameConformance
from framework.errors import MoveParseError, PositionError
from framework.protocols import CHANCE
from plugins.games.einstein import EinStein, LeadHeuristic, ProgressHeuristic, movable

START = "..CBA/...ED/6...F/45.../123.. r?"


class TestEinStein(GameConformance):
    game_factory = EinStein
    # Six faces; each face moves one of Red's cubes, each of which has its three steps on the board (18);
    # six faces after each (108); each of Blue's cubes has its three steps too (324); six faces again (1,944).
    perft = {1: 6, 2: 18, 3: 108, 4: 324, 5: 1_944}
    positions = [START, "....A/...../..3.B/...../1.... b4", "...../...../..5../...../A.... r?",
                 "....6/...../...../...../A.... r?"]
    bad_positions = ["..CBA/...ED/6...F/45.../123.. x?", "..CBA/...ED/6...F/45.../123. r?",
                     "..CBA/...ED/6...F/45.../113.. r?", "....6/...../...../...../A.... r3", ""]
    bad_moves = [(None, "a1b2"), ("..CBA/...ED/6...F/45.../123.. r5", "a1b2"), (None, "7")]
    playouts = 30


def test_the_start_and_its_text():
    game = EinStein()
    state = game.initial_state()
    assert game.to_text(state) == START and game.to_move(state) == CHANCE


def test_a_missing_cube_lets_the_nearest_lower_or_higher_move():
    assert movable({1: 0, 3: 1, 6: 2}, 3) == [3]
    assert movable({1: 0, 3: 1, 6: 2}, 4) == [3, 6]
    assert movable({1: 0, 3: 1}, 6) == [3]
    assert movable({4: 0}, 2) == [4]


def test_moves_capture_own_and_opponent_cubes_and_the_far_corner_wins():
    game = EinStein()
    state = game.from_text("..CBA/...ED/6...F/45.../123.. r5")
    moves = [game.format_move(state, m) for m in game.legal_moves(state)]
    assert moves == ["b2c2", "b2b3", "b2c3"]
    state = game.from_text("....A/...4B/...../...../1.... r4")
    won = game.apply(state, game.parse_move(state, "d4e5"))
    assert game.is_terminal(won) and game.returns(won) == (1.0, -1.0)
    state = game.from_text("...../...../...../...../1A... b1")
    taken = game.apply(state, game.parse_move(state, "b1a1"))
    assert game.is_terminal(taken) and game.returns(taken) == (-1.0, 1.0) and game.legal_moves(taken) == []


def test_bad_texts_name_the_problem():
    with pytest.raises(PositionError, match="has a cube twice"):
        EinStein().from_text("..CBA/...ED/6...F/45.../113.. r?")
    with pytest.raises(MoveParseError, match="legal moves: b2c2 b2b3 b2c3"):
        EinStein().parse_move(EinStein().from_text("..CBA/...ED/6...F/45.../123.. r5"), "a1b2")


def test_the_heuristics_prefer_the_side_nearer_its_corner():
    game = EinStein()
    state = game.from_text("....A/...4B/...../...../1.... b2")
    for heuristic in (ProgressHeuristic(game), LeadHeuristic(game)):
        assert heuristic.evaluate(state, 0) > 0 > heuristic.evaluate(state, 1)
