"""The workbench in a real browser: games by clicks, typed moves, replay, the live page and a hung agent."""

from __future__ import annotations

import json
import re
import time

from plugins.games.tictactoe import TicTacToe
from tests.web.conftest import assert_not_blank, run_tournament, tournament


def new_game(page, server, **fields):
    page.goto(server + "/")
    seats = {"first": 0, "second": 1}   # the form's seat fields, in order
    for name, value in fields.items():
        if name == "game":
            page.select_option("select[name=game]", value)
        elif name in seats:
            page.locator("input[name=seat]").nth(seats[name]).fill(value)
        else:
            page.fill(f"input[name={name}]", value)
    page.click("#play-button")
    page.wait_for_url(re.compile(r"/play/"))


def settled(page, before: str) -> None:
    """Wait until the panel shows a new position where a person is to move, or the result."""
    page.wait_for_function(
        """before => document.querySelector('#result') || (document.querySelector('[data-engine-turn="0"]')
             && document.querySelector('.play').dataset.position !== before)""", arg=before)


def test_a_full_tictactoe_game_by_clicks_against_alphabeta_ends_with_the_right_result(page, server, tmp_path):
    new_game(page, server, game="tictactoe", first="human", second="alphabeta", time="1")
    game = TicTacToe()
    while not page.locator("#result").count():
        position = page.locator(".play").get_attribute("data-position")
        notation, clicks = json.loads(page.locator("#legal").text_content())[0]
        page.click(f'[data-square="{clicks[0]}"]')
        settled(page, position)
    final = game.from_text(page.locator(".play").get_attribute("data-position"))
    assert game.is_terminal(final)
    returns = game.returns(final)
    expected = "draw" if returns[0] == returns[1] else "X (human) wins" if returns[0] > 0 else "O (alphabeta) wins"
    assert page.locator("#result").text_content().startswith(expected)
    # every engine move shows its search figures, rounded
    stats = page.locator("#moves .stats").all_text_contents()
    assert stats and all(re.search(r"depth \d+ · nodes [\d,]+ · \d+\.\d\ds · score (win|loss|-?\d+(\.\d+)?)", s)
                         for s in stats)
    page.screenshot(path=tmp_path / "tictactoe.png")
    assert_not_blank(tmp_path / "tictactoe.png")


def test_a_checkers_triple_jump_is_made_by_clicking_its_squares(page, server, tmp_path):
    new_game(page, server, game="checkers", first="human", second="alphabeta:depth=2", time="1",
             position="B:W6,7,15,24,32:B1,3")
    position = page.locator(".play").get_attribute("data-position")
    for square in ("3", "10", "19"):
        page.click(f'[data-square="{square}"]')
        assert page.locator("#moves li").count() == 0   # a path in progress, not yet a move
    assert page.locator('[data-square="10"].selected').count() == 1
    page.click('[data-square="28"]')
    settled(page, position)
    assert page.locator("#moves li .move").first.text_content() == "3x10x19x28"
    assert page.locator("#moves li").count() == 2   # and the engine replied
    page.screenshot(path=tmp_path / "checkers.png")
    assert_not_blank(tmp_path / "checkers.png")


def test_an_illegal_typed_move_shows_a_message_and_the_game_goes_on(page, server):
    new_game(page, server, game="tictactoe", first="human", second="alphabeta", time="1")
    page.fill("#move-input", "d4")
    page.click("#move-form button[type=submit]")
    page.wait_for_selector("#message.error")
    assert "'d4' is not a tic-tac-toe square" in page.locator("#message").text_content()
    position = page.locator(".play").get_attribute("data-position")
    page.fill("#move-input", "b2")
    page.click("#move-form button[type=submit]")
    settled(page, position)
    assert page.locator("#moves li").count() == 2 and page.locator("#message.error").count() == 0


def test_replay_steps_forward_and_back_and_charts_one_point_per_move(page, server, tmp_path):
    page.goto(server + "/results/replay")
    page.locator("ul.games a").first.click()
    page.wait_for_selector(".replay")
    plies = int(page.locator(".replay").get_attribute("data-plies"))
    assert plies >= 5
    for name in ("nodes", "time", "score"):
        assert page.locator(f"#chart-{name} circle").count() == plies
    visible = '.frame:not([hidden])'
    assert page.locator(visible).get_attribute("data-ply") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.click("#next")
    assert page.locator(visible).get_attribute("data-ply") == "3"
    assert page.locator("#ply").text_content() == f"ply 3 / {plies}"
    page.keyboard.press("ArrowLeft")
    assert page.locator(visible).get_attribute("data-ply") == "2"
    assert page.locator("#moves li.current").get_attribute("data-ply") == "2"
    page.screenshot(path=tmp_path / "replay.png")
    assert_not_blank(tmp_path / "replay.png")


def test_the_live_page_follows_a_tournament_run_in_another_process(page, server, workspace):
    config = tournament(workspace, "live", "game: tictactoe\ngames_per_pairing: 8\nseed: 5\nworkers: 1\n"
                        "participants:\n  - {id: slow-a, agent: sleepy, params: {delay: 0.06}}\n"
                        "  - {id: slow-b, agent: sleepy, params: {delay: 0.06}}\n")
    proc = run_tournament(config, wait=False)
    try:
        database = workspace / "results" / "live" / "results.sqlite"
        deadline = time.monotonic() + 60
        while not database.exists():
            assert time.monotonic() < deadline and proc.poll() is None, "the tournament did not start"
            time.sleep(0.1)
        page.goto(server + "/results/live/live")
        first = int(page.locator("#count").text_content().split()[0])
        assert first < 8
        page.wait_for_function("n => parseInt(document.querySelector('#count').textContent) > n", arg=first)
        page.wait_for_function("() => parseInt(document.querySelector('#count').textContent) === 8", timeout=60_000)
        points = page.locator("#table-standings tbody tr td:nth-child(6)").all_text_contents()
        assert sum(float(p) for p in points) == 8.0
    finally:
        assert proc.wait(timeout=60) == 0


def test_a_hung_agent_is_stopped_at_its_time_limit_and_the_page_says_so(page, server, tmp_path):
    started = time.monotonic()
    new_game(page, server, game="tictactoe", first="hanger", second="human", time="0.5")
    page.wait_for_selector("#result")
    elapsed = time.monotonic() - started
    text = page.locator("#result").text_content()
    assert "forfeit: X (hanger) was stopped after 2s on one move (hard time limit)" in text
    assert text.startswith("O (human) wins")
    assert elapsed < 15
    page.goto(server + "/")   # the server still answers
    assert page.locator("#new-game").count() == 1
    page.screenshot(path=tmp_path / "hung.png")
