"""`plyground nash` and `plyground spe`, driven in-process as a user types them."""

import pytest

from framework.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_nash_on_a_shipped_example_prints_equilibria_dominance_and_values(capsys):
    code, out, _ = run(capsys, "nash", "battle-of-the-sexes")
    assert code == 0
    assert "Battle of the Sexes: normal form, 2 x 2 (row player Wife, column player Husband)" in out
    assert "LW    LW       2, 1     strict" in out
    assert "3  2/3 LW + 1/3 WL  1/3 LW + 2/3 WL  2/3          2/3" in out
    assert "Wife     2/3           1/3 LW, 2/3 WL   1/3 LW, 2/3 WL              yes" in out
    assert "WARNING" not in out


def test_nash_reports_dominance_steps_and_the_dominant_strategy_equilibrium(capsys):
    _, out, _ = run(capsys, "nash", "prisoners-dilemma")
    assert "strictly     1     1       C           D" in out and "strictly     2     2       C           D" in out
    assert "Equilibrium in strictly dominant strategies: (D, D)" in out
    assert "Type: general-sum" in out


def test_nash_on_a_tree_prints_the_spe_and_the_induced_normal_form_with_a_degeneracy_warning(capsys):
    code, out, _ = run(capsys, "nash", "thesis-tree")
    assert code == 0
    assert "Subgame-perfect equilibria (backward induction; every tie gives one): 1\n" in out
    assert "1  (2,7,10)  (4,5)  4, 2" in out
    assert "Thesis 8x4 tree: normal form, 8 x 4" in out
    assert "WARNING: the game is degenerate - player 1's strategy (1,7,9) (support of size 1: (1,7,9)) has 2 pure " \
           "best responses: (4,5), (4,6). Support enumeration may miss equilibria" in out


def test_nash_reads_a_csv_file_and_names_zero_sum_games(capsys, tmp_path):
    path = tmp_path / "pennies.csv"
    path.write_text(",H,T\nH,1 -1,-1 1\nT,-1 1,1 -1\n")
    code, out, _ = run(capsys, "nash", str(path))
    assert code == 0 and "Type: zero-sum" in out and "1  1/2 H + 1/2 T  1/2 H + 1/2 T  0" in out


def test_spe_of_a_tic_tac_toe_position(capsys):
    code, out, _ = run(capsys, "spe", "tictactoe", "--position", "XXO/.X./O.. o")
    assert code == 0
    assert "tictactoe from XXO/.X./O.. o: game tree of 35 nodes" in out
    assert "Subgame-perfect outcome: X 1, O -1" in out
    assert "Subgame-perfect equilibria: 96" in out
    assert "a2    1  -1  *" in out


@pytest.mark.parametrize("argv, message", [
    (["nash", "no-such-game"], "'no-such-game' is neither a game file nor a shipped example; examples: "
                               "battle-of-the-sexes, driving-game"),
    (["spe", "tictactoe", "--max-nodes", "100"], "the game tree of tictactoe from '.../.../... x' has more than 100 "
                                                 "nodes, over the limit of 100"),
    (["spe", "tictactoe", "--position", "XXX"], "'XXX' is not a tic-tac-toe position"),
    (["spe", "chess"], "unknown game 'chess'"),
    # deep games: the limit holds on the way down (it was a RecursionError, --max-nodes ignored)
    (["spe", "checkers", "--max-nodes", "5000"], "the game tree of checkers from "),
    (["spe", "loa", "--max-nodes", "5000"], "is not finite: the position "),
])
def test_bad_input_gets_one_clear_line_and_status_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_list_shows_the_shipped_game_files_with_their_plugin(capsys):
    _, out, _ = run(capsys, "list")
    assert "game files (for 'plyground nash NAME'):" in out
    assert "  thesis-tree              extensive form with an 8 x 4 normal form and a unique SPE  " \
           "[plugin 'gametheory-examples' from plyground " in out


def test_list_verbose_shows_where_a_game_file_is(capsys):
    _, out, _ = run(capsys, "list", "--verbose")
    assert any(line.strip().startswith("file: ") and line.endswith("thesis_tree.yaml") for line in out.splitlines())


def test_the_readme_game_theory_example_prints_what_the_readme_says(capsys):
    from pathlib import Path
    readme = (Path(__file__).parents[3] / "docs" / "tutorials" / "nash.md").read_text()
    source = readme.split("```python\n# gametheory_example.py\n", 1)[1].split("```", 1)[0]
    expected = readme.split("```python\n# gametheory_example.py\n", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    exec(compile(source, "gametheory_example.py", "exec"), {})
    assert capsys.readouterr().out == expected


def test_nash_on_a_tree_with_a_huge_normal_form_counts_instead_of_listing(capsys):
    code, out, _ = run(capsys, "nash", "sharing-game", "--max-cells", "10")
    assert code == 0
    assert "Subgame-perfect equilibria (backward induction; every tie gives one): 2\n" in out
    assert "The induced normal form has 3 x 8 = 24 cells, more than --max-cells 10: not analysed." in out
    assert "Pure Nash equilibria" not in out


def test_two_plugins_shipping_a_game_file_of_one_name_is_an_error_naming_both():
    import types

    from framework import GameFileSpec, PluginError, hookimpl
    from framework.registry import Registry

    def plugin(name):
        module = types.ModuleType(name)
        module.plyground_game_files = hookimpl(lambda: [GameFileSpec("pd", f"/{name}/pd.yaml", "a dilemma")])
        return module

    registry = Registry(autoload=False, plugins=[plugin("first")])
    assert registry.game_file_spec("pd").path == "/first/pd.yaml"
    with pytest.raises(PluginError,
                       match="game file 'pd' is registered twice: by plugin 'first' and by plugin 'second'"):
        registry.register(plugin("second"))
    with pytest.raises(PluginError, match="unknown game file 'nope'; available game files: pd"):
        registry.game_file_spec("nope")


def test_the_readme_game_file_examples_run_as_documented(capsys, tmp_path):
    import re
    from pathlib import Path

    page = (Path(__file__).parents[3] / "docs" / "tutorials" / "nash.md").read_text()
    blocks = re.findall(r"```(yaml|text)\n(.*?)```", page.split("## Game files for `nash`", 1)[1], re.S)
    (_, chicken), (_, printed), (_, entry) = blocks[:3]
    (tmp_path / "chicken.yaml").write_text(chicken)
    (tmp_path / "entry.yaml").write_text(entry)
    code, out, _ = run(capsys, "nash", str(tmp_path / "chicken.yaml"))
    assert code == 0 and printed in out
    code, out, _ = run(capsys, "nash", str(tmp_path / "entry.yaml"))
    assert code == 0 and "1  (in)     (share)    1, 1" in out
    csv = tmp_path / "g.csv"
    csv.write_text(",L,R\nT,2 1,0 0\nB,0 0,1 2\n")
    code, out, _ = run(capsys, "nash", str(csv))
    assert code == 0 and "T      2, 1  0, 0" in out
