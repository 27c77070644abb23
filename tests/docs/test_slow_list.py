"""The `slow` marker the README's quick subset (`-m "not slow"`) relies on: registered, and set by the rule of
tests/conftest.py alone (a folder of SLOW_FOLDERS, a file's `pytestmark`, a test's own mark): no list of test
names to keep in step with the files."""

import subprocess
import sys
import tomllib

from tests.conftest import SLOW_FOLDERS, is_slow
from tests.docs.examples import ROOT


def test_the_marker_is_registered():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(marker.startswith("slow:") for marker in options["markers"])


def test_every_slow_folder_is_a_folder():
    for folder in SLOW_FOLDERS:
        assert folder.endswith("/") and (ROOT / folder).is_dir(), f"SLOW_FOLDERS names {folder}, not a folder"


def test_a_folder_marks_what_lies_beneath_it_only():
    assert is_slow("tests/benchmarks/test_speed.py::test_x")
    assert not is_slow("tests/benchmarks_extra/test_y.py::test_z")
    assert not is_slow("tests/framework/test_registry.py::test_z")


def collected(*args: str) -> set[str]:
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return {line for line in run.stdout.splitlines() if "::" in line}


def test_the_quick_subset_leaves_out_the_tiers_files_and_tests_the_rule_marks():
    files = ["tests/benchmarks/test_speed.py", "tests/framework/test_cli.py",
             "tests/plugins/agents/test_alphabeta_compiled_checkers.py", "tests/plugins/agents/test_dfpn_bindings.py",
             "tests/framework/tournament/test_solve.py"]
    every, quick = collected(*files), collected("-m", "not slow", *files)
    left_out = {test.split("[")[0] for test in every - quick}
    assert ("tests/framework/test_cli.py::test_warmup_compiles_the_named_games_that_have_kernels_and_only_those"
            in left_out)
    assert "tests/framework/test_cli.py::test_warmup_with_kernels_off_does_nothing" in quick
    assert "tests/framework/tournament/test_solve.py::test_crashing_hanging_and_lying_solvers" in left_out
    assert not any(test.startswith(("tests/benchmarks/", "tests/plugins/agents/test_alphabeta_compiled_checkers.py",
                                    "tests/plugins/agents/test_dfpn_bindings.py")) for test in quick)
    assert {test.split("::")[0] for test in every} == set(files)
