"""Progress beats through a file shared by a worker and its supervisor, so a move costs no wake-up.

Before each step a task calls `beat(limit, progress)`: "the next step may take at most `limit`
seconds; here is the progress so far". The supervisor must (a) stop a step that overruns its
limit and (b) still hold the progress when it stops a step or the worker dies. Sending every beat
through a pipe did both but woke the supervisor on every move, which cost more than a whole
random-vs-random game. So the worker appends each beat, stamped with the system-wide monotonic
clock, to an unlinked temporary file (in memory on /dev/shm where there is one) and sends nothing;
the supervisor reads the file only when it must decide:

- at the latest known beat's deadline (stamp + limit), to see whether a newer beat arrived; and
- at most `floor` seconds after the time up to which it knows the beats (when it sent the task,
  read the file or was told a beat), `floor` being the shortest limit the worker process ever
  announced, because an unseen beat's deadline can come no sooner than that.

A beat whose limit is shorter than every limit before it in the worker process lowers the floor,
so the worker also sends its stamp and limit through the pipe (about once per worker); the
supervisor takes them as the latest beat's deadline without reading the file. The supervisor thus
stops an overrunning step at its deadline as if it had read every beat, and the progress outlives
the worker: the file belongs to the supervisor, and a frame cut short by a kill is
ignored. Frames are a 4-byte big-endian length and a pickle of (stamp, cpu, pid, limit, progress): `cpu` is
the CPU seconds of the writing process's main thread (where agents are asked for moves) at the stamp and
`pid` that process, so the supervisor can judge a step by the CPU time it took (guard.py): threads an agent
left running in its game are not charged to its opponent's moves. The file is written by the process that
runs agents' code, so frames are read with `safe_loads` and a frame that does not decode ends the reading
(what came before it stays known).
"""

from __future__ import annotations

import fcntl
import os
import pickle
import struct
import tempfile
import time
from collections.abc import Callable
from typing import Any

from framework.tournament.safepickle import safe_loads

HEADER = struct.Struct(">I")
#: The file is emptied when a task starts and it holds more than this; otherwise the task's beats follow.
KEEP_BYTES = 1 << 20
#: Where the file lives: in memory when the machine has a tmpfs there, else the default temporary folder.
SHM = "/dev/shm"


def clock() -> float:
    """Seconds on CLOCK_MONOTONIC, one clock for every process of the machine (clock_gettime(2))."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class BeatLog:
    """The supervisor's side: owns the file, reads the beats of the task in progress."""

    def __init__(self) -> None:
        folder = SHM if os.access(SHM, os.W_OK) else None
        self.file = tempfile.TemporaryFile(buffering=0, dir=folder)
        self.fd = self.file.fileno()
        # Appends land at the end even after `reset` truncated the file under the worker's offset.
        fcntl.fcntl(self.fd, fcntl.F_SETFL, fcntl.fcntl(self.fd, fcntl.F_GETFL) | os.O_APPEND)
        self.reset()

    def reset(self) -> None:
        """Forget the previous task's beats (call while no worker writes to the file)."""
        self._offset = os.fstat(self.fd).st_size
        if self._offset > KEEP_BYTES:
            os.ftruncate(self.fd, 0)
            self._offset = 0
        self.steps: list[Any] = []
        self.seen = clock()  # every beat stamped before this is known (or older than one that is)
        self.stamp: float | None = None
        self.deadline: float | None = None
        self.limit: float | None = None
        self.cpu = 0.0        # the writer's CPU seconds at the latest beat
        self.pid: int | None = None   # the process that wrote it

    def note(self, stamp: float, limit: float) -> None:
        """A beat told through the pipe: its step ends at stamp + limit, unless the file showed a later beat."""
        if self.stamp is None or stamp > self.stamp:
            self.stamp, self.deadline, self.limit = stamp, stamp + limit, limit
        self.seen = max(self.seen, stamp)

    def read(self) -> None:
        """Take in every complete frame written since the last read; the latest sets `deadline` and `limit`."""
        self.seen = clock()
        size = os.fstat(self.fd).st_size
        if size <= self._offset:
            return
        data = os.pread(self.fd, size - self._offset, self._offset)
        at = 0
        while at + HEADER.size <= len(data):
            (length,) = HEADER.unpack_from(data, at)
            end = at + HEADER.size + length
            if end > len(data):
                break
            try:
                stamp, cpu, pid, limit, progress = safe_loads(data[at + HEADER.size:end])
                stamp, cpu, limit = float(stamp), float(cpu), float(limit)
                pid = int(pid)
            except Exception:   # damaged by the writer's agent: what came before stays known
                self._offset = os.fstat(self.fd).st_size   # skip past it for good
                return
            self.stamp, self.cpu, self.pid, self.limit = stamp, cpu, pid, limit
            self.deadline = self.stamp + self.limit
            self.steps.append(progress)
            at = end
        self._offset += at

    def close(self) -> None:
        self.file.close()


class BeatWriter:
    """The worker's side: `beat(limit, progress)` appends a frame to the file `fd`; `wake(stamp, limit)`
    is called when the floor (shared by the process's writers, a one-element list) drops."""

    def __init__(self, fd: int, wake: Callable[[float, float], None], floor: list[float]) -> None:
        self.fd = fd
        self.wake = wake
        self.floor = floor

    def __call__(self, limit: float, progress: Any) -> None:
        stamp = clock()
        payload = pickle.dumps((stamp, time.thread_time(), os.getpid(), limit, progress), pickle.HIGHEST_PROTOCOL)
        frame = memoryview(HEADER.pack(len(payload)) + payload)
        while frame:
            frame = frame[os.write(self.fd, frame):]
        if limit < self.floor[0]:
            self.floor[0] = limit
            self.wake(stamp, limit)
