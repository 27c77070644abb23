"""Every compiled heuristic function a game's kernel offers is its heuristic's Python `evaluate`, checked as a
function: for each game and seat count with a kernel, each heuristic class in its `scores` (`score(state,
weights)` for the first seat, negated for the second, as `framework.kernel.api.evaluate` derives it) and its
`seat_scores` (`evaluate(state, player, weights)` for any seat), on sampled positions, with the weights a
search passes. A compiled search takes the function as its `score` or `evaluate` and nothing else of the
heuristic, so this covers every heuristic without compiling a whole search per heuristic; the searches' own
tests compare them compiled and interpreted under the games' heuristics."""

import pytest

from framework.kernel import numba_backend
from framework.playouts import playout_positions
from framework.protocols import CHANCE
from plugins.games.checkers import Checkers
from plugins.games.einstein import EinStein
from plugins.games.loa.game import SCRAMBLED_START, LinesOfAction
from plugins.games.pig import Pig
from plugins.games.rolit import Rolit
from tests.golden import assert_each_holds

pytestmark = pytest.mark.skipif(not numba_backend.enabled(), reason="PLYGROUND_JIT=0: nothing compiled to check")

#: Every game and seat count whose kernel compiles a heuristic.
GAMES = {"loa": LinesOfAction, "checkers": Checkers, "pig2": lambda: Pig(2, goal=30), "pig3": lambda: Pig(3, goal=20),
         "einstein": EinStein, "rolit2": lambda: Rolit(2), "rolit3": lambda: Rolit(3), "rolit4": lambda: Rolit(4)}


def sample(game):
    """300 states of seeded random games (every third, ends included), LOA's from its scrambled start too."""
    starts = (game.initial_state(), game.from_text(SCRAMBLED_START)) if isinstance(game, LinesOfAction) else ()
    return playout_positions(game, 300, seed=23, every=3, starts=starts)


def test_the_sample_reaches_every_kernel_heuristic():
    offered = {(name, cls.__name__) for name, make in GAMES.items() for kernel in [make().kernel]
               for cls in (*kernel.scores, *kernel.seat_scores)}
    assert {("loa", "GroupsHeuristic"), ("loa", "ConcentrationHeuristic"), ("loa", "MobilityHeuristic"),
            ("checkers", "MaterialHeuristic"), ("checkers", "PositionalHeuristic"), ("checkers", "MobilityHeuristic"),
            ("einstein", "ProgressHeuristic"), ("einstein", "LeadHeuristic"), ("pig2", "RaceHeuristic"),
            ("rolit3", "DiscsHeuristic"), ("rolit3", "CornersHeuristic")} <= offered


@pytest.mark.parametrize("name", GAMES)
def test_each_compiled_heuristic_function_is_the_heuristics_evaluate(name):
    game = GAMES[name]()
    kernel = game.kernel
    states = [s for s in sample(game) if not game.is_terminal(s) and game.to_move(s) != CHANCE]
    seats = range(getattr(game, "num_players", 2))
    cases = [(cls, function, seat_scores) for seat_scores, offer in ((False, kernel.scores), (True, kernel.seat_scores))
             for cls, function in offer.items()]
    assert cases and len(states) >= 100

    def check(case):
        cls, function, seat_scores = case
        heuristic = cls(game)
        weights = tuple(float(w) for w in getattr(heuristic, "weights", ()))    # as binding._weights passes them
        compiled = getattr(kernel.heuristics, function)
        for state in states:
            k = kernel.to_kernel(state)
            if seat_scores:
                assert [compiled(k, seat, weights) for seat in seats] == [heuristic.evaluate(state, seat)
                                                                          for seat in seats], state
            else:
                value = compiled(k, weights)
                assert (value, -value) == (heuristic.evaluate(state, 0), heuristic.evaluate(state, 1)), state
    assert_each_holds(cases, check, what=f"{name} heuristic functions")
