"""The MCTS against MCTSBot report: the playout study measures what each side's random playouts see, and the
report reads a match of the shipped tournament's shape."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from framework.registry import Registry
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from plugins.reports import spiel_mcts

pyspiel = pytest.importorskip("pyspiel", reason="the report replays games on OpenSpiel: pip install -e '.[openspiel]'")


def test_openspiels_playouts_end_drawn_at_repeated_boards_and_ours_never():
    """From the start, a fifth of OpenSpiel's uniformly random LOA playouts end drawn (a board seen before);
    ours, whose state holds no history, end only by a connection."""
    rng = random.Random(3)
    theirs = spiel_mcts.spiel_playouts(pyspiel.load_game("lines_of_action").new_initial_state(), 200, rng)
    assert 10 <= theirs.draws <= 100 and theirs.runs == 200 and theirs.mean_plies > 20
    game = Registry().create_game("loa", {"repetition": "board", "simultaneous": "mover_wins"})
    ours = spiel_mcts.our_playouts(game, game.initial_state(), 20, rng)
    assert ours.draws == 0 and ours.mean_plies > 20


def test_openspiel_follows_the_stored_moves():
    state = spiel_mcts.spiel_state(pyspiel.load_game("lines_of_action"), ["b1-b3", "a2-c2"])
    assert state.move_number() == 2 and not state.is_terminal()


def test_the_report_reads_a_match_and_says_when_it_is_too_short_to_tell(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: t\ngame: {name: loa, options: {repetition: board, simultaneous: mover_wins}}\n"
                    "games_per_pairing: 2\nseed: 3\nmax_plies: 40\nworkers: 1\nparticipants:\n"
                    f"  - {{id: {spiel_mcts.OURS}, agent: mcts, params: {{iterations: 10, playout_depth: null}}}}\n"
                    f"  - {{id: {spiel_mcts.THEIRS}, agent: openspiel-mcts, params: {{simulations: 10}}}}\n")
    config = replace(load_config(path), results=tmp_path / "results")
    assert run_tournament(config, quiet=True).played == 2
    readme = spiel_mcts.write_spiel_mcts_report(config.results, positions=2, runs=3)
    text = readme.read_text()
    assert "**Verdict.** Too few games to tell" in text and f"{spiel_mcts.OURS} vs {spiel_mcts.THEIRS}: 2 games" in text
    study = (config.results / "playouts.csv").read_text().splitlines()
    assert study[0].startswith("game,ply,runs,openspiel_draws") and 1 <= len(study) - 1 <= 2 * 3
