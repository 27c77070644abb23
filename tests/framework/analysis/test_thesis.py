"""The thesis report on a tiny solve run: Table 4.2 beside the paper's, the examples, the plots."""

import sqlite3
from dataclasses import replace

import pytest

from framework.analysis.branching import ShuffledMoves, branching_summary, fitted_ebf, nodes_by_depth
from framework.analysis.solve_table import SolveResults
from framework.analysis.thesis import conclusions, tictactoe_example, write_thesis_report
from framework.errors import ConfigError, SolveDisagreementError
from framework.tournament.solve import load_solve_config, run_solves
from tests.framework.tournament.test_solve import SOLVE, InlineExecutor, setup

TINY_DEPTHS = {"tictactoe": {"minimax": 3, "alphabeta good ordering": 3, "alphabeta random ordering": 3}}


@pytest.fixture
def solved(tmp_path):
    solve = SOLVE.replace("{id: pn, agent: pns}", "{id: pn, agent: pns}\n  - {id: p2, agent: pn2}")
    config = replace(load_solve_config(setup(tmp_path, solve=solve)), results=tmp_path / "out")
    run_solves(config, quiet=True, executor_factory=lambda c: InlineExecutor())
    return tmp_path / "out"


def test_table_counts_solved_positions_and_both_node_conventions(solved):
    table = SolveResults(solved).table().set_index("solver")
    assert list(table.index) == ["ab", "pn", "p2", "df"]
    assert (table["solved"] == 3).all() and (table["of"] == 3).all() and (table["common"] == 3).all()
    stored = sqlite3.connect(solved / "results.sqlite").execute(
        "SELECT solver, SUM(nodes), SUM(nodes_first) FROM solves GROUP BY solver").fetchall()
    for solver, nodes, first in stored:
        assert table.loc[solver, "nodes"] == nodes and table.loc[solver, "nodes_first"] == first
    assert table.loc["ab", "nodes_first"] < table.loc["ab", "nodes"]        # iterative deepening repeats plies
    assert (table.loc[["pn", "p2", "df"], "nodes_first"] == table.loc[["pn", "p2", "df"], "nodes"]).all()


def test_report_writes_readme_plots_and_tables(solved):
    path = write_thesis_report(SolveResults(solved), depths=TINY_DEPTHS)
    text = path.read_text()
    assert path.name == "README.md"
    for fact in ("383 of 488", "1,711,578,143", "22,172,320", "89,863,783", "830,367", "3 of 3",
                 "Minimax chooses **a2**", "b^(1/2)", "all 12 tasks"):
        assert fact in text
    assert (solved / "cumulative_solved.png").stat().st_size > 1000
    assert (solved / "nodes_by_depth.png").stat().st_size > 1000
    assert (solved / "tables" / "table_4_2.csv").exists()


def test_a_fabricated_disagreement_in_the_store_stops_the_report(solved):
    with sqlite3.connect(solved / "results.sqlite") as conn:
        conn.execute("UPDATE solves SET value = 'loss' WHERE key = 'position 0 by df'")
    with pytest.raises(SolveDisagreementError, match="position 0: ab win, df loss, p2 win, pn win"):
        SolveResults(solved)


def test_a_tournament_folder_is_not_a_solve_run(tmp_path):
    from framework.tournament.store import Store

    Store(tmp_path).close()
    with pytest.raises(ConfigError, match="no solve-run results"):
        SolveResults(tmp_path)


def test_conclusions_follow_the_numbers():
    import pandas as pd

    table = pd.DataFrame([
        {"solver": "ab", "solved": 10, "common": 8, "common_nodes": 2400, "common_nodes_first": 2000,
         "common_time_ms": 90},
        {"solver": "pn", "solved": 9, "common": 8, "common_nodes": 100, "common_nodes_first": 100,
         "common_time_ms": 100},
        {"solver": "pn2", "solved": 11, "common": 8, "common_nodes": 150, "common_nodes_first": 150,
         "common_time_ms": 150}])
    lines = conclusions(table, "ab", "pn", ["pn2"])
    assert "20.00x the nodes" in lines[0] and lines[0].endswith("**holds**.")
    assert lines[1].endswith("**does not hold**.")                      # alpha-beta was faster here
    assert lines[2].endswith("**holds**.") and lines[3].endswith("**holds**.")


def test_the_thesis_tictactoe_example_every_o_move_loses_at_ply_two(registry):
    table, chosen, nodes = tictactoe_example(registry)
    assert table["move"].tolist() == ["a2", "c2", "b1", "c1"]
    assert table["value for O"].tolist() == [-7, -7, -7, -7]           # X wins at ply 2: -(9 - 2)
    # the full search is the root plus each move's subtree (each one-move search counted the root too)
    assert chosen == "a2" and nodes == 1 + sum(n - 1 for n in table["nodes"]) == 35


def test_nodes_by_depth_minimax_counts_the_tictactoe_tree(registry):
    table = nodes_by_depth(registry, "tictactoe", TINY_DEPTHS["tictactoe"])
    minimax = table[table["search"] == "minimax"]["nodes"].tolist()
    assert minimax == [10, 82, 586]                       # 1 + 9, + 9*8, + 9*8*7 states
    summary = branching_summary(table).iloc[0]
    assert summary["b (minimax EBF)"] == pytest.approx((586 / 82), rel=1e-9)
    assert summary["b^(1/2)"] == pytest.approx(summary["b (minimax EBF)"] ** 0.5)
    assert fitted_ebf(table.iloc[:1]) != fitted_ebf(table.iloc[:1])    # one point fits nothing: nan


def test_the_ordering_settings_are_alphabetas_own(registry):
    from framework.analysis.branching import GOOD_ORDERING, every_switch_off
    from plugins.agents.alphabeta import ALL_OFF, EXACT_ONLY

    assert every_switch_off(registry) == dict(ALL_OFF) and GOOD_ORDERING == dict(EXACT_ONLY)


def test_shuffled_moves_are_a_permutation_fixed_per_state(registry):
    game = registry.create_game("checkers")
    shuffled = ShuffledMoves(game, seed=3)
    state = game.initial_state()
    assert sorted(map(str, shuffled.legal_moves(state))) == sorted(map(str, game.legal_moves(state)))
    assert shuffled.legal_moves(state) == shuffled.legal_moves(state)
    assert not hasattr(shuffled, "ordered_moves") and shuffled.name == "checkers"
