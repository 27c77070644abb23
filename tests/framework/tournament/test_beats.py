"""Progress beats through the shared file: frames cut short are not read, and a shorter limit wakes the supervisor."""

import math
import os
import pickle
import textwrap
import time

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.tournament.beats import HEADER, BeatLog, BeatWriter

from .test_runner import FIXTURES


def test_a_frame_cut_short_is_read_only_once_it_is_complete():
    log = BeatLog()
    try:
        wakes = []
        beat = BeatWriter(log.fd, lambda stamp, limit: wakes.append(limit), [math.inf])
        beat(2.0, "first")
        beat(5.0, "second")          # not shorter than 2: no wake-up
        beat(1.5, "third")
        assert wakes == [2.0, 1.5]
        payload = pickle.dumps((0.0, 0.0, 1, 3.0, "fourth"))
        frame = HEADER.pack(len(payload)) + payload
        os.write(log.fd, frame[:7])  # a worker killed in the middle of a write
        log.read()
        assert log.steps == ["first", "second", "third"] and log.limit == 1.5
        os.write(log.fd, frame[7:])
        log.read()
        assert log.steps == ["first", "second", "third", "fourth"] and (log.deadline, log.limit) == (3.0, 3.0)
        log.note(-1.0, 9.0)         # a wake-up older than the beats read is not the latest beat
        assert (log.deadline, log.limit) == (3.0, 3.0)
        log.reset()
        beat(4.0, "next task")       # the floor is the worker process's: no wake-up
        log.read()
        assert log.steps == ["next task"] and wakes == [2.0, 1.5]
    finally:
        log.close()


@pytest.mark.slow
def test_a_hang_under_a_shorter_limit_than_the_opponents_is_stopped_at_its_own_limit(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: tictactoe
        move_time_limit: 60
        plugins: [{FIXTURES}]
        results: {tmp_path / 'out'}
        participants:
          - {{id: rnd, agent: random}}
          - {{id: hang, agent: hanger, budget: {{time: 0.1}}}}
        """))
    started = time.monotonic()
    assert main(["run", str(path), "--quiet"]) == 0
    assert time.monotonic() - started < 30      # each hang stopped after 1.2 s of CPU, not the opponent's 60
    games = Results(tmp_path / "out").games.set_index("key")
    assert games["termination"].tolist() == ["time", "time"]
    assert games.loc["rnd vs hang #0", "reason"] == "O (hang) was stopped after 1.2s on one move (hard time limit)"
    assert games.loc["rnd vs hang #0", "plies"] == 1 and games.loc["rnd vs hang #1", "plies"] == 0
