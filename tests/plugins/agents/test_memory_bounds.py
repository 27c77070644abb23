"""Every solver's memory is bounded by a declared parameter, on the compiled and the interpreted path,
and a solve that needs more than its bound stops cleanly with the answer unknown."""

from pathlib import Path

import pytest

from framework.protocols import UNLIMITED, Budget, Proof
from framework.registry import Registry
from plugins.agents.proofnumber.search import COUNTER, COUNTER_SLOTS, bounded_store

#: Slow (tests/conftest.py): searches run to their memory bounds.
pytestmark = pytest.mark.slow

POSITIONS = Path(__file__).parents[3] / "tournaments" / "positions" / "loa-endgames-488.txt"
#: Position 251 of the thesis set: a LOA win that `pns` proves with a tree of 3,020 nodes (the file's note).
LINE = [line for line in POSITIONS.read_text().splitlines() if line and not line.startswith("#")][251]
TEXT, NOTE = (part.strip() for part in LINE.split("|"))
#: The most moves a side has in these endgames is far below this (a second-level tree overshoots by one expansion).
BRANCHING = 100


@pytest.fixture(params=["1", "0"], ids=["compiled", "interpreted"])
def loa(request, monkeypatch, registry):
    monkeypatch.setenv("PLYGROUND_JIT", request.param)
    game = registry.create_game("loa")
    return game, game.from_text(TEXT)


def solve(registry: Registry, game, state, name, params, budget=UNLIMITED):
    return registry.create_agent(name, game, params).solve(game, state, budget)


def test_the_position_needs_a_tree_of_3020_nodes(loa, registry):
    game, state = loa
    result = solve(registry, game, state, "pns", {})
    assert "nodes=3020" in NOTE and result.value is Proof.WIN and result.stats.extra["tree_nodes"] == 3020
    assert 3020 <= result.stats.peak_entries <= 2 * 3020      # the tree, and the table of its solved states


def test_pns_with_a_smaller_tree_stops_unknown_within_its_limit(loa, registry):
    game, state = loa
    result = solve(registry, game, state, "pns", {"tree_limit": 1000})
    assert result.value is Proof.UNKNOWN and result.stats.extra["stopped_by"] == "tree_limit"
    assert result.stats.extra["tree_nodes"] <= 1000 and result.stats.peak_entries <= 2 * 1000


def test_pn2_with_a_small_tree_stops_unknown_within_three_times_its_limit(loa, registry):
    game, state = loa
    # growth: tree-size, each second-level tree as large as the first level: the published growth function
    # gives a 300-node tree almost no second level, and this test is about freeing large ones
    result = solve(registry, game, state, "pn2", {"tree_limit": 300, "growth": "tree-size"})
    extra = result.stats.extra
    assert result.value is Proof.UNKNOWN and extra["stopped_by"] == "tree_limit" and extra["tree_nodes"] <= 300
    # the second-level trees generated many times the limit, but were freed; the shared table is bounded
    assert extra["second_level_nodes"] > 6 * 300
    assert result.stats.peak_entries <= 300 + (300 + BRANCHING) + 300


def test_dfpn_with_a_small_table_still_proves_the_win_within_it(loa, registry):
    game, state = loa
    large = solve(registry, game, state, "dfpn", {})
    small = solve(registry, game, state, "dfpn", {"tt_size": 200})
    assert large.value is small.value is Proof.WIN and large.stats.extra["tt_entries"] > 3000
    assert small.stats.extra["tt_entries"] <= 200 < small.stats.peak_entries < large.stats.peak_entries


def test_dfpn_with_a_four_entry_table_still_proves_it_holding_little_more_than_its_path(loa, registry):
    game, state = loa
    result = solve(registry, game, state, "dfpn", {"tt_size": 4})
    assert result.value is Proof.WIN and result.stats.extra["tt_entries"] <= 4
    assert result.stats.peak_entries <= 4 + result.stats.extra["expansions"]   # the table and the children on the path


def test_alphabeta_never_holds_more_entries_than_its_table_has_slots(loa, registry):
    game, state = loa
    small = solve(registry, game, state, "alphabeta", {"tt_size": 61, "quiescence": False}, Budget(nodes=100_000))
    large = solve(registry, game, state, "alphabeta", {"quiescence": False}, Budget(nodes=100_000))
    assert small.value is large.value is Proof.WIN
    assert 0 < small.stats.peak_entries <= 61


def test_alphabeta_spreads_the_states_of_an_endgame_over_its_table(loa, registry):
    # 65,521 slots (a prime): a slot depends on every bit of the key. With 65,536 slots, the low 16 bits
    # of Black's bitboard (squares a1-h2, mostly empty in an endgame) chose the slot and the same proof
    # left 13 entries.
    game, state = loa
    result = solve(registry, game, state, "alphabeta", {"quiescence": False}, Budget(nodes=100_000))
    assert result.value is Proof.WIN and result.stats.nodes == 1535 and result.stats.peak_entries == 130


def test_alphabeta_without_a_table_holds_no_entries(loa, registry):
    game, state = loa
    result = solve(registry, game, state, "alphabeta", {"transposition_table": False, "quiescence": False},
                   Budget(nodes=100_000))
    assert result.value is Proof.WIN and result.stats.peak_entries == 0


def test_an_alphabeta_move_search_reports_the_table_entries_it_wrote(loa, registry):
    """`select_move` reports `peak_entries` as a solve does, from the table of that decision only."""
    game, state = loa
    agent = registry.create_agent("alphabeta", game, {"tt_size": 61, "depth": 3, "heuristic": "groups"})
    first = agent.select_move(game, state, UNLIMITED).stats.peak_entries
    again = agent.select_move(game, state, UNLIMITED).stats.peak_entries
    assert 0 < first == again <= 61
    large = registry.create_agent("alphabeta", game, {"depth": 3, "heuristic": "groups"})
    assert first < large.select_move(game, state, UNLIMITED).stats.peak_entries
    off = registry.create_agent("alphabeta", game, {"depth": 3, "heuristic": "groups", "transposition_table": False})
    assert off.select_move(game, state, UNLIMITED).stats.peak_entries == 0


def test_mcts_holds_at_most_one_node_per_iteration_and_the_root(registry):
    game = registry.create_game("loa")
    result = solve(registry, game, game.from_text(TEXT), "mcts", {"iterations": 50})
    assert result.value is Proof.UNKNOWN and result.stats.extra["iterations"] == 50
    assert result.stats.peak_entries == 51


def test_a_bounded_table_drops_its_older_half_when_full():
    table, counters = {}, [0] * COUNTER_SLOTS
    for key in "abcd":
        bounded_store(table, key, True, 4, counters)
    bounded_store(table, "b", False, 4, counters)           # an existing key never evicts
    assert list(table.items()) == [("a", True), ("b", False), ("c", True), ("d", True)]
    bounded_store(table, "e", True, 4, counters)
    assert list(table) == ["c", "d", "e"] and counters[COUNTER.table_peak] == 4
