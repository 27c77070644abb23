"""A supervised worker process that enforces hard per-step time limits.

Python cannot stop a thread that hangs, so each game runs in a separate worker process
(`python -m framework.tournament.worker`). The worker logs a progress beat before each step
(beats.py); when a step overruns the limit its beat announced, the supervisor kills the worker,
turns the progress so far into a forfeit (`task.timed_out`) and starts a fresh worker for the
next task. A worker that dies by its agent's doing (segfault, `os._exit`) forfeits the game it was
playing (`task.died`); one killed from outside (SIGKILL: `kill -9`, the OOM killer) gives no result,
so the task is replayed on a fresh worker up to RETRIES times and then stored as void (`task.void`).
Workers are plain subprocesses, so this works inside Dask workers too,
whose daemonic processes may not use multiprocessing children.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any, cast

from framework.errors import WorkerError
from framework.tournament.beats import BeatLog, clock
from framework.tournament.tasks import Death, Task

STARTUP_LIMIT = 120.0
#: Times a task whose worker was killed from outside is replayed before it is stored as void (no result).
RETRIES = 2
#: A worker is sent a task ahead only while its tasks take less than this (seconds): for fast games
#: it hides the supervisor's round trip; for long ones it would queue a task behind a slow one
#: while another worker idles at the end of the run.
SEND_AHEAD_BELOW = 0.05


_spawner: ThreadPoolExecutor | None = None


def spawn(command: list[str], pass_fds: tuple[int, ...]) -> subprocess.Popen:
    """Start a worker process from this process's one spawner thread.

    A worker asks Linux to kill it when its parent ends (PR_SET_PDEATHSIG, worker.py), but the kernel
    sends that signal when the *thread* that forked the worker ends. Dask and the web server supervise
    workers from pool threads that come and go, so workers are forked by a thread that lives as long as
    the process: a worker then dies with the process, never with a retiring thread in mid-move.
    """
    global _spawner
    if _spawner is None:
        _spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="plyground-spawner")
    return _spawner.submit(subprocess.Popen, command, pass_fds=pass_fds, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, start_new_session=True).result()


class Cancelled(Exception):
    """The supervisor was closed while a task was running; the task has no result."""


class GuardedWorker:
    """One worker process at a time, restarted after a kill.

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
        self.retries = 0            # times the oldest task in flight was replayed

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
        self.floor = math.inf
        self.due = clock() + STARTUP_LIMIT

    def _receive(self) -> tuple[str, Any]:
        try:
            return self.inbox.recv()
        except (EOFError, OSError):
            code = self._stop()
            if self.closed or code is None:  # closed here (no process left) or from another thread
                raise Cancelled from None
            return "died", Death(code)

    def _stop(self) -> int | None:
        """Kill the worker (if it still runs) and release its pipes; returns its exit code."""
        if self.proc is None:
            return None
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.kill()
        code = proc.wait()
        self.outbox.close()
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
        if kind == "ready":
            self.ready = True
        else:
            task, slot = self.inflight[0]
            beats = self.logs[slot]
            if kind == "floor":
                stamp, limit = payload
                beats.note(stamp, limit)
                self.floor = min(self.floor, limit)
            elif kind == "done":
                return True, self._finish(payload)
            elif kind == "due" and not self.ready:
                self._stop()
                raise WorkerError(f"a worker process did not start within {STARTUP_LIMIT:g}s")
            elif kind == "due":
                beats.read()
                if beats.deadline is not None and beats.deadline <= clock():
                    self._stop()
                    if self.closed:
                        raise Cancelled
                    limit = cast(float, beats.limit)  # a deadline comes with its limit (beats.py)
                    return True, self._finish(task.timed_out(beats.steps, limit))
            elif kind == "died":
                return self._died(task, beats, payload)
            else:
                raise WorkerError(f"task {task.key} failed in its worker: {payload}")
        self._watch()
        return False, None

    def _died(self, task: Task, beats: BeatLog, death: Death) -> tuple[bool, Any]:
        """The worker died: the agent's crash if it caused it, else replay the task or, retries spent, void it."""
        beats.read()
        progress = beats.steps
        result = task.died(progress, death)
        if result is not None:
            return True, self._finish(result)
        if not progress and death.by_agent:
            raise WorkerError(f"task {task.key} failed in its worker before its game began: the worker process "
                              f"{death}")
        if self.retries < RETRIES:
            self.retries += 1
            self._resend()
            self._watch()
            return False, None
        tries = RETRIES + 1
        return True, self._finish(task.void(progress, f"the worker process {death}, {tries} times "
                                                      f"({RETRIES} retries)"))

    def _resend(self) -> None:
        """Send every task in flight again, to a fresh worker."""
        self._start()
        for task, slot in self.inflight:
            self._send(task, slot)

    def _finish(self, result: Any) -> Any:
        """The oldest task ended: the next one's limits apply; after a kill the rest go to a fresh worker."""
        self.inflight.popleft()
        if self.retries:
            result, self.retries = replace(result, retries=self.retries), 0
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
            proc.kill()

    def close(self) -> None:
        """Stop the worker and release its pipes (call when no `run` is in progress)."""
        self.closed = True
        self._stop()
        for log in self.logs:
            log.close()
