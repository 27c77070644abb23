"""Engine hosts forked from one preloaded process: what every engine host imports is loaded once, not per engine.

An engine host started from nothing spends about 0.7 s of CPU before its first message, nearly all of it on
imports (numba 0.37 s, the registry and the plugins 0.2 s); a run starts one per participant and worker (the
test suite about 770). The fork server (`ForkServer`, one per referee process and environment) imports numba,
the engine host and this project's own plugins once; for each engine it forks a child, which confines itself
exactly as `sandbox.main` confines an engine it execs (its own session, PR_SET_PDEATHSIG, control groups,
rlimits, Landlock; `sandbox.confine`) and closes every descriptor but its three streams before a line of the
agent's code runs, then serves the protocol as `host.main` does. Nothing but this project's code is imported
before the fork: a third-party plugin is loaded by the confined child, as in an exec'd host.

The referee holds each engine as a `Forked` (what `client.Engine` uses of a subprocess.Popen: pid, stdin, stdout,
poll, wait). The server is the engine's parent: it reaps the engine and writes its exit status into a pipe that
only that handle reads. It dies with the referee's process (PR_SET_PDEATHSIG), and its engines die with it; a
server whose control socket the referee closed (`stop`) forks no more and exits when its last engine has ended.
Linux only (`available`); elsewhere every engine is exec'd.
"""

from __future__ import annotations

import importlib
import json
import os
import runpy
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from importlib import metadata
from typing import IO, Any

from framework.engine import sandbox
from framework.engine.spawn import spawn
from framework.registry import ENTRY_POINT_GROUP

#: The distribution whose plugin modules the server imports before it forks (trusted: this project's own).
PRELOADED = "plyground"
#: Longest request the server reads (a spec and a confinement: a few kilobytes).
MAX_REQUEST = 1 << 20
#: Servers kept at once (one per environment an engine was started with; the oldest is stopped beyond it).
MAX_SERVERS = 4


def available() -> bool:
    """Whether engines can be forked here (Linux: Unix sequenced-packet sockets, descriptor passing, Landlock)."""
    return sys.platform.startswith("linux") and hasattr(socket, "send_fds")


class Forked:
    """One forked engine, as the referee holds it: its pid, its standard input and output, its exit status."""

    def __init__(self, pid: int, stdin: IO[bytes], stdout: IO[bytes], status: int) -> None:
        self.pid, self.stdin, self.stdout = pid, stdin, stdout
        self._status = status
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit code (negative: the signal that killed it), or None while it runs."""
        if self.returncode is None and select.select([self._status], [], [], 0)[0]:
            self._read_status()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for its exit (subprocess.TimeoutExpired after `timeout` seconds)."""
        if self.returncode is None:
            if not select.select([self._status], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(f"engine {self.pid}", timeout or 0.0)
            self._read_status()
        assert self.returncode is not None
        return self.returncode

    def _read_status(self) -> None:
        data = os.read(self._status, 32)
        os.close(self._status)
        # nothing written: the server died first, and its engines with it (PR_SET_PDEATHSIG, SIGKILL)
        self.returncode = int(data) if data else -signal.SIGKILL


class ForkServer:
    """The referee's side of one fork server: started with `command` (a Python that runs this module's `main`
    with the runner's packages) in `env`, asked for one engine at a time."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = spawn([*command, str(theirs.fileno()), str(os.getpid()), json.dumps(preloaded_modules())],
                              (theirs.fileno(),), env=dict(env))
        finally:
            theirs.close()
        self.control = ours
        self.lock = threading.Lock()

    def start(self, confinement: sandbox.Confinement, spec: str, env: Mapping[str, str], stderr: int) -> Forked:
        """A new engine host for `spec` (its JSON), confined by `confinement`, with `env` added to the server's
        environment and its standard error written to `stderr`. OSError when the server cannot fork one."""
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        status_read, status_write = os.pipe()
        request = json.dumps({"confinement": asdict(confinement), "spec": spec, "env": dict(env)}).encode()
        try:
            with self.lock:
                socket.send_fds(self.control, [request], [stdin_read, stdout_write, stderr, status_write])
                answer = self.control.recv(MAX_REQUEST)
            if not answer:
                raise OSError("the engine fork server has stopped")
        except OSError:
            for fd in (stdin_write, stdout_read, status_read):
                os.close(fd)
            raise
        finally:
            for fd in (stdin_read, stdout_write, status_write):
                os.close(fd)
        return Forked(int(json.loads(answer)["pid"]), os.fdopen(stdin_write, "wb"), os.fdopen(stdout_read, "rb"),
                      status_read)

    def stop(self) -> None:
        """Close its control socket: the server forks no more engines, and exits once those it forked have ended
        (subprocess reaps it then)."""
        self.control.close()


_servers: dict[tuple[tuple[str, str], ...], ForkServer] = {}
_servers_lock = threading.Lock()


def fork_engine(command: Sequence[str], env: Mapping[str, str], own_env: Mapping[str, str],
                confinement: sandbox.Confinement, spec: str, stderr: int) -> Forked:
    """An engine host forked by this process's server for `env` (started with `command` on first use; a new one
    after a server that stopped), with `own_env` its own additions (its private TMPDIR)."""
    key = tuple(sorted(env.items()))
    retried = False
    while True:
        with _servers_lock:
            server = _servers.get(key)
            if server is None:
                while len(_servers) >= MAX_SERVERS:
                    _servers.pop(next(iter(_servers))).stop()
                server = _servers[key] = ForkServer(command, env)
        try:
            return server.start(confinement, spec, own_env, stderr)
        except OSError:
            with _servers_lock:
                if _servers.get(key) is server:
                    del _servers[key]
            server.stop()
            if retried:
                raise
            retried = True


# -- the server ---------------------------------------------------------------------------------------------------

def preloaded_modules() -> list[str]:
    """The modules of this project's plugins (the entry points of PRELOADED), found by the referee: the server
    reads no package metadata, whose listings it would keep from before an engine's confinement."""
    return sorted({entry.module for entry in metadata.entry_points(group=ENTRY_POINT_GROUP)
                   if entry.dist is not None and entry.dist.name == PRELOADED})


