"""The built-in games' SVG boards: every legal move is clickable on squares the board draws, pieces stand where the
rules say, the dice games show their die, and a game without `render_svg` keeps its text board."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from starlette.testclient import TestClient

from framework.capabilities import capabilities, player_count
from framework.protocols import CHANCE
from framework.registry import Registry
from framework.web.app import create_app
from plugins.games.einstein import EinStein, square
from plugins.games.pig import Pig
from plugins.games.rolit import COLOURS, Rolit
from tests.web.conftest import LOCAL, ROOT

SVG = "{http://www.w3.org/2000/svg}"
TEXT_GAME = str(ROOT / "tests" / "web" / "text_game.py")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)   # well-formed XML, or this raises


def squares(root: ET.Element) -> dict[str, ET.Element]:
    found: dict[str, ET.Element] = {}
    for element in root.iter():
        name = element.get("data-square")
        if name is not None:
            assert name not in found, f"two elements are square {name!r}"
            found[name] = element
    return found


def playout(game, seed: int, plies: int = 400):
    """The states of a seeded random game (chance outcomes drawn by their probabilities)."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while not game.is_terminal(state) and len(states) < plies:
        if game.to_move(state) == CHANCE:
            outcomes, weights = zip(*game.chance_outcomes(state))
            move = rng.choices(outcomes, [float(w) for w in weights])[0]
        else:
            move = rng.choice(game.legal_moves(state))
        state = game.apply(state, move)
        states.append(state)
    return states


GAMES = [Pig(), Pig(players=4, goal=30), EinStein(), Rolit(players=2), Rolit(players=3), Rolit(players=4)]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.name}-{player_count(g)}")
def test_every_legal_move_is_a_distinct_path_of_squares_the_board_draws(game):
    for seed in range(3):
        for state in playout(game, seed):
            for flipped in (False, True):
                drawn = squares(parse(game.render_svg(state, flipped=flipped)))
                paths = [game.move_clicks(state, m) for m in game.legal_moves(state)]
                if game.to_move(state) == CHANCE:
                    assert paths and all(p == () for p in paths), "a roll is never clicked"
                    continue
                assert len(set(paths)) == len(paths)
                for path in paths:
                    assert path and set(path) <= drawn.keys(), (path, game.to_text(state))


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def test_pig_shows_every_score_the_turn_total_and_the_die():
    game = Pig(players=3)
    state = game.from_text("31,12,40 t=8 p2 goal=100")
    root = parse(game.render_svg(state))
    assert "goal 100" in texts(root)
    seats = [g for g in root.iter(f"{SVG}g") if "seat" in (g.get("class") or "").split()]
    assert [" ".join(texts(g)) for g in seats] == ["P1 31", "▶ P2 12 +8", "P3 40"]
    assert "mover" in (seats[1].get("class") or "")
    drawn = squares(root)
    assert "turn total 8" in texts(drawn["roll"]) and "hold (+8)" in texts(drawn["hold"])
    rolling = parse(game.render_svg(game.apply(state, "roll")))
    assert not squares(rolling)   # the die is in the air: nothing to click
    die = next(g for g in rolling.iter(f"{SVG}g") if (g.get("class") or "").startswith("die"))
    assert texts(die) == ["?", "rolling…"]
    won = game.from_text("100,12,40 t=0 p1 goal=100")
    assert "P1 reached the goal" in texts(parse(game.render_svg(won)))


def test_pig_shows_the_face_rolled_which_its_state_does_not_keep():
    game = Pig()
    state = game.from_text("31,12 t=8 p1 goal=100")
    rolled = parse(game.render_svg(state, rolled="4"))
    die = squares(rolled)["roll"]
    assert texts(die) == ["rolled 4, turn total 8"] and len(list(die.iter(f"{SVG}circle"))) == 4   # four pips
    lost = parse(game.render_svg(game.from_text("31,12 t=0 p2 goal=100"), rolled="1"))
    assert "rolled 1: turn over" in texts(squares(lost)["roll"])


