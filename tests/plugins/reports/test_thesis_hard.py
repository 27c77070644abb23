"""The refereed and hard sets' sections: the budget search read off one high-budget run, solved against budget,
the memory experiment, and the paper's conclusions decided from the numbers ("not testable" where a memory
bound never bound, "not tested" when the run lacks the solver)."""

import sqlite3

import pandas as pd
import pytest

from framework.analysis.tables import Results
from framework.errors import SolveDisagreementError
from plugins.reports.table42 import Bound, conclusions, memory_conclusions, memory_experiment
from plugins.reports.thesis_hard import (
    HARD,
    budget_curve,
    budget_points,
    referee_cost,
    referee_nodes,
    refereed_section,
)
from tests.plugins.reports.test_thesis import solve_run


def _solves(rows):
    return pd.DataFrame([{"solver": s, "position_index": i, "status": st, "nodes": n, "extra_stopped_by": by}
                         for s, i, st, n, by in rows])


def test_the_comparison_budget_is_the_nodes_of_the_solve_that_reaches_the_share():
    solves = _solves([("ab", i, "solved", n, None) for i, n in enumerate([10, 500, 40, 7_000, 300])]
                     + [("ab", 5, "unknown", 10_000, None)])
    budget, curve = budget_curve(solves, "ab", positions=6, limit=10_000, share=0.5)
    assert budget == 300          # 3 of 6 solved within 300 nodes: 10, 40, 300
    assert budget_curve(solves, "ab", positions=6, limit=10_000, share=0.9)[0] is None  # 6 > the 5 it ever solved
    row = curve[curve["node budget"] == "300"].iloc[0]
    assert row["solved"] == 3 and row["share"] == "50%"
    # no row beyond the budget actually run: the last is the run's own budget
    assert list(curve["node budget"])[-1] == "10,000" and "100,000" not in set(curve["node budget"])


def _table(rows):
    return pd.DataFrame([{"solver": s, "agent": s, "solved": solved, "common": 2, "nodes": nodes, "time_ms": ms,
                          "common_nodes": cn, "common_nodes_first": cn, "common_time_ms": cms}
                         for s, solved, nodes, ms, cn, cms in rows])


ALL = {"alpha-beta": "ab", "proof-number search": "pns", "PN²": "pn2", "PDS": "pds", "PDS-PN": "pdspn"}


def test_conclusions_are_decided_from_the_numbers_and_untested_without_the_solver():
    table = _table([("ab", 8, 9_000, 900, 5_000, 500), ("pns", 6, 300, 60, 200, 40), ("pn2", 9, 900, 300, 400, 90)])
    solves = _solves([("pn2", 1, "unknown", 50, "tree_limit"), ("pns", 2, "unknown", 50, "tree_limit"),
                      ("pns", 3, "unknown", 50, "tree_limit")])
    bounds = {"pns": Bound("tree_limit", 100, 99, 2), "pn2": Bound("tree_limit", 100, 99, 1)}
    held = conclusions(table, solves, {"alpha-beta": "ab", "proof-number search": "pns", "PN²": "pn2"}, bounds)
    text = "\n".join(held)
    assert "alpha-beta used 25.00x PN's nodes in the paper's convention (25.00x counting every iteration): " \
           "**holds**." in text
    assert ("Here 8 against 6, PN's memory bound stopping 2 of its solves (its tree_limit is also its node cap, a "
            "PN node being a tree node: PN had at most 100 nodes per position): **holds**.") in text
    assert "Its memory bound stopped 1 of its solves (PN's stopped 2): **holds**." in text
    assert "*PN² and PDS solve the most.* **not tested**: the run has no PN² or PDS solver." in text
    assert "*PDS-PN is competitive" in text and text.count("**not tested**") == 3


