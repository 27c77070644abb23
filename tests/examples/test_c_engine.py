"""The example engine in C (examples/engines/tictactoe.c): built with the system's compiler, it passes
engine-check, and in a tournament it never loses to random play and draws every game against full-depth
alpha-beta; the store names it by its handshake."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from framework.cli import main

SOURCE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "tictactoe.c"
COMPILER = shutil.which("cc") or shutil.which("gcc")

pytestmark = pytest.mark.skipif(COMPILER is None, reason="no C compiler on this machine (neither cc nor gcc on PATH)")


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("c-engine")
    binary = folder / "tictactoe"
    subprocess.run([str(COMPILER), "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", str(binary), str(SOURCE)],
                   check=True, capture_output=True, text=True)
    return binary


def test_it_passes_engine_check(program, capsys):
    assert main(["engine-check", str(program), "--game", "tictactoe", "--games", "20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "engine-check: passed 6 of 6 checks", lines
    assert "engine 'tictactoe-negamax-c' version '1.0'" in lines[1]


def test_its_search_is_exact_from_the_start_and_counts_its_nodes(program):
    """From the empty board a full-depth search proves the draw; a node budget is kept to the node."""
    lines = "\n".join(['{"type":"hello","protocol":1}', '{"type":"new","start":null}',
                       '{"type":"solve","moves":[],"budget":{}}',
                       '{"type":"go","moves":["b2","a1"],"budget":{"nodes":50}}', '{"type":"quit"}']) + "\n"
    out = subprocess.run([str(program)], input=lines, capture_output=True, text=True, timeout=30).stdout.splitlines()
    assert out[1].startswith('{"type":"solved","value":"draw","move":"b2","stats":{"nodes":')
    assert '"depth":9' in out[1] and '"complete":true' in out[1]
    assert '"nodes":50,' in out[2] and '"complete":false' in out[2]


def test_a_tournament_it_never_loses_to_random_and_draws_with_full_depth_alphabeta(program, tmp_path):
    config = tmp_path / "c-engine.yaml"
    config.write_text(f"""\
game: tictactoe
results: {tmp_path / 'out'}
games_per_pairing: 10
participants:
  - {{id: negamax-c, command: [{program}], budget: {{time: 1}}}}
  - {{agent: random}}
  - {{id: alphabeta-full, agent: alphabeta, params: {{depth: null}}, budget: {{time: 1}}}}
""")
    assert main(["run", str(config), "--quiet"]) == 0
    with sqlite3.connect(tmp_path / "out" / "results.sqlite") as db:
        games = db.execute("SELECT first, second, result_first, termination FROM games").fetchall()
        engines = set(db.execute("SELECT participant, engine, engine_version FROM seats"))
    assert len(games) == 30 and not [g for g in games if g[3] not in ("normal",)], games

    def points(pid: str, other: str) -> list[float]:
        return [r if first == pid else -r for first, second, r, _ in games if {first, second} == {pid, other}]

    assert min(points("negamax-c", "random")) >= 0 and len(points("negamax-c", "random")) == 10
    assert points("negamax-c", "alphabeta-full") == [0.0] * 10
    assert ("negamax-c", "tictactoe-negamax-c", "1.0") in engines
    assert {e for p, e, _ in engines if p == "random"} == {"plyground-host random"}
    assert main(["report", str(tmp_path / "out")]) == 0
    report = (tmp_path / "out" / "report.md").read_text()
    row = next(line for line in report.splitlines() if line.startswith("| negamax-c "))
    assert "program `tictactoe`" in row and "tictactoe-negamax-c 1.0" in row, row
    assert main(["export", str(tmp_path / "out"), "--format", "jsonl", "--out", str(tmp_path / "games.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    named = {(player, engine["name"], engine["version"]) for record in records
             for player, engine in zip(record["players"], record["engines"])}
    assert ("negamax-c", "tictactoe-negamax-c", "1.0") in named and len(records) == 30


def test_it_solves_positions_in_a_solve_run_and_agrees_with_alphabeta(program, tmp_path):
    (tmp_path / "positions.txt").write_text("X../.O./... x\nXX./OO./... x | X wins at once\nXO./.X./... o\n")
    config = tmp_path / "solve.yaml"
    config.write_text(f"""\
mode: solve
game: tictactoe
results: {tmp_path / 'out'}
positions: positions.txt
solvers:
  - {{id: negamax-c, command: [{program}]}}
  - {{agent: alphabeta}}
""")
    assert main(["run", str(config), "--quiet"]) == 0
    with sqlite3.connect(tmp_path / "out" / "results.sqlite") as db:
        rows = db.execute("SELECT solver, position, value, status, engine FROM solves").fetchall()
    values = {(solver, position): value for solver, position, value, _, _ in rows}
    assert [values[("negamax-c", p)] for p in ("X../.O./... x", "XX./OO./... x", "XO./.X./... o")] == \
        ["draw", "win", "loss"]
    assert all(values[("negamax-c", p)] == values[("alphabeta", p)] for _, p in values)
    assert {engine for solver, _, _, status, engine in rows if solver == "negamax-c"} == {"tictactoe-negamax-c"}
