"""Rolit: the conformance suite for 2, 3 and 4 players, perft from two independent counts (the bitboard rules
and a plain 8x8 grid written here), and the rules' facts from the published description."""

import pytest

from framework.conformance import GameConformance
from framework.errors import ConfigError, PositionError
from framework.perft import perft
from plugins.games.rolit import CornersHeuristic, DiscsHeuristic, Rolit

START = "......../......../......../...BG.../...RY.../......../......../........ r"
MIDGAME = "......../......../..YB..../..GBGR../..RRYY../...YR.../......../........ g"

# Recorded from both counts below (they agree at every depth).
PERFT = {2: {1: 3, 2: 20, 3: 93, 4: 572, 5: 2_914},
         3: {1: 3, 2: 20, 3: 136, 4: 630, 5: 3_956},
         4: {1: 3, 2: 20, 3: 136, 4: 1_366, 5: 7_427}}


class TestRolit(GameConformance):
    game_factory = Rolit
    perft = PERFT[4]
    positions = [START, MIDGAME]
    bad_positions = ["......../......../......../...BG.../...RY.../......../......../........ x",
                     "......../......../......../...BG.../...RY.../......../......../....... r",
                     "......../......../......../......../......../......../......../........ r", ""]
    bad_moves = [(None, "a1"), (None, "d4"), (None, "i9")]
    playouts = 4
    playouts_per_position = 2


class TestThreePlayerRolit(GameConformance):
    game_factory = staticmethod(lambda: Rolit(players=3))
    perft = PERFT[3]
    bad_positions = ["......../......../......../...BG.../...RY.../......../......../........ b"]
    playouts = 4


class TestTwoPlayerRolit(GameConformance):
    game_factory = staticmethod(lambda: Rolit(players=2))
    perft = PERFT[2]
    playouts = 4


# -- an independent count: a plain 8x8 grid, no bitboards ---------------------------------------------------

STEPS = [(dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if dr or df]


def grid_start() -> list[list[int | None]]:
    grid: list[list[int | None]] = [[None] * 8 for _ in range(8)]
    grid[3][3], grid[3][4], grid[4][4], grid[4][3] = 0, 1, 2, 3      # d4 R, e4 Y, e5 G, d5 B (grid[rank][file])
    return grid


def grid_turns(grid, colour, r, f):
    turned = []
    for dr, df in STEPS:
        line, rr, ff = [], r + dr, f + df
        while 0 <= rr < 8 and 0 <= ff < 8 and grid[rr][ff] is not None and grid[rr][ff] != colour:
            line.append((rr, ff))
            rr, ff = rr + dr, ff + df
        if line and 0 <= rr < 8 and 0 <= ff < 8 and grid[rr][ff] == colour:
            turned += line
    return turned


def grid_moves(grid, colour):
    empty = [(r, f) for r in range(8) for f in range(8) if grid[r][f] is None]
    capturing = [(r, f) for r, f in empty if grid_turns(grid, colour, r, f)]
    if capturing:
        return capturing
    return [(r, f) for r, f in empty
            if any(0 <= r + dr < 8 and 0 <= f + df < 8 and grid[r + dr][f + df] is not None for dr, df in STEPS)]


def grid_perft(grid, colour, players, depth):
    moves = grid_moves(grid, colour)
    if depth == 1:
        return len(moves)
    total = 0
    for r, f in moves:
        child = [row[:] for row in grid]
        for rr, ff in grid_turns(grid, colour, r, f):
            child[rr][ff] = colour
        child[r][f] = colour
        total += grid_perft(child, (colour + 1) % players, players, depth - 1)
    return total


@pytest.mark.parametrize("players", [3, 4])
def test_perft_agrees_with_a_plain_grid_count(players):
    game = Rolit(players)
    for depth in range(1, 5):
        assert perft(game, game.initial_state(), depth) == grid_perft(grid_start(), 0, players, depth) \
            == PERFT[players][depth]


def test_the_published_opening_facts():
    """Red captures with d6, f4 or f6; after f4 Yellow has no ball and 14 squares next to a ball."""
    game = Rolit()
    state = game.initial_state()
    assert game.to_text(state) == START
    assert sorted(game.format_move(state, m) for m in game.legal_moves(state)) == ["d6", "f4", "f6"]
    after = game.apply(state, game.parse_move(state, "f4"))
    assert game.to_text(after) == "......../......../......../...BG.../...RRR../......../......../........ y"
    assert len(game.legal_moves(after)) == 14


def test_a_full_board_shares_the_win_among_the_leaders():
    game = Rolit(3)
    full = "RRRRRRRR/RRRRRRRR/RRRRRRRR/YYYYYYYY/YYYYYYYY/YYYYYYYY/GGGGGGGG/BBBBBBBB r"
    state = game.from_text(full)
    assert game.is_terminal(state) and game.returns(state) == (0.5, 0.5, -1.0)
    assert game.legal_moves(state) == []


def test_options_and_texts_out_of_range():
    with pytest.raises(ConfigError, match="'players' must be 2, 3 or 4, got 5"):
        Rolit(5)
    with pytest.raises(PositionError, match="has Blue to move, but this game has 3 players"):
        Rolit(3).from_text(START.replace(" r", " b"))


def test_heuristics_are_zero_sum_over_the_seats():
    game = Rolit(3)
    state = game.from_text(MIDGAME.replace(" g", " r"))
    for heuristic in (DiscsHeuristic(game), CornersHeuristic(game)):
        values = [heuristic.evaluate(state, seat) for seat in range(3)]
        assert sum(values) == pytest.approx(0.0) and max(values) > 0
