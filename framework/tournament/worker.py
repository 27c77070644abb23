"""The worker process: `python -m framework.tournament.worker IN_FD OUT_FD BEAT_FD,...` runs tasks sent over a pipe.

A task is a game's or a solve's referee (framework/engine/referee.py): it runs here, keeps the engines of the
participants between tasks (`WorkerContext.engines`), and answers ("done", result) or ("error", traceback);
("loading", what) and ("loaded", None) surround the first import of plugins. No agent's code runs here: every
agent plays from its own engine process. The worker is a child subreaper, so whatever an engine's processes
leave behind comes back to it and is killed when it ends.

Beats (beats.py) go to the beat file of the slot sent with the task. The worker ignores SIGINT: an
interruption is the supervisor's to handle, and must not turn into forfeits. A worker dies with its
supervisor (`die_with_parent`), an engine with its worker, so killing a run leaves no search going.
"""

from __future__ import annotations

import ctypes
import math
import os
import select
import signal
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection
from pathlib import Path

from framework.tournament.beats import BeatWriter
from framework.tournament.tasks import WorkerContext

#: prctl(2) options: the signal the kernel sends this process when the thread that started it ends; adopt orphans.
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: The largest answer a game's process may send (bytes); a longer one is cut, and reads as damaged.
MAX_ANSWER = 1 << 28


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False   # no prctl in this libc


def serve(inbox: Connection, outbox: Connection, beat_fds: list[int]) -> int:
    """Answer each (task, slot) until the inbox closes with ("done", result) or ("error", traceback); ("loading",
    what) and ("loaded", None) around the first import of plugins.

    Beats go to the file; a beat that lowers the process's shortest limit also sends ("floor", (stamp, limit)).
    """
    context = WorkerContext(lambda what: outbox.send(("loading", what)))
    floor = [math.inf]
    writers = [BeatWriter(fd, lambda stamp, limit: outbox.send(("floor", (stamp, limit))), floor) for fd in beat_fds]
    outbox.send(("ready", None))
    while True:
        try:
            task, slot = inbox.recv()
        except EOFError:
            context.close()
            sweep()
            return 0
        beat = writers[slot]
        try:
            outbox.send(("done", task.run(context, beat)))
        except Exception:
            outbox.send(("error", traceback.format_exc()))


def children() -> list[int]:
    """This process's children (from /proc)."""
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(b")", 1)[1].split()[1]) == me:
                found.append(int(entry))
    return found


def sweep() -> None:
    """Kill and reap every descendant of this process: a subreaper, it adopts each orphan as its parent dies."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return   # none left: the common case costs one system call
        if pid == 0:
            for child in children():
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.001)


def die_with_parent(inbox_fd: int) -> None:
    """Exit when the supervisor does, however it ends: on Linux the kernel kills this process (prctl
    PR_SET_PDEATHSIG), elsewhere, and as a second line, a thread sees the task pipe's writer close and
    ends what the games left running first."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    watch = select.poll()
    watch.register(inbox_fd, 0)  # POLLHUP is always reported: the last writer closed the pipe

    def wait_for_hangup() -> None:
        while True:
            if any(events & (select.POLLHUP | select.POLLERR) for _, events in watch.poll()):
                sweep()
                os._exit(0)

    threading.Thread(target=wait_for_hangup, name="die-with-parent", daemon=True).start()


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    die_with_parent(int(argv[1]))
    inbox = Connection(int(argv[1]), writable=False)
    outbox = Connection(int(argv[2]), readable=False)
    try:
        return serve(inbox, outbox, [int(fd) for fd in argv[3].split(",")])
    except (BrokenPipeError, EOFError):  # the supervisor went away
        sweep()
        return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
