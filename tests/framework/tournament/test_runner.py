"""Running tournaments: identical results on any executor, forfeits that cost one game, resume after a kill."""

import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import ConfigError
from framework.tournament.config import ExecutorConfig, load_config
from framework.tournament.runner import run_tournament

FIXTURES = Path(__file__).with_name("fixture_agents.py")
#: Measured, so different in every run: times and the worker's resident memory.
MEASURED = ["wall_time", "cpu_time", "finished_at", "rss_start", "rss_peak", "rss_scope"]


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


MIXED = """\
game: tictactoe
games_per_pairing: 4
start_positions: open.txt
seed: 3
participants:
  - {id: rnd, agent: random}
  - {id: mm1, agent: minimax, params: {depth: 1}}
  - {id: ab2, agent: alphabeta, params: {depth: 2, heuristic: lines}, budget: {nodes: 40}}
"""


@pytest.mark.slow
def test_one_worker_two_workers_and_dask_give_identical_results(tmp_path):
    (tmp_path / "open.txt").write_text("X../.../... o\n....X..../... o\n".replace("....X..../", ".../.X./"))
    base = load_config(write(tmp_path, MIXED))
    frames = []
    for i, (workers, executor) in enumerate([(1, "local"), (2, "local"), (2, "dask")]):
        config = replace(base, workers=workers, executor=ExecutorConfig(executor), results=tmp_path / f"r{i}")
        summary = run_tournament(config, quiet=True)
        assert (summary.total, summary.played) == (12, 12)
        results = Results(config.results)
        assert (results.games["rss_peak"] >= results.games["rss_start"]).all()    # recorded on every executor
        frames.append((results.games.drop(columns=MEASURED, errors="ignore"),
                       results.moves.drop(columns=MEASURED, errors="ignore")))
    games, moves = frames[0]
    assert len(games) == 12 and len(moves) > 12 and moves["nodes"].sum() > 100
    for other_games, other_moves in frames[1:]:
        assert games.equals(other_games) and moves.equals(other_moves)


@pytest.mark.slow
def test_crashing_hanging_and_dying_agents_forfeit_only_their_games(tmp_path):
    path = write(tmp_path, f"""\
        game: tictactoe
        format: gauntlet
        champion: rnd
        move_time_limit: 1
        workers: 2
        plugins: [{FIXTURES}]
        results: {tmp_path / 'out'}
        participants:
          - {{id: rnd, agent: random}}
          - {{id: crash, agent: crasher}}
          - {{id: hang, agent: hanger}}
          - {{id: die, agent: dier}}
        """)
    started = time.monotonic()
    assert main(["run", str(path), "--quiet"]) == 0
    assert time.monotonic() - started < 20
    results = Results(tmp_path / "out")
    standings = results.standings().set_index("participant")
    assert standings.loc["rnd", ["games", "wins"]].tolist() == [6, 6]
    forfeits = results.forfeits().sort_values("key")
    assert forfeits["participant"].tolist() == ["crash", "crash", "die", "die", "hang", "hang"]
    reasons = dict(zip(forfeits["key"], forfeits["reason"]))
    assert reasons["rnd vs crash #0"] == "O (crash) crashed: RuntimeError: deliberate crash"
    assert reasons["rnd vs die #1"] == "X (die) crashed: its engine exited with code 3 while choosing a move"
    assert reasons["rnd vs hang #0"] == "O (hang) was stopped after 1s on one move (hard time limit)"
    assert forfeits.set_index("key").loc["rnd vs hang #1", "termination"] == "time"
    moves = results.moves
    assert moves[moves["key"] == "rnd vs hang #0"]["participant"].tolist() == ["rnd"]  # the move before the hang


def test_progress_shows_standings_a_changed_config_is_refused_and_a_rerun_plays_nothing(tmp_path, capsys):
    path = write(tmp_path, f"""\
        game: tictactoe
        results: {tmp_path / 'out'}
        participants: [{{id: a, agent: random}}, {{id: b, agent: random}}]
        """)
    assert main(["run", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "2 games in" in out
    assert re.search(r"2/2 \[.*, [ab] [\d.]+/2 [ab] [\d.]+/2\]\n$", err)  # the progress bar's running standings
    assert main(["run", str(path), "--quiet", "--workers", "2"]) == 0
    assert "(2 already stored, 0 played now)" in capsys.readouterr().out
    path.write_text(path.read_text() + "seed: 7\n")
    with pytest.raises(ConfigError, match=r"holds results of a different configuration \(changed: seed\); only "
                                          r"raising games_per_pairing, adding participants or changing sprt keeps "
                                          r"the stored games: run into a new folder"):
        run_tournament(load_config(path), quiet=True)


def test_report_on_a_folder_without_results(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "holds no results (no results.sqlite)" in capsys.readouterr().err


def _stored(db):
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_a_run_terminated_part_way_resumes_with_every_game_exactly_once(tmp_path):
    path = write(tmp_path, f"""\
        game: tictactoe
        games_per_pairing: 8
        plugins: [{FIXTURES}]
        results: {tmp_path / 'out'}
        participants:
          - {{id: a, agent: sleepy, params: {{delay: 0.02}}}}
          - {{id: b, agent: sleepy, params: {{delay: 0.02}}}}
        """)
    command = [sys.executable, "-m", "framework.cli", "run", str(path), "--quiet"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    db = tmp_path / "out" / "results.sqlite"
    deadline = time.monotonic() + 30
    while _stored(db) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    partial = _stored(db)
    assert proc.returncode == 130, err
    assert 2 <= partial < 8
    assert f"interrupted: {partial} games are stored in {tmp_path / 'out'}; resume with:" in err
    assert f"plyground run {path} --quiet" in err
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"8 games in {tmp_path / 'out'} ({partial} already stored, {8 - partial} played now)" in done.stdout
    with sqlite3.connect(db) as conn:
        keys = [k for (k,) in conn.execute("SELECT key FROM games")]
        plies = conn.execute("SELECT sum(plies) FROM games").fetchone()[0]
        moves = conn.execute("SELECT count(*) FROM moves").fetchone()[0]
    assert sorted(keys) == sorted(f"a vs b #{i}" for i in range(8))
    assert plies == moves
