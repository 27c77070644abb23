"""framework.kernel.numba_backend compiles a module's own functions, Python-int semantics kept on uint64 bitboards."""

import os
import sys

import numpy as np
import pytest

from framework.kernel import api, numba_backend, python_backend
from tests.framework import jit_sample

KERNEL = numba_backend.Kernel(jit_sample, bitboards=("TOP", "MASKS"))
VALUES = (0, 1, 6, 1 << 62, 1 << 63, (1 << 64) - 1, 0x8000_0000_0000_0001, 0x0123_4567_89AB_CDEF)


@pytest.mark.parametrize("x", VALUES)
def test_bit_methods_and_negation_match_python_ints_up_to_bit_63(x):
    assert KERNEL.popcount(api.uint64(x)) == jit_sample.popcount(x)
    assert KERNEL.lowest_bit(api.uint64(x)) == jit_sample.lowest_bit(x)
    if x:
        assert KERNEL.highest(api.uint64(x)) == jit_sample.highest(x)
    for i in range(3):
        assert KERNEL.masked(api.uint64(x), i) == jit_sample.masked(x, i)


def test_int_tables_become_arrays_and_functions_call_their_compiled_siblings():
    assert [KERNEL.step(i) for i in range(3)] == [jit_sample.step(i) for i in range(3)] == [62, 63, 70]


def test_asking_for_a_function_the_module_lacks_names_it():
    with pytest.raises(AttributeError, match="tests.framework.jit_sample has no function 'missing' to compile"):
        _ = KERNEL.missing


