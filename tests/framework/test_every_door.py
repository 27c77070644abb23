"""Every registered game through every door: a tournament, `plyground play`, the workbench by HTTP, export
(JSONL and PGN/PDN), `plyground replay`, the results page and its replay page, with random agents and small
options.

Each door must answer without a server error, write the same record (the JSONL of a workbench session has
the keys of `plyground export --format jsonl`, both strict JSON), mark every roll of the dice as a chance ply
and replay to the final position. Then the dice: Pig and EinStein rolls through each door (a tournament's
stored games, their replay, `play`, the workbench with people and with a coach) follow the games' own
probabilities (a chi-square test; the seeds are fixed, so it is deterministic).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import pytest
from scipy.stats import chisquare
from starlette.testclient import TestClient

from framework.analysis.tables import Results
from framework.cli import main
from framework.protocols import CHANCE
from framework.records import export, game_for, parse_pgn, replay_states
from framework.registry import Registry
from framework.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
INTERPRETED = {"PLYGROUND_JIT": "0"}

#: (case id, game, options, seats, max plies of a tournament or `play` game: None plays to the end).
GAMES = [
    ("tictactoe", "tictactoe", {}, 2, None),
    ("matches", "matches", {}, 2, None),
    ("checkers", "checkers", {}, 2, 30),
    ("loa", "loa", {}, 2, 30),
    ("pig", "pig", {"goal": 20}, 2, None),
    ("einstein", "einstein", {}, 2, None),
    ("rolit-2", "rolit", {"players": 2}, 2, None),
    ("rolit-3", "rolit", {"players": 3}, 3, None),
    ("rolit-4", "rolit", {"players": 4}, 4, None),
]
CASES = {case[0]: case for case in GAMES}
#: Workbench actions per game before the test stops playing one that does not end by itself soon.
ACTIONS = {"checkers": 40, "loa": 40}
#: The significance below which the rolls' frequencies are said not to follow the probabilities.
ALPHA = 0.001
#: Doors × games: what each door did, for the report (printed with -s).
MATRIX: dict[tuple[str, str], int] = {}


def strict(text: str) -> dict:
    """One JSON line, refusing NaN and Infinity (which are not JSON)."""
    def refuse(token: str) -> None:
        raise ValueError(f"not JSON: {token}")
    return json.loads(text, parse_constant=refuse)


def options_text(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


@pytest.fixture(scope="module", autouse=True)
def interpreted():
    """Interpreted rules (no numba compile on a cold cache), inherited by the engine workers."""
    with pytest.MonkeyPatch.context() as patch:
        for key, value in INTERPRETED.items():
            patch.setenv(key, value)
        yield


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("doors")


def run_tournament(base: Path, case: str, games_per_pairing: int) -> Path:
    _, name, options, seats, max_plies = CASES[case]
    lines = [f"name: {case}", f"results: {case}", "seed: 7", "workers: 1",
             f"game: {{name: {name}, options: {json.dumps(options)}}}", f"games_per_pairing: {games_per_pairing}",
             *([f"max_plies: {max_plies}"] if max_plies else []), "participants:",
             *(f"  - {{id: r{i + 1}, agent: random}}" for i in range(seats))]
    config = base / f"{case}.yaml"
    config.write_text("\n".join(lines) + "\n")
    subprocess.run([sys.executable, "-m", "framework.cli", "run", str(config)], cwd=base, check=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT), **INTERPRETED},
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return base / case


@pytest.fixture(scope="module")
def folders(base) -> dict[str, Path]:
    """A finished tournament of random agents per case: a few games each, many for the dice games."""
    return {case: run_tournament(base, case, 40 if case in ("pig", "einstein") else CASES[case][3])
            for case in CASES}


@pytest.fixture(scope="module")
def client(folders):
    """The workbench over every case's results folder (their parent)."""
    app = create_app(next(iter(folders.values())).parent)
    with TestClient(app, raise_server_exceptions=False, base_url="http://127.0.0.1") as c:
        yield c


def chance_plies(results: Results) -> list[tuple[str, int, str]]:
    """(key, ply, move) of every stored roll of the dice."""
    moves = results.moves[results.moves["mover"] == CHANCE]
    return list(zip(moves["key"], moves["ply"], moves["move"]))


def check_record(line: dict, game, chance: list[bool]) -> None:
    """A JSONL record replays from its start to its final position, and marks exactly the rolls as chance."""
    moves = [m["move"] for m in line["moves"]]
    assert [m["chance"] for m in line["moves"]] == chance
    assert game.to_text(replay_states(game, line["start"], moves)[-1]) == line["final"]
    assert len(line["players"]) == getattr(game, "num_players", 2)
    assert line["result"] is None or len(line["result"]) == len(line["players"])


