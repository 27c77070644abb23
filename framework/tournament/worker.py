"""The worker process: `python -m framework.tournament.worker IN_FD OUT_FD BEAT_FD,...` runs tasks sent over a pipe.

It runs one task at a time on its main thread and logs its progress beats to the beat file of the
slot sent with the task (beats.py; one per task its supervisor, framework/tournament/guard.py, has in flight),
so the supervisor can stop it when a step overruns. It ignores
SIGINT: an interruption is the supervisor's to handle, and must not turn into forfeits.

A worker dies with its supervisor (`die_with_parent`), so killing a run (even with SIGKILL) leaves
no worker searching on as an orphan.
"""

from __future__ import annotations

import ctypes
import math
import os
import select
import signal
import sys
import threading
import traceback
from multiprocessing.connection import Connection

from framework.tournament.beats import BeatWriter
from framework.tournament.tasks import WorkerContext


def serve(inbox: Connection, outbox: Connection, beat_fds: list[int]) -> int:
    """Answer each (task, beat file) with ("done", result) or ("error", traceback) until the inbox closes.

    Beats go to the file; a beat that lowers the process's shortest limit also sends ("floor", (stamp, limit)).
    """
    context = WorkerContext()
    floor = [math.inf]
    writers = [BeatWriter(fd, lambda stamp, limit: outbox.send(("floor", (stamp, limit))), floor) for fd in beat_fds]
    outbox.send(("ready", None))
    while True:
        try:
            task, slot = inbox.recv()
        except EOFError:
            return 0
        beat = writers[slot]
        try:
            outbox.send(("done", task.run(context, beat)))
        except Exception:
            outbox.send(("error", traceback.format_exc()))


#: prctl(2) option: the signal the kernel sends this process when the thread that started it ends.
PR_SET_PDEATHSIG = 1


def die_with_parent(inbox_fd: int) -> None:
    """Exit when the supervisor does, however it ends: on Linux the kernel kills this process (prctl
    PR_SET_PDEATHSIG), elsewhere, and as a second line, a thread sees the task pipe's writer close."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl in this libc: the thread below still watches
    watch = select.poll()
    watch.register(inbox_fd, 0)  # POLLHUP is always reported: the last writer closed the pipe

    def wait_for_hangup() -> None:
        while True:
            if any(events & (select.POLLHUP | select.POLLERR) for _, events in watch.poll()):
                os._exit(0)

    threading.Thread(target=wait_for_hangup, name="die-with-parent", daemon=True).start()


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(int(argv[1]))
    inbox = Connection(int(argv[1]), writable=False)
    outbox = Connection(int(argv[2]), readable=False)
    try:
        return serve(inbox, outbox, [int(fd) for fd in argv[3].split(",")])
    except (BrokenPipeError, EOFError):  # the supervisor went away
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
