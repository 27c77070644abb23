"""A participant can be a program (`command: [ARGV...]`): validated when the config is read, each mistake naming
the file and the key; its engine is started from its command (through the UCI adapter for `protocol: uci`)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from framework.errors import ConfigError
from framework.tournament.config import load_config
from framework.tournament.tasks import engine_spec


def config(tmp_path: Path, participant: str, second: str = "{agent: random}") -> Path:
    engine = tmp_path / "bin" / "engine"
    engine.parent.mkdir(exist_ok=True)
    engine.write_text("#!/bin/sh\n")
    engine.chmod(0o755)
    (tmp_path / "bin" / "data.txt").write_text("not a program\n")
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: tictactoe
        participants:
          - {participant}
          - {second}
        """))
    return path


def test_a_program_is_found_relative_to_the_config_and_named_by_its_file(tmp_path):
    loaded = load_config(config(tmp_path, "{command: [bin/engine, --depth, '9', bin/data.txt]}"))
    program = loaded.participants[0]
    assert program.id == "engine" and program.program and program.agent == "" and program.protocol == "plyground"
    assert program.command == (str(tmp_path / "bin" / "engine"), "--depth", "9", str(tmp_path / "bin" / "data.txt"))
    spec = engine_spec(program)
    assert spec.command == program.command and spec.agent is None
    assert str(tmp_path / "bin") in spec.readable()
    assert program.as_dict()["command"] == list(program.command)
    assert "command" not in loaded.participants[1].as_dict()   # an agent's entry is as before (its fingerprint too)


def test_a_name_gives_the_id_and_uci_goes_through_the_adapter(tmp_path):
    loaded = load_config(config(tmp_path, "{command: [bin/engine], name: Fish, protocol: uci}"))
    program = loaded.participants[0]
    assert (program.id, program.name, program.protocol) == ("Fish", "Fish", "uci")
    adapter = (sys.executable, "-m", "framework.engine.uci")
    assert engine_spec(program).command == (*adapter, str(tmp_path / "bin" / "engine"))


def test_a_programs_options_go_to_it_as_the_games_parameters(tmp_path):
    loaded = load_config(config(tmp_path, "{command: [bin/engine], protocol: uci, options: {Skill Level: 3, "
                                          "Ponder: false}}"))
    assert loaded.participants[0].params == {"Skill Level": 3, "Ponder": False}   # UCI: setoption, at `new`


def test_a_program_on_path_is_found_there(tmp_path):
    program = load_config(config(tmp_path, "{id: shell, command: [sh, -c, 'exit 0']}")).participants[0]
    assert Path(program.command[0]).name in ("sh", "dash", "bash") and program.command[1:] == ("-c", "exit 0")


BAD = [
    ("{command: [bin/nothing]}", "participants[0].command[0]: no such program 'bin/nothing'"),
    ("{command: [bin/data.txt]}", "participants[0].command[0]: 'bin/data.txt' (TMP/bin/data.txt) is not executable"),
    ("{command: [no-such-program-here]}", "participants[0].command[0]: no program 'no-such-program-here' on PATH"),
    ("{command: []}", "participants[0].command: expected a list of a program and its arguments, got an empty list"),
    ("{command: bin/engine --fast}", "participants[0].command: expected a list of the program and its arguments, "
                                     "e.g. 'command: [bin/engine, ...]', got the string 'bin/engine --fast'"),
    ("{command: [bin/engine, 3]}", "participants[0].command[1]: expected a non-empty string"),
    ("{command: [bin/engine], protocol: xboard}", "participants[0].protocol: expected one of plyground, uci, got "
                                                  "'xboard'"),
    ("{command: [bin/engine], agent: random}", "participants[0]: a participant is either an agent ('agent:', "
                                               "'params:') or a program ('command:', 'options:'), not both"),
    ("{command: [bin/engine], params: {depth: 3}}", "participants[0]: a participant is either an agent"),
    ("{command: [bin/engine], colour: red}", "participants[0].colour: unknown key 'colour'; known keys: id, command, "
                                             "name, protocol, options, budget"),
    ("{command: [bin/engine], options: [Hash, 16]}", "participants[0].options: expected a mapping of keys to values"),
    ("{command: [bin/engine], options: {Hash: [16]}}", "participants[0].options: expected NAME: VALUE (text, a number "
                                                       "or true/false), got 'Hash': [16]"),
    ("{command: [bin/engine], id: random}", "participants[1].id: 'random' is already the id of another participant"),
    ("{agent: random, protocol: uci}", "participants[0].protocol: 'protocol' belongs to a program's participant"),
    ("{id: x, params: {}}", "participants[0].agent: missing; name a registered agent (or 'command: [PROGRAM, "
                            "ARGS...]' for a program)"),
]


@pytest.mark.parametrize("entry, message", BAD)
def test_each_mistake_names_the_file_and_key(tmp_path, entry, message):
    path = config(tmp_path, entry)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}: "), str(info.value)
    assert message.replace("TMP", str(tmp_path)) in str(info.value), str(info.value)


def test_a_program_cannot_be_tuned(tmp_path):
    path = tmp_path / "tune.yaml"
    path.write_text("game: tictactoe\nmode: tune\ntune: {agent: {command: [sh]}, iterations: 2, "
                    "parameters: {x: {start: 1, min: 0, max: 2}}}\n")
    with pytest.raises(ConfigError, match=r"tune\.agent\.command: tuning changes an agent's declared parameters, "
                                          "and a program declares none"):
        load_config(path)


def test_too_many_arguments_are_refused(tmp_path):
    with pytest.raises(ConfigError, match=r"participants\[0\]\.command: 257 arguments are more than the 256"):
        load_config(config(tmp_path, "{command: [bin/engine" + ", x" * 256 + "]}"))


@pytest.mark.parametrize("text, message", [
    ("cmd:", "--seat 1 'cmd:': names no program; expected cmd:PROGRAM [ARGS...]"),
    ("cmd:'unclosed", "--seat 1 'cmd:'unclosed': cannot split the command (No closing quotation)"),
])
def test_a_seat_text_that_names_no_program_is_refused(text, message):
    from framework.engine.programs import parse_program

    with pytest.raises(ConfigError) as info:
        parse_program(text, "--seat 1")
    assert str(info.value) == message


def test_seat_texts_split_as_a_shell_would():
    from framework.engine.programs import parse_program

    assert parse_program("uci:stockfish 'a b'", "--seat 1") == ("uci", ["stockfish", "a b"])
    assert parse_program("alphabeta:depth=3", "--seat 1") is None
