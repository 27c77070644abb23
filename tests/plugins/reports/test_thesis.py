"""The thesis page on tiny solve runs: Table 4.2 beside the paper's on both sets, the examples, the plots."""

import sqlite3
import textwrap
from dataclasses import replace

import pytest

from framework.analysis.tables import Results
from framework.errors import SolveDisagreementError
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from framework.tournament.tasks import WorkerContext
from plugins.reports.branching import ShuffledMoves, branching_summary, fitted_ebf, nodes_by_depth
from plugins.reports.table42 import check_values, thesis_table
from plugins.reports.thesis import tictactoe_example, write_thesis_report

TINY_DEPTHS = {"tictactoe": {"minimax": 3, "alphabeta good ordering": 3, "alphabeta random ordering": 3}}

# Tic-tac-toe values proved by hand: X completes the top row; the thesis example (X threatens
# b1 and c1 at once); a centre-and-corner opening is a draw.
POSITIONS = """\
XX./OO./... x | result=win; length=1; nodes=6
XXO/.X./O.. o | result=loss
X../.O./... x | result=draw
"""

SOLVE = """\
mode: solve
game: tictactoe
positions: tiny.txt
budget: {nodes: 20000}
seed: 5
solvers:
  - {id: ab, agent: alphabeta}
  - {id: pn, agent: pns}
  - {id: p2, agent: pn2}
  - {id: df, agent: dfpn}
"""


class InlineExecutor:
    """Runs tasks in this process (no worker start-up: keeps the test fast)."""

    def results(self, tasks):
        context = WorkerContext()
        try:
            for task in tasks:
                yield task.run(context, lambda limit, progress: None)
        finally:
            context.close()

    def close(self):
        pass


def solve_run(tmp_path, positions=POSITIONS):
    (tmp_path / "tiny.txt").write_text(positions)
    (tmp_path / "tiny.yaml").write_text(textwrap.dedent(SOLVE))
    config = replace(load_config(tmp_path / "tiny.yaml"), results=tmp_path / "out")
    run_tournament(config, quiet=True, executor_factory=lambda c: InlineExecutor())
    return Results(tmp_path / "out")


@pytest.fixture
def solved(tmp_path):
    return solve_run(tmp_path)


def test_table_counts_solved_positions_and_both_node_conventions(solved):
    table = thesis_table(solved).set_index("solver")
    assert list(table.index) == ["ab", "pn", "p2", "df"]
    assert (table["solved"] == 3).all() and (table["of"] == 3).all() and (table["common"] == 3).all()
    stored = sqlite3.connect(solved.folder / "results.sqlite").execute(
        "SELECT solver, SUM(nodes) FROM solves GROUP BY solver").fetchall()
    for solver, nodes in stored:
        assert table.loc[solver, "nodes"] == nodes
    assert table.loc["ab", "nodes_first"] < table.loc["ab", "nodes"]        # iterative deepening repeats plies
    assert (table.loc[["pn", "p2", "df"], "nodes_first"] == table.loc[["pn", "p2", "df"], "nodes"]).all()


def test_report_writes_readme_plots_and_tables(solved):
    path = write_thesis_report(solved, depths=TINY_DEPTHS)
    text = path.read_text()
    assert path.name == "README.md" and "## The refereed set" not in text     # no refereed run given
    for fact in ("383 of 488", "1,711,578,143", "22,172,320", "89,863,783", "830,367", "3 of 3",
                 "## The easy set: 3 positions", "Minimax chooses **a2**", "b^(1/2)", "all 12 tasks",
                 "`pn` needed exactly the nodes the positions file records for its proof (made by the generator's "
                 "own proof-number search) on 1 of the 1 positions", "*PN² and PDS solve the most.* **not tested**",
                 "**not testable** (the bound never bound: peak "):
        assert fact in text
    memory = text[text.index("### Memory"):text.index("### Which")]
    for fact in ("| ab       | tt_size = 65,536 ", "| pn       | tree_limit = 1,000,000 ",
                 "| df       | tt_size = 1,000,000 ", "Peak memory of the run: ",
                 "A tree limit stopped 0 solves; no solve needed more memory than its bound allows."):
        assert fact in memory
    assert (solved.folder / "easy_solved_by_nodes.png").stat().st_size > 1000
    assert (solved.folder / "nodes_by_depth.png").stat().st_size > 1000
    assert (solved.folder / "tables" / "easy_table_4_2.csv").exists()


