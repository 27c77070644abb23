"""What a newcomer types first explains itself: `replay RESULTS` lists the games it can replay, and `nash`
given a file that is not there says the file is missing (one line, status 2)."""

import pandas as pd

from framework.analysis.tables import Results
from framework.cli import main
from tests.framework.analysis.test_explained import run_one_pair


def test_replay_without_a_game_lists_the_games_by_the_numbers_it_takes(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_one_pair(tmp_path, "t")
    capsys.readouterr()
    assert main(["replay", "results/t"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["number", "key", "game", "seats", "result", "termination", "plies"]
    games = Results(tmp_path / "results" / "t").games
    for number, (line, game) in enumerate(zip(out[1:3], games.itertuples()), start=1):
        winner = "draw" if pd.isna(game.winner) else f"{game.winner} wins"
        assert line.split()[0] == str(number) and f" {game.first} – {game.second} " in line and winner in line
        assert line.split()[-1] == str(game.plies)
    assert out[-1] == "replay one: plyground replay results/t NUMBER (or its key)"
    assert main(["replay", "results/t", "2", "--all"]) == 0   # the number listed is the number replay takes
    assert capsys.readouterr().out.startswith(f"{games.iloc[1]['first']} – {games.iloc[1]['second']} (tictactoe)")
    assert main(["replay", "results/t", "9"]) == 2
    assert "give a game's key or its number 1-2 (plyground replay results/t lists them)" in capsys.readouterr().err


def test_replay_lists_every_seat_of_a_game_of_more_players(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "three.yaml").write_text(
        "name: three\ngame: {name: rolit, options: {players: 3}}\ngames_per_pairing: 3\nseed: 1\nworkers: 1\n"
        "participants:\n  - {id: a, agent: random}\n  - {id: b, agent: random}\n  - {id: c, agent: random}\n")
    assert main(["run", "three.yaml", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["replay", "results/three"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:4]
    assert len(rows) == 3 and all(row.count(" – ") == 2 for row in rows)


def test_nash_names_a_missing_file_as_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("missing.yaml", "games/pd.csv"):
        assert main(["nash", name]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"plyground: error: no file '{name}' (from {tmp_path}); give a game file or a shipped "
                              "example: battle-of-the-sexes") and "\n" not in err
