"""The refereed set's section: the budget search read off one high-budget run, and the paper's conclusions
decided from the numbers (untested when the run lacks the solver)."""

import sqlite3

import pandas as pd
import pytest

from framework.analysis.tables import Results
from framework.errors import SolveDisagreementError
from plugins.reports.table42 import conclusions
from plugins.reports.thesis_hard import budget_curve, referee_nodes, refereed_section
from tests.plugins.reports.test_thesis import solve_run


def _solves(rows):
    return pd.DataFrame([{"solver": s, "position_index": i, "status": st, "nodes": n, "extra_stopped_by": by}
                         for s, i, st, n, by in rows])


def test_the_comparison_budget_is_the_nodes_of_the_solve_that_reaches_the_share():
    solves = _solves([("ab", i, "solved", n, None) for i, n in enumerate([10, 500, 40, 7_000, 300])]
                     + [("ab", 5, "unknown", 10_000, None)])
    budget, curve = budget_curve(solves, "ab", positions=6, share=0.5)
    assert budget == 300          # 3 of 6 solved within 300 nodes: 10, 40, 300
    assert budget_curve(solves, "ab", positions=6, share=0.9)[0] is None   # 6 * 0.9 -> 6 > the 5 it ever solved
    row = curve[curve["node budget"] == "300"].iloc[0]
    assert row["solved"] == 3 and row["share"] == "50%"


def _table(rows):
    return pd.DataFrame([{"solver": s, "solved": solved, "common": 2, "nodes": nodes, "time_ms": ms,
                          "common_nodes": cn, "common_nodes_first": cn, "common_time_ms": cms}
                         for s, solved, nodes, ms, cn, cms in rows])


def test_conclusions_are_decided_from_the_numbers_and_untested_without_the_solver():
    table = _table([("ab", 8, 9_000, 900, 5_000, 500), ("pns", 6, 300, 60, 200, 40), ("pn2", 9, 900, 300, 400, 90)])
    solves = _solves([("pn2", 1, "unknown", 50, "tree_limit"), ("pns", 2, "unknown", 50, "tree_limit"),
                      ("pns", 3, "unknown", 50, "tree_limit")])
    held = conclusions(table, solves, {"alpha-beta": "ab", "proof-number search": "pns", "PN²": "pn2"})
    text = "\n".join(held)
    assert "alpha-beta used 25.00x PN's nodes in the paper's convention (25.00x counting every iteration): " \
           "**holds**." in text
    assert "Here 8 against 6: **holds**." in text
    assert "*PN² solves the most.* 9 against the most of any solver, 9: **holds**." in text
    assert "Its tree limit stopped 1 of its solves (PN's stopped 2): **holds**." in text
    assert "*PDS solves the most.* **not tested**: the run has no PDS solver." in text
    assert "*PDS-PN is competitive" in text and text.count("**not tested**") == 3


def test_fewer_nodes_under_an_order_of_magnitude_holds_in_direction_only_and_a_faster_alphabeta_refutes_speed():
    table = _table([("ab", 8, 9_000, 90, 2_000, 90), ("pns", 6, 300, 60, 400, 100)])
    held = conclusions(table, _solves([]), {"alpha-beta": "ab", "proof-number search": "pns"})
    assert held[0].endswith("5.00x PN's nodes in the paper's convention (5.00x counting every iteration): "
                            "**holds in direction, not in size** (under 10x).")
    assert held[1].endswith("alpha-beta took 0.90x PN's time: **does not hold**.")


def test_pdspn_is_judged_in_speed_against_pds_and_in_solutions_against_pn2():
    table = _table([("ab", 8, 9_000, 900, 5_000, 500), ("pns", 6, 300, 60, 200, 40), ("pn2", 9, 900, 300, 400, 90),
                    ("pds", 9, 900, 900, 400, 300), ("pdspn", 8, 900, 200, 400, 100)])
    held = "\n".join(conclusions(table, _solves([]), {"alpha-beta": "ab", "proof-number search": "pns", "PN²": "pn2",
                                                      "PDS": "pds", "PDS-PN": "pdspn"}))
    assert "PDS-PN took 100 ms against PDS's 300: **holds**." in held
    assert "It solved 8 against PN²'s 9: **does not hold**." in held
    assert "609" not in held and "*PDS is relatively slow* (in nodes per second, from its re-searches). 1,000" in held


def test_the_section_on_a_tiny_run_has_the_tables_plots_budget_search_and_a_referee_check(tmp_path):
    run = solve_run(tmp_path)
    text = refereed_section(run, tmp_path, budget_search=run)
    for fact in ("| alpha-beta          | ab       | tt_size = 65,536", "| proof-number search | pn       | "
                 "tree_limit = 1,000,000 |                   0 | 3 of 3",
                 "0 of its 3 positions no solver proved within the comparison budget",
                 "the smallest budget at which ours solves that share is **", "*PN² solves the most.* 3 against",
                 "*PDS solves the most.* **not tested**"):
        assert fact in text
    for plot in ("refereed_nodes_scatter.png", "refereed_solved_by_time.png", "refereed_solved_by_nodes.png"):
        assert (tmp_path / plot).stat().st_size > 1000
    assert (tmp_path / "tables" / "refereed_table_4_2.csv").exists()
    with sqlite3.connect(run.folder / "results.sqlite") as conn:      # a solver against the referees' label
        conn.execute("UPDATE solves SET value = 'loss' WHERE position_index = 0")
    with pytest.raises(SolveDisagreementError, match="position 0: ab loss, the file claims win"):
        refereed_section(Results(run.folder), tmp_path)


def test_referee_nodes_are_read_from_the_notes_the_larger_of_the_two():
    notes = ["result=win; distance=3; referees=dfpn 452, pn2 462; source=seed 1 game 2 ply 3 (a vs b)",
             "result=win; length=1; nodes=17"]
    assert referee_nodes(notes) == [462]
