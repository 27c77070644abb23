"""Game records: PGN for any game, PDN for checkers, JSON lines; every exported game re-parses to the same game."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import ConfigError
from framework.protocols import CHANCE, WIN_SCORE
from framework.records import export, format_score, game_for, parse_pgn, replay_states

ROOT = Path(__file__).resolve().parents[2]


def _run(folder: Path, name: str, body: str) -> Path:
    config = folder / f"{name}.yaml"
    config.write_text(f"name: {name}\nresults: {name}\nseed: 2\nworkers: 1\n{body}")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PLYGROUND_JIT": "0"}
    subprocess.run([sys.executable, "-m", "framework.cli", "run", str(config)], cwd=folder, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return folder / name


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("records")
    checkers = _run(base, "checkers", "game: checkers\ngames_per_pairing: 4\nmax_plies: 40\nparticipants:\n"
                    "  - {id: ab2, agent: alphabeta, params: {depth: 2}}\n  - {id: rnd, agent: random}\n")
    tictactoe = _run(base, "tictactoe", "game: tictactoe\ngames_per_pairing: 4\nparticipants:\n"
                     "  - {id: ab, agent: alphabeta}\n  - {id: rnd, agent: random}\n")
    pig = _run(base, "pig", "game: {name: pig, options: {goal: 20}}\ngames_per_pairing: 4\nparticipants:\n"
               "  - {id: r1, agent: random}\n  - {id: r2, agent: random}\n")
    rolit = _run(base, "rolit3", "game: {name: rolit, options: {players: 3}}\ngames_per_pairing: 3\nparticipants:\n"
                 "  - {id: r1, agent: random}\n  - {id: r2, agent: random}\n  - {id: r3, agent: random}\n")
    return {"checkers": checkers, "tictactoe": tictactoe, "pig": pig, "rolit3": rolit}


@pytest.mark.parametrize("name, fmt", [("checkers", "pdn"), ("checkers", "pgn"), ("tictactoe", "pgn")])
def test_every_exported_game_reparses_into_the_same_moves_and_final_position(folders, name, fmt):
    results = Results(folders[name])
    records = parse_pgn("".join(export(results, fmt)))
    assert len(records) == len(results.games) == 4
    game = game_for(results, name)
    for record, row in zip(records, results.games.itertuples(index=False)):
        stored = list(results.moves[results.moves["key"] == row.key].sort_values("ply")["move"])
        assert [m.move for m in record.moves] == stored
        final = replay_states(game, record.start, [m.move for m in record.moves])[-1]
        assert game.to_text(final) == row.final
        assert record.tags["Termination"] == row.termination


def test_checkers_pdn_has_the_fen_tag_black_as_the_first_player_and_pdn_results(folders):
    results = Results(folders["checkers"])
    text = "".join(export(results, "pdn"))
    records = parse_pgn(text)
    for record, row in zip(records, results.games.itertuples(index=False)):
        assert record.tags["GameType"] == "21" and record.tags["SetUp"] == "1"
        assert record.tags["FEN"] == row.start == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        assert (record.tags["Black"], record.tags["White"]) == (row.first, row.second)
        expected = "1/2-1/2" if row.result_first == row.result_second else \
            "0-1" if row.result_first > row.result_second else "1-0"   # PDN: 0-1 is a win for Black, seat 0
        assert record.tags["Result"] == expected
    assert "1. 9-13" in text or "1. " in text


def test_comments_carry_each_moves_search_figures(folders):
    results = Results(folders["checkers"])
    record = parse_pgn("".join(export(results, "pgn")))[0]
    key = results.games["key"].iloc[0]
    first = results.moves[(results.moves["key"] == key) & (results.moves["ply"] == 1)].iloc[0]
    move = record.moves[0]
    assert (move.depth, move.nodes) == (first["depth"], first["nodes"])
    assert move.time == pytest.approx(first["wall_time"], abs=0.0005)


def test_jsonl_is_one_game_per_line_for_pandas(folders, tmp_path):
    out = tmp_path / "games.jsonl"
    assert main(["export", str(folders["tictactoe"]), "--format", "jsonl", "--out", str(out)]) == 0
    frame = pd.read_json(out, lines=True)
    assert len(frame) == 4 and set(frame.columns) >= {"tags", "moves", "start", "final", "key"}
    first = json.loads(out.read_text().splitlines()[0])
    assert first["moves"][0]["move"] in ("a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1")


@pytest.mark.parametrize("name, binding, reason", [
    ("checkers", "interpreted", "compiled kernels are off (PLYGROUND_JIT=0)"),
    ("tictactoe", "adapter", "tictactoe has no kernel")])
def test_jsonl_carries_how_each_moves_search_ran_and_why(folders, tmp_path, name, binding, reason):
    """Alpha-beta's moves say how it ran and why not compiled (checkers has a kernel, run with PLYGROUND_JIT=0;
    tic-tac-toe has none); the random agent's say nothing."""
    for line in "".join(export(Results(folders[name]), "jsonl")).splitlines():
        game = json.loads(line)
        movers = (game["tags"]["White"], game["tags"]["Black"])
        searcher = next(participant for participant in movers if participant != "rnd")
        assert {(movers[i % 2], m["binding"], m["binding_reason"]) for i, m in enumerate(game["moves"])} == \
            {(searcher, binding, reason), ("rnd", None, None)}


