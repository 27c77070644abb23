"""The live feed shows the games a run in another process is playing, and none once it ends; the results
page embeds the report's plots, served only from inside the results folder."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from framework.tournament.live import LIVE
from framework.web.app import create_app
from tests.web.conftest import LOCAL, run_tournament, tournament


@pytest.fixture(scope="module")
def client(workspace):
    with TestClient(create_app(workspace / "results"), raise_server_exceptions=False, base_url=LOCAL) as c:
        yield c


def playing_events(client, run: str, until) -> str:
    """The data of the live feed's `playing` events, until one satisfies `until` (the feed never ends by itself)."""
    with client.stream("GET", f"/results/{run}/events") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        kind, data = None, []
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind, data = line[7:], []
            elif line.startswith("data: "):
                data.append(line[6:])
            elif not line and kind == "playing" and until("\n".join(data)):
                return "\n".join(data)
    raise AssertionError("the feed ended")


def test_the_live_feed_shows_the_games_in_progress_while_a_run_plays_them(client, workspace):
    config = tournament(workspace, "slow", "game: tictactoe\ngames_per_pairing: 2\nseed: 1\nworkers: 2\n"
                        "participants:\n  - {id: s1, agent: sleepy, params: {delay: 0.3}}\n"
                        "  - {id: s2, agent: sleepy, params: {delay: 0.3}}\n")
    folder = workspace / "results" / "slow"
    run = run_tournament(config, wait=False)
    try:
        deadline = time.monotonic() + 60
        while not (folder / LIVE).exists():
            assert time.monotonic() < deadline and run.poll() is None, "the run published no live file"
            time.sleep(0.05)
        data = playing_events(client, "slow", lambda d: "2 in progress" in d and "last move" in d)
        assert data.count('class="in-progress"') == 2 and "s1 – s2" in data and "s2 – s1" in data
        assert '<svg' in data and " to move" in data   # tic-tac-toe draws its board
        page = client.get("/results/slow/live")
        assert page.status_code == 200 and 'id="playing"' in page.text
        assert run.wait(timeout=120) == 0, run.stderr.read().decode() if run.stderr else ""
    finally:
        if run.poll() is None:
            run.kill()
    assert not (folder / LIVE).exists()
    assert "No game in progress." in playing_events(client, "slow", lambda d: True)
    assert "2 games finished" in client.get("/results/slow/live").text


def test_the_results_page_embeds_the_report_plots(client, workspace):
    folder = workspace / "results" / "replay"
    (folder / "ratings.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    page = client.get("/results/replay")
    assert '<img src="/results/replay/plots/ratings.png"' in page.text
    response = client.get("/results/replay/plots/ratings.png")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    assert response.content == (folder / "ratings.png").read_bytes()


@pytest.mark.parametrize("name", ["..%2F..%2Fetc%2Fpasswd", "%2E%2E", "results.sqlite", "missing.png", "outside.png",
                                  "%2E%2E%2Freplay.yaml"])
def test_a_plot_outside_the_folder_or_not_a_png_is_404(client, workspace, name):
    folder = workspace / "results" / "replay"
    (workspace / "secret.png").write_bytes(b"\x89PNG secret")
    (folder / "outside.png").unlink(missing_ok=True)
    (folder / "outside.png").symlink_to(workspace / "secret.png")
    response = client.get(f"/results/replay/plots/{name}")
    assert response.status_code == 404 and b"secret" not in response.content
