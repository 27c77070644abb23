"""The speed benchmark script runs, checks that every path counts the same, and skips a missing peer.

Its logic is checked at small depths and budgets (`--quick`); speed is reported by running it, never tested.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "speed.py"
spec = importlib.util.spec_from_file_location("speed_bench", SCRIPT)
bench = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = bench
spec.loader.exec_module(bench)
spiel_alphabeta = bench.spiel_alphabeta


needs_pyspiel = pytest.mark.skipif(bench.import_pyspiel() is None, reason="OpenSpiel (pyspiel) is not installed")


@needs_pyspiel
def test_a_quick_run_prints_every_row_with_agreeing_counts(capsys):
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "perft loa d3" in out and "44,952 leaves" in out and "7,361 leaves" in out
    assert "pns loa 3 endgames" in out and "pn2 loa 3 endgames" in out and "MISMATCH" not in out
    assert "ab solver loa 3 endg." in out
    # Fixed depth with iterative deepening: the nodes of depths 1 to 3 (4 for checkers) count.
    rows = {line[:40].strip(): line for line in out.splitlines()}
    assert "2,230 nodes; OS 3,256, same values" in rows["ab groups loa start d3"]
    assert "525 nodes; OS 256, same values" in rows["ab positional checkers start d4"]
    assert all("same values" in rows[m] for m in ("ab groups loa 3 midg. d2", "ab positional checkers 3 midg. d4"))
    assert all(rows[m].endswith(" nodes") for m in ("ab groups loa start pvs+lmr d3",
                                                      "ab positional checkers start pvs+lmr d4"))


def test_without_pyspiel_the_peer_column_is_skipped(capsys, monkeypatch):
    monkeypatch.setattr(bench, "import_pyspiel", lambda: None)
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("OpenSpiel (pyspiel) is not installed")
    loa = next(line for line in out if line.startswith("perft loa")).split()
    assert loa[5] == "-" and loa[-2:] == ["44,952", "leaves"]


@needs_pyspiel
def test_an_openspiel_search_value_that_differs_from_ours_fails_the_run(capsys, monkeypatch):
    def off_by_one(*args):
        nodes, value, move = spiel_alphabeta(*args)
        return nodes, value + 1, move

    monkeypatch.setattr(bench, "spiel_alphabeta", off_by_one)
    assert bench.main(["--quick"]) == 1
    assert "MISMATCH of values" in capsys.readouterr().out


@needs_pyspiel
def test_a_disagreement_is_reported_and_fails_the_run(capsys, monkeypatch):
    monkeypatch.setattr(bench, "spiel_perft_actions", lambda state, depth: 1)
    assert bench.main(["--quick"]) == 1
    assert "MISMATCH" in capsys.readouterr().out