def test_a_verdict_resting_on_a_bound_that_never_bound_is_not_testable():
    table = _table([("ab", 8, 9_000, 900, 5_000, 500), ("pns", 6, 300, 60, 200, 40), ("pn2", 9, 900, 300, 400, 90),
                    ("pds", 9, 900, 900, 400, 300), ("pdspn", 8, 900, 200, 400, 100)])
    loose = {"pns": Bound("tree_limit", 500_000, 14_953, 0), "pn2": Bound("tree_limit", 500_000, 14_953, 0)}
    text = "\n".join(conclusions(table, _solves([]), ALL, loose))
    never = "**not testable** (the bound never bound: peak 14,953 of tree_limit = 500,000)."
    assert f"*PN² is limited by memory.* Its memory bound stopped 0 of its solves (PN's stopped 0): {never}" in text
    assert f"Here 8 against 6, PN's memory bound stopping 0 of its solves (its tree_limit is also its node cap, a " \
           f"PN node being a tree node: PN had at most 500,000 nodes per position): {never}" in text
    assert f"It solved 8 against PN²'s 9: {never}" in text
    assert text.count("**not testable**") == 3
    # the same numbers with bounds that reached their limit are decided
    tight = {"pns": Bound("tree_limit", 500_000, 500_000, 0), "pn2": Bound("tree_limit", 500_000, 500_000, 0)}
    decided = "\n".join(conclusions(table, _solves([]), ALL, tight))
    assert "**not testable**" not in decided
    assert "(PN's stopped 0): **does not hold**." in decided and "PN²'s 9: **does not hold**." in decided


def test_pn2_and_pds_solve_the_most_is_one_claim_about_both():
    rows = [("ab", 8, 9_000, 900, 5_000, 500), ("pns", 6, 300, 60, 200, 40), ("pn2", 9, 900, 300, 400, 90),
            ("pds", 9, 900, 900, 400, 300), ("pdspn", 8, 900, 200, 400, 100)]
    text = "\n".join(conclusions(_table(rows), _solves([]), ALL))
    assert "PN² solved 9, PDS 9, the most of the other three 8: **holds**." in text
    rows[2] = ("pn2", 7, 900, 300, 400, 90)        # PN² below PDS-PN's 8
    text = "\n".join(conclusions(_table(rows), _solves([]), ALL))
    assert "PN² solved 7, PDS 9, the most of the other three 8: **does not hold**." in text
    rows[2] = ("pn2", 9, 900, 300, 400, 90)
    rows.append(("dfpn", 10, 900, 300, 400, 90))   # df-pn, not in the paper, stands beside the claim
    text = "\n".join(conclusions(_table(rows), _solves([]), {**ALL, "df-pn": "dfpn"}))
    assert "the most of the other three 8: **holds**. Beside them, not in the paper: df-pn (dfpn) solved 10." in text


def test_pds_is_slow_in_solution_time_against_pn2_in_cpu_time_where_recorded():
    rows = [("ab", 8, 9_000, 900, 5_000, 500), ("pns", 6, 300, 60, 200, 40), ("pn2", 9, 900, 300, 400, 90),
            ("pds", 9, 900, 900, 400, 300), ("pdspn", 8, 900, 200, 400, 100)]
    table = _table(rows)
    text = "\n".join(conclusions(table, _solves([]), ALL))      # wall time: PDS 300 ms against PN²'s 90
    assert "PDS took 300 ms against PN²'s 90 (3.33x): **holds**." in text
    table["cpu_ms"], table["common_cpu_ms"] = 1, [400, 30, 80, 60, 70]   # CPU time decides where recorded
    text = "\n".join(conclusions(table, _solves([]), ALL))
    assert "PDS took 60 ms against PN²'s 80 (0.75x): **does not hold**." in text
    assert "PDS-PN took 70 ms against PDS's 60: **does not hold**." in text


def test_fewer_nodes_under_an_order_of_magnitude_holds_in_direction_only_and_a_faster_alphabeta_refutes_speed():
    table = _table([("ab", 8, 9_000, 90, 2_000, 90), ("pns", 6, 300, 60, 400, 100)])
    held = conclusions(table, _solves([]), {"alpha-beta": "ab", "proof-number search": "pns"})
    assert held[0].endswith("5.00x PN's nodes in the paper's convention (5.00x counting every iteration): "
                            "**holds in direction, not in size** (under 10x).")
    assert held[1].endswith("alpha-beta took 0.90x PN's time: **does not hold**.")


def test_pdspn_is_judged_in_speed_against_pds_and_in_solutions_against_pn2():
    table = _table([("ab", 8, 9_000, 900, 5_000, 500), ("pns", 6, 300, 60, 200, 40), ("pn2", 9, 900, 300, 400, 90),
                    ("pds", 9, 900, 900, 400, 300), ("pdspn", 8, 900, 200, 400, 100)])
    held = "\n".join(conclusions(table, _solves([]), ALL))
    assert "PDS-PN took 100 ms against PDS's 300: **holds**." in held
    assert "It solved 8 against PN²'s 9: **does not hold**." in held


