"""A human who types a bad move is asked again; typing never loses the game."""

import io

import pytest

from framework.protocols import Budget
from plugins.agents.human import HumanAgent
from plugins.games.checkers import Checkers
from plugins.games.matches import Matches
from plugins.games.tictactoe import TicTacToe


@pytest.mark.parametrize("game, typed, wanted", [
    (Checkers(), ["1²-15", "١١-١٥", "11-" + "1" * 5000, "11-15"], "11-15"),
    (Matches(), ["1-" + "9" * 5000, "٢-٣", "2-3"], "2-3"),
    (TicTacToe(), ["b²", "", "b2"], "b2"),
])
def test_bad_input_reprompts_until_a_legal_move(game, typed, wanted):
    out = io.StringIO()
    human = HumanAgent(game, stdin=io.StringIO("".join(line + "\n" for line in typed)), stdout=out)
    state = game.initial_state()
    decision = human.select_move(game, state, Budget())
    assert game.format_move(state, decision.move) == wanted
    assert out.getvalue().count("your move (or help): ") == len(typed)
    assert out.getvalue().count("legal moves: ") >= len(typed) - 1
