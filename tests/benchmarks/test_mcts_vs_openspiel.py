"""The MCTS benchmark script runs each row, prints a ratio where OpenSpiel has the game, and skips a missing peer.

These check the script's logic with few simulations; speed is reported by running it, never tested.
"""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "mcts_vs_openspiel.py"
spec = importlib.util.spec_from_file_location("mcts_vs_openspiel", SCRIPT)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_without_pyspiel_ours_is_printed_and_the_peer_skipped(capsys, monkeypatch):
    monkeypatch.setattr(bench, "import_pyspiel", lambda: None)
    bench.main(["checkers", "rolit", "--simulations", "20"])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "OpenSpiel (pyspiel) is not installed; peer columns skipped"
    assert out[2].split()[:2] == ["checkers", "compiled"] and out[2].split()[-3:] == ["(skipped)", "-", "48"]
    assert out[3].split()[:2] == ["rolit", "adapter"] and out[3].split()[-1] == "88"
    assert out[4].startswith("10,000,000 iterations, compiled: 0.45 GiB")


def test_with_pyspiel_each_row_has_a_ratio_and_parallel_a_speed_up(capsys):
    pytest.importorskip("pyspiel")
    bench.main(["checkers", "pig", "--simulations", "30", "--parallel", "2"])
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[1:]] == ["checkers", "parallel", "pig", "parallel", "10,000,000"]
    assert float(out[1].split()[-2]) > 0 and out[2].split()[-2] == "speed-up"


def test_an_unknown_game_names_the_rows(capsys):
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["chess"])
    assert exit_info.value.code == 2
    assert "no benchmark row for chess; rows: loa, checkers, pig, einstein, rolit" in capsys.readouterr().err
