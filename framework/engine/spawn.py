"""Processes started from one long-lived thread, so that they die with this process and never with a thread."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from typing import Any

_spawner: ThreadPoolExecutor | None = None


def spawn(command: list[str], pass_fds: tuple[int, ...], **options: Any) -> subprocess.Popen:
    """Start a process (a worker, an engine) from this process's one spawner thread.

    A worker asks Linux to kill it when its parent ends (PR_SET_PDEATHSIG, worker.py), but the kernel
    sends that signal when the *thread* that forked the worker ends. Dask and the web server supervise
    workers from pool threads that come and go, so workers are forked by a thread that lives as long as
    the process: a worker then dies with the process, never with a retiring thread in mid-move. Engines
    (framework/engine/client.py) are started here too; `options` go to Popen.
    """
    global _spawner
    if _spawner is None:
        _spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="plyground-spawner")
    settings: dict[str, Any] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, **options}

    def start() -> subprocess.Popen:
        return subprocess.Popen(command, pass_fds=pass_fds, start_new_session=True, **settings)
    return _spawner.submit(start).result()
