"""The LOA playout profile times every part on real positions and its checksums are the rules' own counts.

Few games only: speed is reported by running the script, never tested.
"""

import importlib.util
from pathlib import Path

from plugins.games.loa import rules

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "loa_playout.py"
spec = importlib.util.spec_from_file_location("loa_playout", SCRIPT)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_each_part_is_timed_and_the_checksums_are_the_rules_own(capsys):
    bench.main(["--games", "2", "--seed", "3"])
    out = capsys.readouterr().out.splitlines()
    black, white, mover, _ = bench.positions(2, 3)
    lists = [rules.legal_moves((int(b), int(w), int(m))) for b, w, m in zip(black, white, mover)]
    drawn = sum(moves[((i * 2654435761) & 0xFFFFFFFF) * len(moves) >> 32] for i, moves in enumerate(lists))
    assert out[0].startswith(f"{black.size:,} positions from 2 random games")
    table = {line[:16].strip(): line[16:].split() for line in out[2:]}
    assert list(table) == ["outcome", "is_connected x2", "legal_moves", "generate_moves", "count_moves",
                           "random_move", "apply_move", "playout ply", "list playout ply"]
    moves = f"{sum(map(len, lists)):,}"
    assert table["legal_moves"][1] == table["generate_moves"][1] == table["count_moves"][1] == moves
    assert table["random_move"][1] == f"{drawn:,}"                 # the very moves the lists give
    assert table["outcome"][1] == f"{2 * black.size:,}"          # ONGOING (2) at every position kept
    assert table["playout ply"][1] == table["list playout ply"][1]      # the same playouts, ply for ply
