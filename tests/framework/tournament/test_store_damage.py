"""A results store changed outside Plyground or damaged: `report`, `export` and the tables refuse it in one line
naming the table, column, row or page, and what to do; a path too long for the file system says so."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import ConfigError
from framework.tournament.store import Store

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("store")
    (base / "pig.yaml").write_text("name: pig\nresults: pig\nseed: 7\nworkers: 1\ngame: {name: pig, options: "
                                   "{goal: 20}}\ngames_per_pairing: 4\nparticipants:\n  - {id: r1, agent: random}\n"
                                   "  - {id: r2, agent: random}\n")
    subprocess.run([sys.executable, "-m", "framework.cli", "run", "pig.yaml"], cwd=base, check=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT), "PLYGROUND_JIT": "0"}, stdout=subprocess.DEVNULL)
    return base / "pig"


def changed(stored: Path, tmp_path: Path, *statements: str) -> Path:
    folder = tmp_path / "changed"
    shutil.copytree(stored, folder)
    with sqlite3.connect(folder / "results.sqlite") as conn:
        for statement in statements:
            conn.execute(statement)
    return folder


@pytest.mark.parametrize(("statements", "says"), [
    (["ALTER TABLE games RENAME COLUMN winner TO champion"], "table 'games' has no column 'winner'"),
    (["ALTER TABLE moves DROP COLUMN depth"], "table 'moves' has no column 'depth'"),
    (["UPDATE games SET result_first = 'x'"], "table 'games', column 'result_first' (row 'r1 vs r2 #0') holds 'x', "
                                              "not a number"),
    (["UPDATE moves SET nodes = 'lots' WHERE ply = 1"], "table 'moves', column 'nodes' (row 'r1 vs r2 #0') holds "
                                                        "'lots', not a number"),
    (["UPDATE games SET termination = 'exploded' WHERE game_index = 2"], "game 'r1 vs r2 #2' ended by 'exploded', "
                                                                         "which no game can (known: crash, "),
    (["ALTER TABLE seats DROP COLUMN rank"], "table 'seats' has no column 'rank'"),
])
def test_a_store_changed_outside_plyground_is_one_line_naming_what_and_saying_what_to_do(stored, tmp_path, capsys,
                                                                                        statements, says):
    folder = changed(stored, tmp_path, *statements)
    with pytest.raises(ConfigError) as error:
        Results(folder)
    message = str(error.value)
    assert says in message and "\n" not in message, message
    assert "restore it from a copy" in message or "run into a new folder" in message
    for command in (["report", str(folder)], ["export", str(folder), "--format", "pgn"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err


@pytest.mark.parametrize("page", [2, 3, 4, 5])
def test_random_bytes_over_a_page_are_found_and_named_as_damage(stored, tmp_path, page):
    """Over pages 2 and 4 they were read silently (before `PRAGMA quick_check`), over page 3 a traceback."""
    folder = changed(stored, tmp_path)
    noise = random.Random(page)
    with open(folder / "results.sqlite", "r+b") as file:
        file.seek(4096 * page)
        file.write(bytes(noise.getrandbits(8) for _ in range(4096)))
    with pytest.raises(ConfigError, match=r"results\.sqlite is damaged \(.*\); nothing stored before was lost; "
                                          r"restore it from a copy") as error:
        Results(folder)
    assert "\n" not in str(error.value)


def test_a_path_too_long_for_the_file_system_says_so_and_is_shown_cut(tmp_path, capsys):
    long = tmp_path / ("a" * 5000)
    with pytest.raises(ConfigError, match=r"the path is too long for the file system \([\d,]+ characters\); .*"
                                          r"name a shorter folder") as error:
        Store(long, create=False)
    assert len(str(error.value)) < 500
    assert main(["report", str(long)]) == 2
    err = capsys.readouterr().err
    assert "too long" in err and "Traceback" not in err and len(err) < 500
