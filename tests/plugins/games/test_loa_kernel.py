"""The compiled LOA rules (compiled from rules.py) agree with the interpreted ones on 300 positions,
all in one test that tables every position that disagrees (tests/golden.py)."""


from framework.perft import generic_perft
from framework.playouts import playout_positions
from plugins.games.loa import kernel, rules
from plugins.games.loa.game import SCRAMBLED_START, LinesOfAction
from plugins.games.loa.kernel import KERNEL, kernel_state
from tests.golden import assert_each_holds

GAME = LinesOfAction()


#: White to move cannot move (a pass), with a piece on h8.
PASSING = GAME.from_text("......bw/......bb/......../......../......../......../bb....../wb...... w")
POSITIONS = [PASSING] + playout_positions(
    GAME, 299, seed=8, starts=(GAME.initial_state(), GAME.from_text(SCRAMBLED_START)))


def as_ints(state) -> tuple[int, int, int]:
    return int(state[0]), int(state[1]), int(state[2])


def test_the_sample_holds_h8_passes_and_game_ends():
    assert sum(1 for b, w, _ in POSITIONS if (b | w) >> 63) >= 30   # h8 = bit 63, the uint64 sign bit
    assert GAME.legal_moves(PASSING) == [rules.PASS] and any(GAME.is_terminal(s) for s in POSITIONS)


def test_compiled_rules_match_the_interpreted_rules():
    def check(index):
        state = POSITIONS[index]
        fast = kernel_state(state)
        moves = rules.legal_moves(state)
        assert list(KERNEL.legal_moves(fast)) == moves
        assert rules.move_count(state) == KERNEL.move_count(fast) == len(moves)      # 0 once over, 1 for a pass
        for move in moves:
            assert as_ints(KERNEL.apply_move(fast, move)) == rules.apply_move(state, move)
            assert KERNEL.move_rank(fast, move) == rules.move_rank(state, move)
            assert move < kernel.MOVE_SPACE
        for simultaneous in (False, True):
            assert KERNEL.winner(fast[0], fast[1], state[2], simultaneous) == rules.winner(*state, simultaneous)
        if not GAME.is_terminal(state):
            own, enemy = (state[1], state[0]) if state[2] else (state[0], state[1])
            counted = len(rules.generate_moves(own, enemy))
            assert rules.count_moves(own, enemy) == KERNEL.count_moves(*kernel_state((own, enemy, 0))[:2]) == counted
            for k, move in enumerate(moves):     # the least draw of each move: every index, then the last draw
                draw = -(-k * 2**32 // len(moves))
                assert rules.random_move(state, draw) == KERNEL.random_move(fast, draw) == move
            assert rules.random_move(state, 2**32 - 1) == KERNEL.random_move(fast, 2**32 - 1) == moves[-1]
            for depth in (1, 2, 3) if index % 10 == 0 else (1, 2):
                assert kernel.perft(own, enemy, depth) == rules.perft(own, enemy, depth)
    assert_each_holds(range(len(POSITIONS)), check, what="LOA positions")


def test_the_game_uses_the_compiled_perft_unless_disabled(monkeypatch):
    state = POSITIONS[30]
    compiled = GAME.perft(state, 3)
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    assert GAME.perft(state, 3) == compiled == generic_perft(GAME, state, 3)


def test_compiled_perft_from_the_start_is_55_963_132_at_depth_5():
    # Depths 1-4 are cross-checked against OpenSpiel by the conformance suite; the interpreted rules
    # count the same 55,963,132 at depth 5 (`PLYGROUND_JIT=0 plyground perft loa 5`, about a minute).
    assert GAME.perft(GAME.initial_state(), 5) == 55_963_132


def test_hash_key_packs_the_search_key_at_the_kernel_key_shifts():
    """Compiled tables hash `search_key`'s words at these shifts: the slots match the interpreted table's."""
    for state in POSITIONS:
        key = KERNEL.search_key(kernel_state(state))
        assert GAME.hash_key(state) == sum(int(word) << shift for word, shift in zip(key, kernel.KEY_SHIFTS))
