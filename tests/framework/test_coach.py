"""Move coaching: exact verdicts from solvers, the coach's scores otherwise, and `play --coach` in the terminal."""

import io

import pytest

from framework.cli import main
from framework.coach import Verdict, coach_move
from framework.protocols import UNLIMITED, WIN_SCORE, Budget, Proof
from plugins.agents.alphabeta import AlphaBetaAgent
from plugins.agents.mcts import MCTSAgent
from plugins.agents.proofnumber.agent import DFPNAgent, PNSAgent
from plugins.games.matches import Matches, winning_moves
from plugins.games.tictactoe import LinesHeuristic, TicTacToe
from tests.plugins.agents.small_games import retrograde

TTT = TicTacToe()


def test_a_solver_coach_judges_every_move_exactly():
    state = TTT.from_text("XO./.../... x")
    oracle = retrograde(TTT, state)
    for move in TTT.legal_moves(state):
        verdict = coach_move(TTT, state, move, PNSAgent(TTT), UNLIMITED)
        keeps_win = oracle[TTT.apply(state, move)] == -1
        assert verdict.exact and verdict.best_value is Proof.WIN
        assert verdict.optimal is keeps_win
        assert verdict.played_value is (Proof.WIN if keeps_win else _flip(oracle[TTT.apply(state, move)]))


def _flip(value):
    return {1: Proof.LOSS, 0: Proof.DRAW, -1: Proof.WIN}[value]


def test_matches_moves_are_judged_by_the_misere_theory():
    game = Matches((3, 5, 7), k=3)
    state = game.initial_state()
    good = set(winning_moves(state[0], 3))
    assert good  # 3, 5, 7 with k=3 is a first-player win
    for move in game.legal_moves(state):
        verdict = coach_move(game, state, move, DFPNAgent(game), UNLIMITED)
        assert verdict.exact and verdict.optimal is (move in good)


def test_the_verdict_reads_as_a_sentence():
    state = TTT.from_text("XO./.../... x")
    text = coach_move(TTT, state, TTT.parse_move(state, "c1"), PNSAgent(TTT), UNLIMITED).describe(TTT, state)
    assert text == "c1: mistake — turns a win into a draw; a2 keeps the win"
    text = coach_move(TTT, state, TTT.parse_move(state, "a2"), PNSAgent(TTT), UNLIMITED).describe(TTT, state)
    assert text == "a2: optimal — the position was a win and stays one"


def test_a_searching_coach_compares_its_scores_at_its_depth():
    state = TTT.from_text("XO./.../... x")
    coach = AlphaBetaAgent(TTT, depth=2, heuristic=LinesHeuristic(TTT))
    best = coach.select_move(TTT, state, UNLIMITED)
    inaccurate = []
    for move in TTT.legal_moves(state):
        verdict = coach_move(TTT, state, move, coach, UNLIMITED)
        child_score = -coach.select_move(TTT, TTT.apply(state, move), UNLIMITED).stats.score
        assert not verdict.exact and verdict.depth == 2 and verdict.best_move == best.move
        assert verdict.played_value == child_score
        assert verdict.optimal is (child_score >= verdict.best_value)
        if not verdict.optimal:
            inaccurate.append(verdict)
    assert inaccurate
    text = inaccurate[0].describe(TTT, state)
    played = TTT.format_move(state, inaccurate[0].move)
    assert text.startswith(f"{played}: inaccuracy by the coach's search at depth 2 — score ")
    assert text.endswith(f" for {TTT.format_move(state, best.move)}")


def test_a_solver_that_cannot_prove_draws_falls_back_to_its_scores():
    state = TTT.initial_state()
    verdict = coach_move(TTT, state, 4, MCTSAgent(TTT), Budget(nodes=2000))
    assert not verdict.exact and verdict.nodes > 2000  # the failed proofs, then three searches


def test_play_with_a_coach_judges_each_human_move(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("a2\nc1\na1\nb1\nc2\n"))
    code = main(["play", "tictactoe", "--position", "XO./.../... x", "--first", "human",
                 "--second", "alphabeta", "--coach", "pns"])
    out = capsys.readouterr().out
    assert code == 0
    assert "coach: a2: optimal — the position was a win and stays one" in out
    assert out.count("coach:") == out.count("X plays")  # every human move, and only those


