"""The workbench seats a program (`cmd:PROGRAM ARGS`, read as `plyground play` reads it) only when it was started
with `plyground serve --programs`: otherwise a page could start any program on the machine."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from framework.web.app import create_app
from tests.framework.engine.test_engine_check import engine
from tests.web.conftest import LOCAL
from tests.web.test_app import message


def new_game(client: TestClient, program: str):
    return client.post("/play", data={"game": "tictactoe", "first": "human", "second": f"cmd:{program}",
                                      "time": "1"}, follow_redirects=False)


def test_without_programs_a_program_seat_is_refused_naming_the_flag(workspace, tmp_path):
    with TestClient(create_app(workspace / "results"), raise_server_exceptions=False, base_url=LOCAL) as client:
        response = new_game(client, engine(tmp_path, "shell-engine"))
    assert response.status_code == 400
    assert "names a program; the workbench starts programs only when it was started with 'plyground serve " \
           "--programs'" in message(response)


@pytest.mark.parametrize("missing", [False, True])
def test_with_programs_a_program_plays_a_seat(workspace, tmp_path, missing):
    program = str(tmp_path / "nothing") if missing else engine(tmp_path, "shell-engine")
    app = create_app(workspace / "results", programs=True)
    with TestClient(app, raise_server_exceptions=False, base_url=LOCAL) as client:
        response = new_game(client, program)
        if missing:
            assert response.status_code == 400 and "no such program" in message(response)
            return
        assert response.status_code == 303, message(response)
        url = response.headers["location"]
        assert client.post(url + "/move", data={"move": "b2"}).status_code == 200
        page = client.post(url + "/engine")
        assert page.status_code == 200
        assert '<li data-ply="2"><b>O</b> <span class="move">a3</span>' in page.text, page.text[:3000]
