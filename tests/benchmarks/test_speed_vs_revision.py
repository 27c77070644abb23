"""The revision comparison reads speed.py's own table back, and marks a row below the bar or with a mismatch."""

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from speed_vs_revision import best, parse, row_marks  # noqa: E402

spec = importlib.util.spec_from_file_location("speed_for_revision", BENCHMARKS / "speed.py")
speed = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = speed
spec.loader.exec_module(speed)


def test_the_table_speed_py_prints_is_read_back_row_for_row():
    rows = [{"what": "perft loa d4", "py": (1_000_000, 2.0), "jit": (1_000_000, 0.004), "peer": (1_000_000, 1.0),
             "check": "3,000,000 leaves"},
            {"what": "pns loa 20 endgames", "py": (30_000, 0.5), "jit": (30_000, 0.01), "check": "MISMATCH: 1 answer"}]
    table = "OpenSpiel (pyspiel) is not installed; its column is skipped.\n" + speed.table(rows)
    assert parse(table) == {"perft loa d4": (500_000.0, 250_000_000.0, "3,000,000 leaves"),
                            "pns loa 20 endgames": (60_000.0, 3_000_000.0, "MISMATCH: 1 answer")}


def test_each_row_keeps_its_best_rate_and_any_mismatch():
    kept: dict[str, list] = {}
    best(kept, {"row": (100.0, 2_000.0, "same")})
    best(kept, {"row": (120.0, 1_500.0, "MISMATCH")})
    best(kept, {"row": (90.0, 1_800.0, "same")})
    assert kept == {"row": [120.0, 2_000.0, "MISMATCH"]}


def test_a_row_is_marked_below_the_bar_on_a_mismatch_or_when_its_counts_differ():
    assert row_marks("r", [100.0, 1_000.0, "5 nodes"], [96.0, 950.0, "5 nodes"], 0.95) == []
    assert row_marks("r", [100.0, 1_000.0, "5 nodes"], [94.0, 1_000.0, "5 nodes"], 0.95) == ["Python below 95%"]
    assert row_marks("r", [100.0, 1_000.0, "5 nodes"], [None, None, "MISSING"], 0.95) == [
        "Python, compiled below 95%", "now: MISSING"]
    assert row_marks("r", [100.0, 1_000.0, "5 nodes"], [100.0, 1_000.0, "MISMATCH"], 0.95) == ["now: MISMATCH"]
    assert row_marks("r", [100.0, 1_000.0, "5 nodes"], [100.0, 1_000.0, "6 nodes"], 0.95) == [
        "counts differ: r 5 nodes; now 6 nodes"]
    assert row_marks("r", [100.0, 1_000.0, "5 nodes"], [80.0, 1_000.0, "6 nodes"], 0.95) == [
        "Python below 95%", "counts differ: r 5 nodes; now 6 nodes"]
