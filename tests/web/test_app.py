"""The workbench's requests without a browser: every bad parameter is a 4xx page naming it, never a 500."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from framework.web.app import create_app
from tests.web.conftest import FIXTURE_AGENTS


@pytest.fixture(scope="module")
def client(workspace):
    with TestClient(create_app(workspace / "results", (FIXTURE_AGENTS,)), raise_server_exceptions=False) as c:
        yield c


def message(response) -> str:
    text = response.text
    start = text.index('id="message">') + len('id="message">')
    return text[start:text.index("</p>", start)].replace("&#x27;", "'")


def new(client, **fields) -> str:
    form = {"game": "tictactoe", "first": "human", "second": "alphabeta", "time": "1", **fields}
    response = client.post("/play", data=form, follow_redirects=False)
    assert response.status_code == 303, message(response)
    return response.headers["location"]


@pytest.mark.parametrize("fields, expected", [
    ({"game": "chess"}, "unknown game 'chess'; available games: checkers, loa, matches, tictactoe"),
    ({"second": "alphabeta:depth=-1"}, "second 'alphabeta': 'depth' must be at least 1, got -1"),
    ({"second": "nosuch"}, "unknown agent 'nosuch'"),
    ({"coach": "human"}, "coach: 'human' is a person at the keyboard"),
    ({"second": "picky:mode=bad"}, "picky: mode 'bad' cannot be combined with this game"),
    ({"position": "XXX/XXX/XXX x"}, "'XXX/XXX/XXX x' cannot arise in play"),
    ({"time": "soon"}, "time per move: 'soon' is not a number of seconds"),
    ({"time": "0"}, "time per move: 0 seconds is out of range"),
    ({"options": "size"}, "options: 'size' is not of the form key=value"),
])
def test_a_bad_new_game_field_is_a_400_naming_it(client, fields, expected):
    form = {"game": "tictactoe", "first": "human", "second": "alphabeta", **fields}
    response = client.post("/play", data=form)
    assert response.status_code == 400
    assert expected in message(response)


def test_moves_out_of_turn_after_the_end_and_without_text_are_refused(client):
    url = new(client)
    assert client.post(url + "/move", data={"move": ""}).status_code == 400
    response = client.post(url + "/engine")
    assert response.status_code == 400 and message(response) == "it is not an engine's turn"
    assert client.post(url + "/move", data={"move": "b2"}).status_code == 200
    response = client.post(url + "/move", data={"move": "a1"})
    assert response.status_code == 400 and "it is O (alphabeta)'s turn, not yours" in message(response)
    assert client.post(url + "/engine").status_code == 200
    assert client.post(url + "/resign").status_code == 200
    response = client.post(url + "/move", data={"move": "a1"})
    assert response.status_code == 400 and "the game is over" in message(response)
    assert message(client.post(url + "/resign")) == "the game is already over"


def test_undo_takes_back_the_engine_reply_too_and_not_past_the_start(client):
    url = new(client)
    response = client.post(url + "/undo")
    assert response.status_code == 400 and message(response) == "there is no move to undo"
    client.post(url + "/move", data={"move": "b2"})
    client.post(url + "/engine")
    response = client.post(url + "/undo")
    assert response.status_code == 200 and 'data-position=".../.../... x"' in response.text


def test_only_a_person_can_resign(client):
    url = new(client, first="random", second="random")
    response = client.post(url + "/resign")
    assert response.status_code == 400 and "no person plays this game" in message(response)


def test_a_crashing_agent_forfeits_with_its_error_on_the_page(client):
    url = new(client, first="crasher")
    response = client.post(url + "/engine")
    assert response.status_code == 200
    assert "forfeit: X (crasher) crashed: RuntimeError: deliberate crash" in response.text


@pytest.mark.parametrize("path, status, expected", [
    ("/play/nosuch", 404, "no game 'nosuch' on this server"),
    ("/results/nosuch", 404, "no results folder 'nosuch'; known: replay"),
    ("/results/replay/tables/nosuch.csv", 404, "no table 'nosuch'"),
    ("/results/replay/games/nosuch", 404, "no game 'nosuch' in 'replay'"),
    ("/results/..%2F..%2Fetc/live", 404, "Not Found"),
])
def test_unknown_pages_are_404_with_a_message(client, path, status, expected):
    response = client.get(path)
    assert response.status_code == status and expected in message(response)


def test_an_unknown_action_and_a_form_that_is_not_utf8_are_refused(client):
    url = new(client)
    assert client.post(url + "/castle").status_code == 404
    response = client.post("/play", content=b"game=\xff", headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 400 and message(response) == "the form is not UTF-8 text"


def test_results_tables_download_as_csv(client):
    response = client.get("/results/replay/tables/standings.csv")
    assert response.status_code == 200 and response.text.startswith("participant,games,wins,draws,losses")
    page = client.get("/results/replay")
    assert page.status_code == 200 and re.search(r"[+-]\d+ ± \d+", page.text)