# -- the tournament, export and replay doors ---------------------------------------------------------------


@pytest.mark.parametrize("case", list(CASES))
def test_a_tournament_exports_and_replays_every_game_with_its_seats_and_rolls(case, folders, client, capsys):
    folder = folders[case]
    results = Results(folder)
    game = game_for(results, CASES[case][1])
    seats = CASES[case][3]
    assert len(results.games) >= 1 and set(results.games["termination"]) <= {"normal", "max_plies", "repetition"}
    lines = [strict(text) for text in export(results, "jsonl")]
    rolls = chance_plies(results)
    for line in lines:
        stored = results.moves[results.moves["key"] == line["key"]].sort_values("ply")
        check_record(line, game, [m == CHANCE for m in stored["mover"]])
        assert len(line["players"]) == seats
    records = parse_pgn("".join(export(results, "pgn")))
    assert [[m.move for m in r.moves] for r in records] == [[m["move"] for m in line["moves"]] for line in lines]
    assert [[m.chance for m in r.moves] for r in records] == [[m["chance"] for m in line["moves"]] for line in lines]
    # read back, each move is in its seat's slot (`N.` seat 0, `N...` the others, `player k` beyond two seats) and a
    # roll is a `{rolled 4}` comment, not a ply a reader would give a player
    assert [[m.mover for m in r.moves] for r in records] == [[m["mover"] for m in line["moves"]] for line in lines]
    assert not re.search(r"\d+\.+ \{rolled", "".join(export(results, "pgn")))
    for r, line in zip(records, lines, strict=True):
        assert r.tags["Result"] != "*" and len(r.tags["Result"].split("-")) == (seats if seats > 2 else 2)
        assert " vs ".join(line["pairing"]) == line["key"].rsplit(" #", 1)[0]
    if seats > 2:
        assert all(len(r.tags["Returns"].split()) == seats for r in records)
    chance = results.moves[results.moves["mover"] == CHANCE]
    assert set(chance["participant"]) <= {""} and "" not in set(results.search_stats()["participant"])
    assert set(results.games["moved_first"]) <= {f"r{i + 1}" for i in range(seats)}
    MATRIX["tournament", case] = len(results.games)
    MATRIX["export", case] = len(lines) + len(records)

    assert main(["replay", str(folder), "1", "--all"]) == 0
    out = capsys.readouterr().out
    key = results.games["key"].iloc[0]
    first = [r for r in rolls if r[0] == key]
    assert len(re.findall(r"^\d+\. rolled ", out, re.MULTILINE)) == len(first)
    header = out.splitlines()[0]
    assert all(f"r{i + 1}" in header for i in range(seats)), header
    page = client.get(f"/results/{case}/games/{quote(key, safe='')}")
    assert page.status_code == 200, page.text
    assert page.text.count('class="chance"') == len(first)
    MATRIX["replay", case] = 2
    overview = client.get(f"/results/{case}")    # the results page: standings of two or of more seats
    assert overview.status_code == 200, overview.text
    assert overview.text.count(f'href="/results/{case}/games/') == len(results.games)
    MATRIX["results page", case] = 1
    MATRIX["pgn seats read back", case] = len(records)


# -- `plyground play` ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(CASES))
def test_play_seats_one_agent_per_seat_and_shows_the_rolls(case, capsys):
    _, name, options, seats, max_plies = CASES[case]
    args = ["play", name, *(a for k, v in options.items() for a in ("-o", f"{k}={v}")),
            *(a for _ in range(seats) for a in ("--seat", "random")), "--seed", "3"]
    assert main([*args, *(["--max-plies", str(max_plies)] if max_plies else [])]) == 0
    out = capsys.readouterr().out
    assert "Result: " in out
    plies = re.findall(r"^\d+\. (.*)$", out, re.MULTILINE)
    assert plies and all(p.startswith("rolled ") or " plays " in p for p in plies)
    MATRIX["play", case] = len(plies)