def test_pdn_of_a_game_that_is_not_draughts_is_refused(folders):
    with pytest.raises(ConfigError, match="PDN is a draughts format, but these results hold tictactoe games"):
        list(export(Results(folders["tictactoe"]), "pdn"))


def test_an_unknown_format_is_refused(folders):
    with pytest.raises(ConfigError, match="unknown record format 'sgf'"):
        list(export(Results(folders["tictactoe"]), "sgf"))


def test_a_broken_tag_line_is_named():
    with pytest.raises(ConfigError, match="line 2: '\\[Event Plyground\\]' is not a tag pair"):
        parse_pgn('[Site "x"]\n[Event Plyground]\n')


def test_replay_in_the_terminal_prints_every_position_and_the_result(folders, capsys):
    assert main(["replay", str(folders["tictactoe"]), "1", "--all"]) == 0
    out = capsys.readouterr().out
    results = Results(folders["tictactoe"])
    row = results.games.iloc[0]
    assert out.startswith(f"{row['first']} – {row['second']} (tictactoe)")
    assert out.count("  a b c") == row["plies"] + 1


def test_replay_of_an_unknown_game_says_how_to_name_one(folders, capsys):
    assert main(["replay", str(folders["tictactoe"]), "nope"]) == 2
    assert "no game 'nope'" in capsys.readouterr().err


def test_scores_are_rounded_and_proven_results_named():
    assert format_score(6.999999999999986) == "7"
    assert format_score(-0.125) == "-0.12" or format_score(-0.125) == "-0.13"
    assert format_score(WIN_SCORE - 3) == "win" and format_score(-WIN_SCORE) == "loss"
    assert format_score(None) == "–" and format_score(0.0) == "0"


@pytest.mark.parametrize("name", ["tictactoe", "pig", "rolit3"])
def test_the_jsonl_pairing_is_the_pairing_its_key_names_whichever_seats_they_took(folders, name):
    """`r1 vs r2 vs r3 #1` is the pairing ["r1", "r2", "r3"] (it was ["r2", "r3 vs r1"]: seat 0, then the rest)."""
    lines = [json.loads(line) for line in export(Results(folders[name]), "jsonl")]
    assert {tuple(line["players"]) for line in lines} != {tuple(lines[0]["pairing"])}   # seats were swapped
    for line in lines:
        assert " vs ".join(line["pairing"]) == line["key"].rsplit(" #", 1)[0]
        assert sorted(line["pairing"]) == sorted(line["players"])


