"""The sandbox an engine runs in (framework/engine/sandbox.py), on a machine that offers it: Landlock keeps its
writes in its private folder and its reads away from the results, a pids control group bounds its processes, and
its processes, children included, are gone once the runner is: with the runner killed by `kill -9`, the next run
sweeps what a dead runner's engines left."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from framework.engine import sandbox
from framework.engine.client import Engine, EngineSpec

MECHANISMS = sandbox.mechanisms()
needs_landlock = pytest.mark.skipif(MECHANISMS.landlock_abi < 1, reason="no Landlock on this machine")
needs_groups = pytest.mark.skipif(not MECHANISMS.pids_group, reason="no pids control group can be made here")


def probe(tmp_path: Path, body: str) -> dict:
    """Run `body` inside an engine's sandbox (as a program engine that reports in its `hello`)."""
    script = tmp_path / "probe.py"
    script.write_text(textwrap.dedent("""\
        import json, os, sys
        def attempt(action):
            try:
                action()
                return "allowed"
            except OSError as exc:
                return type(exc).__name__
        report = {}
        """) + textwrap.dedent(body) + textwrap.dedent("""\
        for line in sys.stdin:
            sys.stdout.write(json.dumps({"type": "hello", "protocol": 1, "engine": "probe", "version": "1",
                                         "params": report}) + "\\n")
            sys.stdout.flush()
        """))
    engine = Engine(EngineSpec("probe", command=(sys.executable, str(script))))
    try:
        return engine.params
    finally:
        engine.close()


@needs_landlock
def test_an_engine_writes_only_in_its_private_folder_and_cannot_read_the_results(tmp_path):
    """Also not a results folder beside the engine's own script (a plugin file's or a program's folder)."""
    results = tmp_path / "results"
    results.mkdir()
    (results / "results.sqlite").write_text("the honest games")
    report = probe(tmp_path, f"""\
        report["private"] = attempt(lambda: open("mine.txt", "w").write("x"))
        report["elsewhere"] = attempt(lambda: open({str(tmp_path / 'planted.py')!r}, "w").write("x"))
        report["results"] = attempt(lambda: open({str(results / 'results.sqlite')!r}).read())
        report["sources"] = attempt(lambda: open({str(Path(sandbox.__file__))!r}, "a").write("#"))
        """)
    assert report == {"private": "allowed", "elsewhere": "PermissionError", "results": "PermissionError",
                      "sources": "PermissionError"}
    assert not (tmp_path / "planted.py").exists()


@needs_landlock
def test_an_engine_cannot_signal_a_process_outside_its_sandbox():
    if MECHANISMS.landlock_abi < 6:
        pytest.skip("signal scoping needs Landlock ABI 6")
    report = probe(Path(os.environ.get("TMPDIR", "/tmp")), f"""\
        import signal
        report["runner"] = attempt(lambda: os.kill({os.getpid()}, signal.SIGTERM))
        """)
    assert report == {"runner": "PermissionError"}


@needs_groups
def test_the_process_limit_binds_root_too(tmp_path):
    report = probe(tmp_path, """\
        import time
        made = 0
        try:
            for _ in range(2 * 256):
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
                made += 1
        except OSError:
            pass
        report["made"] = made
        report["uid"] = os.getuid()
        """)
    assert report["made"] < sandbox.MAX_PROCESSES


@needs_groups
def test_a_killed_runner_leaves_no_engine_and_the_next_run_sweeps_their_children(tmp_path):
    agents = tmp_path / "agents.py"
    agents.write_text(textwrap.dedent("""\
        import subprocess
        from framework import AgentSpec, hookimpl

        class Spawner:
            def __init__(self, game, seed=0):
                pass

            def select_move(self, game, state, budget):
                subprocess.Popen(["sleep", "300"], start_new_session=True)
                while True:
                    pass

        @hookimpl
        def plyground_agents():
            return [AgentSpec("spawner", Spawner, "starts a daemon, then thinks forever")]
        """))
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: tictactoe
        move_time_limit: 600
        plugins: [{agents}]
        results: {tmp_path / 'out'}
        participants: [{{id: a, agent: spawner}}, {{id: b, agent: spawner}}]
        """))
    run = subprocess.Popen([sys.executable, "-m", "framework.cli", "run", str(path), "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    groups: list[Path] = []
    while not any(len(sandbox.group_pids(str(g))) >= 2 for g in groups):   # the engine and its daemon
        assert time.monotonic() < deadline and run.poll() is None
        groups = [g for g in sandbox.PIDS_ROOT.iterdir() if _is_worker_of(g, run.pid)] \
            if sandbox.PIDS_ROOT.is_dir() else []
        time.sleep(0.05)
    left = [pid for g in groups for pid in sandbox.group_pids(str(g))]
    run.send_signal(signal.SIGKILL)
    run.wait()
    time.sleep(0.5)
    sandbox.sweep_orphans()   # what a new run does first (or another test's run, started meanwhile, did)
    assert left and not [pid for pid in left if _alive(pid)]
    assert not [g for g in groups if g.exists()]


def _is_worker_of(group: Path, runner: int) -> bool:
    owner = group.name.split("-", 1)[0]
    try:
        return int(Path(f"/proc/{owner}/stat").read_text().rsplit(")", 1)[1].split()[1]) == runner
    except (OSError, ValueError):
        return False


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_mechanisms_in_force_are_said(capsys):
    lines = MECHANISMS.lines()
    assert len(lines) == 6 and all(isinstance(line, str) and line for line in lines)
    print(json.dumps(lines))
