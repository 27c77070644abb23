"""Reading games from YAML and CSV files, with errors that name the file and the key.

YAML, normal form (payoff cells are `[row player's, column player's]`, numbers or text like '2/3'):

    name: Battle of the Sexes          # optional, defaults to the file name
    players: [Wife, Husband]           # optional
    strategies: [[LW, WL], [LW, WL]]   # optional: row player's, then column player's labels
    payoffs:
      - [[2, 1], [0, 0]]
      - [[0, 0], [1, 2]]

With three or more players (`players: [a, b, c]`), `payoffs` nests one list level per player
(player 1's strategy outermost) down to cells of n payoffs; such a game is an `NPlayerGame`.

YAML, extensive form of perfect information (players numbered 1 and 2 as in the thesis;
action labels are the mapping keys, in file order):

    name: Sharing game
    players: [Brother, Sister]
    tree:
      player: 1
      actions:
        2-0: {player: 2, actions: {no: {payoffs: [0, 0]}, yes: {payoffs: [2, 0]}}}

A chance node ("nature moves") lists its outcomes with exact, positive probabilities summing to 1;
payoffs are then expectations:

    tree:
      chance: [['1/2', {payoffs: [1, -1]}], ['1/2', {player: 1, actions: {...}}]]

CSV, normal form: a header row (first cell ignored, then the column player's strategy labels),
then one row per row-player strategy: its label, then cells holding the two payoffs separated
by a space, ';' or ',' (quote the cell then), e.g. `T,2 1,0 0`.
"""

from __future__ import annotations

import csv
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from framework.errors import ConfigError
from framework.gametheory.exact import to_fraction
from framework.gametheory.extensive_form import ExtensiveFormGame, Node
from framework.gametheory.n_player import NPlayerGame, nesting_depth
from framework.gametheory.normal_form import NormalFormGame
from framework.safeyaml import MAX_BYTES, load_yaml, read_text

AnyGame = NormalFormGame | ExtensiveFormGame | NPlayerGame


def load_game(path: str | Path) -> AnyGame:
    """Read a normal-form (YAML or CSV) or extensive-form (YAML) game from `path`."""
    path = Path(path)
    text = read_text(path, MAX_BYTES, "game file")
    if path.suffix.lower() == ".csv":
        return _from_csv(text, path)
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise ConfigError(f"'{path}': unknown game file type '{path.suffix}'; expected .yaml, .yml or .csv")
    return game_from_mapping(load_yaml(text, str(path)), str(path), default_name=path.stem)


