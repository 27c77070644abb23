"""The matches game: rules, text formats, and the misère theory proven against brute-force search."""

from __future__ import annotations

from functools import cache
from itertools import product
from math import comb, factorial

import pytest

from framework import ConfigError, MoveParseError, PositionError
from framework.agentspec import parse_key_values
from framework.cli import main
from framework.conformance import GameConformance
from framework.match import play_game
from framework.perft import generic_perft
from plugins.agents.alphabeta import AlphaBetaAgent
from plugins.agents.random_agent import RandomAgent
from plugins.games.matches import (
    Matches,
    NormalPlayHeuristic,
    TheoryHeuristic,
    grundy,
    move_table,
    mover_loses,
    winning_moves,
)

GAME = Matches()


class TestMatches(GameConformance):
    game_factory = Matches
    # Checked against the closed-form count below; depth 15 (all single takes) is 15!/(3!5!7!) = 360,360.
    perft = {1: 9, 2: 74, 3: 556, 4: 3_750, 5: 22_192, 6: 111_434, 7: 454_364}
    position_perft = {"1,1 k=3 b": {1: 2, 2: 2, 3: 0}, "0,4 k=3 a": {1: 3, 2: 6, 3: 4, 4: 1, 5: 0}}
    positions = ["1,0,2 k=3 b", "0,0,0 k=3 a", "12,1 k=3 a"]
    bad_positions = ["3,5,7 a", "3,5,7 k=3", "3;5;7 k=3 a", "3,-5,7 k=3 a", "3,5,7 k=4 a", "3,5,7 k=3 c", ""]
    bad_moves = [(None, "2:3"), (None, "x"), (None, "4-1"), (None, "1-4"), (None, "1-0"), ("0,2 k=3 a", "1-1")]
    playouts = 20


class TestMatchesWideTakes(GameConformance):
    game_factory = staticmethod(lambda: Matches((1, 3, 5, 7), k=7))
    perft = {1: 16, 2: 16 * 16 - (1 + 6 + 15 + 28)}  # taking t leaves 16 - t moves
    positions = ["1,0,5,2 k=7 b"]


# -- brute force --------------------------------------------------------------------


def brute_force_mover_loses(game: Matches):
    """Negamax over the game's own rules, memoised on the sorted heaps (heap order does not matter)."""

    @cache
    def loses(heaps: tuple[int, ...]) -> bool:
        state = (heaps, 0)
        if game.is_terminal(state):
            return game.returns(state)[0] < 0
        return all(not loses(tuple(sorted(game.apply(state, m)[0]))) for m in game.legal_moves(state))

    return lambda heaps: loses(tuple(sorted(heaps)))


def all_positions(heap_count: int, largest: int):
    return product(range(largest + 1), repeat=heap_count)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_the_misere_rule_is_exact_for_every_position_up_to_four_heaps(k):
    game = Matches((1,), k)
    brute = brute_force_mover_loses(game)
    checked = 0
    for heap_count, largest in ((1, 20), (2, 13), (3, 10), (4, 8)):
        for heaps in all_positions(heap_count, largest):
            assert mover_loses(heaps, k) == brute(heaps), heaps
            checked += 1
    assert checked == 21 + 14 ** 2 + 11 ** 3 + 9 ** 4


@pytest.mark.parametrize("k", [1, 2, 3])
def test_winning_moves_are_exactly_the_moves_to_lost_positions(k):
    game = Matches((1,), k)
    brute = brute_force_mover_loses(game)
    for heaps in all_positions(3, 7):
        if not any(heaps):
            continue
        expected = [m for m in game.legal_moves((heaps, 0)) if brute(game.apply((heaps, 0), m)[0])]
        assert winning_moves(heaps, k) == expected
        assert (expected == []) == brute(heaps)


def test_grundy_values_of_one_heap_repeat_with_period_k_plus_one():
    assert [grundy(n, 3) for n in range(10)] == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]


def test_the_default_game_is_a_first_player_win_by_taking_one_match_from_any_heap():
    heaps = GAME.heaps  # Grundy values 3, 1, 3: nim-sum 1 with a value >= 2, so the mover wins
    assert not mover_loses(heaps, 3)
    assert [GAME.format_move(GAME.initial_state(), m) for m in winning_moves(heaps, 3)] == ["1-1", "2-1", "3-1"]


def test_the_mover_loses_facing_only_single_matches_in_odd_number():
    assert mover_loses((1,), 3) and mover_loses((1, 1, 1), 3) and not mover_loses((1, 1), 3)
    assert not mover_loses((0, 0), 3)  # the opponent took the last match


