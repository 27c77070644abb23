"""Executors run independent tasks in parallel and yield their results as they finish.

- `LocalExecutor`: `workers` threads, each supervising one worker process (guard.py).
- `DaskExecutor`: the same guarded tasks on Dask distributed — a `LocalCluster` when no
  address is given, or the scheduler at `address` (workers need Plyground and the plugins
  installed). Dask does the distribution; Plyground adds no layer of its own.

Results are the same whatever the executor: every task carries its own seed.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Iterator, Protocol, Sequence

from framework.errors import ConfigError
from framework.tournament.config import ExecutorConfig
from framework.tournament.guard import GuardedWorker
from framework.tournament.tasks import Task


class Executor(Protocol):
    """What the runner needs: results of the tasks as they finish, and a close that stops every worker."""

    def results(self, tasks: Sequence[Task]) -> Iterator[Any]: ...
    def close(self) -> None: ...


class LocalExecutor:
    """Tasks on `workers` guarded worker processes of this machine, each fed by its own thread.

    The threads take tasks from one queue as their workers need them (each keeps its worker's next
    task sent ahead, see `GuardedWorker.stream`) and hand the results to the caller's thread.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.guards: list[GuardedWorker] = []
        self.threads: list[threading.Thread] = []
        self._todo: queue.SimpleQueue = queue.SimpleQueue()

    def _take(self) -> Iterator[Task]:
        while True:
            try:
                yield self._todo.get_nowait()
            except queue.Empty:
                return

    def _feed(self, guard: GuardedWorker, out: queue.SimpleQueue) -> None:
        try:
            for result in guard.stream(self._take()):
                out.put((True, result))
        except BaseException as exc:  # handed to the caller's thread, which raises it
            out.put((False, exc))
        out.put((False, None))

    def results(self, tasks: Sequence[Task]) -> Iterator[Any]:
        for task in tasks:
            self._todo.put(task)
        out: queue.SimpleQueue = queue.SimpleQueue()
        self.guards = [GuardedWorker() for _ in range(min(self.workers, len(tasks)))]
        self.threads = [threading.Thread(target=self._feed, args=(guard, out), name="plyground-worker", daemon=True)
                        for guard in self.guards]
        for thread in self.threads:
            thread.start()
        running = len(self.threads)
        while running:
            ok, item = out.get()
            if ok:
                yield item
            elif item is None:
                running -= 1
            else:
                raise item

    def close(self) -> None:
        for _ in self._take():  # no thread takes another task
            pass
        for guard in self.guards:
            guard.interrupt()
        for thread in self.threads:
            thread.join()
        for guard in self.guards:
            guard.close()


_dask_local = threading.local()
_dask_guards: list[GuardedWorker] = []


def run_guarded(task: Task) -> Any:
    """Run `task` in a guarded worker process of the calling Dask worker thread."""
    guard = getattr(_dask_local, "guard", None)
    if guard is None or guard.closed:
        guard = _dask_local.guard = GuardedWorker()
        _dask_guards.append(guard)
    return guard.run(task)


def close_guards() -> None:
    """Stop the guarded worker processes of this Dask worker (run on every worker at the end)."""
    while _dask_guards:
        _dask_guards.pop().interrupt()


class DaskExecutor:
    """Tasks on a Dask cluster: a LocalCluster of `workers` threads, or the scheduler at `address`."""

    def __init__(self, workers: int, address: str | None = None, connect_timeout: float = 10.0) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ConfigError("executor 'dask' needs Dask distributed: pip install 'plyground[dask]'") from None
        self.cluster = None
        if address is None:
            # Threads suffice: every task runs in its own guarded worker process anyway.
            self.cluster = LocalCluster(n_workers=1, threads_per_worker=workers, processes=False,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(address, timeout=f"{connect_timeout}s")
            except OSError as exc:
                raise ConfigError(f"cannot reach the Dask scheduler at '{address}': {exc}") from None
        self._futures: list = []

    def results(self, tasks: Sequence[Task]) -> Iterator[Any]:
        from distributed import as_completed as dask_completed

        self._futures = [self.client.submit(run_guarded, task, pure=False) for task in tasks]
        for future in dask_completed(self._futures):
            yield future.result()

    def close(self) -> None:
        if self._futures:
            self.client.cancel(self._futures)
        self.client.run(close_guards)
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def make_executor(config: ExecutorConfig, workers: int) -> Executor:
    if config.kind == "dask":
        return DaskExecutor(workers, config.address)
    return LocalExecutor(workers)
