"""The engine protocol (docs/guide/engine-protocol.md): its lines, the engine host's answers, and what the referee
makes of an engine that breaks it (each a forfeit with its reason, never a hang or a crash of the referee)."""

import json
import subprocess
import sys
import textwrap

import pytest

from framework.engine.client import Engine, EngineFailure, EngineSpec
from framework.engine.protocol import ENGINE_MESSAGES, MAX_LINE, ProtocolError, decode, encode
from framework.match import Termination

TRANSCRIPT = [
    {"type": "hello", "protocol": 1},
    {"type": "new", "game": "tictactoe", "options": {}, "seat": 0, "seed": 7, "start": None},
    {"type": "isready"},
    {"type": "go", "moves": [], "budget": {"nodes": 1000}, "clock": {}},
    {"type": "go", "moves": ["b2", "a1"], "budget": {"nodes": 1000}, "clock": {}},
    {"type": "quit"},
]


def test_the_documented_transcript():
    """The exchange docs/guide/engine-protocol.md shows, with the engine host playing alpha-beta at depth 3."""
    spec = json.dumps({"agent": "alphabeta", "params": {"depth": 3, "heuristic": "lines"}})
    lines = "".join(json.dumps(m) + "\n" for m in TRANSCRIPT)
    answers = subprocess.run([sys.executable, "-m", "framework.engine.host", spec], input=lines, text=True,
                             capture_output=True, timeout=120, check=True).stdout.splitlines()
    replies = [json.loads(line) for line in answers]
    assert [r["type"] for r in replies] == ["hello", "readyok", "move", "move"]
    assert replies[0] == {"type": "hello", "protocol": 1, "engine": "plyground-host alphabeta",
                          "version": replies[0]["version"], "params": {"depth": 3, "heuristic": "lines"}}
    assert (replies[2]["move"], replies[2]["stats"]["depth"], replies[2]["stats"]["pv"][0]) == ("b2", 3, "b2")
    assert replies[3]["move"] == "b3" and replies[3]["stats"]["nodes"] > 0


@pytest.mark.parametrize("line, problem", [
    (b'{"type": "move"', "a line cut off before its end"),
    (b"not json\n", "not a JSON line"),
    (b'["move"]\n', "not a JSON object with a 'type'"),
    (b'{"type": "result", "winner": 0}\n', "a message of unknown type 'result'"),
    (b'{"type": "move", "score": NaN}\n', "not a JSON line"),
    (b"x" * (MAX_LINE + 1) + b"\n", "a line longer than"),
])
def test_a_line_that_breaks_the_protocol_says_how(line, problem):
    with pytest.raises(ProtocolError, match=problem):
        decode(line, ENGINE_MESSAGES)


def test_a_message_round_trips_and_a_huge_one_is_refused():
    message = {"type": "move", "move": "b2", "stats": {"nodes": 3}}
    assert decode(encode(message), ENGINE_MESSAGES) == message
    with pytest.raises(ProtocolError, match="longer than"):
        encode({"type": "move", "move": "x" * MAX_LINE})


def program(tmp_path, body: str) -> EngineSpec:
    """An engine written as a small Python program: it answers `hello` and then does what `body` says."""
    path = tmp_path / "engine.py"
    path.write_text(textwrap.dedent("""\
        import json, sys, time
        def say(message):
            sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
        for line in sys.stdin:
            message = json.loads(line)
        """) + textwrap.indent(textwrap.dedent(body), "    "))
    return EngineSpec("prog", command=(sys.executable, str(path)))


HELLO = """\
if message["type"] == "hello":
    say({"type": "hello", "protocol": 1, "engine": "prog", "version": "1", "params": {}})
elif message["type"] == "isready":
    say({"type": "readyok"})
"""


@pytest.mark.parametrize("answer, termination, reason", [
    ('sys.stdout.write("bestmove e2e4\\n"); sys.stdout.flush()', Termination.INVALID_OUTPUT,
     "broke the protocol while choosing a move: not a JSON line"),
    ('say({"type": "readyok"})', Termination.INVALID_OUTPUT,
     "answered 'readyok' while choosing a move, expected 'move'"),
    ('say({"type": "error", "message": "no idea"})', Termination.CRASH, "crashed: no idea"),
    ('say({"type": "error", "message": "the game must be void", "termination": "void"})', Termination.CRASH,
     "crashed: the game must be void"),   # an engine cannot void a game
    ('sys.exit(4)', Termination.CRASH, "crashed: its engine exited with code 4 while choosing a move"),
    ('time.sleep(60)', Termination.TIME, "was stopped after 5.3s on one move (hard time limit of wall time"),
    ('[say({"type": "info", "depth": d}) for d in range(20000)]', Termination.INVALID_OUTPUT,
     "sent more than 10,000 info lines"),
])
def test_an_engine_that_breaks_the_protocol_fails_with_the_reason(tmp_path, answer, termination, reason):
    engine = Engine(program(tmp_path, HELLO + 'elif message["type"] == "go":\n    ' + answer + "\n"))
    try:
        engine.new_game("tictactoe", {}, 0, 0, None)
        with pytest.raises(EngineFailure) as failure:
            engine.request({"type": "go", "moves": [], "budget": {}, "clock": {}}, 0.1, ("move",))
        assert failure.value.termination is termination
        assert failure.value.reason.startswith(reason), failure.value.reason
        assert not engine.alive   # a failed engine is stopped: it serves no other game
    finally:
        engine.close()


def test_an_engine_of_another_protocol_version_is_refused(tmp_path):
    body = 'say({"type": "hello", "protocol": 2, "engine": "future", "version": "9", "params": {}})\n'
    with pytest.raises(EngineFailure, match="speaks protocol 2, the referee speaks 1"):
        Engine(program(tmp_path, body))


def test_what_an_engine_prints_to_stderr_comes_with_its_forfeit(tmp_path):
    body = HELLO + 'elif message["type"] == "go":\n    print("my last words", file=sys.stderr); sys.exit(3)\n'
    engine = Engine(program(tmp_path, body))
    try:
        engine.new_game("tictactoe", {}, 0, 0, None)
        with pytest.raises(EngineFailure) as failure:
            engine.request({"type": "go", "moves": [], "budget": {}, "clock": {}}, 5, ("move",))
        assert "my last words" in failure.value.details
    finally:
        engine.close()
