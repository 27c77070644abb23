"""The results pages of a run whose games seat three players: every page answers, with the n-seat tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from framework.web.app import create_app
from framework.web.results import live_fragment
from tests.web.conftest import LOCAL, run_tournament, tournament


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The results folder of three random players in three games of Rolit for three."""
    base = tmp_path_factory.mktemp("rolit3")
    run_tournament(tournament(base, "rolit3", "game: {name: rolit, options: {players: 3}}\ngames_per_pairing: 3\n"
                              "seed: 5\nworkers: 1\nparticipants:\n  - {id: r1, agent: random}\n"
                              "  - {id: r2, agent: random}\n  - {id: r3, agent: random}\n"))
    return base / "results" / "rolit3"


@pytest.fixture(scope="module")
def client(folder):
    with TestClient(create_app(folder.parent), raise_server_exceptions=False, base_url=LOCAL) as c:
        yield c


def test_the_results_page_of_a_three_player_run_shows_its_seat_tables_and_every_seat_of_each_game(client):
    page = client.get("/results/rolit3")
    assert page.status_code == 200, page.text
    for title in ("Standings", "Ratings", "Finished ahead", "Wins per seat", "Terminations", "Games"):
        assert f"<h2>{title}</h2>" in page.text
    assert page.text.count("r1 – r2 – r3") + page.text.count("r2 – r3 – r1") + page.text.count("r3 – r1 – r2") == 3


@pytest.mark.parametrize("table", ["standings", "ratings", "ahead", "seat_wins", "terminations", "search_stats"])
def test_each_table_of_a_three_player_run_downloads_as_csv(client, table):
    response = client.get(f"/results/rolit3/tables/{table}.csv")
    assert response.status_code == 200 and response.text.count("\n") >= 2, response.text


def test_the_live_feed_of_a_three_player_run_shows_points_and_every_seat(client, folder):
    assert client.get("/results/rolit3/live").status_code == 200
    fragment = live_fragment(folder)
    assert "3 games finished" in fragment and "points" in fragment and "r1 – r2 – r3" in fragment, fragment
