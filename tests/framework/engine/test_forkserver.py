"""Engine hosts forked from the preloaded server: one server per process, each engine in its own session with
nothing of the server's but its streams, exit codes as a child's, and no engine outliving its referee."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from framework.engine import forkserver
from framework.engine.client import Engine, EngineSpec

pytestmark = pytest.mark.skipif(not forkserver.available(), reason="the fork server is Linux's")


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def pipes_and_sockets(pid: int) -> set[str]:
    links = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith(("pipe:", "socket:")):
            links.add(target)
    return links


def gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def test_engines_are_forked_by_one_server_each_in_a_session_of_its_own_holding_only_its_own_pipes():
    first, second = Engine(EngineSpec("a", agent="random")), Engine(EngineSpec("b", agent="random"))
    try:
        server = parent_of(first.pid)
        assert server == parent_of(second.pid) and server != os.getpid() and parent_of(server) == os.getpid()
        for engine in (first, second):
            assert os.getsid(engine.pid) == engine.pid          # its own session: killed as a group
            own = {f"pipe:[{os.fstat(stream.fileno()).st_ino}]" for stream in (engine.proc.stdin, engine.proc.stdout)}
            assert pipes_and_sockets(engine.pid) <= own        # no control socket, no other engine's pipe
        first.new_game("tictactoe", {}, 0, 1, None)
        answer = first.request({"type": "go", "moves": [], "budget": {"nodes": 10}, "clock": {}}, 10.0, ("move",))
        assert answer["move"]
    finally:
        first.close()
        second.close()
    assert first.proc.returncode == 0                          # quit when asked
    assert second.proc.returncode == 0


def test_a_killed_engine_reads_as_killed_and_a_killed_server_takes_its_engines_with_it():
    engine, other = Engine(EngineSpec("a", agent="random")), Engine(EngineSpec("b", agent="random"))
    try:
        os.kill(engine.pid, signal.SIGKILL)
        assert engine.proc.wait(10.0) == -signal.SIGKILL
        server = parent_of(other.pid)
        os.kill(server, signal.SIGKILL)
        assert other.proc.wait(10.0) == -signal.SIGKILL        # nothing reaped it: the server died first
        assert gone(other.pid)
        replacement = Engine(EngineSpec("c", agent="random"))  # a new server, started on demand
        try:
            assert parent_of(replacement.pid) != server
        finally:
            replacement.close()
    finally:
        engine.close()
        other.close()


def test_no_server_or_engine_outlives_a_killed_referee(tmp_path):
    script = textwrap.dedent("""
        import os, sys, time
        from framework.engine.client import Engine, EngineSpec
        engine = Engine(EngineSpec("a", agent="random"))
        ppid = open(f"/proc/{engine.pid}/stat").read().rsplit(")", 1)[1].split()[1]
        print(engine.pid, ppid, flush=True)
        time.sleep(600)
    """)
    referee = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        engine, server = map(int, referee.stdout.readline().split())
        os.kill(referee.pid, signal.SIGKILL)
        referee.wait()
        assert gone(server) and gone(engine)
    finally:
        referee.kill()


def test_a_stopped_server_forks_no_more_but_its_engines_play_on_and_then_it_exits(monkeypatch):
    engine = Engine(EngineSpec("a", agent="random"))
    try:
        server = parent_of(engine.pid)
        for i in range(forkserver.MAX_SERVERS):   # as many other environments: the oldest servers are stopped
            monkeypatch.setenv("PLYGROUND_TEST_ENVIRONMENT", str(i))
            Engine(EngineSpec("b", agent="random")).close()
        assert not gone(server, within=0.5) and engine.alive
        engine.new_game("tictactoe", {}, 0, 1, None)
        assert engine.request({"type": "go", "moves": [], "budget": {"nodes": 10}, "clock": {}}, 10.0, ("move",))
    finally:
        engine.close()
    assert engine.proc.returncode == 0 and gone(server)


def test_a_forked_engines_cpu_counts_among_its_referees_children():
    """`time plyground run ...` counts the engines' CPU, as it would for engines the referee exec'd: each server
    reaps its engines, and the referee's process its servers."""
    script = textwrap.dedent("""
        import resource
        from framework.engine.client import Engine, EngineSpec
        engine = Engine(EngineSpec("a", agent="mcts"))
        engine.new_game("tictactoe", {}, 0, 1, None)
        answer = engine.request({"type": "go", "moves": [], "budget": {"nodes": 100000}, "clock": {}}, 60.0,
                                ("move",))
        engine.close()
        own = resource.getrusage(resource.RUSAGE_SELF)
        print(answer["stats"]["cpu_time"], own.ru_utime + own.ru_stime, flush=True)
    """)
    referee = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(referee.pid, 0)
    searched, own = map(float, referee.stdout.read().split())
    assert os.waitstatus_to_exitcode(status) == 0
    assert searched > 0                                         # a search ran in the engine...
    assert usage.ru_utime + usage.ru_stime - own >= 0.9 * searched   # ...and its CPU is among the referee's children's
