"""The alpha-beta benchmark scripts run at small sizes, count nodes as we do, and skip missing peers.

Speed is reported by running the scripts, never tested.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))  # the scripts import their sibling spiel_search, as when run directly


def load(name):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


peers, enhancements, growth = load("alphabeta_peers"), load("alphabeta_enhancements"), load("alphabeta_growth")


def _row(out, label):
    return next(line for line in out.splitlines() if line.startswith(f"| {label}")).split(" | ")


def test_without_peers_only_our_rows_are_printed(capsys, monkeypatch):
    monkeypatch.setattr(peers, "optional", lambda module: None)
    assert peers.main(["--checkers-depth", "2", "--loa-depth", "1", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert _row(out, "alphabeta, every enhancement off")[1] == "18,297"
    assert "easyAI is not installed" in out and "OpenSpiel is not installed" in out
    assert "easyAI Negamax" not in out and "OpenSpiel alpha_beta_search |" not in out


def test_openspiel_alpha_beta_visits_the_same_18297_nodes_as_ours_with_every_enhancement_off(capsys):
    pyspiel = pytest.importorskip("pyspiel")
    peers.run("tictactoe", None, "tic_tac_toe", None, pyspiel, 1)
    out = capsys.readouterr().out
    assert _row(out, "OpenSpiel alpha_beta_search")[1] == _row(out, "alphabeta, every enhancement off")[1] == "18,297"


def test_easyai_counts_every_call_of_its_negamax(capsys):
    easyai = pytest.importorskip("easyAI")
    peers.run("checkers", 2, None, easyai, None, 1)
    out = capsys.readouterr().out
    # No transposition can happen within 2 plies of the start: its nodes are plain alpha-beta's.
    assert _row(out, "easyAI Negamax + TT")[1] == _row(out, "alphabeta, every enhancement off")[1]


def test_the_enhancement_table_has_a_row_per_switch(capsys):
    enhancements.run("checkers", 2, 2)
    out = capsys.readouterr().out
    for switch in ("iterative_deepening", "transposition_table", "pvs", "lmr", "singular"):
        assert f"| without {switch} |" in out
    assert _row(out, "every enhancement on")[2] == "1.00"


def test_growth_fits_the_branching_factor_of_a_geometric_series_and_prints_each_column(capsys):
    assert growth.fitted_branching([3, 9, 27, 81]) == pytest.approx(3.0)
    growth.run("tictactoe", 3)
    out = capsys.readouterr().out
    # minimax from the empty board: 1 + 9 = 10, 1 + 9 + 72 = 82, + 504 = 586 nodes
    assert [line.split(" | ")[1] for line in out.splitlines() if line[:4] in ("| 1 ", "| 2 ", "| 3 ")] == \
        ["10", "82", "586"]
    assert "| minimax | " in out and "b^1.00" in out
