"""`openspiel-mcts`: OpenSpiel's MCTSBot as an agent. It plays LOA in our runner (a small tournament through the
engines), the same seed plays the same moves, our games are followed on their OpenSpiel twins with the positions
compared at every ply, and a move or a position that does not map is an error naming it."""

from __future__ import annotations

import textwrap
from dataclasses import replace

import pytest

from framework.errors import ConfigError
from framework.protocols import CHANCE, Budget
from framework.registry import Registry
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament

pytest.importorskip("pyspiel", reason="openspiel-mcts needs OpenSpiel: pip install -e '.[openspiel]'")
from plugins.agents.openspiel_bots.twins import MappingError, TicTacToeTwin  # noqa: E402

REGISTRY = Registry()
BUDGET = Budget(nodes=60)


def play_out(name: str, options: dict, seeds: tuple[int, ...], plies: int = 60) -> list[str]:
    """The moves of a game of openspiel-mcts agents (one per seat, each its seed), dice drawn by a seeded
    generator, cut after `plies`."""
    import random

    game = REGISTRY.create_game(name, options)
    agents = [REGISTRY.create_agent("openspiel-mcts", game, {"simulations": 60}, seed=s) for s in seeds]
    state, rng, moves = game.initial_state(), random.Random(1), []
    while not game.is_terminal(state) and len(moves) < plies:
        mover = game.to_move(state)
        if mover == CHANCE:
            move = rng.choice([outcome for outcome, _ in game.chance_outcomes(state)])
        else:
            move = agents[mover].select_move(game, state, BUDGET).move
        moves.append(game.format_move(state, move))
        state = game.apply(state, move)
    return moves


@pytest.mark.parametrize("name, options", [("loa", {}), ("tictactoe", {}), ("checkers", {}), ("pig", {"goal": 30}),
                                           ("pig", {"players": 3, "goal": 20}), ("openspiel:connect_four", {})])
def test_the_same_seed_plays_the_same_moves_on_every_twin_and_an_openspiel_game(name, options):
    seats = options.get("players", 2)
    first = play_out(name, options, tuple(range(seats)))
    assert len(first) > 4 and play_out(name, options, tuple(range(seats))) == first
    assert play_out(name, options, tuple(range(10, 10 + seats))) != first or name == "tictactoe"


def test_a_decision_reports_its_simulations_score_and_pv():
    game = REGISTRY.create_game("openspiel:connect_four", {})
    decision = REGISTRY.create_agent("openspiel-mcts", game, {"simulations": 200, "solve": False}, seed=3) \
        .select_move(game, game.initial_state(), Budget(nodes=150))
    stats = decision.stats
    assert stats.nodes == 150 and stats.extra["simulations"] == 150 and -1 <= stats.score <= 1
    assert stats.pv[0] == decision.move and len(stats.pv) > 1


def test_a_position_it_cannot_reach_from_the_games_start_is_an_error_naming_it():
    game = REGISTRY.create_game("loa", {})
    agent = REGISTRY.create_agent("openspiel-mcts", game, {"simulations": 10}, seed=0)
    far = "......../.b....w./......../..b..w../......../......../......../........ b"
    with pytest.raises(MappingError, match="follows loa from its start, move by move, and cannot reach"):
        agent.select_move(game, game.from_text(far), BUDGET)


def test_a_notation_that_does_not_map_stops_the_agent_at_that_ply(monkeypatch):
    game = REGISTRY.create_game("tictactoe", {})
    agent = REGISTRY.create_agent("openspiel-mcts", game, {"simulations": 10}, seed=0)
    monkeypatch.setattr(TicTacToeTwin, "spiel_text", lambda self, text, spiel: f"x({text})")
    state = game.apply(game.initial_state(), game.parse_move(game.initial_state(), "b2"))
    with pytest.raises(MappingError, match=r"ply 1 of 1 .*our move 'b2' \('x\(b2\)' in OpenSpiel's notation\) is "
                                           r"none of OpenSpiel's legal actions"):
        agent.select_move(game, state, BUDGET)


def test_a_twin_whose_positions_differ_is_caught_by_the_check(monkeypatch):
    game = REGISTRY.create_game("tictactoe", {})
    agent = REGISTRY.create_agent("openspiel-mcts", game, {"simulations": 10}, seed=0)
    monkeypatch.setattr(TicTacToeTwin, "spiel_text", lambda self, text, spiel: "x(0,0)")   # always a corner
    state = game.apply(game.initial_state(), game.parse_move(game.initial_state(), "b2"))
    with pytest.raises(MappingError, match=r"ply 1 of 1 .*OpenSpiel's position .* is not ours"):
        agent.select_move(game, state, BUDGET)


def test_games_without_a_twin_and_starts_that_differ_are_refused_when_built():
    with pytest.raises(ConfigError, match=r"our games with an OpenSpiel twin \(checkers, loa, pig, tictactoe\), "
                                          "not matches"):
        REGISTRY.create_agent("openspiel-mcts", REGISTRY.create_game("matches", {}), {}, seed=0)
    with pytest.raises(ConfigError, match="loa's start is not OpenSpiel's lines_of_action's"):
        REGISTRY.create_agent("openspiel-mcts", REGISTRY.create_game("loa", {"start": "scrambled"}), {}, seed=0)


TOURNAMENT = """\
game: loa
games_per_pairing: 2
seed: 5
max_plies: 300
workers: 1
participants:
  - {id: openspiel-mcts, agent: openspiel-mcts, params: {simulations: 100}}
  - {id: random, agent: random}
"""


def test_openspiel_mcts_plays_loa_in_a_tournament_and_beats_the_random_agent(tmp_path):
    from framework.analysis.tables import Results

    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(TOURNAMENT))
    config = replace(load_config(path), results=tmp_path / "results")
    summary = run_tournament(config, quiet=True)
    assert (summary.total, summary.played, summary.void) == (2, 2, 0)
    games = Results(config.results).games
    assert len(games) == 2 and set(games["termination"]) == {"normal"}, games[["termination", "reason"]]
    assert list(games["winner"]) == ["openspiel-mcts"] * 2 and set(games["moved_first"]) == {"openspiel-mcts", "random"}


def test_a_repeated_loa_board_ends_openspiels_game_but_not_ours_and_the_agent_says_so():
    game = REGISTRY.create_game("loa", {})
    agent = REGISTRY.create_agent("openspiel-mcts", game, {"simulations": 10}, seed=0)
    state = game.initial_state()
    for text in ("b1-b3", "a2-c2", "b3-b1", "c2-a2"):   # back where it began: OpenSpiel draws, we play on
        state = game.apply(state, game.parse_move(state, text))
        if game.to_move(state) == 0 and text != "c2-a2":
            agent.known = (state, agent.follow(game, state))
    with pytest.raises(MappingError, match="OpenSpiel's lines_of_action has ended .* where loa goes on: their rules "
                                           "differ there"):
        agent.select_move(game, state, BUDGET)
