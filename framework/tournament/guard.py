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
from multiprocessing.connection import Connection
from typing import Any

from framework.errors import WorkerError
from framework.tournament.beats import BeatLog, clock
from framework.tournament.tasks import Task

STARTUP_LIMIT = 120.0


class Cancelled(Exception):
    """The supervisor was closed while a task was running; the task has no result."""


class GuardedWorker:
    """One worker process at a time, restarted after a kill; `run(task)` blocks until the task's result."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.beats: BeatLog | None = None
        self.closed = False

    def _start(self) -> None:
        if self.beats is None:
            self.beats = BeatLog()
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        command = [sys.executable, "-m", "framework.tournament.worker", str(task_r), str(result_w), str(self.beats.fd)]
        self.proc = subprocess.Popen(command, pass_fds=(task_r, result_w, self.beats.fd), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, start_new_session=True)
        os.close(task_r)
        os.close(result_w)
        self.outbox = Connection(task_w, readable=False)
        self.inbox = Connection(result_r, writable=False)
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

    def run(self, task: Task) -> Any:
        if self.closed:
            raise Cancelled
        if self.proc is None:
            self._start()
        beats = self.beats
        beats.reset()
        try:
            self.outbox.send(task)
        except OSError:
            self._stop()
            self._start()
            self.outbox.send(task)
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
                floor = min(floor, payload)
                beats.read()
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
        if self.beats is not None:
            self.beats.close()
