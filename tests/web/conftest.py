"""Browser tests: the workbench served by uvicorn in a thread, driven by Playwright through Debian's chromium.

Playwright cannot download its own browsers here, so it launches the system's chromium by path
(`.ci/run` installs it). Without chromium the tests skip, except under CI, where they must run.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
#: The pages, not the searches, are under test: interpreted rules need no compiled kernels (no compile on a cold cache).
INTERPRETED = {"PLYGROUND_JIT": "0"}
#: The address TestClient requests name: the workbench answers only requests for the address it serves.
LOCAL = "http://127.0.0.1"
FIXTURE_AGENTS = str(ROOT / "tests" / "framework" / "tournament" / "fixture_agents.py")


def tournament(folder: Path, name: str, lines: str) -> Path:
    """A tournament file in `folder` whose results go to folder/results/NAME."""
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nresults: results/{name}\nplugins: [{FIXTURE_AGENTS}]\n{lines}")
    return path


def run_tournament(config: Path, *, wait: bool = True) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **INTERPRETED}
    proc = subprocess.Popen([sys.executable, "-m", "framework.cli", "run", str(config)], cwd=config.parent, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if wait:
        assert proc.wait(timeout=120) == 0, proc.stderr.read().decode() if proc.stderr else ""
    return proc


@pytest.fixture(scope="session")
def workspace(tmp_path_factory) -> Path:
    """A folder with a finished tic-tac-toe tournament under results/replay."""
    folder = tmp_path_factory.mktemp("web")
    config = tournament(folder, "replay", "game: tictactoe\ngames_per_pairing: 2\nseed: 3\nworkers: 1\n"
                        "participants:\n  - {id: ab, agent: alphabeta}\n  - {id: mm, agent: minimax, "
                        "params: {depth: 2, heuristic: lines}}\n")
    run_tournament(config)
    return folder


@pytest.fixture(scope="session")
def server(workspace):
    """The base URL of a workbench browsing workspace/results, with the misbehaving test agents loaded."""
    import uvicorn

    from framework.web.app import create_app

    saved = {key: os.environ.get(key) for key in INTERPRETED}
    os.environ.update(INTERPRETED)   # inherited by the engine workers the server starts
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(workspace / "results", (FIXTURE_AGENTS,))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("chromium is missing; .ci/run installs it (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def assert_not_blank(path: Path) -> None:
    """A screenshot shows something: many distinct colours, not one flat fill."""
    import matplotlib.image

    pixels = matplotlib.image.imread(str(path))
    assert pixels.std() > 0.05, f"{path} looks blank"
    flat = (pixels[..., :3] * 255).astype(int).reshape(-1, 3)
    assert len({tuple(p) for p in flat[:: max(1, len(flat) // 20000)]}) > 20, f"{path} has too few colours"


def open_game(page, server: str, game: str, seats: list[str], **fields: str) -> None:
    """Start a game by posting the new-game form's fields (each seat in order) and open its page.

    The seats go both as repeated `seat` fields and as `first` / `second`, the two spellings of the form."""
    from urllib.parse import urlencode

    form = [("game", game), *(("seat", s) for s in seats), *zip(("first", "second"), seats), *fields.items()]
    response = page.request.post(server + "/play", data=urlencode(form),
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.ok and "/play/" in response.url, response.text()
    page.goto(response.url)
