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


BOUNDED = Param("depth", int, 3, "plies", minimum=1, maximum=256)


@pytest.mark.parametrize("param, value, message", [
    (BOUNDED, 10 ** 20, "'depth' must be at most 256, got 100000000000000000000"),
    (Param("n", int, 3, "no declared bound"), 1 << 63, "'n' must be at most 9223372036854775807"),
    (Param("n", int, 3, "no declared bound"), -(1 << 64), "'n' must be at least -9223372036854775808"),
    (Param("c", float, 1.0, "x"), float("nan"), "'c' must be a finite number, got nan"),
    (Param("c", float, 1.0, "x"), float("-inf"), "'c' must be a finite number, got -inf"),
    (Param("c", float, 1.0, "x"), 10 ** 400, "'c' must be a finite number, got <an integer of 1329 bits>"),
    (Param("c", float, 1.0, "x", minimum=0.0, maximum=1.0), 1.5, "'c' must be at most 1.0, got 1.5"),
], ids=["declared", "int64-high", "int64-low", "nan", "-inf", "huge-int", "float-max"])
def test_numbers_are_bounded_and_finite(param, value, message):
    with pytest.raises(ConfigError, match=message):
        param.coerce(value, "agent 'x'")


def test_bounds_are_documented():
    assert BOUNDED.describe() == "an integer from 1 to 256"
    assert Param("d", float, 0.0, "h", maximum=2.0).describe() == "a number <= 2.0"


def every_builtin_param():
    from framework.registry import Registry
    registry = Registry(autoload=True)
    tables = (registry.games, registry.agents, registry.heuristics)
    return [(f"{reg.spec.name}.{p.name}", p) for table in tables for reg in table.values() for p in reg.spec.params]


@pytest.mark.parametrize("name, param", [(n, p) for n, p in every_builtin_param() if p.type in (int, float)],
                         ids=lambda value: value if isinstance(value, str) else "")
def test_every_builtin_number_declares_both_bounds_and_its_default_is_within_them(name, param):
    assert param.minimum is not None and param.maximum is not None, f"{name} has no bound"
    assert param.default is None or param.minimum <= param.default <= param.maximum
