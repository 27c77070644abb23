"""Perft counts (framework.perft) and the `plyground perft` command."""

import ast
import subprocess
import sys

import pytest

from framework import ConfigError
from framework.cli import main
from framework.perft import divide, generic_perft, perft
from plugins.games.tictactoe import TicTacToe

GAME = TicTacToe()
START = GAME.initial_state()


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_perft_counts_paths_of_exactly_depth_plies_and_does_not_expand_terminal_states():
    # 9*8*7*6*5 = 15,120 paths of 5 plies, 1,440 of them end in a win for X, so ply 6 has 13,680 * 4.
    assert perft(GAME, START, 5) == 15_120 and perft(GAME, START, 6) == 13_680 * 4
    assert perft(GAME, START, 0) == 1
    won = GAME.from_text("XXX/OO./... o")
    assert perft(GAME, won, 0) == 1 and perft(GAME, won, 1) == 0 and perft(GAME, won, 3) == 0


def test_a_fast_perft_capability_is_used_when_the_game_has_one():
    class CountsInBulk(TicTacToe):
        calls = []

        def perft(self, state, depth):
            self.calls.append(depth)
            return generic_perft(self, state, depth)

    game = CountsInBulk()
    assert perft(game, START, 4) == 3_024 and game.calls == [4]
    assert generic_perft(game, START, 4) == 3_024 and game.calls == [4]


def test_divide_splits_the_count_by_root_move_in_notation():
    rows = divide(GAME, GAME.from_text("XXO/.X./O.. o"), 3)
    assert rows == [("a2", 2), ("c2", 2), ("b1", 4), ("c1", 4)]
    assert sum(count for _, count in divide(GAME, START, 4)) == 3_024


@pytest.mark.parametrize("depth", [-1, 1.5, True, "2"])
def test_perft_rejects_a_depth_that_is_not_a_non_negative_integer(depth):
    with pytest.raises(ConfigError, match="perft depth must be a non-negative integer, got"):
        perft(GAME, START, depth)
    with pytest.raises(ConfigError, match="perft depth must be a non-negative integer"):
        generic_perft(GAME, START, depth)


def test_divide_needs_a_depth_of_at_least_one():
    with pytest.raises(ConfigError, match="perft divide needs a depth of at least 1, got 0"):
        divide(GAME, START, 0)


def test_the_command_prints_each_depth_with_nodes_per_second(capsys):
    code, out, _ = run(capsys, "perft", "tictactoe", "7")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["depth", "nodes", "seconds", "nodes/s"]
    counts = [int(line.split()[1].replace(",", "")) for line in lines[1:]]
    assert counts == [9, 72, 504, 3_024, 15_120, 54_720, 148_176]
    assert [line.split()[0] for line in lines[1:]] == [str(d) for d in range(1, 8)]


def test_the_command_divides_from_a_position(capsys):
    code, out, _ = run(capsys, "perft", "tictactoe", "3", "--position", "XXO/.X./O.. o", "--divide")
    lines = out.splitlines()
    assert code == 0 and lines[:4] == ["a2  2", "c2  2", "b1  4", "c1  4"]
    assert lines[4].startswith("total 12 at depth 3 in ") and lines[4].endswith(" nodes/s)")


def test_a_terminal_position_has_no_paths(capsys):
    code, out, _ = run(capsys, "perft", "tictactoe", "2", "--position", "XXX/OO./... o")
    assert code == 0 and [line.split()[1] for line in out.splitlines()[1:]] == ["0", "0"]


@pytest.mark.parametrize("argv, message", [
    (["perft", "tictactoe", "0"], "plyground: error: perft DEPTH must be a positive integer (at most 64), got '0'"),
    (["perft", "tictactoe", "two"], "perft DEPTH must be a positive integer (at most 64), got 'two'"),
    (["perft", "chess", "2"], "unknown game 'chess'; available games: "),
    (["perft", "tictactoe", "2", "--position", "XXX/OOO/..."], "'XXX/OOO/...' is not a tic-tac-toe position"),
    (["perft", "tictactoe", "2", "--option", "size=4"], "unknown parameter 'size' (known parameters: none)"),
    (["perft", "tictactoe", "2", "--option", "size"], "--option: 'size' is not of the form key=value"),
])
def test_bad_input_gets_a_clear_error_and_no_traceback(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_the_first_call_loading_a_kernel_is_not_timed(capsys, monkeypatch):
    """A game whose first perft call takes 0.5 s (a kernel loading): depth 1 used to be charged for it."""
    import time

    calls = []

    def slow_first(self, state, depth):
        if not calls:
            time.sleep(0.5)
        calls.append(depth)
        return generic_perft(self, state, depth)

    monkeypatch.setattr(TicTacToe, "perft", slow_first, raising=False)
    code, out, _ = run(capsys, "perft", "tictactoe", "1")
    seconds = float(out.splitlines()[1].split()[2])
    assert code == 0 and calls == [1, 1] and seconds < 0.1



def test_the_command_loads_only_the_named_games_plugin_and_no_scipy():
    """`plyground perft loa 5` is mostly start-up (issue #14): it imports the loa plugin alone, and numba
    starts without SciPy (numba checks SciPy's version on import, and its BLAS before a first compile)."""
    probe = ("import sys\nfrom framework.cli import main\nmain(['perft', 'loa', '2'])\n"
             "print(sorted(m for m in sys.modules if m.startswith(('scipy', 'plugins'))))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert ast.literal_eval(result.stdout.splitlines()[-1]) == [
        "plugins", "plugins.games", "plugins.games.loa", "plugins.games.loa.game", "plugins.games.loa.heuristics",
        "plugins.games.loa.kernel", "plugins.games.loa.rules"]


def test_the_process_ends_without_finalization_yet_prints_everything_and_keeps_its_exit_status():
    """`plyground perft` leaves through `os._exit` (`cli.QUICK_EXIT`): its output, to a pipe, must be flushed first."""
    done = subprocess.run([sys.executable, "-m", "framework.cli", "perft", "tictactoe", "9"], capture_output=True,
                          text=True)
    assert done.returncode == 0 and done.stdout.splitlines()[-1].split()[:2] == ["9", "127,872"]
    failed = subprocess.run([sys.executable, "-m", "framework.cli", "perft", "tictactoe", "0"], capture_output=True,
                            text=True)
    assert failed.returncode == 2 and failed.stderr.startswith("plyground: error:")