def test_the_theory_heuristic_is_exact_and_zero_sum():
    game = Matches((1,), 3)
    brute = brute_force_mover_loses(game)
    theory = TheoryHeuristic(game)
    for heaps in all_positions(3, 9):
        if not any(heaps):
            continue
        for mover in (0, 1):
            state = (heaps, mover)
            value = theory.evaluate(state, mover)
            assert value == (-1000.0 if brute(heaps) else 1000.0)
            assert theory.evaluate(state, 1 - mover) == -value


def test_normal_play_is_right_exactly_when_some_heap_has_grundy_value_two_or_more():
    game = Matches((1,), 3)
    brute = brute_force_mover_loses(game)
    normal = NormalPlayHeuristic(game)
    wrong = right = 0
    for heaps in all_positions(3, 9):
        if not any(heaps):
            continue
        says_win = normal.evaluate((heaps, 0), 0) > 0
        if says_win == (not brute(heaps)):
            right += 1
            assert max(grundy(n, 3) for n in heaps) >= 2
        else:
            wrong += 1
            assert max(grundy(n, 3) for n in heaps) <= 1
    assert wrong == 6 ** 3 - 1 and right == 10 ** 3 - 6 ** 3  # 0, 1, 4, 5, 8, 9 have Grundy value <= 1


# -- perft against a closed form ---------------------------------------------------


def closed_form_perft(heaps: tuple[int, ...], k: int, depth: int) -> int:
    """Paths of `depth` moves: interleavings of one composition (parts 1..k, sum <= size) per heap.

    Heap i gets d_i of the moves in one of C(left, d_i) placements among the moves left.

    A path ends only when every heap is empty, which can only be its last move, so no
    path is cut short and the count is a sum of multinomials times composition counts.
    """

    @cache
    def compositions(most: int, parts: int) -> int:  # sequences of `parts` takes in 1..k summing to <= most
        if parts == 0:
            return 1
        return sum(compositions(most - t, parts - 1) for t in range(1, min(k, most) + 1))

    def split(i: int, left: int) -> int:
        if i == len(heaps):
            return 1 if left == 0 else 0
        return sum(comb(left, d) * compositions(heaps[i], d) * split(i + 1, left - d) for d in range(left + 1))

    return split(0, depth)


@pytest.mark.parametrize("heaps, k, depths", [((3, 5, 7), 3, range(1, 8)), ((4, 4), 2, range(1, 9)),
                                               ((1, 2, 3, 4), 4, range(1, 9)), ((9,), 3, range(1, 10))])
def test_perft_equals_the_closed_form_count(heaps, k, depths):
    game = Matches(heaps, k)
    for depth in depths:
        assert generic_perft(game, game.initial_state(), depth) == closed_form_perft(heaps, k, depth)


def test_the_closed_form_reproduces_the_multinomial_at_full_depth():
    assert closed_form_perft((3, 5, 7), 3, 15) == factorial(15) // (factorial(3) * factorial(5) * factorial(7))
    assert closed_form_perft((3, 5, 7), 3, 16) == 0
    assert [closed_form_perft((3, 5, 7), 3, d) for d in range(8, 15)] == \
        [1_449_594, 3_524_886, 6_402_912, 8_512_680, 8_044_212, 5_132_556, 1_993_992]


# -- rules, text and errors -----------------------------------------------------------


def test_moves_take_one_to_k_matches_from_one_heap():
    state = GAME.from_text("0,2,5 k=3 b")
    assert [GAME.format_move(state, m) for m in GAME.legal_moves(state)] == ["2-1", "2-2", "3-1", "3-2", "3-3"]
    assert GAME.to_text(GAME.apply(state, GAME.parse_move(state, " 3 - 2 "))) == "0,2,3 k=3 a"


def test_whoever_takes_the_last_match_loses():
    last = GAME.apply(GAME.from_text("0,1,0 k=3 a"), (1, 1))
    assert GAME.is_terminal(last) and GAME.to_move(last) == 1 and GAME.returns(last) == (-1.0, 1.0)
    assert GAME.returns(GAME.from_text("0,1 k=3 a")) == (0.0, 0.0)


def test_render_draws_the_heaps():
    assert GAME.render(GAME.from_text("3,0,1 k=3 b")) == \
        "1: ||| (3)\n2: (0)\n3: | (1)\ntake 1 to 3; whoever takes the last match loses\nB to move"


