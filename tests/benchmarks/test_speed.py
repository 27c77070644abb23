"""The speed benchmark script runs, checks that every path counts the same, and skips a missing peer.

Its logic is checked at small depths and budgets (`--quick`); speed is reported by running it, never tested.
"""

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "speed.py"
spec = importlib.util.spec_from_file_location("speed_bench", SCRIPT)
bench = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = bench
spec.loader.exec_module(bench)


def test_a_quick_run_prints_every_row_with_agreeing_counts(capsys):
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "perft loa d3" in out and "44,952 leaves" in out and "7,361 leaves" in out
    assert "pns loa 3 endgames" in out and "pn2 loa 3 endgames" in out and "MISMATCH" not in out
    assert "ab solver loa 3 endg." in out and "ab groups loa start d3" in out and "1,617 nodes" in out


def test_without_pyspiel_the_peer_column_is_skipped(capsys, monkeypatch):
    monkeypatch.setattr(bench, "import_pyspiel", lambda: None)
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("OpenSpiel (pyspiel) is not installed")
    loa = next(line for line in out if line.startswith("perft loa")).split()
    assert loa[5] == "-" and loa[-2:] == ["44,952", "leaves"]


def test_a_disagreement_is_reported_and_fails_the_run(capsys, monkeypatch):
    monkeypatch.setattr(bench, "spiel_perft_actions", lambda state, depth: 1)
    assert bench.main(["--quick"]) == 1
    assert "MISMATCH" in capsys.readouterr().out
