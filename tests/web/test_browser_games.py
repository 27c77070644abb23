"""Every kind of game in a real browser: started from the new-game form with one seat per player, played by
clicking the board against engines, the dice rolled by the match and shown as rolls, the record downloaded.

A game with dice or more than two seats plays to its end; checkers and LOA, which are long, a fixed number of the
person's moves. The person's moves are chosen by a seeded stream among the legal moves the page lists, and each
is made by clicking the squares the page says it takes (the SVG board's click targets).
"""

from __future__ import annotations

import json
import random
import re

import pytest

from framework.protocols import CHANCE
from framework.registry import Registry
from tests.web.conftest import assert_not_blank

#: case: (game, options, seats in order, the person's moves to make: None plays to the end).
CASES = {
    "pig": ("pig", "goal=20", ["random", "human"], None),   # the person last: a roll was once offered to it
    "einstein": ("einstein", "", ["random", "human"], None),
    "rolit-3": ("rolit", "players=3", ["random", "human", "maxn:depth=1"], None),
    "checkers": ("checkers", "", ["human", "alphabeta:depth=1"], 10),
    "loa": ("loa", "", ["random", "human"], 10),
}
#: The most moves a person makes in a game played to its end (a bound, so a stuck game fails, not hangs).
MOST_MOVES = 200
DICE = {"pig", "einstein"}


def refuse_constant(token: str) -> None:
    raise ValueError(f"not strict JSON: {token}")


def start_from_the_form(page, server: str, game: str, options: str, seats: list[str]) -> None:
    """Fill the new-game form as a person would: the game, its options, "Seats for this game", one seat each."""
    page.goto(server + "/")
    page.fill("input[name=game]", game)
    page.fill("input[name=options]", options)
    page.click("#seats-button")
    page.wait_for_selector(f'#seats[data-players="{len(seats)}"]')
    assert page.locator("input[name=seat]").count() == len(seats)
    for i, seat in enumerate(seats):
        page.locator("input[name=seat]").nth(i).fill(seat)
    page.fill("input[name=time]", "1")
    page.fill("input[name=seed]", "7")
    page.click("#play-button")
    page.wait_for_url(re.compile(r"/play\b"))
    assert "/play/" in page.url, page.locator("#message").text_content()   # else the form came back with an error


def wait_for_person_or_end(page, version: str | None) -> None:
    """Until the game is over, or a person is to move in a position newer than `version` with no request out."""
    page.wait_for_function(
        """seen => document.querySelector('#result') || (document.querySelector('[data-engine-turn="0"]')
             && !document.querySelector('#panel.busy') && document.querySelector('.play').dataset.version !== seen)""",
        arg=version, timeout=60_000)


def click_move(page, clicks: list[str]) -> None:
    for square in clicks:
        page.click(f'[data-square="{square}"]')


@pytest.mark.parametrize("case", list(CASES))
def test_a_person_plays_by_clicking_the_board_against_engines(case, page, server, tmp_path):
    name, options, seats, limit = CASES[case]
    game = Registry().create_game(name, {k: int(v) for k, v in (kv.split("=") for kv in options.split(",") if kv)})
    failures: list[str] = []
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("pageerror", lambda error: failures.append(f"script error: {error}"))
    start_from_the_form(page, server, name, options, seats)
    rng = random.Random(case)
    made = 0
    version = None
    while True:
        wait_for_person_or_end(page, version)
        if page.locator("#result").count() or made == (limit or MOST_MOVES):
            break
        play = page.locator(".play")
        version = play.get_attribute("data-version")
        state = game.from_text(play.get_attribute("data-position"))
        assert game.to_move(state) != CHANCE   # a person is never asked at a roll
        legal = json.loads(page.locator("#legal").text_content())
        assert sorted(n for n, _ in legal) == sorted(game.format_move(state, m) for m in game.legal_moves(state))
        assert all(clicks for _, clicks in legal)   # every move is made on the board
        assert page.locator('button[data-action="move"]').count() == 0   # no die face, nor any move, as a button
        if name in DICE:   # nor a die face to click on the board (checkers' squares are numbers, so not there)
            targets = page.locator("[data-square]").evaluate_all("els => els.map(e => e.dataset.square)")
            assert targets and not [t for t in targets if t.isdigit()]
        if made == 3:
            page.screenshot(path=tmp_path / f"{case}.png")
            assert_not_blank(tmp_path / f"{case}.png")
        notation, clicks = rng.choice(legal)
        click_move(page, clicks)
        made += 1
        if made == 1 or made % 5 == 0:   # the move the clicks made is the newest of the person's
            wait_for_person_or_end(page, version)
            version = None   # already newer: the next wait returns at once
            assert notation in page.locator("#moves li:not(.chance) .move").all_text_contents()
    if limit is None:
        assert page.locator("#result").count() == 1, f"{case} did not end in {made} of the person's moves"
    else:
        assert made == limit
    assert page.locator("#message.error").count() == 0
    rolls = page.locator("#moves li.chance .roll").all_text_contents()
    if name in DICE:
        assert rolls and all(re.fullmatch(r"rolled \d", r) for r in rolls), rolls
    else:
        assert not rolls
    shown = page.locator("#moves li .move").all_text_contents()

    with page.expect_download() as download:
        page.click("#record-jsonl")
    text = open(download.value.path()).read()
    line = json.loads(text, parse_constant=refuse_constant)
    assert text.count("\n") == 1 and line["game"] == name
    assert line["final"] == page.locator(".play").get_attribute("data-position")
    assert [m["move"] for m in line["moves"]] == [re.sub(r"^rolled ", "", m) for m in shown]
    assert [m["chance"] for m in line["moves"]] == [m.startswith("rolled ") for m in shown]
    assert sum(m["chance"] for m in line["moves"]) == len(rolls)
    assert failures == []
