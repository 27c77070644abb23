"""English checkers: published perft counts, tactical rules, PDN text, draw options, errors."""

import random

import pytest

from framework import ConfigError, MoveParseError, PositionError
from framework.match import Termination, play_game
from plugins.agents.random_agent import RandomAgent
from plugins.games.checkers import Checkers, rules
from plugins.games.checkers.notation import move_squares

GAME = Checkers()
START = GAME.initial_state()
#: Published perft counts of the start position (each capture path counted once).
PERFT = [1, 7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680, 18_391_564]


def moves_of(fen: str, game: Checkers = GAME) -> list[str]:
    state = game.from_text(fen)
    return sorted(game.format_move(state, m) for m in game.legal_moves(state))


def naive_perft(game: Checkers, state, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(naive_perft(game, game.apply(state, m), depth - 1) for m in game.legal_moves(state))


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_from_the_start_matches_the_published_counts(depth):
    assert GAME.perft(START, depth) == PERFT[depth]


def test_bulk_counting_perft_agrees_with_expanding_every_leaf():
    state = START
    for move in ("11-15", "23-19", "8-11", "22-17"):
        state = GAME.apply(state, GAME.parse_move(state, move))
    assert GAME.perft(state, 4) == naive_perft(GAME, state, 4)
    kings = GAME.from_text("W:WK14,K23,30:BK9,K18,3")
    assert GAME.perft(kings, 4) == naive_perft(GAME, kings, 4)


def test_bulk_count_equals_the_number_of_generated_moves_on_random_positions():
    rng = random.Random(5)
    checked = captures = 0
    for _ in range(40):
        state = START
        while GAME.legal_moves(state):
            black, white, kings, mover, _ = state
            moves = rules.generate_moves(black, white, kings, mover)
            assert rules.count_moves(black, white, kings, mover) == len(moves), GAME.to_text(state)
            checked += 1
            captures += GAME.is_noisy(state, moves[0])
            state = GAME.apply(state, rng.choice(moves))
    assert checked > 2000 and captures > 500
    # Men only: a double jump, and a jump that crowns (no second jump although one would fit).
    assert rules.count_moves(*GAME.from_text("B:W14,23,15:B9,10")[:4]) == 3
    assert rules.count_moves(*GAME.from_text("B:W25,26:B23")[:4]) == 1


def test_black_opens_with_seven_moves():
    assert moves_of(GAME.to_text(START)) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]


def test_a_multi_jump_is_compulsory_and_continued_to_its_end():
    assert moves_of("B:W14,23:B1,9") == ["9x18x27"]


def test_a_man_crowned_by_a_jump_stops_there():
    state = GAME.from_text("B:W25,26:B23")
    assert [GAME.format_move(state, m) for m in GAME.legal_moves(state)] == ["23x30"]
    assert GAME.to_text(GAME.apply(state, GAME.parse_move(state, "23x30"))) == "W:W25:BK30"


def test_a_king_captures_backwards_and_a_man_does_not():
    assert moves_of("B:W14:BK18") == ["18x9"]
    assert moves_of("B:W14:B18") == ["18-22", "18-23"]
    assert moves_of("W:W14:B18") == ["14-10", "14-9"]
    assert moves_of("W:WK14:B18") == ["14x23"]


def test_a_king_may_circle_back_to_its_square_and_the_two_paths_are_distinct_moves():
    assert moves_of("B:W14,15,22,23:BK10") == ["10x17x26x19x10", "10x19x26x17x10"]
    state = GAME.from_text("B:W14,15,22,23:BK10")
    after = GAME.apply(state, GAME.parse_move(state, "10x19x26x17x10"))
    assert GAME.to_text(after) == "W:W:BK10" and GAME.returns(after) == (1.0, -1.0)
    with pytest.raises(MoveParseError, match="'10x10' is ambiguous: capture paths 10x17x26x19x10 10x19x26x17x10"):
        GAME.parse_move(state, "10x10")


def test_a_blocked_side_and_a_side_without_pieces_lose():
    blocked = GAME.from_text("B:W32:B28")
    assert GAME.legal_moves(blocked) == [] and GAME.is_terminal(blocked)
    assert GAME.returns(blocked) == (-1.0, 1.0) and GAME.end_reason(blocked) == "Black has no legal move"
    empty = GAME.from_text("W:W:B1")
    assert GAME.returns(empty) == (1.0, -1.0) and GAME.end_reason(empty) == "White has no pieces left"