def preload(modules: Sequence[str]) -> None:
    """Import what every engine host imports: numba, the host (the framework's core) and this project's plugins."""
    import numba  # noqa: F401

    from framework.engine import host  # noqa: F401
    for module in modules:
        importlib.import_module(module)


def serve(control: socket.socket) -> None:
    """Fork an engine for each request until the control socket ends, then wait for the last engine to end;
    reap each and report its exit."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    statuses: dict[int, int] = {}     # pid: the write end of its handle's status pipe
    accepting = True
    while accepting or statuses:
        readable = select.select([wake_read, *([control.fileno()] if accepting else [])], [], [])[0]
        if wake_read in readable:
            os.read(wake_read, 4096)
        if accepting and control.fileno() in readable:
            request, fds, _, _ = socket.recv_fds(control, MAX_REQUEST, 4)
            if not request:
                accepting = False
                reap(statuses)
                continue
            pid = os.fork()
            if pid == 0:
                engine(fds, json.loads(request))
            for fd in fds[:3]:
                os.close(fd)
            statuses[pid] = fds[3]
            control.send(json.dumps({"pid": pid}).encode())
        reap(statuses)


def reap(statuses: dict[int, int]) -> None:
    """Collect every engine that ended and write its exit code to its handle."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        fd = statuses.pop(pid, None)
        if fd is not None:
            os.write(fd, str(os.waitstatus_to_exitcode(status)).encode())
            os.close(fd)


def engine(fds: list[int], request: dict[str, Any]) -> None:
    """The forked child: its streams, only them, confined, then the engine host; never returns."""
    code = 126
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        os.environ.update(request["env"])
        tempfile.tempdir = None
        config = request["confinement"]
        confinement = sandbox.Confinement(**{**config, "readable": tuple(config["readable"]),
                                             "writable": tuple(config["writable"])})
        try:
            sandbox.confine(confinement)
        except OSError as exc:
            print(f"plyground sandbox: cannot confine the engine: {exc}", file=sys.stderr)
        else:
            os.chdir(confinement.private)
            importlib.invalidate_caches()   # the import paths the server listed unconfined are listed anew
            sys.argv = ["framework.engine.host", request["spec"]]
            # as `python -m framework.engine.host` runs it, what it imports already imported: the host as __main__ alone
            sys.modules.pop("framework.engine.host", None)
            runpy.run_module("framework.engine.host", run_name="__main__", alter_sys=True)
            code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def main(argv: list[str]) -> int:
    """`python -m framework.engine.forkserver CONTROL_FD PARENT_PID MODULES_JSON` (through the engines' bootstrap)."""
    sandbox.killed_with_parent(int(argv[2]))
    control = socket.socket(fileno=int(argv[1]))
    preload(json.loads(argv[3]))
    serve(control)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