def game_from_mapping(data: Any, source: str, default_name: str = "game") -> AnyGame:
    """Build a game from already-parsed YAML data; `source` names it in errors."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping with 'payoffs' (normal form) or 'tree' (extensive form), "
                          f"got {type(data).__name__}")
    unknown = set(data) - {"name", "players", "strategies", "payoffs", "tree"}
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {', '.join(map(repr, sorted(map(str, unknown))))}; "
                          "known keys: name, players, strategies, payoffs, tree")
    name = str(data.get("name", default_name))
    if ("payoffs" in data) == ("tree" in data):
        raise ConfigError(f"{source}: give exactly one of 'payoffs' (normal form) and 'tree' (extensive form)")
    players = data.get("players", ["1", "2"])
    if not isinstance(players, list) or len(players) < 2:
        raise ConfigError(f"{source}: 'players' must be a list of two or more names, got {players!r}")
    if "tree" in data and len(players) != 2:
        raise ConfigError(f"{source}: extensive-form trees are for two players, but 'players' names "
                          f"{len(players)}: {players!r}")
    if "payoffs" in data and (len(players) > 2 or ("players" not in data and nesting_depth(data["payoffs"]) > 2)):
        return NPlayerGame.from_nested(data["payoffs"], name, players if "players" in data else None,
                                       data.get("strategies"), f"{source}: 'payoffs'")
    players = (str(players[0]), str(players[1]))
    if "tree" in data:
        if "strategies" in data:
            raise ConfigError(f"{source}: 'strategies' belongs to normal-form games; an extensive-form game's "
                              "strategies follow from its tree")
        return ExtensiveFormGame(name, _node(data["tree"], f"{source}: 'tree'"), players)
    return _normal_form(data["payoffs"], name, players, data.get("strategies"), source)


def _normal_form(rows: Any, name: str, players: tuple[str, str], strategies: Any, source: str) -> NormalFormGame:
    where = f"{source}: 'payoffs'"
    if not isinstance(rows, list) or not rows:
        raise ConfigError(f"{where} must be a non-empty list of rows of [u1, u2] cells, got {rows!r}")
    a: list[list[Fraction]] = []
    b: list[list[Fraction]] = []
    for i, row in enumerate(rows):
        if not isinstance(row, list) or not row:
            raise ConfigError(f"{where} row {i + 1} must be a non-empty list of [u1, u2] cells, got {row!r}")
        a.append([])
        b.append([])
        for j, cell in enumerate(row):
            if not isinstance(cell, list) or len(cell) != 2:
                raise ConfigError(f"{where} row {i + 1} column {j + 1}: expected a cell [u1, u2] with the two "
                                  f"players' payoffs, got {cell!r}")
            a[-1].append(to_fraction(cell[0], f"{where} row {i + 1} column {j + 1}"))
            b[-1].append(to_fraction(cell[1], f"{where} row {i + 1} column {j + 1}"))
    if strategies is not None and not (isinstance(strategies, list)
                                       and all(isinstance(s, list) for s in strategies)):
        raise ConfigError(f"{source}: 'strategies' must be two lists of labels, got {strategies!r}")
    return NormalFormGame.from_matrices(a, b, name, players, strategies, where=where)


def _node(data: Any, where: str) -> Node:
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a node, a mapping with 'player' and 'actions' or with 'payoffs', "
                          f"got {data!r}")
    if "payoffs" in data:
        if set(data) != {"payoffs"}:
            raise ConfigError(f"{where}: a terminal node has only 'payoffs', got keys {sorted(map(str, data))}")
        cell = data["payoffs"]
        if not isinstance(cell, list) or len(cell) != 2:
            raise ConfigError(f"{where}.payoffs: expected [u1, u2], got {cell!r}")
        return Node(payoffs=(to_fraction(cell[0], f"{where}.payoffs"), to_fraction(cell[1], f"{where}.payoffs")))
    if "chance" in data:
        return _chance_node(data, where)
    if set(data) != {"player", "actions"}:
        raise ConfigError(f"{where}: a decision node has exactly 'player' and 'actions' (a terminal node has "
                          f"'payoffs', a chance node 'chance'), got keys {sorted(map(str, data))}")
    player = data["player"]
    if player not in (1, 2) or isinstance(player, bool):
        raise ConfigError(f"{where}.player: expected 1 or 2, got {player!r}")
    actions = data["actions"]
    if not isinstance(actions, dict) or not actions:
        raise ConfigError(f"{where}.actions: expected a non-empty mapping from action label to node, got {actions!r}")
    for label in actions:
        if isinstance(label, bool) or label is None:
            raise ConfigError(f"{where}.actions: the action label {label!r} is not text (YAML reads unquoted yes, no, "
                              "on, off, null as booleans or null); quote it, e.g. \"yes\"")
    return Node(player=player - 1,
                actions=tuple((str(label), _node(child, f"{where}.actions.{label}"))
                              for label, child in actions.items()))


def _chance_node(data: dict[Any, Any], where: str) -> Node:
    if set(data) != {"chance"}:
        raise ConfigError(f"{where}: a chance node has only 'chance', got keys {sorted(map(str, data))}")
    outcomes = data["chance"]
    if not isinstance(outcomes, list):
        raise ConfigError(f"{where}.chance: expected a list of [probability, node] pairs, got {outcomes!r}")
    pairs = []
    for i, pair in enumerate(outcomes):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ConfigError(f"{where}.chance outcome {i + 1}: expected [probability, node], got {pair!r}")
        pairs.append((pair[0], _node(pair[1], f"{where}.chance[{i}]")))
    return Node.chance_node(pairs, f"{where}.chance")


_CELL_SPLIT = re.compile(r"[\s;,]+")


def _from_csv(text: str, path: Path) -> NormalFormGame:
    rows = [row for row in csv.reader(text.splitlines()) if any(cell.strip() for cell in row)]
    if len(rows) < 2:
        raise ConfigError(f"'{path}': expected a header row of column strategies and at least one row of payoffs")
    columns = [c.strip() for c in rows[0][1:]]
    a: list[list[Fraction]] = []
    b: list[list[Fraction]] = []
    labels: list[str] = []
    for i, row in enumerate(rows[1:], start=2):
        if len(row) - 1 != len(columns):
            raise ConfigError(f"'{path}' line {i}: {len(row) - 1} payoff cells but the header names "
                              f"{len(columns)} column strategies; the matrix must be rectangular")
        labels.append(row[0].strip())
        a.append([])
        b.append([])
        for j, cell in enumerate(row[1:]):
            parts = [p for p in _CELL_SPLIT.split(cell.strip()) if p]
            where = f"'{path}' line {i}, column '{columns[j]}'"
            if len(parts) != 2:
                raise ConfigError(f"{where}: expected two payoffs like '2 1', got {cell!r}")
            a[-1].append(to_fraction(parts[0], where))
            b[-1].append(to_fraction(parts[1], where))
    return NormalFormGame.from_matrices(a, b, name=path.stem, strategies=[labels, columns], where=f"'{path}'")
