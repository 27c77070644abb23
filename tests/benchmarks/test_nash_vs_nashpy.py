"""The support-enumeration benchmark script runs, agrees with its exact-only baseline, and skips a missing nashpy.

Speed is reported by running the script, never tested.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "nash_vs_nashpy.py"
spec = importlib.util.spec_from_file_location("nash_vs_nashpy", SCRIPT)
bench = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = bench
spec.loader.exec_module(bench)


def test_without_nashpy_our_columns_are_printed_and_the_peer_is_skipped(capsys, monkeypatch):
    monkeypatch.setattr(bench, "import_nashpy", lambda: None)
    assert bench.main(["--sizes", "3", "--games", "3", "--exact-games", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("nashpy is not installed; peer columns skipped")
    row = out[2].split()
    assert row[:2] == ["3", "3"] and "skipped" in row


def test_with_nashpy_both_find_the_same_number_of_equilibria_on_small_games(capsys):
    pytest.importorskip("nashpy")
    assert bench.main(["--sizes", "2", "3", "--games", "4", "--exact-games", "4"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [r[:2] for r in rows] == [["2", "4"], ["3", "4"]]
    assert all(r[-3] == r[-2] and r[-1] == "0" for r in rows)  # same equilibria count, none missed by nashpy
