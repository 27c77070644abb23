"""The compiled checkers rules (compiled from rules.py) agree with the interpreted ones on 300 positions,
all in one test that tables every position that disagrees (tests/golden.py)."""

import numpy as np
import pytest

from framework.perft import generic_perft
from framework.playouts import playout_positions
from plugins.games.checkers import Checkers, heuristics, kernel, rules
from plugins.games.checkers.kernel import KERNEL, kernel_state
from tests.golden import assert_each_holds

GAME = Checkers(quiet_moves=None)


POSITIONS = playout_positions(GAME, 300, seed=8, every=2, max_plies=150)   # kings, multi-jumps, ends


def as_ints(state) -> tuple[int, ...]:
    return tuple(int(x) for x in state)


def test_the_sample_holds_kings_multi_jumps_and_ended_games():
    assert sum(1 for s in POSITIONS if s[2]) >= 50
    assert any(m >> 6 & 15 >= 2 for s in POSITIONS for m in GAME.legal_moves(s))
    assert any(GAME.is_terminal(s) for s in POSITIONS)


def test_compiled_rules_match_the_interpreted_rules():
    def check(index):
        state = POSITIONS[index]
        fast = kernel_state(state)
        moves = rules.generate_moves(*state[:4])
        assert list(KERNEL.generate_moves(*fast[:4])) == moves
        for move in moves:
            assert as_ints(KERNEL.apply_move(fast, move)) == rules.apply_move(state, move)
        assert KERNEL.count_moves(*fast[:4]) == rules.count_moves(*state[:4]) == len(moves)
        assert KERNEL.has_moves(*fast[:4]) == rules.has_moves(*state[:4])
        for move in moves:
            assert KERNEL.move_rank(fast, move) == rules.move_rank(state, move)
            assert KERNEL.is_capture(fast, move) == rules.is_capture(state, move)
        limit = (state[4] + 2) if index % 3 == 0 else rules.NO_LIMIT     # some paths meet the quiet-move draw
        for depth in (1, 2, 3) if index % 10 == 0 else (1, 2):
            assert kernel.perft(state, depth, limit) == rules.perft(state, depth, limit)
    assert_each_holds(range(len(POSITIONS)), check, what="checkers positions")


def test_the_game_uses_the_compiled_perft_unless_disabled(monkeypatch):
    game = Checkers()
    compiled = game.perft(game.initial_state(), 6)
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    assert game.perft(game.initial_state(), 6) == compiled == generic_perft(game, game.initial_state(), 6) == 36_768


def test_compiled_perft_from_the_start_is_3_963_680_at_depth_9():
    # The published English checkers perft counts (listed in the README) are 7, 49, 302, 1,469, 7,361,
    # 36,768, 179,740, 845,931, 3,963,680; the conformance suite checks depths 1-7 interpreted.
    assert Checkers().perft(rules.INITIAL, 9) == 3_963_680


@pytest.mark.parametrize("heuristic", heuristics.HEURISTICS)
def test_compiled_heuristics_score_every_sampled_position_as_the_interpreted_ones(heuristic):
    weights = heuristic(GAME).weights
    function = kernel.SCORES[heuristic]
    compiled = getattr(kernel.HEURISTICS_KERNEL, function)
    for state in POSITIONS:
        assert compiled(kernel_state(state), np.array(weights)) == getattr(heuristics, function)(state, weights)


def test_hash_key_packs_the_search_key_at_the_kernel_key_shifts():
    """Compiled tables hash `search_key`'s words at these shifts: the slots match the interpreted table's."""
    for state in POSITIONS:
        key = KERNEL.search_key(kernel_state(state))
        assert GAME.hash_key(state) == sum(int(word) << shift for word, shift in zip(key, kernel.KEY_SHIFTS))


def test_every_quiet_move_is_below_the_move_space_and_some_captures_are_not():
    moves = [m for s in POSITIONS for m in GAME.legal_moves(s)]
    assert max(m for m in moves if not rules.jumps(m)) < kernel.MOVE_SPACE
    assert any(m >= kernel.MOVE_SPACE for m in moves if rules.jumps(m))
