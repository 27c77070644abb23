"""The published package: `python -m build` makes an sdist and a wheel from it; the wheel holds every file the
code reads (package data) and none of the docs' tutorial packages, and installed on its own its `plyground`
script runs the main commands from an empty folder. Slow (a build): `-m "not slow"` leaves it out."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.docs.examples import ROOT

#: Slow (tests/conftest.py): a wheel built and installed.
pytestmark = pytest.mark.slow

TOURNAMENT = """name: t
game: tictactoe
games_per_pairing: 2
seed: 1
workers: 1
participants:
  - {id: ab, agent: alphabeta, params: {depth: 2, heuristic: lines}}
  - {id: rnd, agent: random}
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (found,) = out.glob("plyground-*.whl")
    return found


def test_the_wheel_holds_every_file_the_code_reads_and_no_tutorial(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for top in ("framework", "plugins"):
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".md"):
                assert path.relative_to(ROOT).as_posix() in names, f"the wheel lacks {path.relative_to(ROOT)}"
    assert not [n for n in names if n.startswith(("docs/", "tests/", "plyground_race", "plyground_greedy"))]
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "plyground = framework.cli:run" in text and "tictactoe = plugins.games.tictactoe" in text


def test_installed_alone_the_main_commands_run_from_an_empty_folder(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}

    def plyground(*args: str) -> str:
        done = subprocess.run([str(site / "bin" / "plyground"), *args], cwd=work, env=env, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=300)
        assert done.returncode == 0, f"plyground {' '.join(args)}: {done.stdout}\n{done.stderr}"
        return done.stdout

    where = subprocess.run([sys.executable, "-c", "import framework, plugins; print(framework.__file__, "
                            "plugins.__file__)"], cwd=work, env=env, capture_output=True, text=True, check=True)
    assert all(Path(p).is_relative_to(site) for p in where.stdout.split())      # the wheel's code, not the tree's
    assert "[plugin 'tictactoe' from plyground 0.1.0]" in plyground("list")
    assert "Result:" in plyground("play", "tictactoe", "--first", "alphabeta", "--second", "random")
    (work / "t.yaml").write_text(TOURNAMENT)
    assert "2 games in results/t" in plyground("run", "t.yaml", "--quiet")
    assert "Search statistics" in plyground("report", "results/t")
    assert "replay one: plyground replay results/t" in plyground("replay", "results/t")
    assert "Nash" in plyground("nash", "prisoners-dilemma")               # a game file shipped as package data
    static = subprocess.run([sys.executable, "-c", "from framework.web.app import STATIC; "
                             "print(' '.join(sorted(p.name for p in STATIC.iterdir())))"],
                            cwd=work, env=env, capture_output=True, text=True, check=True)
    assert {"style.css", "play.js", "replay.js"} <= set(static.stdout.split())
