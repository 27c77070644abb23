"""The workbench's requests without a browser: every bad parameter is a 4xx page naming it, never a 500."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from starlette.testclient import TestClient

from framework.registry import Registry
from framework.web.app import create_app
from tests.web.conftest import FIXTURE_AGENTS, LOCAL, ROOT

FAULT_AGENTS = str(ROOT / "tests" / "framework" / "tournament" / "fault_agents.py")


@pytest.fixture(scope="module")
def client(workspace):
    app = create_app(workspace / "results", (FIXTURE_AGENTS, FAULT_AGENTS))
    with TestClient(app, raise_server_exceptions=False, base_url=LOCAL) as c:
        yield c


def message(response) -> str:
    text = response.text
    start = text.index('id="message">') + len('id="message">')
    return text[start:text.index("</p>", start)].replace("&#x27;", "'")


def message_or_result(response) -> str:
    """The result line of the panel (a game that ended), else its message."""
    text = response.text
    if 'id="result"' not in text:
        return message(response)
    start = text.index('id="result" class="result">') + len('id="result" class="result">')
    return text[start:text.index("</p>", start)].replace("&#x27;", "'")


def new(client, **fields) -> str:
    form = {"game": "tictactoe", "first": "human", "second": "alphabeta", "time": "1", **fields}
    response = client.post("/play", data=form, follow_redirects=False)
    assert response.status_code == 303, message(response)
    return response.headers["location"]


@pytest.mark.parametrize("fields, expected", [
    ({"game": "chess"}, "unknown game 'chess'; available games: checkers, einstein, loa, matches, pig, rolit, "
                        "tictactoe"),
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


def test_a_crashing_agent_forfeits_with_its_error_and_traceback_on_the_page(client):
    url = new(client, first="crasher")
    response = client.post(url + "/engine")
    assert response.status_code == 200
    assert "forfeit: X (crasher) crashed: RuntimeError: deliberate crash" in response.text
    assert re.search(r'id="traceback".*Traceback \(most recent call last\).*raise RuntimeError\(&quot;deliberate crash',
                     response.text, re.S)


@pytest.mark.parametrize("fault, reason", [
    ("bad_stats", "forfeit: X (faulty:fault=bad_stats) SearchStats.depth must be an integer from "
                  "-9223372036854775808 to 2**63-1, "
                  "got 1000000000000000000000000000000"),
    ("illegal", "forfeit: X (faulty:fault=illegal) played an illegal move 99999"),
    ("non_move", "forfeit: X (faulty:fault=non_move) returned '"),
    ("sys_exit", "forfeit: X (faulty:fault=sys_exit) crashed: it called sys.exit (exit code 3)"),
    ("segfault", "forfeit: X (faulty:fault=segfault) crashed: its engine was killed by signal SIGSEGV while choosing "
                 "a move"),
    ("killed", "forfeit: X (faulty:fault=killed) crashed: its engine was killed by signal SIGKILL while choosing a "
               "move"),   # its own signal: a kill from outside cannot be told apart (docs/guide/engine-protocol.md)
])
def test_an_engine_that_misbehaves_ends_the_game_with_the_reason_on_the_page(client, fault, reason):
    url = new(client, first=f"faulty:fault={fault}")
    response = client.post(url + "/engine")
    assert response.status_code == 200
    assert reason in message_or_result(response)


def test_an_engine_that_exits_mid_game_forfeits_with_its_exit_code(client):
    url = new(client, first="faulty:fault=exit_midgame", second="random")
    assert client.post(url + "/engine").status_code == 200   # its first move is honest
    client.post(url + "/engine")
    response = client.post(url + "/engine")
    assert ("O (random) wins — forfeit: X (faulty:fault=exit_midgame) crashed: its engine exited with code 5 "
            "while choosing a move") in message_or_result(response)


def test_an_engine_that_exits_while_built_is_a_400_naming_it(client):
    response = client.post("/play", data={"game": "tictactoe", "first": "human", "second": "faulty:fault=exit_init"})
    assert response.status_code == 400
    assert message(response) == ("second 'faulty:fault=exit_init': the agent could not be built: its engine "
                                 "exited with code 3 while getting ready for a game")


def test_an_engine_move_shows_its_figures_and_the_coach_its_verdict(client):
    url = new(client, coach="alphabeta")
    response = client.post(url + "/move", data={"move": "b2"})
    assert "coach: b2: optimal — the position was a draw and stays one" in response.text
    response = client.post(url + "/engine")
    assert re.search(r"depth \d+ · nodes [\d,]+ · (\d+\.\d ms|\d+\.\d\ds) · score 0 · pv [a-c][1-3]( [a-c][1-3])+",
                     response.text)


def test_a_coach_that_crashes_gives_no_verdict_and_the_game_goes_on(client):
    url = new(client, coach="crasher")
    response = client.post(url + "/move", data={"move": "b2"})
    assert response.status_code == 200
    assert "coach: b2: no verdict — the coach crashed: RuntimeError: deliberate crash" in response.text
    assert client.post(url + "/engine").status_code == 200


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


def version_of(response) -> str:
    return re.search(r'data-version="(\d+)"', response.text)[1]


def test_a_page_that_has_not_seen_the_last_change_is_refused_with_the_board_as_it_is(client):
    url = new(client)
    shown = version_of(client.get(url))
    moved = client.post(url + "/move", data={"move": "b2", "version": shown})
    assert moved.status_code == 200 and version_of(moved) != shown
    assert '<div class="play" data-engine-turn="1"' in moved.text
    replied = client.post(url + "/engine", data={"version": version_of(moved)})
    assert replied.status_code == 200
    stale = client.post(url + "/move", data={"move": "a1", "version": shown})   # a second tab, still at the start
    assert stale.status_code == 409
    assert message(stale) == "the game changed since this page showed it (another tab?); this is the board now"
    assert version_of(stale) == version_of(replied) and stale.text.count('class="move"') == 2
    assert client.post(url + "/undo", data={"version": shown}).status_code == 409
    assert client.post(url + "/undo", data={"version": version_of(replied)}).status_code == 200


def test_the_last_move_is_named_for_the_board_to_highlight(client):
    url = new(client)
    assert 'data-last="[]"' in client.get(url).text
    moved = client.post(url + "/move", data={"move": "b2"})
    assert 'data-last="[&quot;b2&quot;]"' in moved.text


def test_a_reloaded_page_asking_for_the_engine_move_gets_the_move_being_searched(workspace):
    """The first request's search is running; the second (a reload) waits for its move instead of a 409 or a second
    search."""
    from tests.web.test_guard import CountingPool

    pool = CountingPool()
    app = create_app(None, (FIXTURE_AGENTS,), pool)
    with TestClient(app, base_url=LOCAL) as c:
        url = c.post("/play", data={"game": "tictactoe", "first": "sleepy:delay=1.5", "second": "human", "time": "10"},
                     follow_redirects=False).headers["location"]
        answers = []
        first = threading.Thread(target=lambda: answers.append(c.post(url + "/engine")))
        first.start()
        deadline = time.monotonic() + 60
        while not pool.running:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        reload = c.post(url + "/engine")
        first.join(timeout=60)
    assert reload.status_code == 200 and answers[0].status_code == 200
    assert reload.text.count('class="move"') == 1 == answers[0].text.count('class="move"')
    assert 'data-engine-turn="0"' in reload.text


def test_the_play_page_charts_the_engine_scores_from_the_first_seats_side(client):
    url = new(client, first="alphabeta:depth=1", second="human")   # depth 1 scores by the lines heuristic
    assert 'id="chart-evaluation"' not in client.get(url).text
    engine = client.post(url + "/engine")
    score = float(re.search(r"score (-?[\d.]+)", engine.text)[1])
    assert re.findall(r"<title>ply (\d+): ([-\d.]+)</title>", engine.text) == [("1", f"{score:.4g}")]
    moved = client.post(url + "/move", data={"move": "a1" if "b2" in engine.text else "b2"})
    assert 'id="chart-evaluation"' in moved.text and moved.text.count("<title>ply ") == 1   # a person's move: no point


def datalist(page: str, name: str) -> list[str]:
    """The values a <datalist> of the page suggests."""
    body = re.search(rf'<datalist id="{name}">(.*?)</datalist>', page, re.DOTALL)[1]
    return re.findall(r'<option value="([^"]*)">', body)


def test_the_game_is_typed_with_the_registered_games_suggested(client):
    page = client.get("/").text
    assert re.search(r'<input name="game" list="game-names" value="" required', page)
    assert "<select" not in page
    suggested = datalist(page, "game-names")
    registered = sorted(Registry().games)
    assert "checkers" in registered and suggested[:len(registered)] == registered
    refilled = client.get("/", params={"game": "rolit", "options": "players=3"}).text
    assert 'name="game" list="game-names" value="rolit"' in refilled and refilled.count('name="seat"') == 3
    typo = client.post("/play", data={"game": "rolitt", "seat": ["human", "random"]})
    assert typo.status_code == 400 and message(typo).startswith("unknown game 'rolitt'; available games: checkers")
    assert 'value="rolitt"' in typo.text   # the form comes back with the name as typed


def test_a_game_family_that_cannot_list_its_members_suggests_none_and_the_page_still_answers():
    from framework.errors import PluginError
    from framework.registry import Registered
    from framework.specs import GameFamilySpec
    from framework.web.app import game_names

    def members() -> list[tuple[str, str]]:
        raise PluginError("the library of the 'absent' family is not installed")

    registry = Registry()
    some = next(iter(registry.games.values())).provenance
    registry.families = {"absent": Registered(GameFamilySpec("absent", lambda member: None, members, "absent"), some),
                         "two": Registered(GameFamilySpec("two", lambda member: None,
                                                          lambda: [("b", ""), ("a", ""), ("c", "refused")], "two"),
                                           some)}
    assert game_names(registry) == [*sorted(Registry().games), "two:a", "two:b"]


def test_a_game_of_a_family_is_suggested_typed_and_played():
    pytest.importorskip("pyspiel")
    with TestClient(create_app(None, ()), raise_server_exceptions=False, base_url=LOCAL) as c:
        page = c.get("/").text
        suggested = datalist(page, "game-names")
        assert "tictactoe" in suggested and "openspiel:tic_tac_toe" in suggested and "openspiel:pig" in suggested
        assert "openspiel:kuhn_poker" not in suggested   # imperfect information: refused, so not offered
        assert "Games of a family are named FAMILY:NAME (families: openspiel)" in page
        three = c.get("/", params={"game": "openspiel:pig", "options": "players=3"}).text
        assert 'data-players="3"' in three   # "Seats for this game" knows a family's game's seats
        created = c.post("/play", data={"game": "openspiel:tic_tac_toe", "seat": ["human", "random"], "time": "1"},
                         follow_redirects=False)
        assert created.status_code == 303, created.text
        url = created.headers["location"]
        assert c.get(url).status_code == 200
        moved = c.post(url + "/move", data={"move": "x(1,1)"})
        assert moved.status_code == 200 and '<span class="move">x(1,1)</span>' in moved.text
        refused = c.post("/play", data={"game": "openspiel:kuhn_poker", "seat": ["human", "random"]})
        assert refused.status_code == 400
        assert message(refused) == ("game 'openspiel:kuhn_poker' is refused: an imperfect-information game (players "
                                    "see different things); Plyground plays perfect-information games only")



HOARDER = str(ROOT / "tests" / "web" / "memory_agents.py")


@pytest.mark.parametrize("limit, mib", [(64, 256), (None, 5000)])
def test_an_engine_search_past_the_memory_limit_forfeits_as_in_a_tournament(limit, mib):
    """64 MiB refuses a search mapping 256; the default, a tournament game's 4096, one mapping 5000 (untouched
    pages: without a limit numpy.empty would map them at no cost)."""
    app = create_app(None, (HOARDER,), **({"memory_limit_mb": limit} if limit else {}))
    with TestClient(app, base_url=LOCAL) as c:
        url = c.post("/play", data={"game": "tictactoe", "seat": [f"hoarder:mib={mib}", "human"], "time": "5"},
                     follow_redirects=False).headers["location"]
        answer = c.post(url + "/engine")
    assert answer.status_code == 200
    assert message_or_result(answer).startswith(
        f"O (human) wins — forfeit: X (hoarder:mib={mib}) crashed: MemoryError: Unable to allocate")


def test_each_search_gets_the_same_headroom_and_the_agent_stays_built():
    with TestClient(create_app(None, (HOARDER,), memory_limit_mb=384), base_url=LOCAL) as c:
        url = c.post("/play", data={"game": "tictactoe", "seat": ["hoarder:mib=256", "human"], "time": "5"},
                     follow_redirects=False).headers["location"]
        for _ in range(3):
            answer = c.post(url + "/engine")
            assert answer.status_code == 200 and "forfeit" not in answer.text, message_or_result(answer)
            if 'id="result"' in answer.text:
                break
            last = json.loads(re.search(r'id="legal">(.*?)</script>', answer.text, re.DOTALL)[1])[-1][0]
            assert c.post(url + "/move", data={"move": last}).status_code == 200
        assert c.get(url).text.count("nodes 256 ·") == 3   # each of its searches mapped its 256 MiB


@pytest.mark.parametrize(("seconds", "shown"),
                         [(0.0042, "4.2 ms"), (0.0999, "99.9 ms"), (0.1, "0.10s"), (2.345, "2.35s")])
def test_an_engine_move_shows_a_fast_search_in_milliseconds(seconds, shown):
    """A compiled search of a few thousand nodes takes milliseconds: the move list says so, not "0.00s"."""
    from types import SimpleNamespace

    from framework.web.pages import engine_line
    engine = SimpleNamespace(depth=2, nodes=8000, wall_time=seconds, score=0.5, pv=("e8",))
    assert f"nodes 8,000 · {shown} · score" in engine_line(SimpleNamespace(engine=engine))
