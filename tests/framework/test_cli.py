"""The `plyground` command line, driven in-process as a user would type it."""

import io
import os
import subprocess
import sys
import time

import pytest

from framework.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0 and capsys.readouterr().out.startswith("plyground 0.")


def test_list_names_every_plugin_with_its_distribution(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "tictactoe" in out and "alphabeta" in out and "tictactoe/lines" in out
    assert "[plugin 'minimax' from plyground " in out


def test_list_verbose_documents_parameters(capsys):
    _, out, _ = run(capsys, "list", "--verbose")
    assert "depth: an integer from 1 to 256 or null, default None — plies to search" in out


def test_plugins_lists_loaded_plugins(capsys):
    _, out, _ = run(capsys, "plugins")
    assert any(line.split()[:2] == ["tictactoe", "plyground"] for line in out.splitlines())


def test_play_between_two_agents_shows_each_move_and_the_result(capsys):
    code, out, _ = run(capsys, "play", "tictactoe", "--first", "alphabeta", "--second", "minimax:depth=2")
    assert code == 0
    assert "1. X plays " in out and "2. O plays " in out and "Result: draw — normal" in out


def test_play_from_a_position(capsys):
    code, out, _ = run(capsys, "play", "tictactoe", "--position", "XXO/.X./O.. o",
                       "--first", "random", "--second", "alphabeta:heuristic=thesis")
    assert code == 0 and "Result: X (random) wins" in out


def test_a_human_is_reprompted_with_the_legal_moves(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("z9\nb2\na1\nc3\n"))
    code, out, _ = run(capsys, "play", "tictactoe", "--position", "X.O/.../... x",
                       "--first", "human", "--second", "random")
    assert code == 0
    assert "'z9' is not a tic-tac-toe square" in out
    assert "legal moves: b3 a2 b2 c2 a1 b1 c1" in out
    assert "1. X plays b2" in out


class SlowTypist(io.StringIO):
    """A person who needs a moment for every move."""

    def readline(self, *args):
        time.sleep(0.3)
        return super().readline(*args)


def test_a_human_is_never_timed_out_by_the_engines_budget(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", SlowTypist("c1\nb1\na2\nc2\n"))
    code, out, _ = run(capsys, "play", "tictactoe", "--position", "XXO/.X./O.. o", "--time", "0.01",
                       "--first", "random", "--second", "human")
    assert code == 0 and "1. O plays c1" in out
    assert "Result:" in out and "— normal" in out and "forfeit" not in out


def test_an_engine_without_depth_or_budget_gets_the_default_time_and_answers(capsys, monkeypatch):
    monkeypatch.setattr("framework.commands.play.DEFAULT_MOVE_TIME", 0.5)
    code, out, _ = run(capsys, "play", "checkers", "--first", "alphabeta", "--second", "random",
                       "--max-plies", "1")
    assert code == 0 and "1. Black plays" in out and "adjudicated a draw after 1 plies" in out


@pytest.mark.parametrize("argv, message", [
    (["play", "chess"], "plyground: error: unknown game 'chess'; available games: "),
    (["play", "tictactoe", "--first", "deep-blue"], "unknown agent 'deep-blue'; available agents: alphabeta"),
    (["play", "tictactoe", "--first", "minimax:depth=zero"], "--first 'minimax': 'depth' must be an integer"),
    (["play", "tictactoe", "--first", "minimax:depth"], "'depth' is not of the form key=value"),
    (["play", "tictactoe", "--first", ":depth=2"], "--first: ':depth=2' does not name an agent"),
    (["play", "tictactoe", "--position", "XXX"], "'XXX' is not a tic-tac-toe position"),
    (["play", "tictactoe", "--option", "size=4"], "unknown parameter 'size' (known parameters: none)"),
])
def test_bad_input_gets_a_clear_error_and_no_traceback(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.slow       # compiles the searches of two games (minutes from a cold cache)
def test_warmup_compiles_the_named_games_that_have_kernels_and_only_those(capsys, monkeypatch):
    """A dice game (Pig) and a game of two to four seats (Rolit: its two-player searches with `players: 2`) and a
    game without kernels; the other games' searches are left to their first use (which builds a game gets is
    `agent_builds`', tested below on Rolit)."""
    monkeypatch.setenv("PLYGROUND_JIT", "1")           # compiled kernels on, whatever the environment says
    assert main(["warmup", "pig", "rolit", "tictactoe"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for game in ("pig", "rolit"):
        assert any(line.startswith(game) and "kernels ready" in line for line in lines), game
    assert any(line.startswith("tictactoe") and "no compiled kernels" in line for line in lines)
    assert not any(line.startswith(("loa", "checkers", "einstein")) for line in lines)
    ready = next(line for line in lines if line.startswith("compiled searches ready: "))   # compiled in the engines'
    warmed = {(search, game) for part in ready.removeprefix("compiled searches ready: ").split("; ")   # cache
              for search, _, games in [part.partition(" on ")] for game in games.split(", ")}
    assert warmed == {("expectiminimax", "pig"), ("multiplayer", "pig"), ("mcts", "pig"),
                      ("multiplayer", "rolit"), ("expectiminimax", "rolit"), ("alphabeta", "rolit"),
                      ("proofnumber", "rolit"), ("mcts", "rolit")}


def test_warmup_of_an_unknown_game_names_the_games_there_are(capsys):
    assert main(["warmup", "chess"]) == 2
    assert "unknown game 'chess'; available games: checkers, einstein, loa" in capsys.readouterr().err


def test_warmup_builds_each_agent_with_the_first_seat_count_it_plays():
    from framework.commands.warmup import agent_builds
    from framework.registry import Registry
    builds = agent_builds(Registry(), "rolit")
    assert ("rolit", {}, "brs", {"heuristic": "corners"}) in builds           # four seats, the default
    assert ("rolit", {"players": 2}, "alphabeta", {"heuristic": "discs"}) in builds
    assert [b for b in builds if b[2] == "maxn"] == [("rolit", {}, "maxn", {"heuristic": h})
                                                     for h in ("corners", "discs")]


def _children(pid: int) -> list[int]:
    from pathlib import Path
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_warmup_processes_die_with_a_killed_warmup(tmp_path):
    env = {**os.environ, "PLYGROUND_JIT": "1", "NUMBA_CACHE_DIR": str(tmp_path),
           "PLYGROUND_ENGINE_CACHE": str(tmp_path)}
    parent = subprocess.Popen([sys.executable, "-m", "framework.cli", "warmup", "--jobs", "2"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(_children(parent.pid)) < 2 and time.monotonic() < deadline:   # the pool's workers (a cold cache)
        time.sleep(0.05)
    workers = _children(parent.pid)
    assert len(workers) >= 2
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(os.path.exists(f"/proc/{pid}") for pid in workers)


def test_warmup_with_kernels_off_does_nothing(capsys, monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    assert main(["warmup"]) == 0
    assert "nothing to warm up" in capsys.readouterr().out


def test_output_into_a_closed_pipe_ends_quietly():
    """`plyground list | head -1` must not print a BrokenPipeError traceback."""
    child = subprocess.Popen([sys.executable, "-m", "framework.cli", "list"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    child.stdout.close()  # the reader is gone before the first write
    err = child.stderr.read()
    assert child.wait(timeout=120) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_an_illegal_move_lists_the_legal_moves_once(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("a3\nb2\na1\nc3\n"))
    code, out, _ = run(capsys, "play", "tictactoe", "--position", "X.O/.../... x",
                       "--first", "human", "--second", "random")
    assert code == 0 and "'a3' is not a legal move here; legal moves: b3 a2 b2 c2 a1 b1 c1\n" in out
    assert out.count("legal moves: b3 a2 b2 c2 a1 b1 c1") == 1


def test_help_undo_and_resign_at_the_prompt(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("undo\nhelp\nb2\nundo\nresign\n"))
    code, out, _ = run(capsys, "play", "tictactoe", "--first", "human", "--second", "random")
    assert code == 0
    assert "nothing to take back yet" in out
    assert "legal moves: a3 b3 c3 a2 b2 c2 a1 b1 c1\ncommands: help (this list), undo (take back your last move), " \
           "resign" in out
    assert "1. X plays b2" in out and "took back 2 plies\n3 . . .\n2 . . .\n1 . . .\n" in out
    assert "Result: O (random) wins — resign: X (human) resigned" in out


def test_the_end_of_input_is_a_resignation_not_a_crash(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "tictactoe", "--first", "random", "--second", "human")
    assert code == 0 and "Result: X (random) wins — resign: O (human) resigned: the input ended" in out
    assert "crash" not in out

