"""The tutorial packages, pip-installed as a reader would, then driven through the `plyground` command line.

`pip install --no-deps --target` puts each package and its entry points in a folder of its own; the
commands run in a subprocess with that folder on PYTHONPATH, loading only Plyground and the two packages.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from framework.analysis.tables import Results

#: Slow (tests/conftest.py): every tutorial run end to end.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = ROOT / "docs" / "tutorials"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    for package in ("greedy", "race", "fastrace"):
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                        str(TUTORIALS / package)], check=True, capture_output=True, cwd=target)
    return target


def plyground(site: Path, *args: str, cwd: Path, expect: int = 0) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
           "PLYGROUND_DISABLE_PLUGIN_AUTOLOAD": "1", "PLYGROUND_PLUGINS": "plyground,plyground-greedy,plyground-race"}
    done = subprocess.run([sys.executable, "-m", "framework.cli", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == expect, f"plyground {' '.join(args)}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def test_plyground_list_shows_both_plugins_with_their_distributions(site, tmp_path):
    out = plyground(site, "list", "--verbose", cwd=tmp_path)
    assert "greedy" in out and "[plugin 'greedy' from plyground-greedy 0.1.0]" in out
    assert "[plugin 'race' from plyground-race 0.1.0]" in out and "race/distance" in out
    assert "noise: a number from 0.0 to 1000.0, default 1.0" in out


def test_greedy_plays_and_its_parameters_are_checked(site, tmp_path):
    out = plyground(site, "play", "tictactoe", "--first", "greedy", "--second", "random", cwd=tmp_path)
    assert "Result:" in out
    out = plyground(site, "play", "tictactoe", "--first", "greedy:noise=-1", "--second", "random", cwd=tmp_path,
                    expect=2)
    assert "'noise' must be at least 0.0, got -1" in out


def test_greedy_enters_the_round_robin_and_reports_its_nodes(site, tmp_path):
    plyground(site, "run", str(TUTORIALS / "greedy" / "round-robin.yaml"), "--results", "rr", "--quiet", cwd=tmp_path)
    results = Results(tmp_path / "rr")
    assert set(results.standings()["participant"]) == {"greedy", "minimax-d2", "random"}
    moves = results.moves[results.moves["participant"] == "greedy"]
    # one node per legal move plus the root: 10 for the first move of an empty board
    first = moves[moves["ply"] == 1]
    assert len(moves) > 0 and set(moves["depth"]) == {1} and set(first["nodes"]) == {10}


def test_the_race_game_plays_counts_and_passes_its_conformance_suite(site, tmp_path):
    out = plyground(site, "play", "race", "--first", "minimax", "--second", "random", cwd=tmp_path)
    assert "first (minimax) wins" in out
    for seed in range(3):   # greedy looks one ply ahead, but its exact default heuristic wins from 5
        out = plyground(site, "play", "race", "--position", "5 0", "--first", "greedy:noise=0", "--second",
                        "random", "--seed", str(seed), cwd=tmp_path)
        assert "Result: first (greedy:noise=0) wins" in out
    assert "76" in plyground(site, "perft", "race", "4", cwd=tmp_path).splitlines()[-1].replace(",", "")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                           str(TUTORIALS / "race" / "test_race.py")], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "7 passed" in done.stdout, done.stdout + done.stderr


@pytest.mark.usefixtures("compiled_kernels_on")
def test_the_race_with_a_kernel_runs_alphabeta_and_expectiminimax_compiled_as_through_the_adapter(site, tmp_path):
    """The kernel tutorial's script, as the page shows it: both searches record the compiled binding, and
    visit the nodes and choose the move the adapter does (over the plain rules)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]), "NUMBA_CACHE_DIR": str(tmp_path),
           "PLYGROUND_DISABLE_PLUGIN_AUTOLOAD": "1", "PLYGROUND_PLUGINS": "plyground,plyground-race,plyground-fastrace"}
    done = subprocess.run([sys.executable, str(TUTORIALS / "fastrace" / "compare.py")], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [["alphabeta", "compiled"], ["alphabeta", "adapter"],
                                                    ["expectiminimax", "compiled"], ["expectiminimax", "adapter"]]
    for compiled, adapter in (lines[0:2], lines[2:4]):
        assert compiled.split()[2:] == adapter.split()[2:]
    page = (TUTORIALS.parent / "tutorials" / "first-kernel.md").read_text()
    assert done.stdout.strip() in page     # the page prints what the script prints
