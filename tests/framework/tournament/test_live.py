"""The live file: throttled, written whole (a temporary renamed over it), ignored once its writer is gone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from framework.tournament import live
from framework.tournament.live import LIVE, LiveFile, read_live


def test_publish_writes_at_most_every_period_and_only_changes(tmp_path):
    asked = []

    def games():
        asked.append(1)
        return [{"key": "g1", "plies": len(asked)}]

    writer = LiveFile(tmp_path, every=0.2)
    assert writer.publish(games) and read_live(tmp_path) == [{"key": "g1", "plies": 1}]
    assert not writer.publish(games) and len(asked) == 1   # not due: the games are not even asked for
    time.sleep(0.25)
    assert writer.publish(games) and read_live(tmp_path) == [{"key": "g1", "plies": 2}]
    time.sleep(0.25)
    assert not writer.publish(lambda: [{"key": "g1", "plies": 2}])   # due but unchanged: not rewritten
    writer.close()
    assert not (tmp_path / LIVE).exists() and read_live(tmp_path) == []


def test_the_file_is_replaced_whole_never_written_in_place(tmp_path, monkeypatch):
    renames = []
    replace = os.replace

    def spy(source, target):
        renames.append((str(source), json.loads(open(source).read())["games"]))
        replace(source, target)

    monkeypatch.setattr(live.os, "replace", spy)
    LiveFile(tmp_path, every=0).publish(lambda: [{"key": "g"}])
    assert renames == [(str(tmp_path / f".{LIVE}.{os.getpid()}"), [{"key": "g"}])]
    assert sorted(p.name for p in tmp_path.iterdir()) == [LIVE]


def test_a_file_left_by_a_killed_run_or_not_a_run_is_ignored(tmp_path):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    (tmp_path / LIVE).write_text(json.dumps({"pid": gone.pid, "games": [{"key": "g"}]}))
    assert read_live(tmp_path) == []
    (tmp_path / LIVE).write_text("{not json")
    assert read_live(tmp_path) == []
    (tmp_path / LIVE).write_text(json.dumps({"pid": os.getpid(), "games": [{"key": "g"}]}))
    assert read_live(tmp_path) == [{"key": "g"}]