def test_the_page_shows_the_refereed_set_first_then_the_easy_set_then_the_examples(tmp_path):
    (tmp_path / "easy").mkdir()
    (tmp_path / "refereed").mkdir()
    easy, refereed = solve_run(tmp_path / "easy"), solve_run(tmp_path / "refereed")
    text = write_thesis_report(easy, tmp_path / "page", refereed=refereed, budget_search=refereed,
                               depths=TINY_DEPTHS).read_text()
    order = [text.index(heading) for heading in ("python -m plugins.reports.thesis results/thesis --refereed",
                                                 "## The refereed set", "### How the comparison budget was found",
                                                 "## The easy set", "## The thesis' tic-tac-toe example",
                                                 "## Nodes against depth")]
    assert order == sorted(order)
    assert text.count("### Which of the paper's and its abstract's conclusions hold") == 2
    for plot in ("refereed_nodes_scatter.png", "refereed_solved_by_time.png", "refereed_solved_by_nodes.png",
                 "easy_solved_by_nodes.png", "nodes_by_depth.png"):
        assert f"]({plot})" in text and (tmp_path / "page" / plot).stat().st_size > 1000
    assert "stands in" not in text


def test_a_fabricated_disagreement_between_solvers_stops_the_report(solved):
    with sqlite3.connect(solved.folder / "results.sqlite") as conn:
        conn.execute("UPDATE solves SET value = 'loss' WHERE solver = 'df' AND position_index = 0")
    with pytest.raises(SolveDisagreementError, match="position 0: ab win"):
        check_values(Results(solved.folder))
    with pytest.raises(SolveDisagreementError):
        write_thesis_report(Results(solved.folder), depths=TINY_DEPTHS)


def test_a_solver_contradicting_the_files_claim_stops_the_report(tmp_path):
    fabricated = solve_run(tmp_path, POSITIONS.replace("result=loss", "result=win"))  # the example is a loss
    with pytest.raises(SolveDisagreementError, match="position 1: ab loss, the file claims win"):
        check_values(fabricated)


def test_the_script_writes_the_thesis_readme(solved, capsys, monkeypatch):
    import plugins.reports.thesis as thesis

    monkeypatch.setattr(thesis, "DEPTHS", TINY_DEPTHS)
    assert thesis.main([str(solved.folder), "--refereed", str(solved.folder)]) == 0
    assert "thesis report:" in capsys.readouterr().out and (solved.folder / "README.md").exists()
    with pytest.raises(SystemExit):     # the budget search belongs to a refereed run
        thesis.main([str(solved.folder), "--budget-search", str(solved.folder)])
    with pytest.raises(SystemExit):     # the curves and the memory experiment belong to a hard-set run
        thesis.main([str(solved.folder), "--hard-memory", str(solved.folder)])
    assert "give --hard too" in capsys.readouterr().err
    folder = str(solved.folder)
    assert thesis.main([folder, "--hard", folder, "--hard-curve", folder, "--hard-memory", folder]) == 0
    text = (solved.folder / "README.md").read_text()
    assert text.index("## The hard set") < text.index("## The easy set")
    assert "--hard results/thesis-hard --hard-curve results/thesis-hard-curve" in text


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
    from plugins.agents.alphabeta import ALL_OFF, EXACT_ONLY
    from plugins.reports.branching import GOOD_ORDERING, every_switch_off

    assert every_switch_off(registry) == dict(ALL_OFF) and GOOD_ORDERING == dict(EXACT_ONLY)


def test_shuffled_moves_are_a_permutation_fixed_per_state(registry):
    game = registry.create_game("checkers")
    shuffled = ShuffledMoves(game, seed=3)
    state = game.initial_state()
    assert sorted(map(str, shuffled.legal_moves(state))) == sorted(map(str, game.legal_moves(state)))
    assert shuffled.legal_moves(state) == shuffled.legal_moves(state)
    assert not hasattr(shuffled, "ordered_moves") and shuffled.name == "checkers"


def test_random_ordering_is_searched_in_the_shuffled_order_even_where_a_compiled_path_exists(registry, monkeypatch):
    """A compiled search reads the game's kernel, which knows nothing of the shuffle: the wrapper must hide it."""
    depths = {"minimax": 0, "alphabeta good ordering": 0, "alphabeta random ordering": 2}
    compiled = nodes_by_depth(registry, "loa", depths)
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    interpreted = nodes_by_depth(registry, "loa", depths)
    assert list(compiled["nodes"]) == list(interpreted["nodes"])
    assert not hasattr(ShuffledMoves(registry.create_game("loa"), seed=0), "kernel")


def test_a_run_resumed_later_is_timed_by_its_sessions_not_by_the_pause_between_them():
    import pandas as pd

    from plugins.reports.table42 import SESSION_GAP, run_minutes, sessions

    solves = pd.DataFrame({"finished_at": [100.0, 160.0, 100.0 + 5 * SESSION_GAP, 100.0 + 5 * SESSION_GAP + 30],
                           "wall_time": [10.0, 20.0, 6.0, 30.0]})
    assert sessions(solves) == [(90.0, 160.0), (100.0 + 5 * SESSION_GAP - 6, 100.0 + 5 * SESSION_GAP + 30)]
    assert run_minutes(solves) == (70 + 36) / 60