@pytest.mark.parametrize("text, message", [
    ("3,5 a", "'3,5 a' is not a matches position; expected heap sizes separated by commas, 'k='"),
    ("3,5,7 k=4 a", "'3,5,7 k=4 a' is a position with k=4, but this game has k=3; start the game with the option k=4"),
])
def test_malformed_positions_say_what_was_expected(text, message):
    with pytest.raises(PositionError) as error:
        GAME.from_text(text)
    assert message in str(error.value)


@pytest.mark.parametrize("text, message", [
    ("2:3", "'2:3' is not a matches move; expected HEAP-TAKE with heaps numbered from 1, e.g. '2-3'"),
    ("1-4", "'1-4' is not a legal move here (take 1 to 3 matches from a heap that has them); legal moves: 1-1 1-2"),
])
def test_bad_moves_say_what_was_expected(text, message):
    with pytest.raises(MoveParseError) as error:
        GAME.parse_move(GAME.initial_state(), text)
    assert message in str(error.value)


@pytest.mark.parametrize("options, message", [
    ({"k": 0}, "'k' must be at least 1, got 0"),
    ({"heaps": 3}, "'heaps' must be a list, got 3"),
    ({"heaps": []}, "'heaps' must be a list of 1 to 20 heap sizes from 0 to 100000, got []"),
    ({"heaps": [3, -1]}, "'heaps' must be a list of 1 to 20 heap sizes from 0 to 100000, got [3, -1]"),
    ({"heaps": [3, 100_001]}, "'heaps' must be a list of 1 to 20 heap sizes from 0 to 100000, got [3, 100001]"),
    ({"heaps": [1] * 21}, "'heaps' must be a list of 1 to 20 heap sizes from 0 to 100000, got [1, 1, 1, 1, 1, 1, ...]"),
    ({"k": 101}, "'k' must be at most 100, got 101"),
    ({"k": 8000}, "'k' must be at most 100, got 8000"),
    ({"heaps": [3, "x"]}, "got [3, 'x']"),
    ({"heaps": [True]}, "got [True]"),
    ({"heaps": [0, 0]}, "'heaps' must hold at least one match, got [0, 0]"),
])
def test_bad_options_are_configuration_errors(registry, options, message):
    with pytest.raises(ConfigError) as error:
        registry.create_game("matches", options)
    assert message in str(error.value)


@pytest.mark.parametrize("k", [0, True, 2.5, 101, 8000])
def test_k_must_be_a_bounded_positive_integer_when_built_directly(k):
    with pytest.raises(ConfigError, match="game 'matches': 'k' must be an integer from 1 to 100, got"):
        Matches((3,), k)


def test_the_move_table_shares_its_moves_so_memory_stays_linear_in_k():
    table = move_table(20, 100)   # the largest game: every move object is built once per heap
    moves = {id(move) for row in table for prefix in row for move in prefix}
    assert len(moves) == 20 * 100 and table[3][2] == ((3, 1), (3, 2))


@pytest.mark.parametrize("text, message", [
    ("3,5,7 k=" + "9" * 5000 + " a", "is not a matches position"),   # int() of 5000 digits would raise ValueError
    ("3,5,٣ k=3 a", "is not a matches position"),                      # Unicode digits are not notation
    (",".join(["1"] * 21) + " k=3 a", "has 21 heaps of up to 1 matches; a matches position has at most 20"),
    ("3,100001 k=3 a", "has 2 heaps of up to 100001 matches"),
])
def test_position_numbers_are_bounded_ascii(text, message):
    with pytest.raises(PositionError, match=message):
        GAME.from_text(text)


@pytest.mark.parametrize("text", ["1-" + "9" * 5000, "١-1"])
def test_move_numbers_are_bounded_ascii(text):
    with pytest.raises(MoveParseError, match="is not a matches move"):
        GAME.parse_move(GAME.initial_state(), text)


def test_options_arrive_from_the_command_line(registry, capsys):
    game = registry.create_game("matches", parse_key_values(["heaps=[2,2]", "k=1"], "--option"))
    assert game.to_text(game.initial_state()) == "2,2 k=1 a"
    assert main(["perft", "matches", "4", "--option", "heaps=[2,2]", "--option", "k=1"]) == 0
    counts = [line.split()[1] for line in capsys.readouterr().out.splitlines()[1:]]
    assert counts == ["2", "4", "6", "6"]  # interleavings of two heaps of two single takes: C(4,2) = 6


def test_the_theory_heuristic_at_depth_one_beats_random_play_from_the_won_start():
    for seed in range(5):
        agents = [AlphaBetaAgent(GAME, depth=1, heuristic=TheoryHeuristic(GAME)), RandomAgent(GAME, seed=seed)]
        assert play_game(GAME, agents).winner == 0
