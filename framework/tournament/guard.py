"""A supervised worker process that enforces hard per-step time limits.

Python cannot stop a thread that hangs, so each game runs in a separate worker process
(`python -m framework.tournament.worker`). The worker logs a progress beat before each step
(beats.py); when a step overruns the limit its beat announced, the supervisor kills the worker,
turns the progress so far into a forfeit (`task.timed_out`) and starts a fresh worker for the
next task. A worker that dies (segfault, `os._exit`) forfeits the game it was playing
(`task.died`). Workers are plain subprocesses, so this works inside Dask workers too,
whose daemonic processes may not use multiprocessing children.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections import deque
from multiprocessing.connection import Connection
from typing import Any, Iterable, Iterator

from framework.errors import WorkerError
from framework.tournament.beats import BeatLog, clock
from framework.tournament.tasks import Task

STARTUP_LIMIT = 120.0


class Cancelled(Exception):
    """The supervisor was closed while a task was running; the task has no result."""


class GuardedWorker:
    """One worker process at a time, restarted after a kill.

    `stream(tasks)` yields the tasks' results in order, keeping `depth` tasks sent ahead so that the
    worker starts the next game while the supervisor is still storing the last one (a fast game costs
    less than the round trip); `run(task)` runs one task. Each task sent ahead has its own beat log.
    """

    def __init__(self, depth: int = 2) -> None:
        self.depth = depth
        self.proc: subprocess.Popen | None = None
        self.logs: list[BeatLog] = []
        self.closed = False

    def _start(self) -> None:
        if not self.logs:
            self.logs = [BeatLog() for _ in range(self.depth)]
        fds = [log.fd for log in self.logs]
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        command = [sys.executable, "-m", "framework.tournament.worker", str(task_r), str(result_w),
                   ",".join(map(str, fds))]
        self.proc = subprocess.Popen(command, pass_fds=(task_r, result_w, *fds), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, start_new_session=True)
        os.close(task_r)
        os.close(result_w)
        self.outbox = Connection(task_w, readable=False)
        self.inbox = Connection(result_r, writable=False)
        if self.closed:  # interrupted while starting: `interrupt` saw no process to kill
            self._stop()
            raise Cancelled
        if not self.inbox.poll(STARTUP_LIMIT):
            self._stop()
            raise WorkerError(f"a worker process did not start within {STARTUP_LIMIT:g}s")
        self._receive()

    def _receive(self) -> tuple[str, Any]:
        try:
            return self.inbox.recv()
        except (EOFError, OSError):
            code = self._stop()
            if self.closed:
                raise Cancelled from None
            return "died", f"the worker process died (exit code {code})"

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

    def _send(self, task: Task, slot: int, first: bool) -> None:
        """Send `task` to log into `slot`; a worker found dead when nothing is in flight is replaced."""
        self.logs[slot].reset()
        try:
            self.outbox.send((task, slot))
        except OSError:
            if not first:
                return  # the task in flight sees the death; this one is sent again to the next worker
            self._stop()
            self._start()
            self.outbox.send((task, slot))

    def run(self, task: Task) -> Any:
        results = self.stream([task])
        try:
            return next(results)
        finally:
            results.close()

    def stream(self, tasks: Iterable[Task]) -> Iterator[Any]:
        if self.closed:
            raise Cancelled
        pending = iter(tasks)
        inflight: deque[tuple[Task, int]] = deque()
        try:
            while True:
                while len(inflight) < self.depth:
                    task = next(pending, None)
                    if task is None:
                        break
                    if self.proc is None:
                        self._start()
                    slot = min(set(range(self.depth)) - {used for _, used in inflight})
                    inflight.append((task, slot))
                    self._send(task, slot, first=len(inflight) == 1)
                if not inflight:
                    return
                task, slot = inflight[0]
                result = self._wait(task, self.logs[slot])
                inflight.popleft()
                if self.proc is None and inflight:  # stopped: the tasks sent ahead go to a fresh worker
                    self._start()
                    for i, (ahead, ahead_slot) in enumerate(inflight):
                        self._send(ahead, ahead_slot, first=i == 0)
                yield result
        finally:
            if inflight:  # left with tasks in flight (an error, or the caller stopped): their results are void
                self._stop()

    def _wait(self, task: Task, beats: BeatLog) -> Any:
        """The result of `task`, the oldest in flight: its own, or a forfeit when it overruns or the worker dies."""
        floor = math.inf  # the shortest step limit announced so far; none yet: the task's set-up is not timed
        while True:
            wait = floor if beats.deadline is None else min(floor, beats.deadline - clock())
            if wait != math.inf and not self.inbox.poll(max(wait, 0.0)):
                beats.read()
                if beats.deadline is not None and beats.deadline <= clock():
                    self._stop()
                    if self.closed:
                        raise Cancelled
                    return task.timed_out(beats.steps, beats.limit)
                continue
            kind, payload = self._receive()
            if kind == "floor":
                beats.note(*payload)
                floor = min(floor, beats.limit)
                continue
            if kind == "done":
                return payload
            beats.read()
            if kind == "died" and beats.steps:
                return task.died(beats.steps, payload)
            raise WorkerError(f"task {task.key} failed in its worker: {payload}")

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
