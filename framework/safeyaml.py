"""Reading YAML that a careless or hostile person wrote: bounded, strict, and every failure a ConfigError.

`yaml.safe_load` already refuses `!!python/...` tags. On top of it `load_yaml` refuses, before
anything else sees the data and naming the file and line:
- texts over MAX_BYTES, and nesting deeper than MAX_DEPTH (no RecursionError);
- alias expansion past MAX_NODES nodes (a "billion laughs" file is a few lines that expand
  exponentially: its expanded size is counted while composing, never built), and recursive aliases;
- a mapping that names a key twice (YAML says keys are unique; PyYAML keeps the last silently);
- a value its tag cannot construct (`!!float abc`, `!!int 0xZZ`, a bad `!!timestamp`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from framework.errors import ConfigError, one_line, quoted

#: Largest YAML text read: tournament and game files are hand-written, kilobytes long.
MAX_BYTES = 1 << 20
#: Deepest nesting of collections; each level costs a few Python frames while composing.
MAX_DEPTH = 100
#: Most nodes the document may hold once every alias is expanded (aliases included).
MAX_NODES = 100_000
#: Longest parser message kept: PyYAML quotes tokens, which can be long.
MAX_MESSAGE = 600


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader with bounded composition, unique keys, and constructor failures as ConfigError."""

    def __init__(self, text: str, source: str) -> None:
        super().__init__(text)
        self.name = source   # the marks of PyYAML's own errors name the file, not "<unicode string>"
        self.source = source
        self.depth = 0
        self.sizes: dict[int, int] = {}   # id(node) -> its node count with aliases expanded

    def fail(self, node: yaml.Node | yaml.Event, message: str) -> ConfigError:
        return ConfigError(f"{self.source}, line {node.start_mark.line + 1}: {message}")

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        if self.check_event(yaml.AliasEvent):
            node = super().compose_node(parent, index)   # the anchored node itself, not a copy
            if id(node) not in self.sizes:
                raise self.fail(node, "an alias refers to a collection that contains it (a recursive alias); "
                                      "YAML data must be a tree")
            return node
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(self.peek_event(), f"nesting is deeper than {MAX_DEPTH} levels")
        node = super().compose_node(parent, index)
        self.depth -= 1
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        else:
            children = []
        size = 1 + sum(self.sizes[id(child)] for child in children)
        if size > MAX_NODES:
            raise self.fail(node, f"the data expands to more than {MAX_NODES:,} values (aliases are expanded "
                                  "wherever they are used); write it out or split the file")
        self.sizes[id(node)] = size
        return node

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ConfigError, yaml.YAMLError):
            raise
        except Exception as exc:   # float('abc'), int('ZZ', 16), a timestamp that does not match ...
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise self.fail(node, f"{tag} {quoted(node.value)} cannot be read: {one_line(exc)}") from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue   # `<<: *defaults`: explicit keys may override merged ones
            key = self.construct_object(key_node, deep=True)
            try:
                if key in seen:
                    raise self.fail(key_node, f"the key {quoted(key)} appears twice in one mapping; "
                                              "give each key once")
                seen.add(key)
            except TypeError:   # unhashable: the base class refuses it with its own message
                break
        return super().construct_mapping(node, deep=deep)


def read_text(path: Path, limit: int, what: str) -> str:
    """The UTF-8 text of a file of at most `limit` characters (never more is read: `/dev/zero` is refused),
    or ConfigError naming the file and saying why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(limit + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {what} '{path}': {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} '{path}' is not UTF-8 text (byte {exc.start}); name a text file") from None
    except ValueError as exc:   # a path with a NUL byte
        raise ConfigError(f"cannot read {what} {quoted(str(path))}: {exc}") from None
    if len(text) > limit:
        raise ConfigError(f"{what} '{path}' is longer than {limit:,} characters; is it the right file?")
    return text


def _one_line(exc: yaml.YAMLError) -> str:
    """A PyYAML error in one line: the problem and where, then what was being parsed and where it started."""
    if not isinstance(exc, yaml.MarkedYAMLError) or not exc.problem:
        return " ".join(str(exc).split())
    def at(mark: Any) -> str:
        return f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    context = f" ({exc.context}{' that starts' if exc.context_mark else ''}{at(exc.context_mark)})" \
        if exc.context else ""
    return f"{exc.problem}{at(exc.problem_mark)}{context}"


def load_yaml(text: str, source: str) -> Any:
    """The data of one YAML document, or ConfigError naming `source` (and the line when known)."""
    if len(text) > MAX_BYTES:
        raise ConfigError(f"{source}: {len(text):,} characters is more than a YAML file here may hold "
                          f"({MAX_BYTES:,})")
    loader = None
    try:
        loader = _StrictLoader(text, source)   # the reader refuses control characters here already
        return loader.get_single_data()
    except ConfigError:
        raise
    except yaml.YAMLError as exc:
        message = _one_line(exc)
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE - 3] + "..."
        raise ConfigError(f"{source}: not valid YAML: {message}") from None
    except Exception as exc:   # nothing known reaches here; an input must never cost a traceback
        raise ConfigError(f"{source}: cannot be read as YAML: {one_line(exc)}") from None
    finally:
        if loader is not None:
            loader.dispose()