def test_the_workbench_shows_the_roll_that_led_to_the_position():
    with TestClient(create_app(None, ()), base_url=LOCAL) as client:
        page = client.post("/play", data={"game": "pig", "seat": ["human", "human"], "seed": "3"})
        sid = re.search(r'data-session="([^"]+)"', page.text)[1]
        after = client.post(f"/play/{sid}/move", data={"move": "roll"})
        assert after.status_code == 200
        face = re.findall(r'class="move roll">rolled (\d)<', after.text)[-1]
        assert f"rolled {face}" in after.text.split('id="moves"')[0]   # on the board, above the move list


def test_einstein_draws_each_cube_with_its_number_and_colour_the_die_and_the_cubes_it_lets_move():
    game = EinStein()
    state = game.from_text("..CBA/...ED/6...F/45.../1.3.. r2")   # Red rolled 2, has no 2: moves 1 or 3
    cells = squares(parse(game.render_svg(state)))
    for cell, piece in enumerate(state[0]):
        group = cells[square(cell)]
        cube = [e for e in group.iter() if "cube" in (e.get("class") or "")]
        if not piece:
            assert not cube and texts(group) == []
            continue
        assert f"piece-{0 if piece <= 6 else 1}" in cube[0].get("class", "")
        assert texts(group) == [str((piece - 1) % 6 + 1)]
    movable = {name for name, g in cells.items() if "movable" in (g.get("class") or "")}
    assert movable == {"a1", "c1"}
    assert "goal-0" in cells["e5"].get("class", "") and "goal-1" in cells["a1"].get("class", "")
    root = parse(game.render_svg(state))
    assert "Red rolled 2" in texts(root)
    assert len([c for c in root.iter(f"{SVG}circle") if c.get("class") == "pip"]) == 2
    assert "Red to roll" in texts(parse(game.render_svg(game.from_text("..CBA/...ED/6...F/45.../1.3.. r?"))))


def test_einstein_flipped_turns_the_board_half_a_turn():
    game = EinStein()
    state = game.initial_state()
    order = [e.get("data-square") for e in parse(game.render_svg(state)).iter() if e.get("data-square")]
    flipped = [e.get("data-square") for e in parse(game.render_svg(state, flipped=True)).iter()
               if e.get("data-square")]
    assert order[0] == "a5" and order[-1] == "e1" and flipped == order[::-1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rolit_draws_every_ball_in_its_colour_and_counts_every_colour(players):
    game = Rolit(players=players)
    state = playout(game, seed=players, plies=20)[-1]
    root = parse(game.render_svg(state))
    cells = squares(root)
    for sq in range(64):
        name = "abcdefgh"[sq % 8] + str(sq // 8 + 1)
        owners = [c for c in range(4) if state[0][c] >> sq & 1]
        balls = [e.get("class") for e in cells[name].iter(f"{SVG}circle")]
        assert balls == [f"piece piece-{owners[0]}"] if owners else balls == []
    side = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "side")
    counts = [board.bit_count() for board in state[0]]
    lines = [" ".join(texts(g)) for g in side]
    assert lines == [f"{'▶ ' if seat == state[1] else ''}{COLOURS[seat]} {counts[seat]}"
                     f"{'' if seat < players else ' (nobody)'}" for seat in range(4)]
    legal = {name for name, g in cells.items() if "legal" in (g.get("class") or "")}
    assert legal == {game.format_move(state, m) for m in game.legal_moves(state)}


def test_every_built_in_game_draws_an_svg_board():
    registry = Registry()
    missing = [name for name in registry.games
               if capabilities(registry.create_game(name)).render_svg is None]
    assert missing == []


def test_a_game_without_render_svg_is_shown_by_its_text_and_played_by_buttons():
    with TestClient(create_app(None, (TEXT_GAME,)), base_url=LOCAL) as client:
        response = client.post("/play", data={"game": "countdown", "first": "human", "second": "human"})
        assert response.status_code == 200
        assert '<pre class="board-text">pile: ||||||| (7)</pre>' in response.text
        assert 'class="board' not in response.text.replace('class="board-text"', "")
        assert re.findall(r'data-move="(\d)"', response.text) == ["1", "2"]
        sid = re.search(r'data-session="([^"]+)"', response.text)[1]
        after = client.post(f"/play/{sid}/move", data={"move": "2"})
        assert after.status_code == 200 and "pile: ||||| (5)" in after.text