def test_play_with_an_unknown_coach_is_an_error(capsys):
    code = main(["play", "tictactoe", "--first", "random", "--second", "random", "--coach", "oracle"])
    assert code == 2 and "--coach 'oracle'" not in capsys.readouterr().out


def test_a_coach_that_can_neither_prove_nor_score_gives_no_verdict():
    state = TTT.initial_state()
    verdict = coach_move(TTT, state, 4, PNSAgent(TTT), Budget(nodes=50))
    assert verdict.optimal is None and not verdict.exact
    assert verdict.describe(TTT, state) == ("b2: no verdict — the coach neither proved nor scored the moves "
                                           "within its budget")


def test_a_move_into_a_forced_loss_is_a_mistake_with_results_named_and_no_minus_zero():
    """It was "inaccuracy — score -1e+06 against -0": a forced loss against a draw is a mistake."""
    state = TTT.from_text("X../.O./..X o")  # O must take an edge: a corner loses to a double threat
    coach = AlphaBetaAgent(TTT, depth=4, heuristic=LinesHeuristic(TTT))
    verdict = coach_move(TTT, state, TTT.parse_move(state, "a1"), coach, UNLIMITED)
    assert verdict.played_value <= -WIN_SCORE / 2 and abs(verdict.best_value) < WIN_SCORE / 2
    text = verdict.describe(TTT, state)
    best = TTT.format_move(state, verdict.best_move)
    assert text == (f"a1: mistake by the coach's search at depth 4 — a forced loss against "
                    f"score {verdict.best_value:g} for {best}")


def test_scores_inside_the_forced_range_stay_an_inaccuracy():
    verdict = Verdict(move=0, best_move=1, optimal=False, exact=False, played_value=-3.0, best_value=-0.0, depth=2)
    assert verdict.describe(TTT, TTT.initial_state()) == ("a3: inaccuracy by the coach's search at depth 2 — "
                                                         "score -3 against score 0 for b3")


def test_a_verdicts_scores_are_rounded_to_two_decimals_as_the_engine_lines_are():
    game = TicTacToe()
    state = game.initial_state()
    verdict = Verdict(4, 0, False, False, 61.234567, 75.0049, depth=3)
    text = verdict.describe(game, state)
    assert "score 61.23" in text and "score 75" in text and "61.234" not in text


class _TurnTotalCoach:
    """Scores a position by the mover's banked score plus turn total (a Pig position is never a chance node
    when asked: the test fails if it is), and chooses the first legal move."""

    def __init__(self) -> None:
        self.asked: list = []

    def select_move(self, game, state, budget):
        from framework.protocols import CHANCE, Decision, SearchStats

        assert game.to_move(state) != CHANCE, f"the coach was asked at a chance node {state}"
        self.asked.append(state)
        scores, total, player, _ = state
        return Decision(game.legal_moves(state)[0], SearchStats(nodes=1, score=float(scores[player] + total)))


def test_a_coach_values_a_roll_as_the_expectation_over_the_dice_and_is_never_asked_at_one():
    from framework.coach import searches
    from plugins.games.pig import HOLD, ROLL, Pig

    game = Pig(goal=50)
    state = ((10, 20), 6, 0, False)   # P1: 10 banked, 6 this turn; P2: 20
    coach = _TurnTotalCoach()
    verdict = coach_move(game, state, ROLL, coach, UNLIMITED)
    # a 1 (1/6) passes the turn to P2, who then has 20 (P1's view: -20); 2..6 make P1's turn total 8..12
    expected = (-20 + sum(10 + 6 + face for face in range(2, 7))) / 6
    assert verdict.played_value == pytest.approx(expected) and expected == 80 / 6
    # holding banks 16 and passes the turn to P2 with 20 (P1's view: -20); the coach's choice (ROLL) is better
    assert coach_move(game, state, HOLD, coach, UNLIMITED).played_value == -20
    assert len(coach.asked) <= searches(game, state) * 2 and searches(game, state) == 5 + 2 * 5