@pytest.mark.parametrize("name", ["checkers", "pig", "rolit3"])
def test_pgn_numbers_moves_by_seat_and_reads_back_each_moves_seat_and_every_roll(folders, name):
    """Seat 0's moves are `N.`, the others' `N...`; a roll of the dice is a `{rolled 4}` comment, never a ply a
    reader would put in a player's slot; read back, every move has its stored seat and every roll its place."""
    results = Results(folders[name])
    text = "".join(export(results, "pgn"))
    records = parse_pgn(text)
    for record, row in zip(records, results.games.itertuples(index=False), strict=True):
        stored = results.moves[results.moves["key"] == row.key].sort_values("ply")
        assert [(m.move, m.chance, None if m.chance else m.mover) for m in record.moves] == \
            [(move, mover == CHANCE, None if mover == CHANCE else mover)
             for move, mover in zip(stored["move"], stored["mover"])]
    if name == "pig":   # no face of a die where a move belongs (it was `1. roll {...} 4 {chance: rolled 4} 2. roll`)
        assert "{rolled " in text and "1... " in text and not re.search(r"\d+\.+ \d\b", text)


def test_pig_pgn_gives_each_players_moves_their_own_numbers(folders):
    """Pig's first game, move by move: r1 rolls twice (`1. roll`, `2. roll`: still White's slot), never `2. 4`."""
    text = "".join(export(Results(folders["pig"]), "pgn"))
    movetext = " ".join(line for line in text.split("\n\n")[1].splitlines())
    tokens = re.findall(r"\{[^}]*\}|\S+", movetext)
    numbered = [(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1) if re.fullmatch(r"\d+\.+", tokens[i])]
    assert numbered and all(move in ("roll", "hold") for _, move in numbered)


def test_a_finished_three_player_game_has_each_seats_points_as_its_result(folders):
    results = Results(folders["rolit3"])
    records = parse_pgn("".join(export(results, "pgn")))
    seats = results.seats.sort_values(["key", "seat"])
    for record, row in zip(records, results.games.itertuples(index=False), strict=True):
        scores = list(seats[seats["key"] == row.key]["result"])
        leaders = [i for i, r in enumerate(scores) if r == max(scores)]
        share = "1" if len(leaders) == 1 else f"1/{len(leaders)}"
        assert record.tags["Result"] == "-".join(share if i in leaders else "0" for i in range(3)) != "*"
        assert len(record.moves) == row.plies     # the result token is not read as a move


def test_a_pgn_written_before_rolls_were_comments_still_reads():
    old = ('[Game "pig"]\n[White "a"]\n[Black "b"]\n\n1. roll {depth 0, nodes 1, time 0.000} 3 {chance: rolled 3} '
           '2. hold {depth 0} roll 1-0\n')
    record = parse_pgn(old)[0]
    assert [(m.move, m.chance) for m in record.moves] == [("roll", False), ("3", True), ("hold", False),
                                                          ("roll", False)]


@pytest.mark.parametrize("name, fmt, tags", [("checkers", "pdn", ("BlackEngine", "WhiteEngine")),
                                             ("tictactoe", "pgn", ("WhiteEngine", "BlackEngine")),
                                             ("rolit3", "pgn", ("WhiteEngine", "BlackEngine", "Player3Engine"))])
def test_each_seat_names_the_engine_it_played_from(folders, name, fmt, tags):
    results = Results(folders[name])
    seats = {key: rows.sort_values("seat") for key, rows in results.seats.groupby("key")}
    for record, row in zip(parse_pgn("".join(export(results, fmt))), results.games.itertuples(index=False)):
        mine = seats[row.key]
        engines = [f"{engine} {version}" for engine, version in zip(mine["engine"], mine["engine_version"])]
        assert [record.tags[tag] for tag in tags] == engines
        assert all(e.startswith("plyground-host ") for e in engines)
