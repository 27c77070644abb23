"""The workbench in a real browser: games by clicks, typed moves, replay, the live page and a hung agent."""

from __future__ import annotations

import json
import re
import time

import pytest

from plugins.games.tictactoe import TicTacToe
from tests.web.conftest import assert_not_blank, open_game, run_tournament, tournament

pytestmark = pytest.mark.slow   # a browser follows tournaments end to end (the quick subset leaves them out)


def new_game(page, server, **fields):
    page.goto(server + "/")
    seats = {"first": 0, "second": 1}   # the form's seat fields, in order
    for name, value in fields.items():
        if name == "game":
            page.fill("input[name=game]", value)
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
    figures = r"depth \d+ · nodes [\d,]+ · (\d+\.\d ms|\d+\.\d\ds) · score (win|loss|-?\d+(\.\d+)?)"
    assert stats and all(re.search(figures, s) for s in stats)
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
    for name in ("nodes", "time", "score", "evaluation"):   # every engine move is scored
        assert page.locator(f"#chart-{name} circle").count() == plies
    assert page.locator("#chart-evaluation polyline").count() == 2   # a line per engine, both from X's side
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


def test_pig_is_played_by_clicking_the_hold_button_on_its_board(page, server, tmp_path):
    open_game(page, server, "pig", ["human", "human"], position="31,12 t=8 p1 goal=100")
    assert page.locator("svg.board.pig .seat.mover").text_content() == "▶ P131 +8"
    page.click('[data-square="hold"]')
    page.wait_for_selector("#moves li")
    assert page.locator("#moves li .move").first.text_content() == "hold"
    assert page.locator("svg.board.pig .seat").first.text_content() == "P139"
    assert page.locator("svg.board.pig .seat.mover").text_content() == "▶ P212"
    page.screenshot(path=tmp_path / "pig.png")
    assert_not_blank(tmp_path / "pig.png")


def test_einstein_shows_the_targets_of_a_selected_cube_and_highlights_the_move_made(page, server, tmp_path):
    open_game(page, server, "einstein", ["human", "human"], position="..CBA/...ED/6...F/45.../1.3.. r2")
    assert page.locator(".movable").count() == 2   # the roll of 2 lets cube 1 or cube 3 move
    page.click('[data-square="a1"]')
    targets = sorted(page.locator(".cell.target").evaluate_all("els => els.map(e => e.dataset.square)"))
    assert targets == ["a2", "b1", "b2"]
    page.click('[data-square="b2"]')
    page.wait_for_selector("#moves li")
    assert page.locator("#moves li .move").first.text_content() == "a1b2"
    assert sorted(page.locator(".cell.last").evaluate_all("els => els.map(e => e.dataset.square)")) == ["a1", "b2"]
    page.screenshot(path=tmp_path / "einstein.png")
    assert_not_blank(tmp_path / "einstein.png")


def test_a_three_player_rolit_move_is_a_click_on_a_legal_square(page, server, tmp_path):
    open_game(page, server, "rolit", ["human", "human", "human"], options="players=3")
    legal = sorted(page.locator(".cell.legal").evaluate_all("els => els.map(e => e.dataset.square)"))
    assert legal == ["d6", "f4", "f6"]   # Red must capture: d6 takes d5 (Blue), f4 e4 (Yellow), f6 e5 (Green)
    page.click('[data-square="f4"]')
    page.wait_for_selector("#moves li")
    assert page.locator("svg.board.rolit .side").text_content().startswith("Red 3")
    page.screenshot(path=tmp_path / "rolit.png")
    assert_not_blank(tmp_path / "rolit.png")


def test_an_error_page_answering_a_move_shows_its_message_once_not_a_page_in_the_panel(page, server):
    from framework.web.pages import error_page

    open_game(page, server, "tictactoe", ["human", "human"])
    page.route("**/move", lambda route: route.fulfill(status=404, content_type="text/html",
                                                     body=error_page(404, "no game 'x' on this server")))
    page.click('[data-square="b2"]')
    page.wait_for_selector("#message.error")
    assert page.locator("#message").text_content() == "no game 'x' on this server"
    assert page.locator("h1").count() == 1 and page.locator("nav").count() == 1
    assert page.locator("svg.board").count() == 1   # the board stays as it was


def test_the_page_says_the_engine_is_thinking_while_it_searches(page, server):
    open_game(page, server, "tictactoe", ["human", "sleepy:delay=2"], time="5")
    position = page.locator(".play").get_attribute("data-position")
    page.click('[data-square="b2"]')
    page.wait_for_function("() => document.querySelector('#status')?.textContent.includes('engine thinking…')")
    assert page.locator("#panel.busy .spinner").count() == 1
    settled(page, position)
    assert page.locator("#panel.busy").count() == 0 and page.locator("#moves li").count() == 2


def test_a_second_tab_that_has_not_seen_the_last_move_gets_the_board_as_it_is(page, server):
    open_game(page, server, "tictactoe", ["human", "human"])
    other = page.context.new_page()
    other.goto(page.url)
    page.click('[data-square="b2"]')
    page.wait_for_selector("#moves li")
    other.click('[data-square="a1"]')   # this tab still shows the empty board
    other.wait_for_selector("#message.error")
    assert "the game changed since this page showed it" in other.locator("#message").text_content()
    assert other.locator("#moves li .move").all_text_contents() == ["b2"]   # the fresh board, a1 not played
    other.close()


def test_the_move_list_keeps_the_newest_move_in_view(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 260})   # room for a few moves only
    page = context.new_page()
    open_game(page, server, "tictactoe", ["human", "human"])
    for number, square in enumerate(("b2", "a1", "c3", "a3", "a2", "c1", "b1"), 1):
        page.click(f'[data-square="{square}"]')
        page.wait_for_function("n => document.querySelectorAll('#moves li').length === n", arg=number)
    overflows, newest_shown = page.evaluate("""() => {
        const list = document.querySelector('#moves');
        const box = list.getBoundingClientRect(), last = list.lastElementChild.getBoundingClientRect();
        return [list.scrollHeight > list.clientHeight, last.bottom <= box.bottom + 1 && last.top >= box.top - 1];
    }""")
    context.close()
    assert overflows and newest_shown
