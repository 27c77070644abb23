"""The kernel interface bound three ways: compiled rules, the same rules interpreted, and a plain-Python
game through `KernelAdapter`; one search module (kernel_search_sample) runs over all three."""

import pytest

from framework.errors import ConfigError
from framework.kernel import api, numba_backend, python_backend
from framework.kernel.adapter import KernelAdapter, PassThroughAdapter
from framework.kernel.api import DERIVED, DICE_AND_SEATS, PRIMITIVES
from framework.layout import layout
from framework.perft import perft
from framework.protocols import WIN_SCORE
from plugins.games.loa import kernel as loa_kernel
from plugins.games.loa.game import LinesOfAction
from plugins.games.matches import Matches, NormalPlayHeuristic
from plugins.games.tictactoe import LinesHeuristic, TicTacToe
from tests.framework import kernel_search_sample

TTT = TicTacToe()


@pytest.mark.parametrize("game, depths", [(TTT, range(6)), (Matches(), range(5)), (Matches((2, 3), 2), range(7))])
def test_a_search_through_the_adapter_counts_the_games_own_perft(game, depths):
    adapter = KernelAdapter(game)
    search = python_backend.interpret(kernel_search_sample, adapter.functions())
    root = adapter.to_kernel(game.initial_state())
    assert [search.perft(root, d, 0) for d in depths] == [perft(game, game.initial_state(), d) for d in depths]


@pytest.mark.parametrize("game, depths", [(TTT, range(6)), (Matches((2, 3), 2), range(7))])
def test_a_search_through_the_pass_through_adapter_counts_the_games_own_perft(game, depths):
    adapter = PassThroughAdapter(game)
    search = python_backend.interpret(kernel_search_sample, adapter.functions())
    root = adapter.to_kernel(game.initial_state())
    assert root == game.initial_state()            # nothing interned: the game's own state
    assert [search.perft(root, d, 0) for d in depths] == [perft(game, game.initial_state(), d) for d in depths]


def test_the_pass_through_adapter_binds_every_name_with_the_games_own_answers():
    adapter = PassThroughAdapter(TTT, LinesHeuristic(TTT))
    f = adapter.functions()
    assert set(f) == set(PRIMITIVES + DERIVED + DICE_AND_SEATS)
    mid = TTT.from_text("X../.O./... x")
    assert f["move_count"](mid) == 7 and list(f["legal_moves"](mid)) == list(TTT.legal_moves(mid))
    drawn = [f["random_move"](mid, draw) for draw in (0, 2**31, 2**32 - 1)]
    assert drawn == [TTT.legal_moves(mid)[i] for i in (0, 3, 6)]
    assert f["search_key"](mid) == (TTT.hash_key(mid),) and adapter.move(4) == 4 == adapter.move_id(4)
    won = TTT.from_text("XXX/OO./... o")
    assert (f["outcome"](won, 0, 0), f["outcome"](mid, 0, 0)) == (api.WIN, api.ONGOING)
    assert f["evaluate"](mid, 1, ()) == LinesHeuristic(TTT).evaluate(mid, 1)


def test_tictactoe_perft_5_through_the_adapter_is_15120():
    adapter = KernelAdapter(TTT)
    search = python_backend.interpret(kernel_search_sample, adapter.functions())
    assert search.perft(adapter.to_kernel(TTT.initial_state()), 5, 0) == 15_120


def test_interned_states_and_moves_are_equal_exactly_when_the_games_are():
    adapter = KernelAdapter(TTT)
    f = adapter.functions()
    root = adapter.to_kernel(TTT.initial_state())
    a, b = f["legal_moves"](root)[:2]
    assert f["apply_move"](f["apply_move"](f["apply_move"](root, a), b), a) != root
    one = f["apply_move"](f["apply_move"](root, a), b)
    assert (adapter.move(a), adapter.move(b)) == (0, 1)
    two_x, two_o = TTT.apply(TTT.apply(TTT.initial_state(), 0), 1), adapter.state(one)
    assert two_x == two_o and adapter.to_kernel(two_x) == one
    assert f["search_key"](one) == (TTT.hash_key(two_x),)
    assert adapter.move_id(1) == b and adapter.to_kernel(TTT.initial_state()) == root == (0,)


def test_the_adapter_answers_outcome_scores_and_hints_from_the_game_and_heuristic():
    heuristic = LinesHeuristic(TTT)
    adapter = KernelAdapter(TTT, heuristic)
    f = adapter.functions()
    assert set(f) == set(PRIMITIVES + DERIVED + DICE_AND_SEATS)
    assert f["move_count"](adapter.to_kernel(TTT.initial_state())) == 9
    won = TTT.from_text("XXX/OO./... o")
    k = adapter.to_kernel(won)
    assert (f["outcome"](k, 0, 0), f["outcome"](k, 1, 0)) == (api.WIN, api.LOSS)
    assert f["terminal_score"](k, 1, 3, api.LOSS) == heuristic.terminal(won, 1, 3) == -WIN_SCORE
    plain = KernelAdapter(TTT)
    assert plain.functions()["terminal_score"](plain.to_kernel(won), 1, 3, api.LOSS) == -1.0   # raw returns
    mid = TTT.from_text("X../.O./... x")
    m = adapter.to_kernel(mid)
    assert f["outcome"](m, 0, 0) == api.ONGOING and not f["is_capture"](m, 0)
    assert f["evaluate"](m, 1, ()) == heuristic.evaluate(mid, 1) and f["score"](m, ()) == heuristic.evaluate(mid, 0)
    matches = Matches()
    adapter = KernelAdapter(matches, NormalPlayHeuristic(matches))
    assert adapter.functions()["outcome"](adapter.to_kernel(matches.initial_state()), 0, 0) == api.ONGOING


def test_loa_hints_are_the_games_ordered_moves_through_the_adapter_and_derived_over_the_rules_kernel():
    game = LinesOfAction()
    state = game.initial_state()
    adapter = KernelAdapter(game)
    f = adapter.functions()
    hinted = [adapter.move(m) for m in f["ordered_moves"](adapter.to_kernel(state))]
    assert hinted == list(game.ordered_moves(state))
    assert f["move_rank"](adapter.to_kernel(state), adapter.move_id(hinted[3])) == 3
    search = numba_backend.Kernel(kernel_search_sample, rules=loa_kernel.KERNEL, tag="sample")
    interpreted = search.interpreted
    assert interpreted.first_hint(state) == hinted[0]               # the derived `ordered_moves`, as Python
    assert [interpreted.perft(state, d, 0) for d in range(3)] == [perft(game, state, d) for d in range(3)]


def test_the_same_search_compiled_over_loa_counts_the_same_perft():
    game = LinesOfAction()
    state = game.initial_state()
    search = numba_backend.Kernel(kernel_search_sample, rules=loa_kernel.KERNEL, tag="sample")
    assert search.perft(loa_kernel.kernel_state(state), 3, 0) == perft(game, state, 3)
    assert search.first_hint(loa_kernel.kernel_state(state)) == game.ordered_moves(state)[0]


def test_a_layout_names_its_slots_once():
    slots, size = layout("Work", "nodes shifts*4 limit")
    assert (slots.nodes, slots.shifts, slots.limit, size) == (0, 1, 5, 6)
    with pytest.raises(ConfigError, match="'shifts\\*x' is not a slot name"):
        layout("Work", "nodes shifts*x")
