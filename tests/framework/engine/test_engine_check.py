"""`plyground engine-check`: one verdict line per check; a broken engine is refused, naming its fault.

The broken engines are shell scripts: each answers the protocol well except in one way (garbage, a wrong
protocol version, an illegal move, no answer to `go`, a death on a malformed line, no exit on `quit`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from framework.cli import main

#: An engine in shell for tic-tac-toe: it answers hello and isready, plays the first square in reading order that
#: none of the moves names, ignores what it does not know; each test replaces one of its answers.
SHELL_ENGINE = r"""#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    *'"quit"'*) {quit} ;;
    *'"hello"'*) {hello} ;;
    *'"isready"'*) echo '{{"type":"readyok"}}' ;;
    *'"type":"new"'*) ;;
    *'"type":"go"'*) {go} ;;
    *) {other} ;;
  esac
done
"""
HELLO = """echo '{"type":"hello","protocol":1,"engine":"shell","version":"0"}'"""
GO = """for sq in a3 b3 c3 a2 b2 c2 a1 b1 c1; do case "$line" in *\\"$sq\\"*) ;; *) break ;; esac; done
      echo "{\\"type\\":\\"move\\",\\"move\\":\\"$sq\\",\\"stats\\":{\\"nodes\\":1}}" """


def engine(tmp_path: Path, name: str, *, hello: str = HELLO, go: str = GO, other: str = ":",
           quit: str = "exit 0") -> str:
    path = tmp_path / name
    path.write_text(SHELL_ENGINE.format(hello=hello, go=go, other=other, quit=quit))
    path.chmod(0o755)
    return str(path)


def check(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(["engine-check", *argv, "--game", "tictactoe", "--games", "3", "--setup-time", "2"])
    return code, capsys.readouterr().out.splitlines()


def verdict(lines: list[str], name: str) -> str:
    return next(line for line in lines if line.split(None, 1)[1].startswith(f"{name}:"))


def test_a_conforming_engine_passes_every_check_with_one_line_each(tmp_path, capsys):
    code, lines = check(capsys, engine(tmp_path, "good"))
    assert code == 0, "\n".join(lines)
    checks = ["handshake", "readiness", "legal moves", "time", "malformed message", "quit"]
    assert [line.split(":")[0].split(None, 1)[1] for line in lines[1:-1]] == checks
    assert all(line.startswith("ok ") for line in lines[1:-1]), lines
    assert "engine 'shell' version '0'" in verdict(lines, "handshake")
    assert "ignored 2 of 2 malformed lines" in verdict(lines, "malformed message")
    assert lines[-1] == "engine-check: passed 6 of 6 checks"


def test_an_engine_that_answers_garbage_fails_the_handshake_and_the_rest_is_skipped(tmp_path, capsys):
    code, lines = check(capsys, engine(tmp_path, "garbage", hello="echo 'hello there'"))
    assert code == 1
    assert verdict(lines, "handshake").startswith("FAIL  handshake: broke the protocol while starting: not a "
                                                  "JSON line"), lines
    assert all(line.startswith("skip ") for line in lines[2:-1]), lines
    assert lines[-1] == "engine-check: FAILED 1 of 6 checks (handshake)"


def test_an_engine_of_another_protocol_version_is_refused_naming_both(tmp_path, capsys):
    code, lines = check(capsys, engine(tmp_path, "v2", hello="""echo '{"type":"hello","protocol":2}'"""))
    assert code == 1
    assert verdict(lines, "handshake") == "FAIL  handshake: speaks protocol 2, the referee speaks 1"


def test_an_illegal_move_is_named_with_its_position_and_the_legal_moves(tmp_path, capsys):
    code, lines = check(capsys, engine(tmp_path, "illegal", go="""echo '{"type":"move","move":"z9"}'"""))
    assert code == 1
    line = verdict(lines, "legal moves")
    assert line.startswith("FAIL  legal moves: game 1, ply 1 ('.../.../... x'): played an illegal move 'z9'; legal: "
                           "a3 b3 c3"), line
    assert verdict(lines, "time").startswith("ok "), lines   # it answered in time, wrongly
    assert verdict(lines, "quit").startswith("ok ")          # a fresh engine is started for the later checks


def test_stats_that_are_not_numbers_are_invalid_output(tmp_path, capsys):
    answer = """echo '{"type":"move","move":"b2","stats":{"nodes":"many"}}'"""
    code, lines = check(capsys, engine(tmp_path, "stats", go=answer))
    assert code == 1
    assert verdict(lines, "legal moves").endswith("sent stats with nodes='many', not a number"), lines


def test_an_engine_that_never_answers_go_fails_on_time(tmp_path, capsys):
    code, lines = check(capsys, engine(tmp_path, "silent", go=":"), "--time", "0.01")
    assert code == 1
    line = verdict(lines, "time")
    assert line.startswith("FAIL  time: game 1, ply 1 ('.../.../... x'): was stopped after ") and \
        "hard time limit of wall time" in line, line
    assert verdict(lines, "legal moves").startswith("skip  legal moves: 0 positions answered legally before"), lines


def test_an_engine_that_dies_on_a_malformed_line_is_refused(tmp_path, capsys):
    code, lines = check(capsys, engine(tmp_path, "fragile", other="exit 3"))
    assert code == 1
    line = verdict(lines, "malformed message")
    assert line.startswith("FAIL  malformed message: after a line that is not JSON") and "exited with code 3" in line


def test_an_engine_that_ignores_quit_is_refused(tmp_path, capsys):
    code, lines = check(capsys, engine(tmp_path, "stubborn", quit=":"))
    assert code == 1
    assert verdict(lines, "quit") == "FAIL  quit: still running 2s after quit"


def test_a_missing_or_unrunnable_program_is_a_one_line_error(tmp_path, capsys):
    assert main(["engine-check", str(tmp_path / "nothing"), "--game", "tictactoe"]) == 2
    assert f"no such program '{tmp_path / 'nothing'}'" in capsys.readouterr().err
    text = tmp_path / "engine.txt"
    text.write_text("not a program\n")
    assert main(["engine-check", str(text), "--game", "tictactoe"]) == 2
    assert "is not executable; chmod +x it, or name its interpreter first" in capsys.readouterr().err


def test_a_python_engine_runs_through_its_interpreter_with_its_file_made_absolute(tmp_path, capsys, monkeypatch):
    """`[python3, engine.py]`: the script's path is made absolute (the engine runs in a private folder) and its
    folder readable."""
    script = tmp_path / "engine.py"
    script.write_text("""import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        print(json.dumps({"type": "error", "message": "bad line"}), flush=True)
        continue
    t = m.get("type")
    if t == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "engine": "py", "version": "1"}), flush=True)
    elif t == "isready":
        print(json.dumps({"type": "readyok"}), flush=True)
    elif t == "go":
        taken = set(m["moves"])
        move = next(s for s in ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"] if s not in taken)
        print(json.dumps({"type": "move", "move": move, "stats": {"nodes": 1}}), flush=True)
    elif t == "quit":
        break
    elif t == "new":
        pass
    else:
        print(json.dumps({"type": "error", "message": "unknown " + str(t)}), flush=True)
""")
    monkeypatch.chdir(tmp_path)
    code, lines = check(capsys, sys.executable, "engine.py")
    assert code == 0, "\n".join(lines)
    assert "answered error to 2 and ignored 0 of 2" in verdict(lines, "malformed message")


@pytest.mark.parametrize("flag", ["--seat", "--first"])
def test_play_seats_a_program(tmp_path, capsys, flag):
    program = engine(tmp_path, "player")
    seats = ["--seat", f"cmd:{program}", "--seat", "random"] if flag == "--seat" else ["--first", f"cmd:{program}",
                                                                                       "--second", "random"]
    assert main(["play", "tictactoe", *seats, "--time", "1"]) == 0
    out = capsys.readouterr().out
    assert "1. X plays a3" in out and "Result: " in out
