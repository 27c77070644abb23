"""The resident memory a task took in its worker process: at its start and at its peak.

A worker is long-lived, so the process's lifetime peak (`getrusage`'s `ru_maxrss`) says little
about one task. On Linux the kernel's high-water mark of resident memory (`VmHWM` in
/proc/self/status) can be reset to the current resident size by writing "5" to
/proc/self/clear_refs (Linux 4.0 and later, see proc(5)); a `PeakMeter` does that when it
starts, so its reading is the peak of that task alone (scope "task"). Where the reset is not
available, the reading is `ru_maxrss`, the peak of the worker process so far, over every task
it ran (scope "process"), and says so.
"""

from __future__ import annotations

import resource
import sys
from dataclasses import dataclass
from pathlib import Path

STATUS = Path("/proc/self/status")
CLEAR_REFS = Path("/proc/self/clear_refs")
RESET_PEAK = "5"


@dataclass(frozen=True)
class TaskMemory:
    """Resident bytes when the meter started and at the peak since; `scope` "task" or "process" (see above)."""

    start: int
    peak: int
    scope: str


def _status_bytes(field: str) -> int | None:
    """A `kB` field of /proc/self/status in bytes, or None where there is no such file or field."""
    try:
        for line in STATUS.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _lifetime_peak() -> int:
    """The process's peak resident bytes so far (ru_maxrss is in KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


class PeakMeter:
    """Started at a task's start (resetting the high-water mark if it can); `read()` at its end."""

    def __init__(self) -> None:
        try:
            CLEAR_REFS.write_text(RESET_PEAK)
            self.scope = "task"
        except OSError:
            self.scope = "process"
        current = _status_bytes("VmRSS")
        self.start = current if current is not None else _lifetime_peak()
        if self.scope == "task" and _status_bytes("VmHWM") is None:
            self.scope = "process"

    def read(self) -> TaskMemory:
        peak = _status_bytes("VmHWM") if self.scope == "task" else None
        return TaskMemory(self.start, max(self.start, peak if peak is not None else _lifetime_peak()), self.scope)
