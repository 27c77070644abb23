"""A supervised worker process that enforces hard per-step time limits.

Python cannot stop a thread that hangs, so each game runs in a separate worker process
(`python -m framework.tournament.worker`). The supervisor waits for the worker's progress
beats; when a step overruns the limit its beat announced, it kills the worker, turns the
progress so far into a forfeit (`task.timed_out`) and starts a fresh worker for the next
task. A worker that dies (segfault, `os._exit`) forfeits the game it was playing
(`task.died`). Workers are plain subprocesses, so this works inside Dask workers too,
whose daemonic processes may not use multiprocessing children.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from framework.errors import WorkerError
from framework.tournament.tasks import Task

STARTUP_LIMIT = 120.0


class Cancelled(Exception):
    """The supervisor was closed while a task was running; the task has no result."""


class GuardedWorker:
    """One worker process at a time, restarted after a kill; `run(task)` blocks until the task's result."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.closed = False

    def _start(self) -> None:
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        self.proc = subprocess.Popen([sys.executable, "-m", "framework.tournament.worker", str(task_r), str(result_w)],
                                     pass_fds=(task_r, result_w), stdin=subprocess.DEVNULL,
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
        try:
            self.outbox.send(task)
        except OSError:
            self._stop()
            self._start()
            self.outbox.send(task)
        progress: list = []
        limit: float | None = None
        since = time.monotonic()
        while True:
            if limit is not None:
                remaining = since + limit - time.monotonic()
                if remaining <= 0 or not self.inbox.poll(remaining):
                    self._stop()
                    if self.closed:
                        raise Cancelled
                    return task.timed_out(progress, limit)
            kind, payload = self._receive()
            if kind == "beat":
                limit, step = payload
                progress.append(step)
                since = time.monotonic()
            elif kind == "done":
                return payload
            elif kind == "died" and progress:
                return task.died(progress, payload)
            else:
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
