"""The core names no built-in game or agent, and its packages import each other in one direction only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORK = ROOT / "framework"

#: Built-in names that are also English words: in prose ("a random move") they name nothing, so only
#: the name alone, quoted ('human', `random`) or as an agent spec (random:seed=1) counts for them.
PROSE_WORDS = {"human", "random", "matches"}


def _docstrings(tree: ast.AST) -> set[int]:
    nodes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, nodes) and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def _names(text: str, names: set[str]) -> set[str]:
    hits = set()
    for name in names:
        word = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
        quoted = rf"['`\"]{re.escape(name)}['`\":]|{re.escape(name)}:\w"
        if text == name or re.search(quoted, text) or (name not in PROSE_WORDS and re.search(word, text)):
            hits.add(name)
    return hits


def test_the_framework_names_no_built_in_game_or_agent_in_its_code(registry):
    """DESIGN: `framework/` knows no game and no algorithm by name, not even in strings (docstrings and
    comments may cite them). Defaults live with the plugins (`default_for`), reproductions in plugins/reports."""
    names = set(registry.games) | set(registry.agents)
    assert {"loa", "alphabeta", "pns", "human"} <= names
    hits = []
    for path in sorted(FRAMEWORK.rglob("*.py")):
        tree = ast.parse(path.read_text())
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                for name in sorted(_names(node.value, names)):
                    hits.append(f"{path.relative_to(ROOT)}:{node.lineno} names '{name}': {node.value[:60]!r}")
    assert not hits, "\n".join(hits)


def test_the_name_check_finds_names_in_code_and_ignores_prose():
    names = {"alphabeta", "random"}
    assert _names("alphabeta", names) == {"alphabeta"} and _names("use alphabeta:depth=4", names) == {"alphabeta"}
    assert _names("play 'random' here", names) == {"random"} and _names("random:seed=1", names) == {"random"}
    assert _names("a random move", names) == set() and _names("alphabetas", names) == set()


def _imports(package: str) -> dict[str, set[str]]:
    """Which framework subpackages (or top modules) each module of `package` imports, anywhere in it."""
    graph: dict[str, set[str]] = {}
    for path in (FRAMEWORK / package).rglob("*.py"):
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets.add(node.module)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[str(path.relative_to(ROOT))] = {t.split(".")[1] for t in targets
                                              if t.startswith("framework.") and t.count(".") >= 1}
    return graph


def test_tournament_and_analysis_import_each_other_in_one_direction_only():
    """analysis reads what tournament stores; tournament never imports analysis (no import cycle)."""
    tournament = {module: deps for module, deps in _imports("tournament").items() if "analysis" in deps}
    analysis = {module for module, deps in _imports("analysis").items() if "tournament" in deps}
    assert not tournament, tournament
    assert analysis  # the direction that exists: reports read the results store


def test_framework_never_imports_plugins():
    found = [f"{path.relative_to(ROOT)}:{node.lineno}" for path in FRAMEWORK.rglob("*.py")
             for node in ast.walk(ast.parse(path.read_text()))
             if (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "plugins")
             or (isinstance(node, ast.Import) and any(a.name.split(".")[0] == "plugins" for a in node.names))]
    assert not found, found
