"""Which tasks a guarded worker is sent ahead: one each first, a second only while tasks are fast."""

from __future__ import annotations

import pytest

from framework.tournament import guard
from framework.tournament.guard import SEND_AHEAD_BELOW, GuardedWorker


@pytest.fixture
def now(monkeypatch):
    """A settable clock, and workers whose process start and sends are stubbed out."""
    clock = [0.0]
    monkeypatch.setattr(guard, "clock", lambda: clock[0])
    monkeypatch.setattr(GuardedWorker, "_start", lambda self: vars(self).update(proc=object(), ready=False))
    monkeypatch.setattr(GuardedWorker, "_send", lambda self, task, slot: None)
    return clock


def inflight(worker: GuardedWorker) -> list[str]:
    return [task for task, _ in worker.inflight]


def test_every_worker_gets_one_task_before_any_is_sent_ahead(now):
    workers, tasks = [GuardedWorker(), GuardedWorker()], iter(["t0", "t1", "t2"])
    for worker in workers:
        worker.feed(tasks)
    assert [inflight(w) for w in workers] == [["t0"], ["t1"]]


def test_a_task_is_sent_ahead_only_after_a_fast_one_and_not_after_a_slow_one(now):
    worker, tasks = GuardedWorker(), iter(["fast", "next", "ahead", "slow", "after"])
    worker.feed(tasks)
    now[0] = SEND_AHEAD_BELOW / 2
    worker._finish("result")
    worker.feed(tasks)
    assert inflight(worker) == ["next", "ahead"]
    now[0] += 10 * SEND_AHEAD_BELOW          # "next" took long
    worker._finish("result")
    worker.feed(tasks)
    assert inflight(worker) == ["ahead"]     # nothing more is queued behind it
