"""Lines of Action: rules facts, perft, text format, notation and heuristics."""

import random

import pytest

from framework import ConfigError, MoveParseError, PositionError
from framework.perft import generic_perft
from framework.protocols import WIN_SCORE
from plugins.games.loa.game import SCRAMBLED_START, STANDARD_START, LinesOfAction
from plugins.games.loa.heuristics import (
    ConcentrationHeuristic,
    GroupsHeuristic,
    MobilityHeuristic,
    count_groups,
    euler_number,
    mobility_balance,
)
from plugins.games.loa.rules import N_LINES, PASS, generate_moves, is_connected, line_moves
from tests.plugins.games.test_loa_conformance import MIDGAME_POSITIONS

GAME = LinesOfAction()
MIDGAME = MIDGAME_POSITIONS[1]
MOVER_WINS = LinesOfAction(simultaneous="mover_wins")


def moves_of(state, square, game=GAME):
    return sorted(n for n in (game.format_move(state, m) for m in game.legal_moves(state)) if n.startswith(square))


def test_start_position_and_its_36_moves():
    state = GAME.initial_state()
    assert GAME.to_text(state) == STANDARD_START and GAME.to_move(state) == 0 and not GAME.is_terminal(state)
    assert len(GAME.legal_moves(state)) == 36
    # b1: 2 pieces on file b, 6 on rank 1, 2 on the b1-h7 diagonal, and the a2 diagonal runs off the board.
    assert moves_of(state, "b1") == ["b1-b3", "b1-d3", "b1-h1"]
    # c1: the c1-a3 diagonal holds c1 and a3, so c1 captures a3 two squares away.
    assert moves_of(state, "c1") == ["c1-c3", "c1-e3", "c1xa3"]


def test_a_piece_jumps_its_own_pieces_but_not_the_enemy():
    state = GAME.from_text(".......w/......../......../......../......../..b...../......../bw...... b")
    # rank 1 holds a1 and b1 (2): a1-c1 would jump White's b1; the long diagonal holds a1, c3, h8 (3).
    assert moves_of(state, "a1") == ["a1-a2", "a1-d4"]


def test_connecting_all_pieces_wins():
    state = GAME.from_text("w......./......../w......./......../......../b......./......../b....... b")
    move = GAME.parse_move(state, "a3-b2")
    after = GAME.apply(state, move)
    assert GAME.is_terminal(after) and GAME.returns(after) == (1.0, -1.0) and GAME.legal_moves(after) == []
    assert GAME.end_reason(after) == "Black connected all pieces"


PASS_POSITION = "......bw/......bb/......../......../......../......../bb....../wb...... w"
SIMULTANEOUS = ".......w/.......w/......../......../.b....../......../.w....../b....... b"


def test_a_move_connecting_both_sides_draws_by_default_and_wins_for_the_mover_as_an_option():
    state = GAME.from_text(SIMULTANEOUS)
    after = GAME.apply(state, GAME.parse_move(state, "b4xb2"))
    assert is_connected(after[0]) and is_connected(after[1])
    assert GAME.is_terminal(after) and GAME.returns(after) == (0.0, 0.0)
    assert GAME.end_reason(after) == "a move connected both sides at once"
    assert MOVER_WINS.returns(after) == (1.0, -1.0)


def test_capturing_the_last_stray_enemy_piece_connects_and_so_wins_for_the_enemy():
    state = GAME.from_text(SIMULTANEOUS.replace("b....... b", "b......b b"))
    after = GAME.apply(state, GAME.parse_move(state, "b4xb2"))
    assert GAME.returns(after) == (-1.0, 1.0) and MOVER_WINS.returns(after) == (-1.0, 1.0)


def test_a_side_without_moves_passes():
    state = GAME.from_text(PASS_POSITION)
    assert not GAME.is_terminal(state)
    assert GAME.legal_moves(state) == [PASS] and GAME.format_move(state, PASS) == "pass"
    assert GAME.parse_move(state, "pass") == PASS
    assert GAME.apply(state, PASS) == (state[0], state[1], 0)
    with pytest.raises(MoveParseError, match="'pass' is not a legal move here; legal moves: b2xb4"):
        GAME.parse_move(GAME.from_text(SIMULTANEOUS.replace("b....... b", "b....... w")), "pass")