def test_quiet_moves_draw_after_forty_moves_each_and_men_moves_reset_the_counter():
    state = GAME.from_text("B:WK32:BK1,5:H79")
    assert not GAME.is_terminal(state)
    drawn = GAME.apply(state, GAME.parse_move(state, "1-6"))
    assert drawn[4] == 80 and GAME.is_terminal(drawn) and GAME.legal_moves(drawn) == []
    assert GAME.returns(drawn) == (0.0, 0.0) and GAME.perft(drawn, 1) == 0 and GAME.perft(drawn, 0) == 1
    assert GAME.end_reason(drawn) == "40 moves each without a capture or a man move"
    assert GAME.apply(state, GAME.parse_move(state, "5-9"))[4] == 0
    assert not Checkers(quiet_moves=None).is_terminal(drawn)
    assert Checkers(quiet_moves=50).legal_moves(drawn) != []


def test_a_blocking_move_wins_even_when_it_completes_the_quiet_count():
    state = GAME.from_text("B:W5:BK6:H79")
    after = GAME.apply(state, GAME.parse_move(state, "6-1"))
    assert after[4] == 80 and GAME.returns(after) == (1.0, -1.0)


def test_game_options_come_from_the_registry(registry):
    game = registry.create_game("checkers", {"quiet_moves": 25, "repetition_limit": None})
    assert game.quiet_limit == 50 and game.repetition_limit is None
    assert registry.create_game("checkers").repetition_limit == 3
    with pytest.raises(ConfigError, match="'repetition_limit' must be at least 2"):
        registry.create_game("checkers", {"repetition_limit": 1})


def test_the_match_runner_draws_a_threefold_repetition():
    class Shuttle:
        def __init__(self, moves):
            self.moves, self.i = moves, 0

        def select_move(self, game, state, budget):
            from framework import Decision
            move = game.parse_move(state, self.moves[self.i % 2])
            self.i += 1
            return Decision(move)

    record = play_game(GAME, [Shuttle(["1-6", "6-1"]), Shuttle(["32-27", "27-32"])],
                       start=GAME.from_text("B:WK32:BK1"))
    assert record.termination is Termination.REPETITION and record.plies == 8


def test_random_games_stay_legal_and_end_by_the_rules():
    for seed in range(4):
        record = play_game(GAME, [RandomAgent(GAME, seed=seed), RandomAgent(GAME, seed=seed + 100)])
        assert record.termination in (Termination.NORMAL, Termination.REPETITION)
        final = GAME.from_text(record.final)
        black, white, kings, _, _ = final
        assert black & white == 0 and kings & ~(black | white) == 0
        assert black.bit_count() <= 12 and white.bit_count() <= 12


