"""The checkers perft benchmark counts the published leaves on both sides and skips a missing peer.

Small depths only: speed is reported by running the script, never tested.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(FOLDER))  # the script imports its sibling perft_vs_openspiel, as when run directly
spec = importlib.util.spec_from_file_location("checkers_perft", FOLDER / "checkers_perft.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def rows(out: str) -> dict[tuple[str, str], str]:
    """(engine, mode) -> leaves, from the table lines (engine, mode, leaves, wall, cpu, two rates)."""
    table = [line.split() for line in out.splitlines()]
    return {(cells[0], cells[1]): cells[2] for cells in table if len(cells) == 7 and cells[0] in ("ours", "openspiel")}


def test_without_pyspiel_only_our_counts_are_printed(capsys, monkeypatch):
    monkeypatch.setattr(bench, "import_pyspiel", lambda: None)
    assert bench.main(["--depth", "4", "--ours-to", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OpenSpiel (pyspiel) is not installed: skipping the peer")
    assert rows(out) == {("ours", "bulk"): "1,469", ("ours", "expand"): "1,469"}
    assert "ours bulk perft(5) = 7,361" in out and "(ok)" in out


def test_with_pyspiel_all_four_counts_are_the_published_one():
    pytest.importorskip("pyspiel")
    import pyspiel
    root = pyspiel.load_game("checkers").new_initial_state()
    assert [bench.spiel_perft_bulk(root, d) for d in range(1, 6)] == [7, 49, 302, 1_469, 7_361]


def test_the_report_has_a_ratio_per_mode(capsys):
    pytest.importorskip("pyspiel")
    assert bench.main(["--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert set(rows(out).values()) == {"302"} and len(rows(out)) == 4
    assert "speed ratio ours/OpenSpiel (bulk)" in out and "speed ratio ours/OpenSpiel (expand)" in out
