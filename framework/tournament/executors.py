"""Executors run independent tasks in parallel and yield their results as they finish.

- `LocalExecutor`: `workers` worker processes (guard.py), supervised by the caller's thread, which
  also publishes the games in flight for the live page (live.py) when given a `LiveFile`.
- `DaskExecutor`: the same guarded tasks on Dask distributed — a `LocalCluster` when no
  address is given, or the scheduler at `address` (workers need Plyground and the plugins
  installed). Dask does the distribution; Plyground adds no layer of its own. The LocalCluster
  listens on loopback only: its HTTP endpoints (dashboard, metrics) have no authentication.

Results are the same whatever the executor: every task carries its own seed.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Generator, Sequence
from multiprocessing.connection import wait
from typing import Any, Protocol

from framework.errors import ConfigError
from framework.tournament.beats import clock
from framework.tournament.config import ExecutorConfig
from framework.tournament.guard import Cancelled, GuardedWorker
from framework.tournament.live import LiveFile, snapshot
from framework.tournament.tasks import Task


class Executor(Protocol):
    """What the runner needs: results of the tasks as they finish, and a close that stops every worker."""

    def results(self, tasks: Sequence[Task]) -> Generator[Any, None, None]: ...
    def close(self) -> None: ...


class LocalExecutor:
    """Tasks on `workers` guarded worker processes of this machine, watched by the caller's thread.

    One thread waits on every worker's pipe and deadline at once, so a result is stored by the
    thread that received it, without a hand-over between threads.
    """

    def __init__(self, workers: int, live: LiveFile | None = None) -> None:
        self.workers = workers
        self.live = live
        self.guards: list[GuardedWorker] = []

    def results(self, tasks: Sequence[Task]) -> Generator[Any, None, None]:
        """The tasks' results as they finish; the workers (and the engines they keep) serve the next call too."""
        pending = iter(tasks)
        self.guards = [guard for guard in self.guards if not guard.closed]
        while len(self.guards) < min(self.workers, len(tasks)):
            self.guards.append(GuardedWorker())
        for guard in self.guards:
            guard.feed(pending)
        busy = [guard for guard in self.guards if guard.inflight]
        try:
            while busy:
                due = min(guard.due for guard in busy)
                if self.live is not None:
                    self.live.publish(self.in_flight)
                    due = min(due, self.live.due)
                wait([guard.inbox for guard in busy], None if due == math.inf else max(due - clock(), 0.0))
                for guard in busy:
                    ended, result = guard.step()
                    if ended:
                        guard.feed(pending)
                        yield result
                busy = [guard for guard in self.guards if guard.inflight]
        finally:
            for guard in self.guards:
                if guard.inflight:   # left early: the tasks still running have no result; their worker goes
                    guard.close()

    def in_flight(self) -> list[dict[str, Any]]:
        """The games being played, from their beat logs (reading one early only makes its supervisor look again
        at its old time, which finds nothing due)."""
        games = []
        for guard in self.guards:
            for task, slot in guard.inflight:
                guard.logs[slot].read()
                game = snapshot(task, guard.logs[slot].steps)
                if game is not None:
                    games.append(game)
        return games

    def close(self) -> None:
        for guard in self.guards:
            guard.close()


_dask_local = threading.local()
_dask_guards: list[GuardedWorker] = []


def run_guarded(task: Task) -> Any:
    """Run `task` in a guarded worker process of the calling Dask worker thread."""
    guard = getattr(_dask_local, "guard", None)
    if guard is None or guard.closed:
        guard = _dask_local.guard = GuardedWorker(depth=1)   # one task at a time: one beat log
        _dask_guards.append(guard)
    try:
        return guard.run(task)
    except Cancelled:
        guard.close()      # release its pipes and beat file now, not at garbage collection
        raise


def close_guards() -> None:
    """Stop the guarded worker processes of this Dask worker (run on every worker at the end)."""
    while _dask_guards:
        guard = _dask_guards.pop()
        guard.interrupt()
        if not guard.inflight:   # idle: no `run` is left to release its pipes and beat file
            guard.close()


#: Where a LocalCluster's HTTP servers listen: loopback, any free port.
LOOPBACK = "127.0.0.1:0"


class DaskExecutor:
    """Tasks on a Dask cluster: a LocalCluster of `workers` threads, or the scheduler at `address`."""

    def __init__(self, workers: int, address: str | None = None, connect_timeout: float = 10.0) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ConfigError("executor 'dask' needs Dask distributed: pip install 'plyground[dask]'") from None
        self.cluster = None
        if address is None:
            # Threads suffice: every task runs in its own guarded worker process anyway. Dask starts an
            # HTTP server for the scheduler and the worker even without a dashboard: bind both to loopback.
            self.cluster = LocalCluster(n_workers=1, threads_per_worker=workers, processes=False,
                                        dashboard_address=LOOPBACK, worker_dashboard_address=LOOPBACK)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(address, timeout=f"{connect_timeout}s")
            except OSError as exc:
                raise ConfigError(f"cannot reach the Dask scheduler at '{address}': {exc}") from None
        self._futures: list = []

    def results(self, tasks: Sequence[Task]) -> Generator[Any, None, None]:
        from distributed import as_completed as dask_completed

        self._futures = [self.client.submit(run_guarded, task, pure=False) for task in tasks]
        try:
            for future in dask_completed(self._futures):
                yield future.result()
        finally:
            self.client.cancel([future for future in self._futures if not future.done()])

    def close(self) -> None:
        if self._futures:
            self.client.cancel(self._futures)
        self.client.run(close_guards)
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def make_executor(config: ExecutorConfig, workers: int, live: LiveFile | None = None) -> Executor:
    """The configured executor; `live` is published by the local one (Dask's workers supervise their own games)."""
    if config.kind == "dask":
        return DaskExecutor(workers, config.address)
    return LocalExecutor(workers, live)
