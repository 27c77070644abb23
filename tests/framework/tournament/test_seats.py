"""Tournaments of more than two players: the guide's three-player file (docs/guide/tournaments.md) runs,
every participant plays every seat equally often, each game's seats, returns and ranks are stored, and the
report rates them."""

import re
import sqlite3
import textwrap
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from framework.analysis.report import write_report
from framework.analysis.tables import Results
from framework.errors import ConfigError
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from framework.tournament.scheduler import schedule
from framework.tournament.store import rank_of

GUIDE = Path(__file__).parents[3] / "docs" / "guide" / "tournaments.md"


def guide_three_players() -> str:
    section = GUIDE.read_text().split("## Three or more players", 1)[1]
    found = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.slow
def test_the_guides_three_player_tournament_runs_and_is_reported(tmp_path):
    path = write(tmp_path, guide_three_players(), "three.yaml")
    assert yaml.safe_load(path.read_text())["results"] == "results/three-players"
    config = replace(load_config(path), results=tmp_path / "out")
    assert config.seats == 3
    summary = run_tournament(config, quiet=True)
    assert (summary.total, summary.played) == (12, 12)
    conn = sqlite3.connect(tmp_path / "out" / "results.sqlite")
    seats = conn.execute("SELECT participant, seat FROM seats").fetchall()
    assert Counter(seats) == {(pid, seat): 3 for pid in ("brs", "paranoid", "maxn", "mcts") for seat in range(3)}
    for (key,) in conn.execute("SELECT key FROM games"):
        results, ranks = zip(*conn.execute("SELECT result, rank FROM seats WHERE key = ? ORDER BY seat", (key,)))
        assert ranks == rank_of(results) and sum(results) == pytest.approx(0)
    results = Results(tmp_path / "out")
    assert results.multiplayer and results.seat_standings()["games"].tolist() == [9, 9, 9, 9]
    assert results.seat_standings()["points"].sum() == pytest.approx(12)
    assert set(results.seat_ratings()["participant"]) == {"brs", "paranoid", "maxn", "mcts"}
    report = write_report(results, tmp_path / "report").read_text()
    assert "## Ratings" in report and "Finished ahead" in report
    assert (tmp_path / "report" / "tables" / "ahead.csv").exists()


def test_a_gauntlet_seats_the_champion_with_every_group_of_the_others(tmp_path):
    config = load_config(write(tmp_path, """\
        game: {name: rolit, options: {players: 4}}
        format: gauntlet
        champion: a
        games_per_pairing: 4
        participants: [{id: a, agent: random}, {id: b, agent: random}, {id: c, agent: random},
                       {id: d, agent: random}, {id: e, agent: random}]
        """))
    tasks = schedule(config)
    assert len(tasks) == config.task_count() == 4 * 4          # C(4, 3) groups of the others, 4 rotations each
    assert all("a" in task.pairing for task in tasks)
    seats = Counter((p.id, seat) for task in tasks for seat, p in enumerate(task.players) if p.id == "a")
    assert seats == {("a", seat): 4 for seat in range(4)}


@pytest.mark.parametrize("text, message", [
    ("game: {name: rolit, options: {players: 3}}\nparticipants: [{id: a, agent: random}, {id: b, agent: random}]\n",
     "participants: rolit seats 3 players and there are 2 participants: add 1 more"),
    ("game: {name: rolit, options: {players: 3}}\ngames_per_pairing: 4\n"
     "participants: [{id: a, agent: random}, {id: b, agent: random}, {id: c, agent: random}]\n",
     "games_per_pairing: expected a multiple of 3, so each participant plays every seat equally often, got 4"),
    ("game: {name: rolit, options: {players: 3}}\nsprt: {elo0: 0, elo1: 10}\n"
     "participants: [{id: a, agent: random}, {id: b, agent: random}, {id: c, agent: random}]\n",
     "sprt: 'sprt' compares two players' results; rolit seats 3: remove it"),
    ("games: [{name: rolit, options: {players: 3}}, tictactoe]\n"
     "participants: [{id: a, agent: random}, {id: b, agent: random}, {id: c, agent: random}]\n",
     "games: every game of a run seats the same number of players; got rolit 3, tictactoe 2"),
    ("game: {name: rolit, options: {players: 3}}\n"
     "participants: [{id: a, agent: alphabeta}, {id: b, agent: random}, {id: c, agent: random}]\n",
     "'alphabeta' plays two-player games only; rolit has 3 players"),
])
def test_what_a_three_player_run_cannot_do_is_refused_at_validate(tmp_path, text, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(write(tmp_path, text))


def test_ranks_share_places_on_ties():
    assert rank_of((1.0, -0.5, -0.5)) == (1, 2, 2)
    assert rank_of((0.5, 0.5, -1.0)) == (1, 1, 3)
