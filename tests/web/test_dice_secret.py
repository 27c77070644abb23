"""The workbench keeps a game's dice seed secret until the game ends: the record, downloadable mid-game, would
otherwise foretell every roll; the form says a seed given is for analysis."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from framework.web.app import create_app
from tests.web.conftest import LOCAL


def test_the_record_hides_the_dice_seed_until_the_game_ends_then_shows_it():
    with TestClient(create_app(None), raise_server_exceptions=False, base_url=LOCAL) as client:
        created = client.post("/play", data={"game": "pig", "options": "goal=20", "seat": ["human", "human"]},
                              follow_redirects=False)
        url = created.headers["location"]
        assert client.post(f"{url}/move", data={"move": "roll"}).status_code == 200
        line = json.loads(client.get(f"{url}/record.jsonl").text)
        assert line["seed"] is None and len(line["moves"]) >= 2 and line["moves"][1]["chance"]
        assert client.post(f"{url}/resign").status_code == 200
        line = json.loads(client.get(f"{url}/record.jsonl").text)
        assert isinstance(line["seed"], int)


def test_the_form_says_a_dice_seed_is_for_analysis_and_an_empty_one_a_fair_game():
    with TestClient(create_app(None), raise_server_exceptions=False, base_url=LOCAL) as client:
        page = client.get("/").text
    assert "Dice seed (optional, for analysis)" in page and "a fair game" in page
    assert "its seed stays secret until the game" in page