def test_the_section_on_a_tiny_run_has_the_tables_plots_budget_search_and_a_referee_check(tmp_path):
    run = solve_run(tmp_path)
    text = refereed_section(run, tmp_path, budget_search=run)
    for fact in ("| alpha-beta          | ab       | tt_size = 65,536", "| proof-number search | pn       | "
                 "tree_limit = 1,000,000 |                   0 | 3 of 3",
                 "0 of its 3 positions no solver proved within the comparison budget",
                 "the smallest budget at which ours solves that share is **",
                 "*PN² and PDS solve the most.* **not tested**",
                 "*PN² is limited by memory.* Its memory bound stopped 0 of its solves (PN's stopped 0): "
                 "**not testable** (the bound never bound: peak "):
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


def test_the_memory_experiment_halves_the_memory_and_counts_solutions():
    full = _table([("pn2", 9, 0, 0, 0, 0), ("pdspn", 8, 0, 0, 0, 0)])
    half = _table([("pn2h", 6, 0, 0, 0, 0), ("pdspnh", 8, 0, 0, 0, 0)]).assign(agent=["pn2", "pdspn"])
    full_bounds = {"pn2": Bound("tree_limit", 1000, 990, 1), "pdspn": Bound("tt_size", 1000, 1000, 0)}
    half_bounds = {"pn2h": Bound("tree_limit", 500, 499, 4), "pdspnh": Bound("tt_size", 500, 500, 0)}
    table = memory_experiment(full, half, full_bounds, half_bounds)
    assert table.to_dict("records")[0] == {"solver": "pn2 / pn2h", "bound": "tree_limit", "memory": "1,000 / 500",
                                           "solved": "9 / 6", "stopped by memory": "1 / 4", "peak": "990 / 499"}
    names, halves = {"PN²": "pn2", "PDS-PN": "pdspn"}, {"PN²": "pn2h", "PDS-PN": "pdspnh"}
    text = "\n".join(memory_conclusions(full, half, full_bounds, half_bounds, names, halves))
    assert "*Halving PN²'s memory costs it solutions.* 9 solved with the full memory, 6 with half: **holds**." in text
    assert "*Halving PDS-PN's memory costs it solutions.* 8 solved with the full memory, 8 with half: " \
           "**does not hold**." in text
    assert "Halving the memory cost PDS-PN 0 solutions, PN² 3: **holds**." in text
    # a halved bound that still never bound decides nothing
    half_bounds["pn2h"] = Bound("tree_limit", 500, 120, 0)
    text = "\n".join(memory_conclusions(full, half, full_bounds, half_bounds, names, halves))
    assert "6 with half: **not testable** (the bound never bound: peak 120 of tree_limit = 500)." in text
    assert "PN² 3: **not testable**" in text


def test_the_median_cost_over_the_referees_counts_the_positions_never_solved_at_the_budget():
    notes = [f"result=win; referees=a {n}, b 10" for n in (10_000, 20_000, 40_000, 5)]
    solves = pd.DataFrame([{"solver": "ab", "position_index": i, "status": st, "nodes": n}
                           for i, st, n in [(0, "solved", 20_000), (1, "solved", 20_000), (2, "unknown", 7),
                                            (3, "solved", 1)]])
    count, unsolved, q1, median, q3 = referee_cost(solves, "ab", notes, budget=400_000)
    # ratios 2, 1 and 400,000 / 40,000 = 10 (never solved: at the budget); position 3's referee needed < 10,000
    assert (count, unsolved) == (3, 1) and median == 2.0 and (q1, q3) == (1.5, 6.0)


def test_the_hard_section_has_curves_the_memory_experiment_and_how_the_set_differs(tmp_path, registry):
    run = solve_run(tmp_path)
    text = refereed_section(run, tmp_path, registry=registry, page=HARD, curves=[run], half=run)
    for fact in ("## The hard set: 3 positions whose shortest win needs at least 5 plies",
                 "### Solved against the node budget", "](hard_solved_by_budget.png)",
                 "### The memory experiment: half the memory", "*Halving PN²'s memory costs it solutions.*",
                 "### How our set differs from the paper's", "The paper does not state a node limit"):
        assert fact in text
    assert (tmp_path / "hard_solved_by_budget.png").stat().st_size > 1000
    # an agent run at two budgets (here the same run twice) is one point per run, not a curve read off
    points = budget_points([run, run], registry)
    assert set(points["node budget"]) == {20_000} and not points["read off"].any()
    single = budget_points([run], registry)
    ab = single[single["solver"] == "ab"]
    assert ab["read off"].all() and list(ab["node budget"]) == [10_000, 20_000]   # none beyond the run's budget
