"""The referee's side of one engine: start it confined, hand-shake, set up games, ask for moves, time it.

The referee trusts nothing the engine says about itself: a move is parsed by the referee's own game object
(an unparsable one is illegal), its time is measured here (CPU of the engine's whole control group, every
thread and child, or of its process where no group could be made; wall time around the exchange), and a
step is stopped at its hard limit of CPU time or at its wall bound. Blame follows the act: an engine that
dies, hangs, breaks the protocol or answers with an error forfeits (`EngineFailure` with the termination);
a death the kernel's OOM killer caused is no one's (VOID).
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import json
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from framework.engine import forkserver, sandbox
from framework.engine.protocol import (
    ENGINE_MESSAGES,
    MAX_INFO,
    MAX_LINE,
    PROTOCOL_VERSION,
    ProtocolError,
    decode,
    encode,
)
from framework.engine.spawn import spawn
from framework.errors import cap_text
from framework.match import Termination
from framework.registry import ENTRY_POINT_GROUP

#: Seconds an engine may take to start and answer `hello`, and to load and warm up for a game (`isready`).
STARTUP_LIMIT = 120.0
BUILD_LIMIT = 300.0
#: A step whose engine uses its limit in CPU time is stopped; one that waits, after this wall bound.
WALL_FACTOR = 3.0
WALL_EXTRA = 5.0
#: Characters of an engine's standard error quoted with its forfeit (its last lines say most).
STDERR_TAIL = 4000
#: Seconds a quitting engine gets before it is killed.
QUIT_GRACE = 0.5
#: Where engines keep compiled code (numba's cache): theirs alone, so the runner never loads what an engine wrote.
ENGINE_CACHE = Path(os.environ.get("PLYGROUND_ENGINE_CACHE", Path.home() / ".cache" / "plyground" / "engines"))


#: The kinds of forfeit an engine's `error` may name (a crash when it names none).
OWN_FORFEITS = {t.value: t for t in (Termination.CRASH, Termination.ILLEGAL_MOVE, Termination.INVALID_OUTPUT)}


def wall_bound(limit: float) -> float:
    """The wall time after which a step with a CPU-time `limit` is stopped whatever CPU it used."""
    return WALL_FACTOR * limit + WALL_EXTRA


class EngineFailure(Exception):
    """An engine failed a step: `termination` says how it is judged (CRASH, TIME, INVALID_OUTPUT, or VOID when
    the cause came from outside it), `reason` says what happened, `details` holds its last lines of stderr."""

    def __init__(self, termination: Termination, reason: str, details: str = "") -> None:
        super().__init__(reason)
        self.termination = termination
        self.reason = reason
        self.details = details


@dataclass(frozen=True)
class EngineSpec:
    """What starts one engine: a Python agent in an engine host (`agent`, `params`, the plugins that provide it),
    or a program (`command`). `label` names it in reasons; `memory_limit_mb` caps its address space."""

    label: str
    agent: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()
    entry_points: tuple[str, ...] | None = None
    command: tuple[str, ...] | None = None
    memory_limit_mb: int | None = None
    solver: bool = False
    where: str = "agent"

    @property
    def key(self) -> str:
        """Engines with equal keys are interchangeable between games: one participant's (its `label`), whatever
        its parameters (each game's `new` carries them: a tuning's participants change them every game)."""
        return json.dumps([self.label, self.agent, self.plugins, self.entry_points, self.command,
                           self.memory_limit_mb, self.solver, self.where], sort_keys=True, default=repr)

    def argv(self) -> list[str]:
        if self.command is not None:
            return list(self.command)
        spec = {"agent": self.agent, "params": dict(self.params), "plugins": list(self.plugins),
                "entry_points": None if self.entry_points is None else list(self.entry_points),
                "solver": self.solver, "where": self.where, "memory_limit_mb": self.memory_limit_mb}
        return [*python_module("framework.engine.host"), json.dumps(spec, default=repr)]

    def readable(self) -> tuple[str, ...]:
        """What the engine must read beyond the system's folders: the packages of this framework and its plugins,
        each plugin file, a program's own folder and the files its command names (an interpreter's script)."""
        folders = {str(path) for path in package_roots().values()}
        # plugin files and the files a command names, each alone (their folders may hold a results folder)
        folders.update(str(Path(file).resolve()) for file in self.plugins)
        for i, word in enumerate(self.command or ()):
            if os.path.exists(word):
                path = Path(word).resolve()
                folders.add(str(path.parent if i == 0 and path.is_file() else path))   # a program's own folder
        # the folders Python searches, so imports see the same packages as the runner (never its cwd)
        folders.update(entry for entry in sys.path if entry and os.path.isdir(entry)
                       and not any(Path(entry).resolve() == Path(p).resolve() for p in ("/", os.getcwd())))
        return tuple(sorted(folders))


@functools.cache
def package_roots() -> dict[str, Path]:
    """The folders of this framework's package and of every package that provides plugins (the top-level package
    of each entry point of the group), as the runner imports them: an engine imports the same code."""
    names = {"framework"} | {ep.value.split(":")[0].split(".")[0]
                             for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    roots = {}
    for name in sorted(names):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            roots[name] = Path(next(iter(spec.submodule_search_locations))).resolve()
    return roots


#: How an engine's Python starts (an engine host, the fork server): the runner's own packages (`package_roots`, in
#: PLYGROUND_PACKAGES) imported from their real folders first, so the engine runs the runner's code (a checkout
#: beside an installed copy included) under the same file names (numba's cache is keyed by them), without listing
#: the folders that hold them; then the module its first argument names, as `python -m` would.
BOOTSTRAP = """\
import importlib.abc, importlib.util, json, os, runpy, sys
ROOTS = json.loads(os.environ["PLYGROUND_PACKAGES"])
class Packages(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        root = ROOTS.get(name)
        return None if root is None else importlib.util.spec_from_file_location(
            name, os.path.join(root, "__init__.py"), submodule_search_locations=[root])
sys.meta_path.insert(0, Packages())
sys.argv[0] = sys.argv.pop(1)
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def python_module(module: str) -> list[str]:
    """The command that runs `module` in an engine's Python (`BOOTSTRAP`)."""
    return [sys.executable, "-c", BOOTSTRAP, module]


_serial = itertools.count(1)


class Engine:
    """One engine process, started confined and hand-shaken (`hello`)."""

    def __init__(self, spec: EngineSpec, startup_limit: float = STARTUP_LIMIT) -> None:
        self.spec = spec
        self.name = spec.label
        self.version = ""
        self.params: dict[str, Any] = {}
        self.private = tempfile.mkdtemp(prefix="plyground-engine-")
        group = f"{os.getpid()}-{next(_serial)}"
        self.pids_group, self.cpu_group = sandbox.make_groups(group)
        self.cpu_fd = None if self.cpu_group is None else os.open(Path(self.cpu_group, "cpuacct.usage"),
                                                                  os.O_RDONLY | os.O_CLOEXEC)
        # a host caps itself once loaded (what it maps then plus the limit); a program is capped from its start
        memory = None if spec.memory_limit_mb is None or spec.command is None else \
            (spec.memory_limit_mb + BASE_MEMORY_MB) << 20
        confinement = sandbox.Confinement(self.private, spec.readable(), (str(ENGINE_CACHE),), memory,
                                          self.pids_group, self.cpu_group)
        ENGINE_CACHE.mkdir(parents=True, exist_ok=True)
        self.stderr_path = Path(self.private, "stderr.log")
        env = dict(os.environ, NUMBA_CACHE_DIR=str(ENGINE_CACHE), PYTHONDONTWRITEBYTECODE="1",
                   PYTHONPATH=os.pathsep.join(p for p in sys.path if p and os.path.isdir(p)),
                   PLYGROUND_PACKAGES=json.dumps({name: str(root) for name, root in package_roots().items()}))
        own_env = {"TMPDIR": self.private}
        self.proc: subprocess.Popen | forkserver.Forked
        with open(self.stderr_path, "wb") as stderr:
            if spec.command is None and forkserver.available():   # a host: forked, its imports already done
                self.proc = forkserver.fork_engine(python_module("framework.engine.forkserver"), env, own_env,
                                                   confinement, spec.argv()[-1], stderr.fileno())
            else:
                self.proc = spawn(sandbox.launch_command(confinement, spec.argv()), (), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=stderr, env={**env, **own_env})
        self.buffer = b""
        self.oom = sandbox.oom_kills()
        self.closed = False
        self.used = self.wall = 0.0
        try:
            hello = self.request({"type": "hello", "protocol": PROTOCOL_VERSION}, startup_limit, ("hello",),
                                 step="starting")
        except EngineFailure:
            self.close()
            raise
        if hello.get("protocol") != PROTOCOL_VERSION:
            self.close()
            raise EngineFailure(Termination.CRASH, f"speaks protocol {hello.get('protocol')!r}, the referee "
                                                   f"speaks {PROTOCOL_VERSION}")
        self.name = str(hello.get("engine", spec.label))[:200]
        self.version = str(hello.get("version", ""))[:200]
        params = hello.get("params")
        self.params = params if isinstance(params, dict) else {}

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return not self.closed and self.proc.poll() is None

    def cpu(self) -> float:
        """CPU seconds the engine has used so far: its whole group's, else its process's (all threads, waited
        children)."""
        if self.cpu_fd is not None:
            try:
                return int(os.pread(self.cpu_fd, 32, 0)) / 1e9
            except (OSError, ValueError):
                pass
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            return 0.0
        return sum(int(f) for f in fields[11:15]) / TICKS

    def stderr_tail(self) -> str:
        try:
            with open(self.stderr_path, "rb") as file:
                file.seek(max(0, file.seek(0, os.SEEK_END) - STDERR_TAIL))
                return file.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def _failure(self, termination: Termination, reason: str) -> EngineFailure:
        details = self.stderr_tail()
        self.close()
        return EngineFailure(termination, reason, details)

    def _died(self, step: str) -> EngineFailure:
        try:
            code = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            code = None
        if sandbox.oom_kills() > self.oom:
            return self._failure(Termination.VOID, f"its engine was killed by the kernel's OOM killer while {step}")
        if code is None:
            how = "closed its output"
        elif code >= 0:
            how = f"exited with code {code}"
        else:
            how = f"was killed by signal {signal.Signals(-code).name}"
        return self._failure(Termination.CRASH, f"crashed: its engine {how} while {step}")

    def send(self, message: Mapping[str, Any]) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(encode(message))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died("it was sent a message") from None

    def request(self, message: Mapping[str, Any], limit: float, expect: Sequence[str],
                step: str = "choosing a move", errors: bool = False) -> dict[str, Any]:
        """Send `message` and return the answer of a type in `expect` (`info` lines are skipped), within `limit`
        seconds of the engine's CPU time and its wall bound; EngineFailure otherwise (an `error` answer too,
        unless `errors`: then it is returned). `self.used` and `self.wall` hold what the step cost."""
        if self.closed:
            raise EngineFailure(Termination.CRASH, "crashed: its engine was already stopped")
        cpu0, wall0 = self.cpu(), time.perf_counter()
        self.send(message)
        return self.receive(limit, expect, step, errors, (cpu0, wall0))

    def send_raw(self, line: bytes) -> None:
        """Write `line` as it is (engine-check's malformed messages)."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died("it was sent a message") from None

    def receive(self, limit: float, expect: Sequence[str], step: str = "choosing a move", errors: bool = False,
                since: tuple[float, float] | None = None) -> dict[str, Any]:
        """The next answer of a type in `expect` (or `error`, with `errors`), as `request` waits for it; `since`:
        the CPU and wall clocks the step started at (default: now)."""
        if self.closed:
            raise EngineFailure(Termination.CRASH, "crashed: its engine was already stopped")
        cpu0, wall0 = since if since is not None else (self.cpu(), time.perf_counter())
        fd = self.proc.stdout.fileno()   # type: ignore[union-attr]
        infos = 0
        bound = wall_bound(limit) if math.isfinite(limit) else math.inf
        used = 0.0   # read again only when a wait ends with no answer: a quick answer costs no reading
        while True:
            line = self._line()
            while line is None:
                now = time.perf_counter()
                if used >= limit or now - wall0 >= bound:
                    spent, measure = (limit, "hard time limit") if used >= limit else \
                        (bound, "hard time limit of wall time: it waited or was starved")
                    raise self._failure(Termination.TIME, f"was stopped after {spent:g}s{_on(step)} ({measure})")
                wait = min(bound - (now - wall0), max(limit - used, 0.005), 1.0)
                readable, _, _ = select.select([fd], [], [], wait)
                if not readable:
                    used = self.cpu() - cpu0
                else:
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        raise self._died(step)
                    self.buffer += chunk
                    if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer:
                        raise self._failure(Termination.INVALID_OUTPUT, f"sent a line longer than {MAX_LINE:,} bytes "
                                                                        f"while {step}")
                line = self._line()
            try:
                answer = decode(line, ENGINE_MESSAGES)
            except ProtocolError as exc:
                raise self._failure(Termination.INVALID_OUTPUT, f"broke the protocol while {step}: {exc}") from None
            kind = answer["type"]
            if kind == "info":
                infos += 1
                if infos > MAX_INFO:
                    raise self._failure(Termination.INVALID_OUTPUT, f"sent more than {MAX_INFO:,} info lines while "
                                                                    f"{step}")
                continue
            if kind == "error" and errors:
                self.used, self.wall = max(self.cpu() - cpu0, 0.0), time.perf_counter() - wall0
                return answer
            if kind == "error":   # its own forfeit; it may say which kind (never void: that is no one's doing)
                text = str(answer.get("message", ""))[:2000]
                kind = OWN_FORFEITS.get(str(answer.get("termination", "crash")), Termination.CRASH)
                failure = self._failure(kind, f"crashed: {text}" if kind is Termination.CRASH else text)
                failure.details = cap_text(str(answer.get("traceback", ""))) or failure.details
                raise failure
            if kind not in expect:
                raise self._failure(Termination.INVALID_OUTPUT, f"answered {kind!r} while {step}, expected "
                                                                f"{' or '.join(map(repr, expect))}")
            self.used, self.wall = max(self.cpu() - cpu0, 0.0), time.perf_counter() - wall0
            return answer

    def _line(self) -> bytes | None:
        at = self.buffer.find(b"\n")
        if at < 0:
            return None
        line, self.buffer = self.buffer[:at + 1], self.buffer[at + 1:]
        return line

    def new_game(self, game: str, options: Mapping[str, Any], seat: int, seed: int, start: str | None,
                 params: Mapping[str, Any] | None = None, wait: bool = True) -> None:
        """Set the engine up for a game (with `params`, default its spec's) and, with `wait`, wait until it is
        ready (loading and warm-up happen here, before any clock runs); else `ready()` waits, so a referee sets
        up every seat's engine at once."""
        self.send({"type": "new", "game": game, "options": dict(options), "seat": seat, "seed": seed,
                   "start": start, "params": dict(self.spec.params if params is None else params)})
        self.send({"type": "isready"})
        if wait:
            self.ready()

    def ready(self) -> None:
        """Wait for the `readyok` of the `new_game` sent last."""
        self.receive(BUILD_LIMIT, ("readyok",), step="getting ready for a game")

    def kill(self) -> None:
        """Kill the engine's process group now, from any thread (a request waiting on it sees its death)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> None:
        """Stop the engine and everything it started; remove its groups and its private folder."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.proc.poll() is None and self.proc.stdin is not None:
                self.proc.stdin.write(encode({"type": "quit"}))
                self.proc.stdin.flush()
                self.proc.wait(QUIT_GRACE)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if self.cpu_fd is not None:
            os.close(self.cpu_fd)
            self.cpu_fd = None
        sandbox.remove_group(self.pids_group)
        sandbox.remove_group(self.cpu_group)
        shutil.rmtree(self.private, ignore_errors=True)


#: Address space a program engine gets beyond its `memory_limit_mb` (its runtime's own mappings).
BASE_MEMORY_MB = 1024
#: Clock ticks per second of /proc/PID/stat's CPU times.
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _on(step: str) -> str:
    """How a stopped step reads after "was stopped after Ns"."""
    return " on one move" if step == "choosing a move" else "" if step == "solving" else f" while {step}"
