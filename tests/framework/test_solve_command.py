"""`plyground solve`: exact values where a game computes them, an agent's proof otherwise."""

import pytest

from framework.cli import main


def solve(capsys, *argv):
    code = main(["solve", *argv])
    return code, capsys.readouterr()


def test_pig_prints_the_optimal_first_players_win_probability(capsys):
    code, out = solve(capsys, "pig", "--option", "goal=100")
    assert code == 0 and out.out == "0.530593  (P1 to move: optimal value, exact)\n"


def test_a_chance_node_prints_every_seats_value(capsys):
    code, out = solve(capsys, "pig", "-o", "goal=50", "--position", "30,45 t=0 p1 rolling goal=50")
    assert code == 0 and out.out == "P1 0.446458  P2 0.553542\n"


def test_a_deterministic_game_is_solved_by_the_default_solver(capsys):
    code, out = solve(capsys, "tictactoe")
    assert code == 0 and out.out.startswith("draw  (X to move") and "pns" in out.out


def test_another_solver_and_a_won_position(capsys):
    code, out = solve(capsys, "matches", "--solver", "alphabeta")
    assert code == 0 and out.out.startswith("win  (A to move, best move ")


@pytest.mark.parametrize("argv, message", [
    (["tictactoe", "--solver", "exact"], "tictactoe computes no exact values; give --solver with an agent that "
                                         "solves (alphabeta, dfpn, mcts, pds, pdspn, pn2, pns)"),
    (["tictactoe", "--solver", "random"], "--solver 'random' plays but cannot solve; agents that solve: alphabeta"),
    (["pig", "--solver", "pns"], "--solver 'pns' cannot search chance nodes and pig has them"),
    (["tictactoe", "--solver", "alphabeta", "--param", "heuristic=lines"],
     "--param: 'heuristic' has no effect when agent 'alphabeta' solves"),
    (["pig", "-o", "players=3"], "Pig is solved exactly for two players; this game has 3"),
])
def test_what_cannot_be_solved_is_a_one_line_error(capsys, argv, message):
    code, out = solve(capsys, *argv)
    assert code != 0 and message in out.err and "Traceback" not in out.err
