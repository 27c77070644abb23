"""Every code block of the README and the docs is run or checked, so a changed API breaks a test, not a reader.

Per page, in order, in one namespace and one scratch working folder (with `tournaments/`, `docs/` and the
committed `results/thesis` linked in, read-only by convention):

- `python`: executed. When the prose between it and a following `text` block says "prints", the text
  must appear in what it printed.
- `yaml`: read by the project's strict loader. A tournament (or a fragment of one: only tournament keys)
  is validated by `load_config`, a fragment on top of a small base tournament; a game-theory game
  (`payoffs` or `tree`) is built. A block whose first line is `# NAME.yaml` is also saved as NAME.
- `toml`: parsed.
- `bash`: every command is checked: `plyground ...` against the command line's own parser, and run for
  real when its file or folder argument was made by this page (the README's example runs this way);
  `pip install` extras and paths, `pytest` paths, `python FILE`/`python -m MODULE` and their options
  against the source; `. .venv/bin/activate` of the virtual environment a page makes.
- `text`, `console`: output, not run.
- a snippet (`--8<-- "path"`) shows a repository file: its file and section must exist.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import tomllib
from importlib.util import find_spec, module_from_spec, spec_from_file_location
from pathlib import Path
from typing import Any

import pytest

from framework.cli import _command, build_parser, main
from framework.errors import ConfigError
from framework.gametheory.files import game_from_mapping
from framework.safeyaml import load_yaml
from framework.tournament.config import KEYS, load_config
from tests.docs.examples import ROOT, Block, blocks, pages, snippet_text

PAGES = [page for page in pages() if blocks(page)]
LANGUAGES = {"python", "yaml", "toml", "bash", "text", "console"}
TOURNAMENT_KEYS = {key for keys in KEYS.values() for key in keys}
#: A fragment of a tournament file is validated on top of this.
BASE = {"name": "fragment", "game": "tictactoe",
        "participants": [{"id": "ab", "agent": "alphabeta", "params": {"depth": 1}}, {"id": "rnd", "agent": "random"}]}
PATH_KEYS = ("start_positions", "positions")
#: Commands that finish by themselves and read no keyboard: run for real on files a page made.
RUNNABLE = ("run", "validate", "report", "nash", "export")
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
#: The distributions the `test` extra names (a page may install one of them alone, as `pip install pytest`).
TEST_REQUIREMENTS = {re.split(r"[<>=\[ ;]", r, maxsplit=1)[0] for r in EXTRAS["test"]}
MARKERS = {m.split(":")[0] for m in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
           ["ini_options"].get("markers", [])}


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("tournaments", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "thesis").symlink_to(ROOT / "results" / "thesis")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_block_of_the_page_runs(page: Path, scratch: Path) -> None:
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    found = blocks(page)
    ran = 0
    for i, block in enumerate(found):
        assert block.lang in LANGUAGES, f"{block.where}: no check for ```{block.lang} blocks; use one of {LANGUAGES}"
        if block.snippet:
            assert snippet_text(block).strip(), f"{block.where}: the snippet shows nothing"
            continue
        if block.lang == "python":
            printed = _run_python(block, namespace)
            following = found[i + 1] if i + 1 < len(found) else None
            if following is not None and following.lang == "text" and "prints" in following.before:
                assert following.text.strip() in printed, \
                    f"{following.where}: the page says it prints\n{following.text}\nbut it printed\n{printed}"
        elif block.lang == "yaml":
            _check_yaml(block, scratch)
        elif block.lang == "toml":
            tomllib.loads(block.text)
        elif block.lang == "bash":
            for words in _commands(block):
                ran += _check_command(block, words, scratch)
    if page.name == "README.md":
        assert ran >= 2, "the README's first tournament was not run: its YAML must be saved as the file it runs"


def _run_python(block: Block, namespace: dict[str, Any]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.text, block.where, "exec"), namespace)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


def _check_yaml(block: Block, scratch: Path) -> None:
    data = load_yaml(block.text, block.where)
    first = block.text.lstrip().split("\n", 1)[0]
    if first.startswith("# ") and first.endswith((".yaml", ".yml")) and " " not in first[2:]:
        (scratch / first[2:]).write_text(block.text)
    if not isinstance(data, dict):
        return
    if "payoffs" in data or "tree" in data:
        game_from_mapping(data, block.where)
    elif set(data) <= TOURNAMENT_KEYS:
        config = data if "game" in data or "games" in data else {**BASE, **data}
        for key in PATH_KEYS:   # a file named relative to tournaments/, as the shipped files are
            if isinstance(config.get(key), str) and not (scratch / config[key]).exists():
                config[key] = str(ROOT / "tournaments" / config[key])
        file = scratch / "block-under-test.yaml"
        file.write_text(_dump(config))
        load_config(file)


def _dump(data: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(data)


def _commands(block: Block) -> list[list[str]]:
    """The commands of a bash block: continuation lines joined, comments dropped, `&&` chains and pipes split."""
    out: list[list[str]] = []
    for line in block.text.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        while words:
            cut = min((words.index(sep) for sep in ("&&", "|") if sep in words), default=len(words))
            command = words[:cut]
            while command and "=" in command[0] and not command[0].startswith("-"):
                command = command[1:]   # VAR=value prefixes
            if command:
                out.append(command)
            words = words[cut + 1:]
    return out


def _check_command(block: Block, words: list[str], scratch: Path) -> bool:
    """Check one command; True when it was run."""
    where = f"{block.where}: `{shlex.join(words)}`"
    if words[0] == "plyground":
        return _check_plyground(where, words[1:], scratch)
    if words[:4] == ["python", "-m", "pip", "install"] or words[:2] == ["pip", "install"]:
        for arg in words[words.index("install") + 1:]:
            if arg.startswith("-"):
                continue
            if arg in TEST_REQUIREMENTS:   # a tool the tests use (pytest), named as the `test` extra names it
                continue
            path, _, extras = arg.partition("[")
            assert (ROOT / path).exists(), f"{where}: no such path {path!r}"
            for extra in extras.rstrip("]").split(",") if extras else ():
                assert extra in EXTRAS, f"{where}: pyproject.toml has no extra {extra!r}"
    elif words[:3] == ["python", "-m", "pytest"]:
        args = words[3:]
        for i, arg in enumerate(args):
            if i and args[i - 1] in ("-m", "-k"):   # a marker or keyword expression, not a path
                assert arg.split()[-1] in MARKERS or args[i - 1] == "-k", f"{where}: no marker {arg!r} registered"
                continue
            if i and args[i - 1] == "-n":   # pytest-xdist's workers
                assert arg == "auto" or arg.isdigit(), f"{where}: -n takes a number of workers or auto, not {arg!r}"
                continue
            assert arg.startswith("-") or (ROOT / arg.split("::")[0]).exists(), f"{where}: no such test {arg!r}"
    elif words[:3] == ["python", "-m", "mkdocs"]:
        assert words[3] in ("build", "serve"), where
    elif words[:2] == ["python", "-m"]:
        spec = find_spec(words[2])
        assert spec is not None and spec.origin, f"{where}: no module {words[2]!r}"
        _check_options(where, Path(spec.origin).read_text(), words[3:])
    elif words[0] == "printf":   # writes its arguments (the lines a transcript sends an engine)
        pass
    elif words[0] in (".", "source"):   # activating the virtual environment the page made
        assert words[1:] == [".venv/bin/activate"], f"{where}: only the page's .venv is activated"
    elif words[0] == "python" and words[1].endswith(".py"):
        assert (ROOT / words[1]).is_file(), f"{where}: no such script"
        _check_options(where, (ROOT / words[1]).read_text(), words[2:])
    else:
        raise AssertionError(f"{where}: the docs check knows no such command; teach tests/docs/test_examples.py")
    return False


def _check_options(where: str, source: str, args: list[str]) -> None:
    for arg in args:
        if arg.startswith("--"):
            assert f'"{arg.split("=")[0]}"' in source, f"{where}: the script has no option {arg}"


def _check_plyground(where: str, args: list[str], scratch: Path) -> bool:
    """Parsed by `plyground`'s own parser; run (one of RUNNABLE) when its file or folder is one this page made."""
    command = _command(args)
    try:
        build_parser(command, version_only=command is None and "--version" in args).parse_args(args)
    except SystemExit as exc:
        assert exc.code == 0, f"{where}: the command line refuses it"
        return False
    target = args[1] if command in RUNNABLE and len(args) > 1 else None
    made = target is not None and (scratch / target).exists() and \
        (scratch / target).resolve().is_relative_to(scratch.resolve())
    if made:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            code = main(args)
        assert code == 0, f"{where}: exit status {code}: {err.getvalue()}"
    return made


