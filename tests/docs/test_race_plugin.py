"""The game tutorial's package (docs/tutorials/race) loads from its own pyproject, plays, and passes the
conformance suite, in-process and fast; test_tutorials.py pip-installs it and drives the command line."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from framework.capabilities import capabilities
from framework.cli import main
from framework.conformance import GameConformance
from framework.match import play_game
from framework.registry import Registry

PACKAGE = Path(__file__).parents[2] / "docs" / "tutorials" / "race"


@pytest.fixture
def race_installed(tmp_path, monkeypatch):
    """The package as an installed distribution: the module plus the metadata its pyproject declares."""
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]
    (tmp_path / "plyground_race.py").write_text((PACKAGE / "plyground_race.py").read_text())
    info = tmp_path / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    points = project["entry-points"]["plyground"]
    (info / "entry_points.txt").write_text("[plyground]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()))
    monkeypatch.syspath_prepend(str(tmp_path))
    # Installed for every process: `plyground play` runs its engines in worker processes.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("PLYGROUND_PLUGINS", f"plyground,{project['name']}")
    return project["name"]


def test_the_tutorial_game_installs_and_plays_random_games(race_installed):
    registry = Registry()
    assert registry.games["race"].provenance.distribution == race_installed
    game = registry.create_game("race")
    for seed in range(5):
        record = play_game(game, [registry.create_agent("random", game, seed=seed),
                                  registry.create_agent("random", game, seed=seed + 10)])
        assert record.termination.value == "normal" and record.reason.endswith("reached 10")
    assert capabilities(game).end_reason is not None and capabilities(game).kernel is None
    assert capabilities(game).default_heuristic == "distance"


def test_the_tutorial_game_passes_the_conformance_suite(race_installed):
    registry = Registry()

    class Suite(GameConformance):
        game_factory = staticmethod(lambda: registry.create_game("race"))
        perft = {1: 3, 2: 9, 3: 27}
        positions = ["7 1"]
        bad_positions = ["11 0", "x"]
        bad_moves = [(None, "+4"), ("9 0", "+2")]

    suite = Suite()
    for name in dir(suite):
        if name.startswith("test_"):
            getattr(suite, name)()


def test_the_tutorial_game_is_solved_from_the_command_line(race_installed, capsys):
    """Totals 2 and 6 lose for the side to move (4 short of the next one): from 5 the mover plays +1."""
    assert main(["play", "race", "--position", "5 0", "--first", "minimax",
                 "--second", "minimax"]) == 0
    out = capsys.readouterr().out
    assert "1. first plays +1" in out and "first (minimax) wins" in out
