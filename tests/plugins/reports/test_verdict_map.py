"""The verdict map's reading of the hard set's runs (plugins/reports/verdict_map.py)."""

from pathlib import Path

import pandas as pd
import pytest

from framework.analysis.tables import Results
from plugins.reports.table42 import FIRST
from plugins.reports.verdict_map import (
    SUBSETS,
    joined_curve,
    memory_rows,
    paper_budget,
    shortest_wins,
    unsolved_lines,
    wins_table,
)

ROOT = Path(__file__).parents[3]


def solves(rows: list[tuple[str, str, int, int]]) -> pd.DataFrame:
    """(position, status, nodes, depth) rows as a run's solves; nodes in the paper's convention are 90% of them."""
    frame = pd.DataFrame(rows, columns=["position", "status", "nodes", "depth"])
    return frame.assign(**{FIRST: (frame["nodes"] * 0.9).astype(int)})


def test_a_curve_joins_a_run_with_its_rerun_of_what_it_left():
    first = solves([("a", "solved", 100, 5), ("b", "unknown", 1000, 7), ("c", "solved", 600, 7)])
    again = solves([("b", "solved", 5000, 9)])
    curve = joined_curve(first, again, 8000)
    assert [curve.solved(b) for b in (99, 100, 600, 4999, 5000, 8000)] == [0, 1, 2, 2, 3, 3]
    assert (curve.reach(1), curve.reach(3), curve.reach(4)) == (100, 5000, None)
    tree = joined_curve(first, again, 8000, tree=True)       # a PN tree holds the root and every node it made
    assert tree.solved(100) == 0 and tree.solved(101) == 1


def test_the_paper_budget_is_where_the_mean_per_solved_position_reaches_the_papers():
    curve = joined_curve(solves([("a", "solved", 100, 5), ("b", "solved", 300, 7), ("c", "solved", 2000, 9)]),
                         solves([]), 4000)
    # means in the paper's convention: 90 after one, 180 after two, 720 after three
    assert paper_budget(curve, 150) == 300 and paper_budget(curve, 720) == 2000 and paper_budget(curve, 721) is None


def test_shortest_wins_come_from_the_deepest_run():
    ab = solves([("a", "solved", 100, 5), ("b", "unknown", 4000, 7), ("c", "unknown", 4000, 8)])
    deeper = solves([("b", "solved", 9000, 9), ("c", "unknown", 64000, 10)])
    wins = shortest_wins(ab, deeper).set_index("position")
    assert wins.loc["a", "plies"] == 5 and wins.loc["b", "plies"] == 9 and wins.loc["c", "beyond"] == 10
    table = wins_table(shortest_wins(ab, deeper), ab, 4000)
    assert table.values.tolist() == [["5 plies", 1, 1], ["9 plies", 1, 0], ["longer than 10-10 plies (not proven)",
                                                                            1, 0]]


@pytest.fixture(scope="module")
def comparison():
    return Results(ROOT / "results" / "thesis-hard")


def test_the_subsets_are_what_the_comparison_left_unsolved(comparison):
    for solver, path in SUBSETS.items():
        lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
        assert lines == unsolved_lines(comparison, solver) and lines


def test_pn_with_a_larger_tree_solves_what_a_smaller_one_did_with_the_same_nodes(comparison):
    """The claim the map rests on, against the committed runs: PN at 250,000 and 500,000 tree nodes solved exactly
    the positions the 1,000,000 run solved within a tree that size, node for node; the 4,000,000 run solved none
    within 1,000,000 (it ran only on what the 1,000,000 run left)."""
    full = comparison.solves.query("solver == 'pns' and status == 'solved'").set_index("position")["nodes"]
    for folder, solver, limit in (("thesis-hard-curve", "pns-1m", 250_000), ("thesis-hard-memory", "pns-half",
                                                                           500_000)):
        run = Results(ROOT / "results" / folder).solves.query(f"solver == '{solver}' and status == 'solved'")
        assert set(run["position"]) == set(full[full + 1 <= limit].index)
        assert (run.set_index("position")["nodes"] == full[run["position"]]).all()
    larger = Results(ROOT / "results" / "thesis-hard-pn-4m").solves.query("status == 'solved'")
    assert len(larger) and (larger["nodes"] + 1 > 1_000_000).all() and not set(larger["position"]) & set(full.index)


def test_memory_rows_read_each_memory_once(comparison, registry):
    half = Results(ROOT / "results" / "thesis-hard-memory")
    rows = memory_rows(comparison, half, None, registry).set_index("memory (tree_limit / tt_size)")
    assert rows.loc["1,000,000", "PN² solved (stopped by memory)"] == "401 (0)"
    assert rows.loc["500,000", "PDS-PN solved (stopped by memory)"] == "374 (0)"


def test_the_map_on_the_committed_runs_agrees_with_the_audit(comparison, registry):
    """Issue 40's audit, from runs of its own: alpha-beta solves 341, 357 and 380 of 488 at 8M, 16M and 32M nodes,
    and PN with a tree of about 380,000 nodes solves as many as alpha-beta at 4M (322)."""
    from plugins.reports.verdict_map import verdict_section, wins_text

    runs = {name: Results(ROOT / "results" / f"thesis-hard-{name}") for name in ("alphabeta-64m", "pn-4m",
                                                                                 "memory-map")}
    text = verdict_section(comparison, runs["alphabeta-64m"], runs["pn-4m"], runs["memory-map"], registry)
    assert "alpha-beta 8M: 341" in text and "alpha-beta 16M: 357" in text and "alpha-beta 32M: 380" in text
    assert "solves 322: more than PN while PN's tree holds fewer than 380,329 nodes" in text
    ab = comparison.solves.query("solver == 'alphabeta'")
    wins = wins_table(shortest_wins(ab, runs["alphabeta-64m"].solves), ab, 4_000_000).set_index("shortest win")
    assert wins.loc["5 plies"].tolist() == [155, 155] and wins.loc["7 plies"].tolist() == [171, 161]
    assert "| shortest win" in wins_text(comparison, runs["alphabeta-64m"], registry)
