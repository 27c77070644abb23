"""Alpha-beta as a solver: known tic-tac-toe values and both node-count conventions."""

import pytest

from framework.errors import PositionError
from framework.protocols import UNLIMITED, Budget, Proof, Solver
from plugins.agents.alphabeta import ALL_OFF, AlphaBetaAgent
from plugins.agents.minimax import MinimaxAgent
from plugins.games.matches import Matches
from plugins.games.tictactoe import LinesHeuristic, TicTacToe

TTT = TicTacToe()


def test_alphabeta_is_a_solver():
    assert isinstance(AlphaBetaAgent(TTT), Solver)


@pytest.mark.parametrize("options", [{}, ALL_OFF, {"pvs": True, "aspiration": True, "lmr": True, "singular": True}],
                         ids=["defaults", "all off", "everything on"])
def test_tic_tac_toe_is_a_draw_and_the_thesis_position_a_loss_for_o(options):
    result = AlphaBetaAgent(TTT, **options).solve(TTT, TTT.initial_state(), UNLIMITED)
    assert result.value is Proof.DRAW and result.move in TTT.legal_moves(TTT.initial_state())
    thesis = TTT.from_text("XXO/.X./O.. o")
    result = AlphaBetaAgent(TTT, **options).solve(TTT, thesis, UNLIMITED)
    assert result.value is Proof.LOSS and result.stats.extra["proof"] == "loss"


def test_a_win_is_proven_with_the_winning_move():
    state = TTT.from_text("XX./OO./... x")   # X completes the top row at c3
    result = AlphaBetaAgent(TTT).solve(TTT, state, UNLIMITED)
    assert result.value is Proof.WIN and TTT.format_move(state, result.move) == "c3"
    assert result.stats.depth == 1 and result.stats.nodes == 1 + 5   # one iteration: the root and its 5 children


def test_solver_values_agree_with_full_minimax_on_every_position_after_three_plies():
    minimax, solver = MinimaxAgent(TTT), AlphaBetaAgent(TTT)
    frontier = [TTT.initial_state()]
    for _ in range(3):
        frontier = list({TTT.apply(s, m) for s in frontier for m in TTT.legal_moves(s)})
    for state in frontier:
        if TTT.is_terminal(state):
            continue
        value = minimax.select_move(TTT, state, UNLIMITED).stats.score   # for the side to move (O)
        expected = Proof.WIN if value > 0 else Proof.LOSS if value < 0 else Proof.DRAW
        assert solver.solve(TTT, state, UNLIMITED).value is expected, TTT.to_text(state)


def test_both_node_counts_in_a_hand_counted_endgame():
    # X X O / O O X / . . . with X to move. Iteration 1: root + 3 children (4 nodes). Iteration 2:
    # root, a1 with O's two replies, b1 and c1 each refuted by O's win at a1 (8 nodes, 4 at ply 2).
    # Iteration 3: root, a1's subtree of 5 (2 terminal nodes at ply 3), b1 and c1 answered by the
    # table as proven losses for X (8 nodes). All: 4 + 8 + 8 = 20; first reaching each depth: 4 + 4 + 2.
    result = AlphaBetaAgent(TTT).solve(TTT, TTT.from_text("XXO/OOX/... x"), UNLIMITED)
    assert result.value is Proof.DRAW and TTT.format_move(TTT.from_text("XXO/OOX/... x"), result.move) == "a1"
    extra = result.stats.extra
    assert extra["iteration_nodes"] == (4, 8, 8)
    assert extra["nodes_all_iterations"] == result.stats.nodes == 20
    assert extra["nodes_first_reaching_depth"] == 10


def test_without_iterative_deepening_both_conventions_count_the_same_single_search():
    result = AlphaBetaAgent(TTT, **ALL_OFF).solve(TTT, TTT.initial_state(), UNLIMITED)
    assert result.value is Proof.DRAW
    assert result.stats.extra["nodes_all_iterations"] == result.stats.extra["nodes_first_reaching_depth"] == 18_297


def test_a_budget_too_small_to_prove_anything_reports_unknown_within_the_budget():
    result = AlphaBetaAgent(TTT).solve(TTT, TTT.initial_state(), Budget(nodes=300))
    assert result.value is Proof.UNKNOWN and result.stats.nodes == 300
    assert result.stats.extra["complete"] is False
    assert result.stats.extra["nodes_first_reaching_depth"] <= result.stats.extra["nodes_all_iterations"]


def test_a_depth_cap_stops_the_proof_search():
    result = AlphaBetaAgent(TTT, depth=4, heuristic=LinesHeuristic(TTT)).solve(TTT, TTT.initial_state(), UNLIMITED)
    assert result.value is Proof.UNKNOWN and result.stats.depth == 4
    assert len(result.stats.extra["iteration_nodes"]) == 4


def test_solving_a_finished_game_is_a_position_error():
    with pytest.raises(PositionError, match="cannot solve 'XXX/OO./... o': the game is already over"):
        AlphaBetaAgent(TTT).solve(TTT, TTT.from_text("XXX/OO./... o"), UNLIMITED)


def test_a_line_deeper_than_pythons_recursion_gives_unknown_instead_of_a_crash():
    game = Matches((5_000,), k=1)      # one match a move: every line of the game is 5,000 plies long
    result = AlphaBetaAgent(game, iterative_deepening=False).solve(game, game.initial_state(), UNLIMITED)
    assert result.value is Proof.UNKNOWN and 0 < result.stats.nodes < 5_000   # stopped on the way down
