"""The resident memory a task took in its worker process: at its start and at its peak.

A worker is long-lived, so the process's lifetime peak (`getrusage`'s `ru_maxrss`) says little
about one task. On Linux the kernel's high-water mark of resident memory (`VmHWM` in
/proc/self/status) can be reset to the current resident size by writing "5" to
/proc/self/clear_refs (Linux 4.0 and later, see proc(5)); a `PeakMeter` does that when it
starts, so its reading is the peak of that task alone (scope "task"). Where the reset is not
available, the reading is `ru_maxrss`, the peak of the worker process so far, over every task
it ran (scope "process"), and says so. Without /proc the start is unknown (None), and without
`getrusage` (Windows) the peak is too; `resource` is imported only when needed, so reading a
results folder works everywhere.

A meter is started for every task, and games of fast agents take well under a millisecond, so the
files stay open (per process: /proc/self names the process that opened it) and are read with one
`pread` each; opening and parsing them anew cost more than such a game.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

#: The files read and written, for process PID ("self": this one).
STATUS = "/proc/{pid}/status"
CLEAR_REFS = "/proc/{pid}/clear_refs"
RESET_PEAK = b"5"


@dataclass(frozen=True)
class TaskMemory:
    """Resident bytes when the meter started and at the peak since (None: not measurable here);
    `scope` "task" or "process" (see above)."""

    start: int | None
    peak: int | None
    scope: str


def _status(pid: str) -> bytes:
    """The text of /proc/PID/status, empty where there is no such file."""
    try:
        return Path(STATUS.format(pid=pid)).read_bytes()[:1 << 16]
    except OSError:
        return b""


def _status_bytes(status: bytes, field: bytes) -> int | None:
    """A `kB` field of that text in bytes, or None where there is no such field."""
    at = status.find(b"\n" + field + b":")
    if at < 0:
        return None
    return int(status[at + len(field) + 2:status.index(b"\n", at + 1)].split()[0]) * 1024


def _lifetime_peak() -> int | None:
    """The process's peak resident bytes so far (ru_maxrss is in KiB on Linux, bytes on macOS); None on Windows."""
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


class PeakMeter:
    """Started at a task's start (resetting the high-water mark if it can); `read()` at its end. `pid`: the
    process measured ("self", or an engine's process number, which the referee may reset and read)."""

    def __init__(self, pid: str = "self") -> None:
        self.pid = pid
        try:
            Path(CLEAR_REFS.format(pid=pid)).write_bytes(RESET_PEAK)
            self.scope = "task"
        except OSError:
            self.scope = "process"
        status = _status(pid)
        self.start = _status_bytes(status, b"VmRSS")
        if self.scope == "task" and _status_bytes(status, b"VmHWM") is None:
            self.scope = "process"

    def read(self) -> TaskMemory:
        peak = _status_bytes(_status(self.pid), b"VmHWM") if self.scope == "task" else None
        if peak is None and self.pid == "self":
            peak = _lifetime_peak()
        if peak is not None and self.start is not None:
            peak = max(peak, self.start)
        return TaskMemory(self.start, peak, self.scope)
