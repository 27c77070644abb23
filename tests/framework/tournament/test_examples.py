"""The shipped tournament files: every game has one, every one is valid, and the README's default runs."""

from dataclasses import replace
from pathlib import Path

import pytest

from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from framework.tournament.scheduler import schedule

TOURNAMENTS = sorted((Path(__file__).parents[3] / "tournaments").glob("*.yaml"))
COMMITTED = {"thesis-loa-endgames": "results/thesis", "thesis-loa-refereed": "results/thesis-refereed",
             "thesis-loa-refereed-budget": "results/thesis-refereed-budget"}


@pytest.mark.parametrize("path", TOURNAMENTS, ids=lambda p: p.name)
def test_every_shipped_tournament_is_valid(path):
    config = load_config(path)
    # The thesis comparisons write into the results folders that are committed (.gitignore names them).
    folder = COMMITTED.get(path.stem, f"results/{path.stem}")
    assert config.name == path.stem and str(config.results) == folder
    assert (config.task_count() if config.tune else len(schedule(config))) >= 12   # a tuning's games follow θ


def test_every_registered_game_has_a_tournament(registry):
    games = {load_config(path).game for path in TOURNAMENTS}
    assert set(registry.games) <= games


def test_the_default_tournament_finishes_quickly(tmp_path):
    config = replace(load_config(Path(__file__).parents[3] / "tournaments" / "tictactoe-quick.yaml"),
                     results=tmp_path / "out")
    summary = run_tournament(config, quiet=True)
    assert (summary.total, summary.played) == (30, 30)
