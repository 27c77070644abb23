"""The perft benchmark script runs, counts the same leaves as OpenSpiel, and skips a missing peer.

These check the script's logic at small depths; speed is reported by running it, never tested.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "perft_vs_openspiel.py"
spec = importlib.util.spec_from_file_location("perft_vs_openspiel", SCRIPT)
bench = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = bench  # dataclasses look their module up while the script loads
spec.loader.exec_module(bench)


def test_without_pyspiel_our_counts_are_printed_and_the_peer_is_skipped(capsys, monkeypatch):
    monkeypatch.setattr(bench, "import_pyspiel", lambda: None)
    assert bench.main(["tictactoe", "--depth", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("OpenSpiel (pyspiel) is not installed; peer columns skipped")
    row = out[2].split()
    assert row[:3] == ["tictactoe", "4", "3,024"] and row[-2:] == ["peer", "skipped"]


def test_with_pyspiel_both_sides_count_the_same_leaves(capsys):
    pytest.importorskip("pyspiel")
    assert bench.main(["--depth", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    # Misère Nim 1;3;5;7: 16 moves, and taking t matches leaves 16 - t moves: 256 - (1 + 6 + 15 + 28) = 206.
    assert [line.split()[:3] for line in out[1:]] == [["tictactoe", "2", "72"], ["matches", "2", "206"],
                                                      ["loa", "2", "1,244"], ["checkers", "2", "49"]]
    assert all(line.endswith("same leaves") for line in out[1:])


def test_turn_counting_follows_a_player_until_the_turn_passes():
    pyspiel = pytest.importorskip("pyspiel")
    root = pyspiel.load_game("tic_tac_toe").new_initial_state()
    assert [bench.spiel_perft_turns(root, d) for d in (1, 2, 5)] == [9, 72, 15_120]
    assert bench.spiel_perft_actions(root, 5) == 15_120


def test_a_leaf_mismatch_is_reported_and_fails(capsys, monkeypatch):
    pytest.importorskip("pyspiel")
    monkeypatch.setattr(bench, "ROWS", (bench.Row("tictactoe", "nim", 2, peer_params={"pile_sizes": "2;2"}),))
    assert bench.main([]) == 1
    # Nim 2;2: four moves, each leaving 3 (after taking 1) or 2 (after taking 2) replies.
    assert "MISMATCH: OpenSpiel 10" in capsys.readouterr().out


def test_an_unknown_game_names_the_rows(capsys):
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["chess"])
    assert exit_info.value.code == 2
    assert "no benchmark row for chess; rows: tictactoe, matches, loa, checkers" in capsys.readouterr().err


def test_openspiels_repetition_draws_account_for_the_whole_loa_difference_at_depth_5():
    """OpenSpiel's LOA perft 5 counts 55,934,908 leaves (`perft_vs_openspiel.py loa --depth 5`, open_spiel 2.0.2),
    ours 55,963,132: the 784 four-ply lines back to the start (each side a piece out and back), which it
    draws, times the start's 36 moves. Derived from our rules alone; none before depth 5, none derived beyond."""
    from framework.perft import perft
    from framework.registry import Registry

    game = Registry().create_game("loa")
    board = next(row for row in bench.ROWS if row.ours == "loa").peer_board
    assert bench.repetition_draws(game, board, 4) == 0 and bench.repetition_draws(game, board, 6) is None
    draws = bench.repetition_draws(game, board, 5)
    assert draws == 784 * 36 and perft(game, game.initial_state(), 5) - draws == 55_934_908


def test_a_peer_short_of_our_leaves_by_exactly_its_repetition_draws_passes_and_any_other_count_fails():
    result = {"ours": 100, "peer": 90, "peer_expected": 90}
    assert bench.checked(result) == "same leaves less OpenSpiel's 10 below repetition draws"
    assert bench.checked({**result, "peer": 91}).startswith("MISMATCH")
    assert bench.checked({**result, "peer_expected": None}).startswith("not compared")
