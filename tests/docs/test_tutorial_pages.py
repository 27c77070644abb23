"""The package tutorials show their modules whole: every code block is included from a tested file of the
tutorial's package (one source), and together the blocks show every line of each module they include."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from tests.docs.examples import ROOT, blocks, snippet_text

TUTORIALS = ROOT / "docs" / "tutorials"
#: The pages that build a package: the folder of the package each one builds.
PACKAGE_PAGES = {"first-agent.md": "greedy", "first-game.md": "race", "first-kernel.md": "fastrace"}
MARKER = "--8<-- ["


def _shown(page: Path) -> dict[Path, str]:
    """Per file of the repository a page includes, the text of everything it shows of it."""
    shown: dict[Path, str] = {}
    for block in blocks(page):
        match = block.snippet
        if match is not None:
            path = ROOT / match["path"]
            shown[path] = shown.get(path, "") + "\n" + snippet_text(block)
    return shown


@pytest.mark.parametrize("page", sorted(PACKAGE_PAGES))
def test_every_code_block_of_a_package_tutorial_is_included_from_its_package(page):
    package = TUTORIALS / PACKAGE_PAGES[page]
    for block in blocks(TUTORIALS / page):
        if block.lang in ("python", "toml", "yaml"):
            assert block.snippet, f"{block.where}: a ```{block.lang} block written out; include it from {package}"
            assert (ROOT / block.snippet["path"]).parent == package, f"{block.where}: not from {package}"


@pytest.mark.parametrize("page", sorted(PACKAGE_PAGES))
def test_the_page_shows_every_line_of_each_module_it_includes(page):
    shown = _shown(TUTORIALS / page)
    modules = [path for path in shown if path.suffix == ".py"]
    assert modules, f"{page} includes no module"
    for path in modules:
        lines = {line.strip() for line in shown[path].splitlines()}
        missing = [line for line in path.read_text().splitlines()
                   if line.strip() and MARKER not in line and line.strip() not in lines]
        assert not missing, f"{page} never shows these lines of {path.relative_to(ROOT)}: {missing}"


def test_the_game_page_shows_the_class_its_data_members_and_its_imports():
    text = "".join(_shown(TUTORIALS / "first-game.md").values())
    for line in ("from framework import BaseHeuristic, GameSpec, HeuristicSpec, hookimpl", "TARGET = 10",
                 "class Race:", 'name = "race"', 'player_names = ("first", "second")'):
        assert line in text


def test_the_smallest_agent_runs_as_printed(capsys):
    runpy.run_path(str(TUTORIALS / "greedy" / "first_move.py"), run_name="__main__")
    assert capsys.readouterr().out.split()[0] == "normal"
