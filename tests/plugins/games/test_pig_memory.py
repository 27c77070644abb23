"""Pig's exact solution is a table of goal^3 numbers: a goal whose table would not fit in memory is refused with one
line when the agent is built, before anything is allocated."""

from __future__ import annotations

import pytest

from framework.errors import ConfigError
from framework.registry import Registry
from plugins.games.pig import solver


def test_the_table_size_is_goal_cubed_floats_and_decisions():
    assert solver.table_bytes(100) == 100 * 100 * (106 * 8 + 100)
    assert solver.table_bytes(10, tables=2) == 2 * 10 * 10 * (16 * 8 + 10)
    solution = solver.solve(30)
    assert solution.win.nbytes + solution.rolls.nbytes == solver.table_bytes(30)


@pytest.mark.parametrize("agent, params", [("pig_policy", {}), ("expectiminimax", {"heuristic": "optimal"})])
def test_an_agent_needing_a_table_that_does_not_fit_is_refused_when_built(monkeypatch, agent, params):
    monkeypatch.setattr(solver, "free_memory", lambda: 10**8)
    registry = Registry()
    game = registry.create_game("pig", {"goal": 1000})
    with pytest.raises(ConfigError, match=r"^pig goal=1000: the exact solution is a table of goal\^3 numbers, 9\.0 GB, "
                                          r"more than the 0\.1 GB of memory free; use a smaller goal"):
        registry.create_agent(agent, game, params)
    registry.create_agent("pig_policy", game, {"policy": "hold_at"})   # no table: built


def test_solve_and_matchup_refuse_before_allocating(monkeypatch):
    monkeypatch.setattr(solver, "free_memory", lambda: solver.table_bytes(40) - 1)
    solver.solve.cache_clear()   # a solution solved before is not built again
    with pytest.raises(ConfigError, match="pig goal=40"):
        solver.solve(40)
    monkeypatch.setattr(solver, "free_memory", lambda: solver.table_bytes(20) + 1)
    with pytest.raises(ConfigError, match="pig goal=20"):   # two tables
        solver.matchup(20, solver.hold_at(20, 5), solver.hold_at(20, 8))


def test_free_memory_reads_this_machine():
    free = solver.free_memory()
    assert free is None or free > 0