def test_play_refuses_a_seat_count_the_game_does_not_have(capsys):
    assert main(["play", "rolit", "-o", "players=3", "--seat", "random", "--seat", "random"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "plyground: error: rolit is played by 3 players, got 2 --seat flags; give one --seat AGENT per seat, in order")
    assert main(["play", "rolit", "-o", "players=4", "--first", "random"]) == 2
    assert "rolit is played by 4 players; --first/--second seat two" in capsys.readouterr().err
    assert main(["play", "tictactoe", "--seat", "random", "--seat", "random", "--first", "random"]) == 2
    assert "either as --seat (one per seat, in order) or as --first/--second" in capsys.readouterr().err


# -- the workbench ---------------------------------------------------------------------------------------


def legal_of(page: str) -> list[str]:
    return [n for n, _ in json.loads(re.search(r'id="legal">(.*?)</script>', page, re.DOTALL)[1])]


def play_session(client, case: str, seats: list[str], actions: int, seed: int = 11, undo: bool = True,
                 coach: str = "") -> tuple[str, int]:
    """A workbench game played by HTTP: people's moves (the first legal one, as clicks would send it) and engine
    moves, an undo and a reload on the way; every answer 200. The session's URL and the actions taken."""
    _, name, options, _, _ = CASES[case]
    form = {"game": name, "options": options_text(options), "seat": seats, "time": "1", "seed": str(seed),
            "coach": coach}
    created = client.post("/play", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    url = created.headers["location"]
    taken = 0
    for taken in range(1, actions + 1):
        page = client.get(url)
        assert page.status_code == 200, page.text
        if 'id="result"' in page.text:
            break
        if 'data-engine-turn="1"' in page.text:
            answer = client.post(f"{url}/engine")
        else:
            answer = client.post(f"{url}/move", data={"move": legal_of(page.text)[0]})
        assert answer.status_code == 200, answer.text
        if undo and taken == 4:
            assert client.post(f"{url}/undo").status_code == 200
    return url, taken


def session_record(client, url: str) -> tuple[dict, list]:
    jsonl = client.get(f"{url}/record.jsonl")
    pgn = client.get(f"{url}/record.pgn")
    assert jsonl.status_code == pgn.status_code == 200
    assert jsonl.text.count("\n") == 1
    return strict(jsonl.text), parse_pgn(pgn.text)


@pytest.mark.parametrize("case", list(CASES))
def test_the_workbench_plays_every_game_by_clicks_and_engine_moves_and_writes_the_export_record(
        case, client, folders):
    _, name, options, seats, _ = CASES[case]
    url, taken = play_session(client, case, ["human", *["random"] * (seats - 1)], ACTIONS.get(case, 400))
    page = client.get(url).text
    if case not in ACTIONS:
        assert 'id="result"' in page, f"{case} did not end in {taken} actions"
    line, records = session_record(client, url)
    exported = strict(next(iter(export(Results(folders[case]), "jsonl"))))
    assert set(line) == set(exported) and set(line["moves"][0]) == set(exported["moves"][0])
    game = Registry().create_game(name, options)
    rolls = page.count('class="chance"')
    check_record(line, game, [m["chance"] for m in line["moves"]])
    assert sum(m["chance"] for m in line["moves"]) == rolls
    assert [m.move for m in records[0].moves] == [m["move"] for m in line["moves"]]
    assert [m.chance for m in records[0].moves] == [m["chance"] for m in line["moves"]]
    assert [m.mover for m in records[0].moves] == [m["mover"] for m in line["moves"]]
    if name == "checkers":
        assert records[0].tags["GameType"] == "21"
    MATRIX["workbench", case] = taken


def test_the_start_page_offers_one_seat_per_player_of_the_chosen_game(client):
    page = client.get("/", params={"game": "rolit", "options": "players=4"}).text
    assert page.count('name="seat"') == 4 and 'data-players="4"' in page
    refused = client.post("/play", data={"game": "rolit", "options": "players=3", "seat": ["human", "random"]})
    assert refused.status_code == 400
    assert "rolit with players=3 is played by 3 players, the form gave 2 seats" in refused.text
    assert refused.text.count('name="seat"') == 3   # the form comes back with a seat per player
    assert client.get("/play/nosuch/record.jsonl").status_code == 404
    bad_seed = client.post("/play", data={"game": "pig", "seat": ["human", "human"], "seed": "-3"})
    assert bad_seed.status_code == 400 and "seed: &#x27;-3&#x27; is not a whole number" in bad_seed.text
    url = client.post("/play", data={"game": "pig", "seat": ["human", "human"]}, follow_redirects=False)
    unknown = client.get(f"{url.headers['location']}/record.sgf")
    assert unknown.status_code == 404 and "no record format &#x27;sgf&#x27;" in unknown.text


# -- the dice: never chosen, drawn with the game's probabilities at every door ----------------------------


def assert_fair(case: str, faces: list[str]) -> None:
    """The rolls follow the game's chance probabilities (a chi-square test at ALPHA)."""
    game = Registry().create_game(CASES[case][1], CASES[case][2])
    state = game.initial_state()
    while game.to_move(state) != CHANCE:
        state = game.apply(state, game.legal_moves(state)[0])
    outcomes = [(game.format_move(state, o), float(p)) for o, p in game.chance_outcomes(state)]
    assert len(faces) >= 300, f"only {len(faces)} rolls"
    counts = Counter(faces)
    assert set(counts) <= {o for o, _ in outcomes}
    observed = [counts[o] for o, _ in outcomes]
    expected = [p * len(faces) for _, p in outcomes]
    assert chisquare(observed, expected).pvalue > ALPHA, (case, observed)


@pytest.mark.parametrize("case", ["pig", "einstein"])
def test_tournament_and_replay_rolls_follow_the_probabilities(case, folders, capsys):
    results = Results(folders[case])
    faces = [move for _, _, move in chance_plies(results)]
    assert_fair(case, faces)
    replayed = []
    for number in range(1, len(results.games) + 1):
        assert main(["replay", str(folders[case]), str(number), "--all"]) == 0
        replayed += re.findall(r"^\d+\. rolled (\S+)$", capsys.readouterr().out, re.MULTILINE)
    assert sorted(replayed) == sorted(faces)
    MATRIX["dice: tournament+replay", case] = len(faces)


@pytest.mark.parametrize("case", ["pig", "einstein"])
def test_play_rolls_follow_the_probabilities(case, capsys):
    _, name, options, _, _ = CASES[case]
    faces: list[str] = []
    seed = 0
    while len(faces) < 300:
        seed += 1
        goal = ["-o", "goal=100"] if name == "pig" else []
        assert main(["play", name, *goal, "--seat", "random", "--seat", "random", "--seed", str(seed)]) == 0
        faces += re.findall(r"^\d+\. rolled (\S+)$", capsys.readouterr().out, re.MULTILINE)
    assert_fair(case, faces)
    MATRIX["dice: play", case] = len(faces)


@pytest.mark.parametrize("case", ["pig", "einstein"])
def test_workbench_rolls_for_people_follow_the_probabilities(case, client):
    """Two people at one board: every roll is the session's, never theirs to choose (they are offered no die)."""
    faces: list[str] = []
    seed = 0
    while len(faces) < 300:
        seed += 1
        url, _ = play_session(client, case, ["human", "human"], 400, seed=seed, undo=False)
        line, _ = session_record(client, url)
        faces += [m["move"] for m in line["moves"] if m["chance"]]
    assert_fair(case, faces)
    MATRIX["dice: workbench", case] = len(faces)


@pytest.mark.parametrize("case", ["pig", "einstein"])
def test_a_coached_workbench_game_rolls_its_own_dice(case, client):
    """With a coach and an engine, the dice are still the session's: same seed, same rolls as without them."""
    coached, _ = play_session(client, case, ["human", "random"], 12, seed=5, undo=False, coach="random")
    plain, _ = play_session(client, case, ["human", "human"], 12, seed=5, undo=False)
    coached_line, _ = session_record(client, coached)
    plain_line, _ = session_record(client, plain)
    first_rolls = [m["move"] for m in coached_line["moves"] if m["chance"]][:1]
    assert first_rolls and first_rolls == [m["move"] for m in plain_line["moves"] if m["chance"]][:1]
    assert "coach: " in client.get(coached).text
    MATRIX["coach", case] = len(coached_line["moves"])


def test_undo_gives_back_the_same_roll():
    """Undoing is no way to roll again: the ply's roll comes back (match.Dice)."""
    registry = Registry()
    from framework.web.play import new_session

    session = new_session(registry, {"game": "einstein", "seed": "9"}, ["human", "human"])
    session.human_move(session.legal()[0][0])
    before = [p.move for p in session.moves]
    session.undo()
    session.human_move(session.legal()[0][0])
    assert [p.move for p in session.moves] == before


def test_report_the_matrix(capsys):
    """The doors × games counts of this run (shown with `pytest -s`): every door that ran did something."""
    assert all(count > 0 for count in MATRIX.values())
    with capsys.disabled():
        doors = sorted({door for door, _ in MATRIX})
        print("\n" + "door".ljust(26) + "".join(c.rjust(10) for c in CASES))
        for door in doors:
            print(door.ljust(26) + "".join(str(MATRIX.get((door, c), "")).rjust(10) for c in CASES))
