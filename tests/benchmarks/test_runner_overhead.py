"""The runner benchmark runs end to end on tiny sizes (speed is reported by running the script, never tested)."""

import importlib.util
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[2] / "benchmarks"
spec = importlib.util.spec_from_file_location("runner_overhead", FOLDER / "runner_overhead.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_the_benchmark_prints_both_measurements(capsys):
    assert bench.main(["--games", "4", "--cpu-games", "2"]) == 0
    out = capsys.readouterr().out
    assert "overhead: 4 random-vs-random tic-tac-toe games" in out and "runner, 2 workers" in out
    assert "speed-up: 2 games of full-depth minimax vs random" in out
