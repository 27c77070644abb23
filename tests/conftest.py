"""Test-wide setup: only this distribution's plugins load, so a developer's installed plugins never leak in."""

import gc
import os
import time
from collections.abc import Callable
from typing import TypeVar

import pytest

os.environ["PLYGROUND_DISABLE_PLUGIN_AUTOLOAD"] = "1"
os.environ["PLYGROUND_PLUGINS"] = "plyground"
# One numba cache for the suite's own processes and the engines it starts, so a search compiles once per run
# (outside tests engines keep a cache of their own, which the runner never loads: framework/engine/client.py).
SUITE_CACHE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".numba-cache")
os.environ.setdefault("NUMBA_CACHE_DIR", SUITE_CACHE)
os.environ.setdefault("PLYGROUND_ENGINE_CACHE", os.environ["NUMBA_CACHE_DIR"])

from framework.protocols import Budget  # noqa: E402  (after the environment is set)
from framework.registry import Registry  # noqa: E402

T = TypeVar("T")


@pytest.fixture(scope="session")
def registry() -> Registry:
    return Registry()


#: "Within 10%" plus this many seconds of CPU: the clock is read between node visits.
SCHEDULING_SLACK = 0.25
#: A search that ignores its deadline is caught by this wall bound, however loaded the machine.
WALL_BOUND_FACTOR = 5


@pytest.fixture
def compiled_kernels_on(monkeypatch):
    """Compiled kernels switched on for a test of the compiled binding, also where the environment turns them
    off (`PLYGROUND_JIT=0`, which runs the rest of the suite interpreted); its subprocesses inherit it."""
    monkeypatch.setenv("PLYGROUND_JIT", "1")


@pytest.fixture
def keeps_time_budget():
    """`keeps_time_budget(search, seconds)`: the issue's "time budgets are respected within 10%", as a
    property that holds on any CPU and under any load.

    `search(budget)` runs one decision. It is called once on a small node budget first, so compiling or
    loading kernels is not charged to the timed call, and the heap is collected. The timed call must run
    until its deadline (wall time at least `seconds`: the search stops only there) and spend at most 10%
    more CPU time than that, plus a small slack: a loaded machine stretches the wall time of a search,
    never the CPU time this process spends on it. A generous wall bound still catches a search that
    never looks at its clock. Returns the search's result.
    """
    def check(search: Callable[[Budget], T], seconds: float) -> T:
        search(Budget(nodes=64))
        gc.collect()
        wall0, cpu0 = time.perf_counter(), time.process_time()
        result = search(Budget(time=seconds))
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        assert wall >= seconds, f"stopped after {wall:.3f}s of a {seconds}s budget"
        assert cpu <= seconds * 1.1 + SCHEDULING_SLACK, f"{cpu:.3f}s of CPU for a {seconds}s budget"
        assert wall <= seconds * WALL_BOUND_FACTOR + 2, f"{wall:.3f}s of wall time for a {seconds}s budget"
        return result
    return check


#: The slowest tests are marked `slow`: `python -m pytest -q -m "not slow"` leaves them out for a quick run,
#: `python -m pytest -q` (and CI) runs everything. The marks sit where the tests are written, by one rule:
#: - a whole tier: every test under a folder of SLOW_FOLDERS (the benchmarks);
#: - a whole file: `pytestmark = pytest.mark.slow` at its top (the golden sets of compiled searches compared
#:   across bindings, the fuzzers, the tutorials run end to end, the wheel build, ...);
#: - one test: `@pytest.mark.slow` on it (`plyground warmup` compiling every search, long runs of a check
#:   that also runs small, ...).
#: tests/docs/test_slow_list.py checks that the quick subset leaves out what the rule says.
SLOW_FOLDERS = ("tests/benchmarks/",)


def is_slow(nodeid: str) -> bool:
    """Whether a test (its node id, relative to the repository) is slow by its folder (SLOW_FOLDERS; the marks
    written in the test files themselves are pytest's own)."""
    return nodeid.startswith(SLOW_FOLDERS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)
