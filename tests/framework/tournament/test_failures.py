"""Failures outside the agents' control are clear errors, never tracebacks or silent forfeits."""

import json
import sqlite3
import sys
import textwrap
import threading
import time
from dataclasses import replace

import pytest

from framework.analysis.tables import Results
from framework.errors import ConfigError, WorkerError
from framework.tournament import guard
from framework.tournament.config import load_config
from framework.tournament.executors import DaskExecutor
from framework.tournament.guard import GuardedWorker
from framework.tournament.runner import run_tournament
from framework.tournament.scheduler import schedule
from framework.tournament.store import Store

TWO = """\
game: tictactoe
participants: [{id: a, agent: random}, {id: b, agent: random}]
"""


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(TWO))
    return replace(load_config(path), results=tmp_path / "out")


def test_a_task_that_fails_outside_the_game_stops_the_run_with_its_traceback(config):
    task = replace(schedule(config)[0], start="not a position")
    worker = GuardedWorker()
    try:
        with pytest.raises(WorkerError, match=r"(?s)task a vs b #0 failed in its worker: Traceback.*PositionError: "
                                              r"'not a position' is not a tic-tac-toe position"):
            worker.run(task)
        assert worker.run(schedule(config)[1]).record.plies >= 5  # the same worker serves the next task
    finally:
        worker.close()


def test_a_worker_that_does_not_start_in_time(config, monkeypatch):
    monkeypatch.setattr(guard, "STARTUP_LIMIT", 0.0)
    with pytest.raises(WorkerError, match="a worker process did not start within 0s"):
        GuardedWorker().run(schedule(config)[0])


def test_results_made_by_other_plugin_versions_are_refused(config):
    run_tournament(config, quiet=True)
    with sqlite3.connect(config.results / "results.sqlite") as conn:
        versions = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'plugin_versions'").fetchone()[0])
        versions["agent random"] = "plugin 'random' from plyground 0.0.1"
        conn.execute("UPDATE meta SET value = ? WHERE key = 'plugin_versions'", (json.dumps(versions),))
    with pytest.raises(ConfigError, match=r"holds results made by other plugin versions \(agent random: plugin "
                                          r"'random' from plyground 0.0.1 then, plugin 'random' from plyground "
                                          r"0.1.0 now\)"):
        run_tournament(config, quiet=True)


def test_a_store_without_a_tournament_is_not_results(tmp_path):
    Store(tmp_path).close()
    with pytest.raises(ConfigError, match="holds no tournament results"):
        Results(tmp_path)


def test_parquet_export_without_pyarrow_says_what_to_install(config, monkeypatch, tmp_path):
    run_tournament(config, quiet=True)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ConfigError, match=r"Parquet export needs pyarrow: pip install 'plyground\[parquet\]'"):
        Results(config.results).export(tmp_path / "tables", ("parquet",))


def test_the_dask_executor_without_dask_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ConfigError, match=r"executor 'dask' needs Dask distributed: pip install 'plyground\[dask\]'"):
        DaskExecutor(1)


def test_an_unreachable_dask_scheduler_is_named():
    with pytest.raises(ConfigError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"):
        DaskExecutor(1, "tcp://127.0.0.1:1", connect_timeout=0.5)


def test_a_results_folder_that_cannot_be_created(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(ConfigError, match=r"cannot use '.*file/out' as a results folder: "):
        Store(tmp_path / "file" / "out")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "results.sqlite").write_text("this is not a database, it is text of some length " * 40)
    with pytest.raises(ConfigError, match=r"cannot use '.*bad' as a results folder: results.sqlite is damaged "
                                          r"\(file is not a database\); nothing stored before was lost"):
        Store(tmp_path / "bad")


def test_a_dask_local_cluster_listens_on_loopback_only():
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("distributed")
    executor = DaskExecutor(1)
    try:
        listening = {c.laddr.ip for c in psutil.Process().net_connections(kind="inet") if c.status == "LISTEN"}
    finally:
        executor.close()
    assert listening and listening <= {"127.0.0.1"}


def test_a_worker_outlives_the_thread_that_started_it(config):
    """A worker dies with the supervising process, not with the (pool) thread that happened to start it."""
    tasks = schedule(config)
    worker = GuardedWorker()
    try:
        starter = threading.Thread(target=worker.run, args=(tasks[0],))
        starter.start()
        starter.join()
        proc = worker.proc
        time.sleep(0.5)
        assert proc is not None and proc.poll() is None
        assert worker.run(tasks[1]).record.plies >= 5
        assert worker.proc is proc  # the same process served the next task
    finally:
        worker.close()
