"""OpenSpiel's games through every door: tournaments (gauntlet, n-player seatings, SPRT), export and replay, the report,
`play` and the workbench's text board."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from framework.analysis.report import write_report
from framework.analysis.tables import Results
from framework.cli import main
from framework.records import export, game_for, parse_pgn, replay_states
from framework.web.app import create_app

pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[3]


def _run(folder: Path, name: str, body: str) -> Path:
    config = folder / f"{name}.yaml"
    config.write_text(f"name: {name}\nresults: {name}\nseed: 3\nworkers: 1\n{body}")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "framework.cli", "run", "--quiet", str(config)], cwd=folder,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return folder / name


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("openspiel")
    gauntlet = _run(base, "gauntlet", "game: openspiel:tic_tac_toe\nformat: gauntlet\nchampion: ab\n"
                    "games_per_pairing: 2\nparticipants:\n  - {id: ab, agent: alphabeta}\n"
                    "  - {id: mcts, agent: mcts, params: {iterations: 50}}\n  - {id: rnd, agent: random}\n")
    seats = _run(base, "seats", "game: {name: openspiel:pig, options: {players: 3, winscore: 15}}\n"
                 "games_per_pairing: 3\nmax_plies: 3000\nparticipants:\n"
                 "  - {id: maxn, agent: maxn, params: {depth: 2}}\n"
                 "  - {id: mcts, agent: mcts, params: {iterations: 30}}\n  - {id: rnd, agent: random}\n")
    sprt = _run(base, "sprt", "game: openspiel:connect_four\ngames_per_pairing: 60\n"
                "sprt: {elo0: 0, elo1: 300}\nparticipants:\n"
                "  - {id: mcts, agent: mcts, params: {iterations: 30}}\n  - {id: rnd, agent: random}\n")
    return {"gauntlet": gauntlet, "seats": seats, "sprt": sprt}


def test_a_gauntlet_at_tic_tac_toe_never_sees_alphabeta_lose(folders):
    results = Results(folders["gauntlet"])
    assert len(results.games) == 4 and set(results.games["termination"]) <= {"normal"}
    for row in results.games.itertuples():
        ab_seat = 0 if row.first == "ab" else 1
        assert (row.result_first, row.result_second)[ab_seat] >= 0


def test_three_player_pig_rotates_every_seat(folders):
    results = Results(folders["seats"])
    assert len(results.games) == 3
    assert sorted(results.seats.groupby("participant")["seat"].apply(sorted).apply(tuple).tolist()) == [
        (0, 1, 2)] * 3


def test_an_sprt_match_stops_once_decided(folders):
    results = Results(folders["sprt"])
    assert 0 < len(results.games) < 60
    assert "H1" in " ".join(results.sprt())


@pytest.mark.parametrize("name", ["gauntlet", "seats", "sprt"])
def test_every_exported_game_replays_to_its_stored_final_position(folders, name):
    results = Results(folders[name])
    records = parse_pgn("".join(export(results, "pgn")))
    game = game_for(results, results.games["game"].iloc[0])
    for record, row in zip(records, results.games.itertuples(index=False)):
        final = replay_states(game, record.start, [m.move for m in record.moves])[-1]
        assert game.to_text(final) == row.final


def test_replay_prints_openspiels_board(folders, capsys):
    assert main(["replay", str(folders["gauntlet"]), "1", "--all"]) == 0
    out = capsys.readouterr().out
    assert "(openspiel:tic_tac_toe)" in out and "...\n...\n..." in out


@pytest.mark.parametrize("name", ["gauntlet", "seats"])
def test_the_report_is_written(folders, name, tmp_path):
    path = write_report(Results(folders[name]), tmp_path)
    assert path.exists() and "openspiel:" in path.read_text()


def test_play_shows_the_board_from_the_states_string(capsys):
    assert main(["play", "openspiel:connect_four", "--first", "mcts:iterations=30", "--second", "random",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "......." in out and out.count("\n") > 20


def test_the_workbench_plays_with_the_text_board(tmp_path):
    with TestClient(create_app(tmp_path, ()), base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        form = {"game": "openspiel:connect_four", "first": "human", "second": "random", "time": "1"}
        response = client.post("/play", data=form, follow_redirects=False)
        assert response.status_code == 303
        url = response.headers["location"]
        response = client.post(url + "/move", data={"move": "x3"})
        assert response.status_code == 200 and "...x..." in response.text
        assert client.post(url + "/engine").status_code == 200
        response = client.post(url + "/move", data={"move": "x9"})
        assert response.status_code == 400 and "is not a legal move of openspiel:connect_four" in response.text
