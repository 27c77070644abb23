"""The code blocks of the README and the docs pages, and how each kind is checked (see test_examples.py).

A block is a fenced block, possibly indented (inside a list item). A block whose first line is a
pymdown snippet (`--8<-- "path"`) shows a file of the repository: the file must exist; it is run by the
test that owns it (the tutorial packages: test_tutorials.py; tournaments/: the tournament tests).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)
SNIPPET = re.compile(r'^--8<-- "(?P<path>[^":]+)(?::(?P<section>[\w-]+))?"$')


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its text (indentation removed), and the prose just before it."""

    page: Path
    line: int
    lang: str
    text: str
    before: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def snippet(self) -> re.Match[str] | None:
        return SNIPPET.match(self.text.strip())


def pages() -> list[Path]:
    """The README and every Markdown page of the docs."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(page: Path) -> list[Block]:
    text = page.read_text()
    out: list[Block] = []
    end = 0
    for match in FENCE.finditer(text):
        indent = len(match["indent"])
        body = "\n".join(line[indent:] for line in match["body"].split("\n"))
        out.append(Block(page, text.count("\n", 0, match.start()) + 1, match["lang"] or "text", body,
                         text[end:match.start()]))
        end = match.end()
    return out


def snippet_text(block: Block) -> str:
    """The text a snippet block shows: the file, or the part between its section markers."""
    match = block.snippet
    assert match is not None
    text = (ROOT / match["path"]).read_text()
    if match["section"] is None:
        return text
    name = match["section"]
    start, end = f"--8<-- [start:{name}]", f"--8<-- [end:{name}]"
    if start not in text or end not in text:
        raise AssertionError(f"{block.where}: {match['path']} has no section '{name}'")
    return text.split(start, 1)[1].split("\n", 1)[1].split(end, 1)[0]
