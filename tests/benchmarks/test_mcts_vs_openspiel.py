"""The MCTS benchmark script runs each row, prints a ratio where OpenSpiel has the game (against our adapter
binding where it has not), skips a missing peer and reports a search's peak memory.

These check the script's logic with few simulations; speed is reported by running it, never tested.
"""

import importlib.util
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.usefixtures("compiled_kernels_on")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "mcts_vs_openspiel.py"
spec = importlib.util.spec_from_file_location("mcts_vs_openspiel", SCRIPT)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_without_pyspiel_ours_is_printed_the_peer_skipped_and_rolit_compared_with_the_adapter(capsys, monkeypatch):
    monkeypatch.setattr(bench, "import_pyspiel", lambda: None)
    bench.main(["checkers", "rolit-3", "--simulations", "20"])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "OpenSpiel (pyspiel) is not installed; peer columns skipped"
    checkers, rolit = out[2].split(), out[3].split()
    assert checkers[:2] == ["checkers", "compiled"] and checkers[3:7] == ["(skipped)", "-", "-", "48"]
    assert rolit[:2] == ["rolit-3", "compiled"] and rolit[3] == "adapter" and rolit[6] == "48"
    assert float(rolit[5]) > 0
    assert out[4].startswith("10,000,000 iterations, compiled: 0.45 GiB")


def test_with_pyspiel_each_row_has_a_ratio_and_parallel_a_speed_up(capsys):
    pytest.importorskip("pyspiel")
    bench.main(["checkers", "einstein", "--simulations", "30", "--parallel", "2"])
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[1:]] == ["checkers", "parallel", "einstein", "parallel", "10,000,000"]
    assert out[3].split()[3] == "OpenSpiel" and float(out[3].split()[5]) > 0
    for line in (out[2], out[4]):
        assert re.search(r" speed-up \d+\.\d\dx \(CPU \d+\.\d\d s, one process \d+\.\d\d s\)$", line), line


def test_the_memory_run_reports_the_tree_and_the_peak_resident_memory(capsys):
    bench.main(["rolit-2", "--simulations", "10", "--memory", "500"])
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("memory: rolit-2 compiled, 500 iterations in ")
    assert ": 501 tree nodes, 0.00 GiB of tree by the layout; peak resident " in last
    assert last.endswith("within 2 GiB")


def test_an_unknown_row_names_the_rows(capsys):
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["chess"])
    assert exit_info.value.code == 2
    assert "no benchmark row for chess; rows: loa, checkers, pig, einstein, rolit-2, rolit-3, rolit-4" in \
        capsys.readouterr().err