def test_scrambled_eggs_start_alternates_colours_round_the_edge():
    game = LinesOfAction(start="scrambled")
    state = game.initial_state()
    assert game.to_text(state) == SCRAMBLED_START
    assert state[0].bit_count() == state[1].bit_count() == 12
    assert game.to_text(state).split("/")[6] == "w......b"  # White on a2, Black on h2


def test_game_options_come_from_the_registry(registry):
    game = registry.create_game("loa", {"simultaneous": "mover_wins", "start": "scrambled"})
    assert game.simultaneous_win and game.to_text(game.initial_state()) == SCRAMBLED_START
    with pytest.raises(ConfigError, match="'simultaneous' must be one of"):
        registry.create_game("loa", {"simultaneous": "sometimes"})
    assert {h.name for h in registry.heuristics_for("loa")} == {"groups", "concentration", "mobility"}
    assert registry.create_heuristic(game).name == "concentration"


def test_apply_leaves_the_input_alone_and_hash_key_packs_the_state():
    state = GAME.initial_state()
    after = GAME.apply(state, GAME.parse_move(state, "b1-b3"))
    assert GAME.to_text(state) == STANDARD_START
    assert GAME.to_text(after) == ".bbbbbb./w......w/w......w/w......w/w......w/wb.....w/w......w/..bbbbb. w"
    assert GAME.hash_key(after) != GAME.hash_key(state)
    assert GAME.hash_key((after[0], after[1], 0)) != GAME.hash_key(after)


def test_ordered_moves_put_captures_first():
    state = GAME.initial_state()
    ordered = [GAME.format_move(state, m) for m in GAME.ordered_moves(state)]
    assert ordered[:4] == ["c1xa3", "f1xh3", "c8xa6", "f8xh6"] and sorted(ordered) == sorted(
        GAME.format_move(state, m) for m in GAME.legal_moves(state))
    assert GAME.is_noisy(state, GAME.parse_move(state, "c1xa3")) and not GAME.is_noisy(state, PASS)


def test_text_round_trips_and_render_shows_the_board():
    for text in (STANDARD_START, SCRAMBLED_START, SIMULTANEOUS, MIDGAME):
        assert GAME.to_text(GAME.from_text(text)) == text
    assert GAME.to_move(GAME.from_text(MIDGAME)) == 1
    lines = GAME.render(GAME.initial_state()).splitlines()
    assert lines[0] == "8 . b b b b b b ." and lines[8] == "  a b c d e f g h" and lines[9] == "Black to move"


@pytest.mark.parametrize("text, message", [
    (STANDARD_START[:-2], "is not a Lines of Action position; expected 8 ranks"),
    (STANDARD_START[:-1] + "x", "the side to move is 'x'; expected 'b' or 'w'"),
    (".bbbbbb./w......w b", "has 2 ranks; expected 8 ranks"),
    (STANDARD_START.replace("w......w/", "w.....w/", 1), "rank 7 'w.....w' has 7 characters; expected 8"),
    (STANDARD_START.replace("w......w/", "w..o...w/", 1), "rank 7 'w..o...w' contains 'o'; expected only"),
    ("......../......../......../......../......../......../......../w....... b", "Black has 0 pieces"),
    (STANDARD_START.replace("w......w/", "wbbbbbbw/", 1), "Black has 18 pieces; expected 1 to 12"),
])
def test_malformed_positions_are_rejected_with_the_text(text, message):
    with pytest.raises(PositionError, match=message) as info:
        GAME.from_text(text)
    assert text.split()[0][:8] in str(info.value)


@pytest.mark.parametrize("text, message", [
    ("b1-b9", "'b1-b9' is not a Lines of Action move; expected from-square"),
    ("b1b3", "'b1b3' is not a Lines of Action move"),
    ("b1xb3", "'b1xb3': write 'b1-b3', with 'x' exactly when the move captures"),
    ("c1-a3", "'c1-a3': write 'c1xa3'"),
    ("b1-b4", "'b1-b4' is not a legal move here; legal moves: b1-b3 b1-h1"),
    ("pass", "'pass' is not a legal move here"),
])
def test_bad_moves_are_rejected_with_the_text(text, message):
    with pytest.raises(MoveParseError, match=message):
        GAME.parse_move(GAME.initial_state(), text)


