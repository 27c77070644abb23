"""Regenerate the README's screenshots of `plyground serve`: `python docs/screenshots.py`.

Needs chromium and playwright (the test extra).

It runs a short checkers match into a temporary results folder, serves it, plays a few moves of
checkers against alpha-beta with the coach on, and saves docs/play.png and docs/replay.png; then the boards
of the dice and many-player games from set positions: docs/boards-pig.png, boards-einstein.png (a cube
selected: its targets outlined) and boards-rolit.png (three players).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import uvicorn
from playwright.sync_api import sync_playwright

from framework.web.app import create_app

DOCS = Path(__file__).resolve().parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
MATCH = """name: screenshots
game: checkers
games_per_pairing: 2
seed: 7
workers: 1
max_plies: 60
participants:
  - {id: alphabeta-d4, agent: alphabeta, params: {depth: 4}}
  - {id: mcts-200, agent: mcts, budget: {nodes: 200}}
"""
#: (file, game, options, position, squares clicked before the picture) of the boards' screenshots.
BOARDS = (("boards-pig.png", "pig", "players=3", "31,12,57 t=8 p1 goal=100", ()),
          ("boards-einstein.png", "einstein", "", "..CB./..A.D/6...F/4523./1.... r5", ("c2",)),
          ("boards-rolit.png", "rolit", "players=3", "R.G...../.R.G..../..RGGGG./...RR.../..YYYY../....RY../"
                                                     "....RY../........ r", ()))


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="plyground-shots-"))
    (folder / "match.yaml").write_text(MATCH)
    subprocess.run([sys.executable, "-m", "framework.cli", "run", str(folder / "match.yaml"), "--results",
                    str(folder / "results" / "checkers-match")], check=True, stdout=subprocess.DEVNULL)
    server = uvicorn.Server(uvicorn.Config(create_app(folder / "results"), host="127.0.0.1", port=8765,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = "http://127.0.0.1:8765"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 720})
        page.goto(base + "/")
        page.fill("input[name=game]", "checkers")
        page.locator("input[name=seat]").nth(1).fill("alphabeta:depth=6")
        page.fill("input[name=coach]", "alphabeta:depth=4")
        page.click("#play-button")
        for number, path in enumerate((("11", "15"), ("15", "24")), 1):
            for square in path:
                page.click(f'[data-square="{square}"]')
            page.wait_for_function("n => document.querySelector('[data-engine-turn=\"0\"]') && "
                                   "document.querySelectorAll('#moves li').length == n", arg=2 * number)
        page.screenshot(path=DOCS / "play.png")
        page.goto(base + "/results/checkers-match")
        page.locator("ul.games a").first.click()
        page.wait_for_selector(".replay")
        for _ in range(12):
            page.keyboard.press("ArrowRight")
        page.screenshot(path=DOCS / "replay.png")
        for file, game, options, position, clicks in BOARDS:
            seats = [("seat", "human")] * (3 if "players=3" in options else 2)   # people at every seat
            form = urlencode([("game", game), ("options", options), ("position", position), *seats,
                              ("first", "human"), ("second", "human")])
            started = page.request.post(base + "/play", data=form,
                                        headers={"Content-Type": "application/x-www-form-urlencoded"})
            page.goto(started.url)
            page.wait_for_selector("svg.board")
            for square in clicks:
                page.click(f'[data-square="{square}"]')
            page.screenshot(path=DOCS / file)
        browser.close()
    server.should_exit = True
    print(f"wrote play.png, replay.png and {', '.join(b[0] for b in BOARDS)} in {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
