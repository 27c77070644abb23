"""OpenSpiel's alpha-beta on our positions: boards convert exactly, a multi-jump is one move, nodes count ours.

Skipped when pyspiel is absent (a benchmark-only peer).
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # as when the scripts run
import spiel_search  # noqa: E402

from framework.protocols import UNLIMITED  # noqa: E402
from plugins.agents.alphabeta import AlphaBetaAgent  # noqa: E402

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def checkers(registry):
    return registry.create_game("checkers")


def test_fifty_ply_checkers_lines_reach_the_same_positions_kings_included(checkers):
    crowned = 0
    for seed in range(8):
        moves = spiel_search.random_line(checkers, 50, seed)
        state = spiel_search.replay(checkers, moves)
        spiel_state = spiel_search.twin(pyspiel, checkers, moves)
        assert spiel_search.checkers_state(spiel_state, state[3])[:4] == state[:4]   # some games ended
        crowned += state[2] != 0
    assert crowned >= 6


def test_lines_of_action_lines_reach_the_same_positions(registry):
    loa = registry.create_game("loa")
    for seed in range(4):
        moves = spiel_search.random_line(loa, 20, seed)
        spiel_state = spiel_search.twin(pyspiel, loa, moves)
        ours = spiel_search.replay(loa, moves)
        assert spiel_search.loa_state(spiel_state) == ours


def test_a_wrong_conversion_is_named(checkers, monkeypatch):
    monkeypatch.setattr(spiel_search, "checkers_state", lambda s, mover=None: (0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match=r"OpenSpiel has no move to W:W21,.* in the same line of play$"):
        spiel_search.twin(pyspiel, checkers, spiel_search.random_line(checkers, 1, 0))


def test_after_openspiel_draws_the_error_says_its_draw_rules_differ(checkers):
    # Kings shuffle: OpenSpiel draws after 40 actions without a capture, we after 40 moves each (80 plies).
    with pytest.raises(ValueError, match=r"W:WK2,K5:BK28,K29,K31:H2 .* \(its game is over: its draw rules differ"):
        spiel_search.twin(pyspiel, checkers, spiel_search.random_line(checkers, 120, 4))


def test_depth_one_visits_the_root_and_each_full_move(registry, checkers):
    heuristic = registry.create_heuristic(checkers, "positional")
    start = pyspiel.load_game("checkers").new_initial_state()
    assert spiel_search.spiel_alphabeta(pyspiel, checkers, heuristic, start, 1)[0] == 1 + 7
    # White to move with two double jumps (26x19x10, 27x18x11): OpenSpiel's 4 jump actions are 2 moves.
    moves = spiel_search.random_line(checkers, 7, 0)
    twin = spiel_search.twin(pyspiel, checkers, moves)
    nodes, value, move = spiel_search.spiel_alphabeta(pyspiel, checkers, heuristic, twin, 1)
    assert checkers.to_text(spiel_search.replay(checkers, moves)) == \
        "W:W21,22,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,9,12,15,23"
    assert (nodes, move) == (1 + 2, "27x18x11")


@pytest.mark.parametrize("name, heuristic, plies, depth", [("checkers", "positional", 16, 4), ("loa", "groups", 12, 2)])
def test_openspiel_finds_minimax_value_at_the_depth(registry, name, heuristic, plies, depth):
    """Plain alpha-beta in another move order: the same value as ours, every enhancement off, at that depth."""
    game = registry.create_game(name)
    evaluate = registry.create_heuristic(game, heuristic)
    agent = AlphaBetaAgent(game, depth=depth, heuristic=evaluate, quiescence=False)
    for seed in range(3):
        moves = spiel_search.random_line(game, plies, seed)
        ours = agent.select_move(game, spiel_search.replay(game, moves), UNLIMITED).stats.score
        _, value, _ = spiel_search.spiel_alphabeta(pyspiel, game, evaluate, spiel_search.twin(pyspiel, game, moves),
                                                   depth)
        assert value == ours