def test_moves_parse_case_insensitively_and_round_trip():
    state = GAME.initial_state()
    for move in GAME.legal_moves(state):
        assert GAME.parse_move(state, GAME.format_move(state, move).upper()) == move


def test_no_move_can_be_parsed_once_the_game_is_over():
    over = GAME.from_text("w......./......../......../......../......../......../.b....../b....... w")
    with pytest.raises(MoveParseError, match="'a8-a7': the game is over"):
        GAME.parse_move(over, "a8-a7")


def test_connection_groups_and_euler_number_facts():
    ring = 0b111 << 9 | 0b101 << 17 | 0b111 << 25          # b2-d2, b3 d3, b4-d4: one group round a hole
    assert is_connected(ring) and count_groups(ring) == 1 and euler_number(ring) == 0
    corners = 1 | 1 << 7 | 1 << 56 | 1 << 63
    assert not is_connected(corners) and count_groups(corners) == 4 and euler_number(corners) == 4
    assert is_connected(0) and is_connected(1 << 35) and euler_number(1 << 35) == 1
    # Dilation must not wrap round the edge: h1 and a2 are not neighbours.
    assert not is_connected(1 << 7 | 1 << 8) and count_groups(1 << 7 | 1 << 8) == 2
    start = GAME.initial_state()
    assert count_groups(start[0]) == count_groups(start[1]) == 2


@pytest.mark.parametrize("heuristic", [GroupsHeuristic, ConcentrationHeuristic, MobilityHeuristic])
def test_heuristics_are_zero_sum_and_far_inside_win_score(heuristic):
    h = heuristic(GAME)
    for text in MIDGAME_POSITIONS:
        state = GAME.from_text(text)
        value = h.evaluate(state, 0)
        assert value == -h.evaluate(state, 1) and abs(value) < WIN_SCORE / 100


def test_heuristic_facts():
    start = GAME.initial_state()
    # The start is symmetric under a quarter turn that swaps the colours: only the tempo term differs.
    assert GroupsHeuristic(GAME).evaluate(start, 0) == 0.0
    assert ConcentrationHeuristic(GAME).evaluate(start, 0) == 0.0
    assert MobilityHeuristic(GAME).evaluate(start, 0) == 15.0 and MobilityHeuristic(GAME).evaluate(start, 1) == -15.0
    # Black in one group, White in three: 200 for Black by group count.
    three = GAME.from_text("w......./......../......w./......../......../..bb..../..bb..../w....... b")
    assert GroupsHeuristic(GAME).evaluate(three, 0) == 200.0
    # A tight block beats the same number of pieces scattered.
    assert ConcentrationHeuristic(GAME).evaluate(three, 0) > 0


@pytest.mark.parametrize("text", [PASS_POSITION, PASS_POSITION[:-1] + "b", SIMULTANEOUS,
                                  SIMULTANEOUS.replace("b....... b", "b......b b"), MIDGAME])
def test_the_fast_perft_agrees_with_the_generic_one_round_passes_and_connections(text):
    state = GAME.from_text(text)
    for depth in range(5):
        assert GAME.perft(state, depth) == generic_perft(GAME, state, depth), depth


def test_move_counts_per_line_add_up_to_the_generated_moves():
    def weighted(own, enemy):  # moves, captures counting double
        return sum(1 + (enemy >> (m & 63) & 1) for m in generate_moves(own, enemy))

    rng = random.Random(7)
    for _ in range(50):
        state = GAME.initial_state()
        for _ in range(rng.randrange(60)):
            if GAME.is_terminal(state):
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        black, white, _ = state
        for own, enemy in ((black, white), (white, black)):
            assert sum(line_moves(line, own, enemy) for line in range(N_LINES)) == len(generate_moves(own, enemy))
        assert mobility_balance(black, white) == weighted(black, white) - weighted(white, black)