def test_the_docs_say_what_each_capability_buys() -> None:
    """The game tutorial's table covers every capability `framework/capabilities.py` declares."""
    from dataclasses import fields

    from framework.capabilities import Capabilities

    page = (ROOT / "docs" / "tutorials" / "first-game.md").read_text()
    missing = [f.name for f in fields(Capabilities) if "help" in f.metadata and f"| `{f.name}" not in page
               and f"`{f.name}(" not in page.split("| capability |", 1)[1]]
    assert not missing, f"docs/tutorials/first-game.md does not say what {missing} buy"


def _hook() -> Any:
    spec = spec_from_file_location("docs_reference_hook", ROOT / "docs" / "hooks" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_yaml_reference_documents_every_key_the_loader_accepts(tmp_path: Path) -> None:
    """Top-level keys from config.KEYS; nested ones from the loader's own "known keys" error for an unknown key."""
    documented = _hook().YAML_KEYS
    _hook().check_yaml_keys(KEYS)
    with pytest.raises(ValueError, match="undocumented \\['surprise'\\]"):
        _hook().check_yaml_keys({**KEYS, "games": KEYS["games"] + ("surprise",)})
    nested = {"executor": {"executor": {"surprise": 1}}, "participants[]": {"participants": [
                  {"agent": "random", "surprise": 1}, {"agent": "random", "id": "r2"}]},
              "participants[].budget": {"participants": [{"agent": "random", "budget": {"surprise": 1}},
                                                         {"agent": "random", "id": "r2"}]},
              "sprt": {"sprt": {"surprise": 1}}, "adjudication": {"adjudication": {"surprise": 1}},
              "adjudication.resign": {"adjudication": {"resign": {"surprise": 1}}},
              "adjudication.draw": {"adjudication": {"draw": {"surprise": 1}}},
              "opening": {"opening": {"surprise": 1}}, "game": {"game": {"name": "tictactoe", "surprise": 1}},
              "games[]": {"game": None, "games": [{"name": "tictactoe", "surprise": 1}]}}
    for path, change in nested.items():
        config = {k: v for k, v in {**BASE, **change}.items() if v is not None}
        file = tmp_path / "t.yaml"
        file.write_text(_dump(config))
        with pytest.raises(ConfigError, match="known keys: ") as info:
            load_config(file)
        known = set(str(info.value).split("known keys: ")[1].split(", "))
        children = {p[len(path) + 1:] for p in documented if p.startswith(path + ".") and "." not in p[len(path) + 1:]}
        if path in ("adjudication.resign", "adjudication.draw"):
            text = documented[path]
            assert all(f"`{k}`" in text or k in text for k in known), f"{path}: {known} not all in {text!r}"
        else:
            assert children == known, f"YAML_KEYS under {path}: documented {children}, the loader knows {known}"
