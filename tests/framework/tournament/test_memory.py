"""Memory of a run: each task's peak resident memory in its worker, the solver's peak entries, stored in
their own columns (never totalled), and results folders made before those columns existed still load and resume."""

import resource
import sqlite3
import sys
import textwrap
from pathlib import Path

import pytest

from framework.analysis.report import terminal_summary, write_report
from framework.analysis.solving import MIB
from framework.analysis.tables import Results
from framework.cli import main
from framework.tournament import memory
from framework.tournament.memory import CLEAR_REFS, PeakMeter

#: The store's schema before memory was recorded (the tables every older results folder has).
OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    key TEXT PRIMARY KEY, pairing_a TEXT NOT NULL, pairing_b TEXT NOT NULL, game_index INTEGER NOT NULL,
    game TEXT NOT NULL, first TEXT NOT NULL, second TEXT NOT NULL, seed INTEGER NOT NULL,
    start TEXT NOT NULL, final TEXT NOT NULL, result_first REAL NOT NULL, result_second REAL NOT NULL,
    winner TEXT, termination TEXT NOT NULL, reason TEXT NOT NULL, plies INTEGER NOT NULL,
    wall_time REAL NOT NULL, finished_at REAL NOT NULL);
CREATE TABLE moves (
    key TEXT NOT NULL REFERENCES games(key), ply INTEGER NOT NULL, mover INTEGER NOT NULL,
    participant TEXT NOT NULL, move TEXT NOT NULL, nodes INTEGER NOT NULL, depth INTEGER NOT NULL,
    score REAL, wall_time REAL NOT NULL, cpu_time REAL NOT NULL, pv TEXT NOT NULL,
    PRIMARY KEY (key, ply));
CREATE TABLE solves (
    key TEXT PRIMARY KEY, solver TEXT NOT NULL, position_index INTEGER NOT NULL, position TEXT NOT NULL,
    note TEXT NOT NULL, value TEXT NOT NULL, move TEXT, nodes INTEGER NOT NULL, depth INTEGER NOT NULL,
    wall_time REAL NOT NULL, cpu_time REAL NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL,
    extra TEXT NOT NULL, finished_at REAL NOT NULL);
"""
OLD_SOLVE_COLUMNS = ("key, solver, position_index, position, note, value, move, nodes, depth, wall_time, cpu_time, "
                     "status, reason, extra, finished_at")


def write(tmp_path: Path, out: str) -> Path:
    (tmp_path / "p.txt").write_text("XX./OO./... x\nXXO/.X./O.. o\nX../.O./... x\n")
    path = tmp_path / f"{out}.yaml"
    path.write_text(textwrap.dedent(f"""\
        mode: solve
        game: tictactoe
        positions: p.txt
        budget: {{nodes: 100000}}
        workers: 1
        results: {tmp_path / out}
        solvers: [{{id: ab, agent: alphabeta}}, {{id: pns, agent: pns}}, {{id: dfpn, agent: dfpn}}]
        """))
    return path


@pytest.mark.skipif(not Path(CLEAR_REFS.format(pid="self")).exists(),
                    reason="no /proc/self/clear_refs: peaks are the process's so far")
def test_a_meter_sees_its_own_tasks_peak_and_not_an_earlier_one():
    first = PeakMeter()
    data = b"x" * (64 * MIB)         # written, so resident
    del data
    big = first.read()
    small = PeakMeter().read()
    assert big.scope == small.scope == "task"
    assert big.peak - big.start >= 60 * MIB
    assert small.peak - small.start < 16 * MIB and small.peak < big.peak


def test_without_the_reset_a_meter_reports_the_process_peak_so_far(monkeypatch, tmp_path):
    monkeypatch.setattr(memory, "CLEAR_REFS", str(tmp_path / "missing" / "clear_refs"))     # writing it fails
    reading = PeakMeter().read()
    lifetime = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    assert reading.scope == "process" and reading.start <= reading.peak <= max(reading.start, lifetime)


def test_without_proc_the_start_is_unknown_and_the_peak_is_the_process_peak(monkeypatch, tmp_path):
    monkeypatch.setattr(memory, "CLEAR_REFS", str(tmp_path / "missing" / "clear_refs"))
    monkeypatch.setattr(memory, "STATUS", str(tmp_path / "missing" / "status"))
    reading = PeakMeter().read()
    lifetime = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    assert reading.scope == "process" and reading.start is None and 0 < reading.peak <= lifetime


def test_without_proc_or_getrusage_nothing_is_claimed(monkeypatch, tmp_path):
    monkeypatch.setattr(memory, "CLEAR_REFS", str(tmp_path / "missing" / "clear_refs"))
    monkeypatch.setattr(memory, "STATUS", str(tmp_path / "missing" / "status"))
    monkeypatch.setitem(sys.modules, "resource", None)        # as on Windows: importing it fails
    assert PeakMeter().read() == memory.TaskMemory(None, None, "process")


@pytest.mark.slow
def test_a_solve_run_stores_each_solves_memory_and_reports_the_peak_not_the_total(tmp_path, capsys):
    assert main(["run", str(write(tmp_path, "new")), "--quiet"]) == 0
    results = Results(tmp_path / "new")
    solves = results.solves
    assert (solves["rss_peak"] >= solves["rss_start"]).all() and (solves["rss_start"] > 10 * MIB).all()
    assert (solves["peak_entries"] > 0).all() and set(solves["rss_scope"]) <= {"task", "process"}
    summary = results.solve_summary().set_index("solver")
    for sid, mine in solves.groupby("solver"):
        assert summary.loc[sid, "peak_entries"] == mine["peak_entries"].max() < mine["peak_entries"].sum()
        assert summary.loc[sid, "peak_rss_mib"] == mine["rss_peak"].max() / MIB
    assert "peak_entries" in terminal_summary(results)
    assert f"{solves['rss_peak'].max() / MIB:.1f} MiB" in write_report(results).read_text()


@pytest.mark.slow
def test_a_folder_from_before_memory_was_recorded_loads_reports_and_resumes(tmp_path, capsys):
    path = write(tmp_path, "new")
    assert main(["run", str(path), "--quiet"]) == 0
    old = tmp_path / "old"
    old.mkdir()
    with sqlite3.connect(old / "results.sqlite") as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute(f"ATTACH '{tmp_path / 'new' / 'results.sqlite'}' AS new")
        conn.execute("INSERT INTO meta SELECT * FROM new.meta")
        conn.execute(f"INSERT INTO solves SELECT {OLD_SOLVE_COLUMNS} FROM new.solves WHERE position_index < 2")
    results = Results(old)                                       # loads: the memory columns are added, empty
    assert len(results.solves) == 6 and results.solves["rss_peak"].isna().all()
    assert results.solve_summary()["peak_rss_mib"].isna().all()
    write_report(results)
    assert main(["run", str(path), "--results", str(old), "--quiet"]) == 0
    assert "(6 already stored, 3 played now)" in capsys.readouterr().out
    solves = Results(old).solves
    assert solves["rss_peak"].notna().tolist() == [False] * 6 + [True] * 3
    assert solves.loc[solves["position_index"] == 2, "peak_entries"].gt(0).all()
