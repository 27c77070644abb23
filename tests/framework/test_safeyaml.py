"""Hostile YAML is refused fast, by a ConfigError naming the file and line, and never expanded."""

import time

import pytest

from framework.errors import ConfigError, quoted
from framework.safeyaml import MAX_BYTES, MAX_DEPTH, load_yaml, read_text

#: Billion laughs: nine levels of nine aliases, 9^9 (387 million) strings once expanded.
BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8))


def error(text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_yaml(text, "t.yaml")
    return str(info.value)


def test_an_alias_bomb_is_refused_before_it_expands():
    started = time.process_time()  # CPU time: the machine's load stretches wall time, not this
    message = error(BOMB)
    assert time.process_time() - started < 1.0
    assert message.startswith("t.yaml, line 6: the data expands to more than 100,000 values")
    assert len(message) < 300


def test_a_few_aliases_are_fine_and_merge_keys_may_override():
    data = load_yaml("base: &b {depth: 2, heuristic: lines}\nx: *b\ny: {<<: *b, depth: 3}\n", "t.yaml")
    assert data["x"] == {"depth": 2, "heuristic": "lines"} and data["y"] == {"depth": 3, "heuristic": "lines"}


def test_a_recursive_alias_is_refused():
    assert error("a: &x [1, *x]\n") == ("t.yaml, line 1: an alias refers to a collection that contains it "
                                        "(a recursive alias); YAML data must be a tree")


@pytest.mark.parametrize("text", ["[" * 100_000, "- " * 2000 + "x", "{a: " * 5000 + "1" + "}" * 5000],
                         ids=["flow-sequences", "block-sequences", "flow-mappings"])
def test_deep_nesting_is_refused_without_recursion_error(text):
    assert f"nesting is deeper than {MAX_DEPTH} levels" in error(text)


@pytest.mark.parametrize("text, message", [
    ("x: !!float abc\n", "t.yaml, line 1: !!float 'abc' cannot be read: ValueError: could not convert string"),
    ("x: 1\ny: !!int 0xZZ\n", "t.yaml, line 2: !!int '0xZZ' cannot be read: ValueError: invalid literal"),
    ("x: !!timestamp abc\n", "t.yaml, line 1: !!timestamp 'abc' cannot be read"),
    ("x: !!timestamp 2020-13-45\n", "t.yaml, line 1: !!timestamp '2020-13-45' cannot be read: ValueError: month"),
    ("x: !!int " + "1" * 5000 + "\n", "t.yaml, line 1: !!int '1111111111"),
    ("x: !!python/object/apply:os.system [ls]\n", "t.yaml: not valid YAML: could not determine a constructor"),
    ("x: \x00\n", "t.yaml: not valid YAML: unacceptable character #x0000"),
])
def test_constructor_failures_are_config_errors_with_the_line(text, message):
    assert error(text).startswith(message)


def test_duplicate_keys_are_refused_naming_the_key_and_line():
    assert error("game: tictactoe\nseed: 1\ngame: checkers\n") == \
        "t.yaml, line 3: the key 'game' appears twice in one mapping; give each key once"
    assert "the key 'depth' appears twice" in error("p: {depth: 1, depth: 2}\n")


def test_messages_quote_a_bounded_excerpt():
    assert len(quoted(["x" * 1000] * 1000)) <= 160
    assert quoted(1 << 20000) == "<an integer of 20001 bits>"   # repr() would raise past 4300 digits
    assert len(error("x: !!float " + "a" * 100_000 + "\n")) < 400


def test_files_are_read_bounded(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("#" * (MAX_BYTES + 1))
    with pytest.raises(ConfigError, match="is longer than 1,048,576 characters"):
        read_text(big, MAX_BYTES, "tournament file")
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="is not UTF-8 text"):
        read_text(binary, MAX_BYTES, "tournament file")
    with pytest.raises(ConfigError, match="is longer than"):
        read_text("/dev/zero", MAX_BYTES, "tournament file")   # never read to the end
    with pytest.raises(ConfigError, match="more than a YAML file here may hold"):
        load_yaml("#" * (MAX_BYTES + 1), "t.yaml")


@pytest.mark.parametrize(("text", "says"), [
    ("name: x\ngame: [tictactoe\n", "t.yaml: not valid YAML: expected ',' or ']', but got '<stream end>' at line 3, "
                                    "column 1 (while parsing a flow sequence that starts at line 2, column 7)"),
    ('a: 1\nb: "x\n', "t.yaml: not valid YAML: found unexpected end of stream at line 3, column 1 (while scanning a "
                      "quoted scalar that starts at line 2, column 4)"),
])
def test_a_syntax_error_names_the_file_and_both_places_in_one_line(text, says):
    """It named "<unicode string>" instead of the file, over five lines."""
    with pytest.raises(ConfigError) as error:
        load_yaml(text, "t.yaml")
    assert str(error.value) == says and "unicode string" not in str(error.value)