def test_fen_round_trips_and_keeps_side_to_move_and_counter():
    for text in ("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                 "W:WK3,18,24:B6,K26", "W:W:BK10", "B:WK1:BK32:H17"):
        assert GAME.to_text(GAME.from_text(text)) == text
    assert GAME.to_move(GAME.from_text("W:WK3:B6")) == 1


def test_the_draw_counter_is_bounded_by_the_game_rule():
    assert GAME.is_terminal(GAME.from_text("B:W21:B1:H80"))
    assert Checkers(quiet_moves=None).from_text("B:W21:B1:H2000")[4] == 2000   # no rule: the counter is not read
    assert GAME.from_text("B:W21:B") == (0, GAME.from_text("B:W21:B1")[1], 0, 0, 0)   # Black lost every piece


def test_fen_accepts_ranges_either_field_order_spaces_and_a_final_dot():
    start = GAME.to_text(START)
    for text in ("B:W21-32:B1-12", "B:B1-12:W21-32", " B:W21-32 : B1-8, 9,10 ,11,12. ", "b:w21-32:b1-12"):
        assert GAME.to_text(GAME.from_text(text)) == start


@pytest.mark.parametrize("text, message", [
    ("X:W21:B1", "'X:W21:B1' is not a checkers position; expected PDN FEN"),
    ("B:W21", "is not a checkers position"),
    ("B:W21:B1:H", "the draw counter field 'H' must be H and a number of plies"),
    ("B:W21:B1:Q3", "has 4 ':'-separated fields"),
    ("B:W21:W1", "must have one field for White"),
    ("B:W21,,22:B1", "has an empty item in a square list"),
    ("B:W33:B1", "'33' is not a square; squares are numbered 1 to 32"),
    ("B:WK:B1", "'' is not a square"),
    ("B:W32-21:B1", "the range '32-21' runs backwards; write it as '21-32'"),
    ("B:W21-32:B1-13", "gives Black 13 pieces; a side has at most 12"),
    ("B:W5:B5", "puts two pieces on square 5 \\(Black and White\\)"),
    ("B:W21:B30", "has a Black man on square 30, its crowning row; a man there is a king: write K30"),
    ("B:W2:B10", "has a White man on square 2"),
    ("B:W²:B1", "'²' is not a square; squares are numbered 1 to 32"),          # int('²') raises ValueError
    ("B:W٣:B1", "'٣' is not a square"),                                         # an Arabic-Indic 3: not PDN
    ("B:W21:B1:H9223372036854775808", "the draw counter field 'H9223372036854775808' must be H and a number of "
                                      "plies from 0 to 2000"),                  # numba TypingError on main
    ("B:W21:B1:H" + "9" * 5000, "must be H and a number of plies from 0 to 2000"),
    ("B:W21:B1:H81", "the draw counter H81 is past this game's limit of 80 plies"),
    ("B:W:B", "'B:W:B' cannot arise in play: White, who has just moved, has no pieces"),
    ("W:W21:B", "cannot arise in play: Black, who has just moved, has no pieces"),
])
def test_malformed_positions_are_rejected_with_the_text(text, message):
    with pytest.raises(PositionError, match=message):
        GAME.from_text(text)


def test_notation_round_trips_for_every_move_of_a_random_game():
    rng = random.Random(3)
    state = START
    for _ in range(200):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        for move in moves:
            assert GAME.parse_move(state, GAME.format_move(state, move)) == move
        state = GAME.apply(state, rng.choice(moves))


def test_a_multi_jump_parses_from_its_first_and_last_square():
    state = GAME.from_text("B:W14,23:B1,9")
    (move,) = GAME.legal_moves(state)
    assert GAME.parse_move(state, "9x27") == move and GAME.parse_move(state, " 9X18x27 ") == move
    assert move_squares(move) == (9, 18, 27)


@pytest.mark.parametrize("fen, text, message", [
    (None, "11-", "'11-' is not checkers notation; expected squares 1-32 as '11-15'"),
    (None, "11-15-19", "is not checkers notation"),
    (None, "c3-d4", "is not checkers notation"),
    (None, "11-40", "is not checkers notation"),
    (None, "11-14", "'11-14' is not a legal move here; legal moves: 10-14 10-15 11-15"),
    (None, "9x14", "'9x14' is not a legal capture here; legal moves:"),
    ("B:W14,23:B1,9", "1-6", "'1-6' is not legal here: a capture is compulsory; legal moves: 9x18x27"),
    ("B:W14,23:B1,9", "9-18", "a capture is compulsory"),
    ("B:W14,23:B1,9", "9x18", "'9x18' is not a legal capture here; legal moves: 9x18x27"),
    (None, "1²-15", "'1²-15' is not checkers notation"),   # int('1²') raised ValueError: a human lost the game
    (None, "١١-١٥", "is not checkers notation"),
    (None, "11-" + "1" * 5000, "is not checkers notation"),
])
def test_malformed_and_illegal_moves_are_rejected_with_the_text(fen, text, message):
    state = START if fen is None else GAME.from_text(fen)
    with pytest.raises(MoveParseError, match=message):
        GAME.parse_move(state, text)


def test_capabilities_for_search():
    state = GAME.from_text("B:W14,23:B1,9")
    (capture,) = GAME.legal_moves(state)
    step = GAME.parse_move(START, "11-15")
    assert GAME.is_noisy(state, capture) and not GAME.is_noisy(START, step)
    assert GAME.hash_key(START) != GAME.hash_key(GAME.apply(START, step))
    quiet = GAME.from_text("B:WK32:BK1:H4")
    assert GAME.hash_key(quiet) == GAME.hash_key(GAME.from_text("B:WK32:BK1"))
    assert GAME.hash_key(quiet) != GAME.hash_key(GAME.from_text("W:WK32:BK1"))
    crowning = GAME.from_text("B:WK1,K2:B25,K10")
    assert [GAME.format_move(crowning, m) for m in GAME.ordered_moves(crowning)][:2] == ["25-29", "25-30"]
    circling = GAME.from_text("B:W14,15,22,23,31:BK10,27")
    assert GAME.format_move(circling, GAME.ordered_moves(circling)[0]) in ("10x17x26x19x10", "10x19x26x17x10")


def test_render_shows_the_pieces_and_the_side_to_move():
    text = GAME.render(GAME.from_text("W:WK3,18:B6"))
    assert text.splitlines()[0] == " 1   .   .   W   ."
    assert text.splitlines()[1] == " 5 .   b   .   .  "
    assert text.endswith("White to move")


def test_tables_place_the_squares_on_the_ghost_layout():
    assert rules.SQUARE_BIT[1] == 1 and rules.SQUARE_BIT[9] == 1 << 9 and rules.SQUARE_BIT[32] == 1 << 34
    assert rules.VALID.bit_count() == 32 and rules.VALID < 1 << 35
