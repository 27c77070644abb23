"""The games in flight of a run, published in its results folder for the workbench's live page.

Only finished games reach the store. The supervising thread (LocalExecutor) already holds each
game's progress in its workers' beat logs (beats.py), so at most every EVERY seconds it reads them
and writes what they say (players, plies so far, position, last move) to LIVE: a temporary file
renamed over it, so a reader sees a whole file, never half of one. Nothing is done per move. The
file is removed when the run ends; one left by a run that was killed names a process that is gone,
and `read_live` ignores it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from framework.tournament.beats import clock
from framework.tournament.tasks import GameTask

#: The file in the results folder.
LIVE = "live.json"
#: Seconds between two writes at most.
EVERY = 0.5


def snapshot(task: Any, steps: Sequence[Any]) -> dict[str, Any] | None:
    """One game in flight as the live file lists it, from its task and its beats so far (None: no game yet,
    or a task that is not a game)."""
    if not isinstance(task, GameTask) or not steps:
        return None
    last = steps[-1]
    played = [s.record for s in steps if s.record is not None]
    return {"key": task.key, "game": task.game, "players": [p.id for p in task.players],
            "plies": played[-1].ply if played else 0, "last_move": played[-1].move if played else None,
            "position": last.position, "to_move": last.name}


class LiveFile:
    """The writer: `publish` rewrites the file at most every `every` seconds, and only when it changed."""

    def __init__(self, folder: str | Path, every: float = EVERY) -> None:
        self.path = Path(folder) / LIVE
        self.every = every
        self.due = clock()    # when `publish` writes next
        self._text: str | None = None

    def publish(self, games: Callable[[], list[dict[str, Any]]]) -> bool:
        """Write the games `games()` lists if `due` has come (else nothing is asked); True if the file was written."""
        now = clock()
        if now < self.due:
            return False
        self.due = now + self.every
        text = json.dumps({"pid": os.getpid(), "games": games()})
        if text == self._text:
            return False
        temporary = self.path.with_name(f".{LIVE}.{os.getpid()}")
        try:
            temporary.write_text(text)
            os.replace(temporary, self.path)
        except OSError:   # a full disk: the live page is a view, the store reports the fault when it writes
            temporary.unlink(missing_ok=True)
            return False
        self._text = text
        return True

    def close(self) -> None:
        """The run is over: no game is in flight."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass


def read_live(folder: str | Path) -> list[dict[str, Any]]:
    """The games in flight of the run writing into `folder`; [] when none runs (no file, or its writer is gone)."""
    try:
        data = json.loads((Path(folder) / LIVE).read_text())
        pid, games = int(data["pid"]), list(data["games"])
    except (OSError, ValueError, KeyError, TypeError):  # no file, or not one a run wrote
        return []
    try:
        os.kill(pid, 0)
    except ProcessLookupError:   # the run was killed before it could remove the file
        return []
    except PermissionError:      # another user's process: it runs
        pass
    return games
