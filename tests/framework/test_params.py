"""Declared parameters validate configuration values and name the key in every error."""

import pytest

from framework import ConfigError, Param
from framework.params import resolve_params

DEPTH = Param("depth", int, 3, "plies", minimum=1)
PARAMS = (DEPTH, Param("c", float, 1.4, "exploration"), Param("mode", str, "a", "mode", choices=("a", "b")),
          Param("fast", bool, True, "speed"), Param("heaps", list, (3, 5, 7), "sizes"))


def test_defaults_fill_missing_keys_and_values_are_converted():
    assert resolve_params(PARAMS, {"c": 2, "heaps": [1, 2]}, "agent 'x'") == \
        {"depth": 3, "c": 2.0, "mode": "a", "fast": True, "heaps": (1, 2)}


@pytest.mark.parametrize("given, message", [
    ({"depth": "3"}, "agent 'x': 'depth' must be an integer, got '3'"),
    ({"depth": True}, "agent 'x': 'depth' must be an integer, got True"),
    ({"depth": 0}, "agent 'x': 'depth' must be at least 1, got 0"),
    ({"c": "high"}, "agent 'x': 'c' must be a number, got 'high'"),
    ({"mode": "z"}, "agent 'x': 'mode' must be one of 'a', 'b', got 'z'"),
    ({"fast": "yes"}, "agent 'x': 'fast' must be true or false, got 'yes'"),
    ({"heaps": 5}, "agent 'x': 'heaps' must be a list, got 5"),
    ({"depth": None}, "agent 'x': 'depth' must be an integer >= 1, got null"),
    ({"mode": 3}, "agent 'x': 'mode' must be a string, got 3"),
    ({"dpth": 3}, r"agent 'x': unknown parameter 'dpth' \(known parameters: c, depth, fast, heaps, mode\)"),
])
def test_bad_values_name_the_key_and_the_expectation(given, message):
    with pytest.raises(ConfigError, match=message):
        resolve_params(PARAMS, given, "agent 'x'")


def test_describe_documents_type_and_constraints():
    assert DEPTH.describe() == "an integer >= 1"
    assert Param("d", int, None, "h", nullable=True).describe() == "an integer or null"
