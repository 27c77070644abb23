"""A supervised worker process that enforces hard per-step time limits.

Python cannot stop a thread that hangs, so tasks run in worker processes (`python -m
framework.tournament.worker`). A task's referee runs there and logs a progress beat before each step (beats.py);
it stops the engines itself (framework/engine/), and announces limits past its own, so the supervisor steps in
only when the referee fails: a step past its hard limit (CPU time of the worker's main thread) or past its wall
bound (`tasks.wall_bound`) kills the worker and turns the progress so far into the task's `timed_out` result.

No agent runs in a worker, so a worker's death (a kill from outside, the kernel's OOM killer) is no one's doing:
the task is replayed up to RETRIES times and then stored as void (`task.void`); a task that raised is the
referee's failure (`task.failed`). A worker that dies while importing the plugins is a plugin's doing, named
as such. Workers are plain subprocesses, so this works inside Dask workers too, whose daemonic processes may
not use multiprocessing children.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any, cast

from framework.engine.spawn import spawn
from framework.errors import WorkerError
from framework.tournament.beats import BeatLog, clock
from framework.tournament.safepickle import safe_loads
from framework.tournament.tasks import Death, Task, wall_bound

STARTUP_LIMIT = 120.0
#: Times a task whose worker was killed from outside is replayed before it is stored as void (no result).
RETRIES = 2
#: A worker is sent a task ahead only while its tasks take less than this (seconds): for fast games
#: it hides the supervisor's round trip; for long ones it would queue a task behind a slow one
#: while another worker idles at the end of the run.
SEND_AHEAD_BELOW = 0.05
#: Seconds a closing worker gets to end what its games left running before its process group is killed.
CLOSE_GRACE = 2.0


class Cancelled(Exception):
    """The supervisor was closed while a task was running; the task has no result."""


class GuardedWorker:
    """One worker process at a time, restarted after it dies.

    Up to `depth` tasks are in flight once its tasks prove fast (SEND_AHEAD_BELOW): the worker starts
    the next game while the supervisor stores the last one (a fast game costs less than that round
    trip); a first task, and every task after a slow one, goes alone. Each task in flight has its own beat
    log. The supervisor drives a worker by events, so one thread can watch many (LocalExecutor):
    `feed(tasks)` sends tasks, `due` is when it must look again, and `step()` handles one message
    or, past `due`, the deadlines. `stream(tasks)` and `run(task)` are the blocking forms.
    """

    def __init__(self, depth: int = 2) -> None:
        self.depth = depth
        self.proc: subprocess.Popen | None = None
        self.logs: list[BeatLog] = []
        self.inflight: deque[tuple[Task, int]] = deque()
        self.closed = False
        self.due = math.inf
        self.fast = False           # the last task took less than SEND_AHEAD_BELOW
        self.head_since = 0.0       # when the oldest task in flight became the oldest
        self.retries: dict[int, int] = {}   # by slot: times the task in it was replayed
        self.loading: str | None = None     # the plugins the worker is importing, when it said so

    # -- the process -------------------------------------------------------------

    def _start(self) -> None:
        """Start a worker process; its "ready" message is awaited like any other (see `step`)."""
        if not self.logs:
            self.logs = [BeatLog() for _ in range(self.depth)]
        fds = [log.fd for log in self.logs]
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        command = [sys.executable, "-m", "framework.tournament.worker", str(task_r), str(result_w),
                   ",".join(map(str, fds))]
        self.proc = spawn(command, pass_fds=(task_r, result_w, *fds))
        os.close(task_r)
        os.close(result_w)
        self.outbox = Connection(task_w, readable=False)
        self.inbox = Connection(result_r, writable=False)
        if self.closed:  # interrupted while starting: `interrupt` saw no process to kill
            self._stop()
            raise Cancelled
        self.ready = False
        self.loading = None
        self.floor = math.inf
        self.due = clock() + STARTUP_LIMIT

    def _receive(self) -> tuple[str, Any]:
        """The worker's next message, read with `safe_loads` (a worker that runs moves runs agents' code)."""
        try:
            data = self.inbox.recv_bytes()
        except (EOFError, OSError):
            code = self._stop()
            if self.closed or code is None:  # closed here (no process left) or from another thread
                raise Cancelled from None
            return "died", code
        try:
            kind, payload = safe_loads(data)
        except Exception as exc:
            return "error", f"its message could not be read ({type(exc).__name__}: {exc})"
        return str(kind), payload

    def _stop(self, grace: float = 0.0) -> int | None:
        """End the worker and everything in its process group (after `grace` seconds, in which a worker whose
        task pipe closed ends what its games left running) and release its pipes; returns its exit code."""
        if self.proc is None:
            return None
        proc, self.proc = self.proc, None
        self.outbox.close()
        if grace and proc.poll() is None:
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)   # its own session (spawn): the worker and what it started
        except (ProcessLookupError, PermissionError):
            pass
        code = proc.wait()
        self.inbox.close()
        return code

    # -- events --------------------------------------------------------------------

    def feed(self, tasks: Iterator[Task]) -> None:
        """Send tasks taken from `tasks` until `depth` (1 until tasks prove fast) are in flight."""
        if self.closed:
            raise Cancelled
        while len(self.inflight) < (self.depth if self.fast else 1):
            task = next(tasks, None)
            if task is None:
                break
            if self.proc is None:
                self._start()
            if not self.inflight:
                self.head_since = clock()
            slot = min(set(range(self.depth)) - {used for _, used in self.inflight})
            self.inflight.append((task, slot))
            self._send(task, slot)
        self._watch()   # a task sent to an idle worker must be watched from now, not from its first message

    def _send(self, task: Task, slot: int) -> None:
        self.logs[slot].reset()
        self.floor = min(self.floor, task.floor)   # a game's process announces none (worker.py)
        try:
            self.outbox.send((task, slot))
        except OSError:
            if len(self.inflight) > 1:
                return  # the worker died: the oldest task in flight reports it, this one is sent again
            self._stop()  # it died with nothing to do: a fresh one takes the task
            self._start()
            self.outbox.send((task, slot))

    def _watch(self) -> None:
        """Set `due` after an event: the oldest task's latest known deadline, or one floor after the time
        up to which its beats are known, as an unseen newer beat's deadline is at least that far (beats.py)."""
        if not self.ready:
            return
        if self.loading is not None:
            return   # the plugins' import has STARTUP_LIMIT (set when it was announced)
        if not self.inflight:
            self.due = math.inf
            return
        beats = self.logs[self.inflight[0][1]]
        self.due = min(math.inf if beats.deadline is None else beats.deadline, beats.seen + self.floor)

    def step(self) -> tuple[bool, Any]:
        """Handle one message if there is one, else the deadlines; (True, result) when the oldest task ended.

        Call only with tasks in flight."""
        if self.inbox.poll():
            kind, payload = self._receive()
        elif clock() >= self.due:
            kind, payload = "due", None
        else:
            return False, None
        if kind not in ("due", "died"):
            self.loading = None
        if kind in ("ready", "loaded"):
            self.ready = True
        elif kind == "loading":
            self.loading = payload
            self.due = clock() + STARTUP_LIMIT
            return False, None
        else:
            task, slot = self.inflight[0]
            beats = self.logs[slot]
            if kind == "floor":
                stamp, limit = payload
                beats.note(stamp, limit)
                self.floor = min(self.floor, limit)
            elif kind == "done" and task.vet(payload) is None:
                return True, self._finish(self._own(task, payload))
            elif kind == "done":
                beats.read()
                result = task.failed(beats.steps, f"its answer is not a valid result: {task.vet(payload)}")
                if result is None:
                    raise WorkerError(f"task {task.key} failed in its worker: {task.vet(payload)}")
                return True, self._finish(result)
            elif kind == "error":
                beats.read()
                result = task.failed(beats.steps, payload)
                if result is None:
                    raise WorkerError(f"task {task.key} failed in its worker: {payload}")
                return True, self._finish(result)
            elif kind == "due" and not self.ready:
                self._stop()
                raise WorkerError(f"a worker process did not start within {STARTUP_LIMIT:g}s")
            elif kind == "due" and self.loading is not None:
                self._stop()
                raise WorkerError(f"a worker process did not load its plugins ({self.loading}) within "
                                  f"{STARTUP_LIMIT:g}s")
            elif kind == "due":
                return self._check_time(task, beats)
            elif kind == "died":
                return self._died(task, beats, payload)
        self._watch()
        return False, None

    def _check_time(self, task: Task, beats: BeatLog) -> tuple[bool, Any]:
        """Past a deadline: stop the step if its process used its limit in CPU time, or the wall bound passed;
        else look again when the CPU time could run out at the earliest."""
        beats.read()
        now = clock()
        if beats.deadline is None or beats.deadline > now:
            self._watch()
            return False, None
        limit = cast(float, beats.limit)  # a deadline comes with its limit (beats.py)
        cpu = None if beats.pid is None else cpu_seconds(beats.pid)
        used = 0.0 if cpu is None else cpu - beats.cpu   # gone: its answer is on its way (or its death)
        wall = wall_bound(limit)
        if used < limit and now < cast(float, beats.stamp) + wall:
            beats.deadline = min(now + limit - used, cast(float, beats.stamp) + wall)
            self._watch()
            return False, None
        measure, spent = ("CPU", limit) if used >= limit else ("wall", wall)
        self._stop()
        if self.closed:
            raise Cancelled
        return True, self._finish(task.timed_out(beats.steps, spent, measure))

    def _own(self, task: Task, result: Any) -> Any:
        """The result with the supervisor's own task in it (never the copy the worker sent back)."""
        if hasattr(result, "task"):
            try:
                return replace(result, task=task)
            except TypeError:
                pass
        return result

    def _died(self, task: Task, beats: BeatLog, death: Death | int) -> tuple[bool, Any]:
        """A process died: the agent's crash if it caused it, else replay the task or, retries spent, void it.

        `death` an int: the worker itself died (a warm parent runs no agent: from outside, or a plugin's doing
        while it was loading)."""
        if isinstance(death, int):
            if self.loading is not None:
                raise WorkerError(f"a worker process {Death(death)} while loading the plugins {self.loading} "
                                  "(a plugin ended it at import?)")
            death = Death(death, outside=True)   # no agent runs in a worker: it runs referees and loads plugins
        beats.read()
        progress = beats.steps
        result = task.died(progress, death)
        if result is not None:
            return True, self._finish(result)
        if not progress and death.by_agent:
            raise WorkerError(f"task {task.key} failed in its worker before its game began: the worker process "
                              f"{death}")
        slot = self.inflight[0][1]
        if self.retries.get(slot, 0) < RETRIES:
            self.retries[slot] = self.retries.get(slot, 0) + 1
            if self.proc is None:
                self._resend()
            else:   # the warm parent lives on: the task goes behind the ones already sent
                self.inflight.rotate(-1)
                self._send(task, slot)
                self.head_since = clock()
            self._watch()
            return False, None
        tries = RETRIES + 1
        return True, self._finish(task.void(progress, f"the worker process {death}, {tries} times ({RETRIES} retries)"))

    def _resend(self) -> None:
        """Send every task in flight again, to a fresh worker."""
        self._start()
        for task, slot in self.inflight:
            self._send(task, slot)

    def _finish(self, result: Any) -> Any:
        """The oldest task ended: the next one's limits apply; after a kill the rest go to a fresh worker."""
        _, slot = self.inflight.popleft()
        retries = self.retries.pop(slot, 0)
        if retries:
            result = replace(result, retries=retries)
        now = clock()
        self.fast, self.head_since = now - self.head_since < SEND_AHEAD_BELOW, now
        if self.proc is None and self.inflight:
            self._resend()
        self._watch()
        return result

    def wait(self, timeout: float) -> None:
        """Block until a message arrives or `timeout` seconds pass (math.inf: no limit)."""
        self.inbox.poll(None if timeout == math.inf else max(timeout, 0.0))

    # -- blocking forms ------------------------------------------------------------

    def stream(self, tasks: Iterable[Task]) -> Generator[Any, None, None]:
        """The results of `tasks`, in order."""
        pending = iter(tasks)
        try:
            while True:
                self.feed(pending)
                if not self.inflight:
                    return
                self.wait(self.due - clock())
                ended, result = self.step()
                if ended:
                    yield result
        finally:
            if self.inflight:  # left with tasks in flight (an error, or the caller stopped): their results are void
                self.inflight.clear()
                self.retries.clear()
                self._stop()

    def run(self, task: Task) -> Any:
        results = self.stream([task])
        try:
            return next(results)
        finally:
            results.close()

    def interrupt(self) -> None:
        """Kill the worker from another thread; the `run` in progress there raises Cancelled."""
        self.closed = True
        proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        """Stop the worker, what its games left running, and release its pipes (call when no `run` is in progress)."""
        self.closed = True
        self._stop(grace=0.0 if self.inflight else CLOSE_GRACE)
        for log in self.logs:
            log.close()


#: Clock ticks per second of /proc/PID/stat's CPU times.
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """The CPU seconds (user and system) the main thread of process `pid` used so far; None once it is gone."""
    try:
        with open(f"/proc/{pid}/task/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS
