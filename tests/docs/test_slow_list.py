"""The `slow` marker the README's quick subset (`-m "not slow"`) relies on: registered, and every entry of
the list in tests/conftest.py still names a folder, a file or a test function, so a renamed test cannot
silently drop out of the list (and back into the quick subset)."""

import ast
import tomllib

from tests.conftest import SLOW, is_slow
from tests.docs.examples import ROOT


def test_the_marker_is_registered():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(marker.startswith("slow:") for marker in options["markers"])


def test_every_entry_names_a_folder_a_file_or_a_test():
    for entry in SLOW:
        path, _, test = entry.partition("::")
        assert (ROOT / path).exists(), f"SLOW names {path}, which does not exist"
        if test:
            tree = ast.parse((ROOT / path).read_text())
            names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
            assert test in names, f"SLOW names {entry}, and {path} has no test {test}"


def test_entries_match_whole_names_only():
    assert is_slow("tests/benchmarks/test_speed.py::test_x")
    assert is_slow("tests/web/test_browser.py::test_y[chromium]")
    assert is_slow("tests/framework/tournament/test_solve.py::test_crashing_hanging_and_lying_solvers")
    assert not is_slow("tests/framework/tournament/test_solve.py::test_crashing_hanging_and_lying_solvers_too")
    assert not is_slow("tests/web/test_browser_extra.py::test_y")
    assert not is_slow("tests/framework/test_registry.py::test_z")
