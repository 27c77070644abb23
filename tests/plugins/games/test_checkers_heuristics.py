"""Checkers heuristics: zero-sum, bounded, and each measuring what its name says."""

import inspect
import random

import pytest

from framework.match import Termination, play_game
from framework.protocols import WIN_SCORE
from plugins.games.checkers import Checkers
from plugins.games.checkers.heuristics import (
    HEURISTIC_PARAMS,
    HEURISTICS,
    MaterialHeuristic,
    MobilityHeuristic,
    PositionalHeuristic,
    _advancement,
)
from plugins.games.checkers.rules import SQUARE_BIT

GAME = Checkers()


def sample_states(n: int = 300, seed: int = 11) -> list:
    rng = random.Random(seed)
    states, state = [], GAME.initial_state()
    while len(states) < n:
        moves = GAME.legal_moves(state)
        if not moves:
            state = GAME.initial_state()
            continue
        state = GAME.apply(state, rng.choice(moves))
        states.append(state)
    return states


@pytest.mark.parametrize("cls", HEURISTICS)
def test_every_heuristic_is_zero_sum_and_far_inside_the_win_score(cls):
    heuristic = cls(GAME)
    for state in sample_states():
        value = heuristic.evaluate(state, 0)
        assert value == -heuristic.evaluate(state, 1)
        assert abs(value) < WIN_SCORE / 100
    assert heuristic.evaluate(GAME.initial_state(), 0) == 0.0


def test_three_heuristics_are_registered_and_the_default_is_one_of_them(registry):
    names = {spec.name for spec in registry.heuristics_for("checkers")}
    assert names == {"material", "positional", "mobility"}
    assert GAME.default_heuristic in names
    built = registry.create_heuristic(GAME, "material", {"king_value": 200})
    assert built.evaluate(GAME.from_text("B:WK30:B1,2"), 0) == 0.0


@pytest.mark.parametrize("cls", HEURISTICS)
def test_declared_parameter_defaults_match_the_constructor(cls):
    defaults = {name: p.default for name, p in inspect.signature(cls.__init__).parameters.items()
                if p.default is not inspect.Parameter.empty}
    assert {p.name: p.default for p in HEURISTIC_PARAMS[cls.name]} == defaults


def test_material_counts_men_as_100_and_kings_as_130():
    assert MaterialHeuristic(GAME).evaluate(GAME.from_text("B:WK30:B1,2,3"), 0) == 300 - 130
    assert MaterialHeuristic(GAME).evaluate(GAME.from_text("B:WK30,K31:B1,2,3"), 1) == 260 - 300


def test_the_three_heuristics_disagree_where_their_terms_differ():
    # Equal material; Black's men guard the back row and hold the centre, White's king sits on the edge.
    state = GAME.from_text("B:W29,K20:B1,K15")
    material, positional = MaterialHeuristic(GAME), PositionalHeuristic(GAME)
    assert material.evaluate(state, 0) == 0.0
    # both guard their back row (8 - 8), Black's king holds the centre (5), White's king is on the edge (10)
    assert positional.evaluate(state, 0) == 8 - 8 + 5 + 10
    # Mobility: Black has steps 1-5, 1-6 and four king steps; White 29-25 and king steps 20-16, 20-24.
    assert MobilityHeuristic(GAME).evaluate(state, 0) == 4 * ((2 + 4) - (1 + 2))


def test_back_row_guard_fades_once_the_opponent_has_only_kings():
    def guard_term(fen: str) -> float:
        state = GAME.from_text(fen)
        return PositionalHeuristic(GAME).evaluate(state, 0) - PositionalHeuristic(GAME, guard=0).evaluate(state, 0)

    assert guard_term("B:W22,K20:B1,2") == 16
    assert guard_term("B:WK22,K20:B1,2") == 0


def test_advancement_counts_rows_from_each_side_s_own_back_row():
    # Black's man on 14 has advanced 3 rows and holds the centre; White's man on 26 has advanced 1.
    assert PositionalHeuristic(GAME).evaluate(GAME.from_text("B:W26:B14"), 0) == 5 + 1.5 * (3 - 1)
    for state in sample_states(100):
        for colour, men in ((0, state[0] & ~state[2]), (1, state[1] & ~state[2])):
            rows = [(s - 1) // 4 for s in range(1, 33) if men & SQUARE_BIT[s]]
            assert _advancement(men, colour) == sum(r if colour == 0 else 7 - r for r in rows)


@pytest.mark.parametrize("heuristic", ["positional", "mobility"])
def test_alpha_beta_at_depth_3_beats_random_play_with_either_colour(registry, heuristic):
    for seed in range(3):
        searcher = registry.create_agent("alphabeta", GAME, {"depth": 3, "heuristic": heuristic})
        colour = seed % 2
        agents = [searcher, registry.create_agent("random", GAME, seed=seed)]
        record = play_game(GAME, agents if colour == 0 else agents[::-1])
        assert record.termination is Termination.NORMAL and record.winner == colour