def test_the_environment_switch(monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    assert numba_backend.enabled()
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    assert not numba_backend.enabled()


@pytest.mark.parametrize("value", [0.0, -0.0, 1.0, -2.5, 1e-300, 5e-324, float("inf"), -float("inf")])
def test_a_float_kept_as_its_bits_in_an_int_array_reads_back_the_same_float_both_ways(value):
    bits = np.array([value]).view(np.int64)
    assert api.float_of_bits(int(bits[0])) == KERNEL.margin(bits) == jit_sample.margin(bits) == value
    assert np.signbit(KERNEL.margin(bits)) == np.signbit(value)


@pytest.mark.parametrize("items, scores, bound, first, second, expected", [
    ([0, 1, 2, 3], [0, 5, 9, 9], 4, -1, -1, [2, 3, 1, 0]),   # highest first, ties in their order
    ([2, 0, 1, 5], [0, 1, 0, 3], 3, -1, -1, [1, 2, 0, 5]),  # 5 >= bound scores 0, kept after 0
    ([0, 1, 2], [0, 0, 0, 0], 3, 2, 2, [2, 0, 1]),         # all 0: the order kept; a move fronted once
    ([0, 1, 2, 3], [0, 1, 2, 3], 4, 3, 0, [3, 0, 2, 1]),   # the first, then the second, others in order
    ([0, 1], [0, 0, 0], 2, 7, 1, [1, 0]),                  # a move not among them is skipped
])
def test_sort_by_scores_and_to_front_agree_interpreted_and_compiled(items, scores, bound, first, second, expected):
    table = np.array([0] + scores, np.int64)
    python_table = [0] + scores
    compiled = KERNEL.ordered(np.array(items, np.int64), table, bound, first, second)
    assert list(compiled) == jit_sample.ordered(list(items), python_table, bound, first, second) == expected
    assert table[jit_sample.SLOTS.count] == python_table[jit_sample.SLOTS.count] == (
        (first in items) + (second in items and second != first))


def test_a_borrowed_array_is_the_callers_array_through_a_compiled_recursion_and_survives_it():
    counts = np.zeros(50, np.int64)
    before = sys.getrefcount(counts)
    for _ in range(3):
        assert KERNEL.count_down(counts, 49) == sum(range(50))
    after = sys.getrefcount(counts)     # no reference kept by the compiled calls
    assert counts.tolist() == list(range(50)) and after == before
    python_counts = [0] * 50
    assert python_backend.interpret(jit_sample, {}).count_down(python_counts, 49) == sum(range(50))
    assert python_counts == list(range(50))
    # dropped, as numba's is free
    assert "borrowed" not in python_backend.interpret(jit_sample, {}).count_down.__code__.co_names


def test_interpreted_bindings_fold_layout_slots_and_identity_conversions_as_numba_does():
    interpreted = python_backend.interpret(jit_sample, {})
    names = interpreted.slot_sum.__code__.co_names
    assert "SLOTS" not in names and "as_int64" not in names       # read as constants, the call dropped
    assert "SLOTS" in jit_sample.slot_sum.__code__.co_names          # the module itself is untouched
    assert interpreted.slot_sum(5) == jit_sample.slot_sum(5) == KERNEL.slot_sum(5) == 6
    assert interpreted.slot_sum.__code__.co_firstlineno == jit_sample.slot_sum.__code__.co_firstlineno


@pytest.mark.parametrize("table, expected", [
    ((1, 2, 3), [1, 2, 3]),
    (((1 << 63, 1), (2, 3)), [[-(1 << 63), 1], [2, 3]]),      # a mask keeps its 64 bits beside small ints
    (((1 << 64) - 1, -1), [-1, -1]),
    ((1.5, 2), None), ((True, False), None), ((), None), ("ab", None),
])
def test_int_tables_become_int64_arrays_of_their_bit_patterns(table, expected):
    converted = numba_backend._int_table(table)
    assert (converted is None if expected is None
            else converted.dtype == np.int64 and converted.tolist() == expected)


def test_small_tables_become_int8_arrays_and_an_entry_outside_a_byte_is_refused():
    converted = numba_backend._compiled_value("COUNTS", ((0, 127), (-128, 5)), frozenset(), frozenset({"COUNTS"}))
    assert converted.dtype == np.int8 and converted.tolist() == [[0, 127], [-128, 5]]
    assert numba_backend._compiled_value("OTHER", (0, 127), frozenset(), frozenset({"COUNTS"})).dtype == np.int64
    with pytest.raises(OverflowError):
        numba_backend._compiled_value("COUNTS", (0, 128), frozenset(), frozenset({"COUNTS"}))


def test_declaring_a_table_small_renames_the_compiled_twins():
    """numba's cache stamps only the source file: int8 tables compiled under the int64 twins' names would
    load the int64 code."""
    assert numba_backend.Kernel(jit_sample).prefix != numba_backend.Kernel(jit_sample, small=("TABLE",)).prefix


def test_a_compile_is_announced_once_on_stderr_with_an_estimate(tmp_path, monkeypatch, capsys):
    """numba fires its compile event only on a cache miss: a fresh module always compiles."""
    (tmp_path / "fresh_rules.py").write_text("def double(x):\n    return add(x, x)\n\n\n"
                                             "def add(x, y):\n    return x + y\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import fresh_rules

    kernel = numba_backend.Kernel(fresh_rules, tag="fresh")
    assert kernel.double(21) == 42 and kernel.double(2) == 4
    err = capsys.readouterr().err
    assert err.count("compiling") == 1, err
    assert f"compiling fresh_rules for fresh.double (first use, ~{2 * numba_backend.SECONDS_PER_FUNCTION:.0f} s" in err


def test_constants_passed_to_a_sibling_compile_it_once_each_unless_folding_is_off(tmp_path, monkeypatch):
    """numba compiles a function once per int or bool constant a compiled caller passes it (each time with all it
    calls): `fold_constant_arguments=False` types such constants as int64 and boolean: one compile."""
    (tmp_path / "constant_calls.py").write_text(
        "def outer(x):\n    return shift(x, 1, True) + shift(x, -1, True) + shift(x, 2, False)\n\n\n"
        "def shift(x, by, up):\n    return x + by if up else x - by\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import constant_calls

    folded = numba_backend.Kernel(constant_calls, tag="folded")
    unfolded = numba_backend.Kernel(constant_calls, tag="unfolded", fold_constant_arguments=False)
    assert folded.outer(10) == unfolded.outer(10) == constant_calls.outer(10) == 11 + 9 + 8
    assert len(folded.shift.signatures) == 3
    assert [str(signature) for signature in unfolded.shift.signatures] == ["(int64, int64, bool)"]


RACER = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
import racing_rules
from framework.kernel import numba_backend

kernel = numba_backend.Kernel(racing_rules, tag="racing")
total = kernel.total                      # the twin made, numba imported: only the compile is left
print("ready", flush=True)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.002)
print(total(10), flush=True)
"""


def test_processes_sharing_a_cache_compile_a_twin_once(tmp_path):
    """Two processes (test workers, engines) that call a twin at the same moment: one compiles it, the other
    waits for it and loads it from the shared cache (without the lock both compiled it)."""
    import subprocess
    import sys

    (tmp_path / "racing_rules.py").write_text(
        "def total(n):\n    s = 0\n    for i in range(n):\n        s += square(i)\n    return s\n\n\n"
        "def square(x):\n    return x * x\n")
    start = tmp_path / "start"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    racers = [subprocess.Popen([sys.executable, "-c", RACER, str(tmp_path), str(start)], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    for racer in racers:
        assert racer.stdout.readline() == "ready\n"
    start.touch()
    outputs = [racer.communicate(timeout=120) for racer in racers]
    assert [out for out, _ in outputs] == ["285\n"] * 2, outputs
    assert sum(err.count("compiling racing_rules") for _, err in outputs) == 1, outputs
