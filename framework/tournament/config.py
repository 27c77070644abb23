"""Tournament configuration: a YAML file read with `yaml.safe_load`, validated against the registry.

Every mistake is a ConfigError naming the file, the key path (`participants[2].params.depth`)
and what was expected, raised before any game starts. Agent, game and heuristic options are
checked against the Params each plugin declares (framework/params.py), so the config knows
no plugin by name.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping

import yaml

from framework.errors import ConfigError, PluginError, PositionError
from framework.params import HeuristicRef, Param
from framework.protocols import Budget
from framework.registry import Registry

FORMATS = ("round-robin", "gauntlet")
EXECUTORS = ("local", "dask")
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
DEFAULT_MOVE_TIME_LIMIT = 60.0

#: Top-level keys; the ones marked False do not change results, so a resumed run may change them.
KEYS = {"name": True, "game": True, "format": True, "champion": True, "games_per_pairing": True,
        "start_positions": True, "seed": True, "max_plies": True, "move_time_limit": True, "plugins": True,
        "participants": True, "workers": False, "results": False, "executor": False}


@dataclass(frozen=True)
class Participant:
    """An agent with its parameters and budget under an id."""

    id: str
    agent: str
    params: Mapping[str, Any]
    budget: Budget

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "agent": self.agent, "params": dict(self.params),
                "budget": {"time": self.budget.time, "nodes": self.budget.nodes}}


@dataclass(frozen=True)
class ExecutorConfig:
    """Where games run: `local` worker processes, or a Dask cluster (`address` None starts a LocalCluster)."""

    kind: str = "local"
    address: str | None = None


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament: every name resolved, every value checked, defaults filled in."""

    path: Path
    name: str
    game: str
    game_options: Mapping[str, Any]
    participants: tuple[Participant, ...]
    format: str
    champion: str | None
    games_per_pairing: int
    start_positions: tuple[str, ...]
    seed: int
    max_plies: int | None
    move_time_limit: float
    plugins: tuple[str, ...]
    workers: int
    results: Path
    executor: ExecutorConfig = field(default_factory=ExecutorConfig)

    def resolved(self) -> dict[str, Any]:
        """The settings that determine the results (not where or how fast they are computed)."""
        return {"name": self.name, "game": self.game, "game_options": dict(self.game_options),
                "participants": [p.as_dict() for p in self.participants], "format": self.format,
                "champion": self.champion, "games_per_pairing": self.games_per_pairing,
                "start_positions": list(self.start_positions), "seed": self.seed, "max_plies": self.max_plies,
                "move_time_limit": self.move_time_limit, "plugins": list(self.plugins)}

    def fingerprint(self) -> str:
        """A hash of `resolved()`: a results folder only ever holds games of one fingerprint."""
        text = json.dumps(self.resolved(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def participant(self, pid: str) -> Participant:
        return next(p for p in self.participants if p.id == pid)

    def run_settings(self) -> dict[str, Any]:
        return {"workers": self.workers, "results": str(self.results), "executor": asdict(self.executor)}


class _Reader:
    """Typed access to a YAML mapping that reports the file and key path of every mistake."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.path}: {key}: {message}" if key else f"{self.path}: {message}")

    def mapping(self, value: Any, key: str, known: Mapping[str, Any] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping of keys to values, got {value!r}")
        if known is not None:
            for k in value:
                if k not in known:
                    raise self.fail(_join(key, str(k)), f"unknown key '{k}'; known keys: {', '.join(known)}")
        return value

    def integer(self, value: Any, key: str, minimum: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(key, f"expected an integer >= {minimum}, got {value!r}")
        return value

    def number(self, value: Any, key: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise self.fail(key, f"expected a positive number of seconds, got {value!r}")
        return float(value)

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected a non-empty string, got {value!r}")
        return value

    def choice(self, value: Any, key: str, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise self.fail(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return value

    def params(self, declared: tuple[Param, ...], given: Any, key: str, owner: str) -> dict[str, Any]:
        """Check `given` against a plugin's declared Params; defaults are filled in."""
        given = {} if given is None else self.mapping(given, key)
        known = {p.name: p for p in declared}
        out = {}
        for name, value in given.items():
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise self.fail(_join(key, str(name)), f"unknown parameter '{name}' of {owner} "
                                                       f"(known parameters: {names})")
            out[name] = known[name].coerce(value, f"{self.path}: {_join(key, name)}")
        return {p.name: out.get(p.name, p.default) for p in declared}


def _join(key: str, child: str) -> str:
    return f"{key}.{child}" if key else child


def load_config(path: str | Path, registry: Registry | None = None) -> TournamentConfig:
    """Read and validate a tournament file; raise ConfigError on the first mistake."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read tournament file '{path}': {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    r = _Reader(path)
    data = r.mapping(data, "", KEYS)
    plugins = tuple(_plugin_files(r, data.get("plugins"), path.parent))
    registry = registry or Registry()
    for plugin_path in plugins:
        load_plugin_file(registry, plugin_path)

    if "game" not in data:
        raise r.fail("game", "missing; name the game to play, e.g. 'game: tictactoe'")
    game_entry = data["game"]
    if isinstance(game_entry, dict):
        game_entry = r.mapping(game_entry, "game", {"name": 1, "options": 1})
        game_name, game_key = r.string(game_entry.get("name"), "game.name"), "game.name"
        options_given = game_entry.get("options")
    else:
        game_name, game_key, options_given = r.string(game_entry, "game"), "game", None
    try:
        game_spec = registry.game_spec(game_name)
    except PluginError as exc:
        raise r.fail(game_key, str(exc)) from None
    game_options = r.params(game_spec.params, options_given, "game.options", f"game '{game_name}'")
    game = game_spec.factory(**game_options)

    participants = _participants(r, data.get("participants"), registry, game, game_name)
    ids = [p.id for p in participants]
    fmt = r.choice(data.get("format", "round-robin"), "format", FORMATS)
    champion = data.get("champion")
    if fmt == "gauntlet":
        if champion not in ids:
            raise r.fail("champion", f"a gauntlet needs the id of the participant who plays the field; "
                                     f"expected one of {', '.join(ids)}, got {champion!r}")
    elif champion is not None:
        raise r.fail("champion", "only a gauntlet has a champion; set 'format: gauntlet' or remove it")

    positions = _start_positions(r, data.get("start_positions"), path.parent, game)
    per_position = 2 * max(1, len(positions))
    default_games = per_position if positions else 2
    games_per_pairing = r.integer(data.get("games_per_pairing", default_games), "games_per_pairing", 1)
    if games_per_pairing % per_position:
        what = (f"a multiple of {per_position} so each of the {len(positions)} start positions is played "
                "with both colours" if positions else "even, so each participant plays both colours equally")
        raise r.fail("games_per_pairing", f"expected {what}, got {games_per_pairing}")

    executor = _executor(r, data.get("executor"))
    name = r.string(data.get("name", path.stem), "name")
    max_plies = data.get("max_plies")
    return TournamentConfig(
        path=path, name=name, game=game_name, game_options=game_options, participants=participants,
        format=fmt, champion=champion, games_per_pairing=games_per_pairing, start_positions=positions,
        seed=r.integer(data.get("seed", 0), "seed", 0),
        max_plies=None if max_plies is None else r.integer(max_plies, "max_plies", 1),
        move_time_limit=r.number(data.get("move_time_limit", DEFAULT_MOVE_TIME_LIMIT), "move_time_limit"),
        plugins=plugins, workers=r.integer(data.get("workers", 1), "workers", 1),
        results=Path(r.string(data.get("results", f"results/{name}"), "results")), executor=executor)


def _participants(r: _Reader, entries: Any, registry: Registry, game: Any, game_name: str) -> tuple[Participant, ...]:
    if not isinstance(entries, list) or len(entries) < 2:
        raise r.fail("participants", f"expected a list of at least two participants, got {entries!r}")
    out: list[Participant] = []
    for i, entry in enumerate(entries):
        key = f"participants[{i}]"
        entry = r.mapping(entry, key, {"id": 1, "agent": 1, "params": 1, "budget": 1})
        pid, agent, spec, params = agent_entry(r, entry, key, registry, [p.id for p in out], "participant")
        for param in spec.params:
            if param.type is HeuristicRef and params[param.name] is not None:
                try:
                    registry.heuristic_spec(game_name, params[param.name])
                except PluginError as exc:
                    raise r.fail(f"{key}.params.{param.name}", str(exc)) from None
        budget = _budget(r, entry.get("budget"), f"{key}.budget")
        try:
            registry.create_agent(agent, game, params, where=key)
        except ConfigError as exc:
            raise r.fail(key, str(exc)) from None
        out.append(Participant(pid, agent, params, budget))
    return tuple(out)


def agent_entry(r: _Reader, entry: Mapping[str, Any], key: str, registry: Registry, taken: list[str],
                kind: str) -> tuple[str, str, Any, dict[str, Any]]:
    """(id, agent name, agent spec, checked params) of an `{id, agent, params}` entry; ids must be new."""
    agent = r.string(entry.get("agent"), f"{key}.agent")
    eid = entry.get("id", agent)
    if not isinstance(eid, str) or not ID_PATTERN.match(eid):
        raise r.fail(f"{key}.id", f"expected an id of letters, digits and _.+- , got {eid!r}")
    if eid in taken:
        raise r.fail(f"{key}.id", f"'{eid}' is already the id of another {kind}; ids must be unique")
    try:
        spec = registry.agent_spec(agent)
    except PluginError as exc:
        raise r.fail(f"{key}.agent", str(exc)) from None
    return eid, agent, spec, r.params(spec.params, entry.get("params"), f"{key}.params", f"agent '{agent}'")


def _budget(r: _Reader, entry: Any, key: str) -> Budget:
    if entry is None:
        return Budget()
    entry = r.mapping(entry, key, {"time": 1, "nodes": 1})
    time_, nodes = entry.get("time"), entry.get("nodes")
    return Budget(time=None if time_ is None else r.number(time_, f"{key}.time"),
                  nodes=None if nodes is None else r.integer(nodes, f"{key}.nodes", 1))


def _executor(r: _Reader, entry: Any) -> ExecutorConfig:
    if entry is None:
        return ExecutorConfig()
    entry = r.mapping(entry, "executor", {"kind": 1, "address": 1})
    kind = r.choice(entry.get("kind", "local"), "executor.kind", EXECUTORS)
    address = entry.get("address")
    if address is not None:
        if kind != "dask":
            raise r.fail("executor.address", "only the dask executor takes an address")
        address = r.string(address, "executor.address")
    return ExecutorConfig(kind, address)


def _plugin_files(r: _Reader, entry: Any, base: Path) -> list[str]:
    if entry is None:
        return []
    if not isinstance(entry, list):
        raise r.fail("plugins", f"expected a list of Python files, got {entry!r}")
    out = []
    for i, item in enumerate(entry):
        file = (base / r.string(item, f"plugins[{i}]")).resolve()
        if not file.is_file():
            raise r.fail(f"plugins[{i}]", f"no such plugin file '{item}' (looked for {file})")
        out.append(str(file))
    return out


def load_plugin_file(registry: Registry, file: str) -> None:
    """Import a plugin module from a file and register it, once per registry (workers do this too)."""
    name = f"plyground_local_{hashlib.sha1(file.encode()).hexdigest()[:10]}"
    if name in registry.plugins:
        return
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise ConfigError(f"plugin file '{file}' failed to import: {type(exc).__name__}: {exc}") from None
    registry.register(module, name=name)


def _start_positions(r: _Reader, entry: Any, base: Path, game: Any) -> tuple[str, ...]:
    if entry is None:
        return ()
    file = base / r.string(entry, "start_positions")
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise r.fail("start_positions", f"cannot read '{file}': {exc.strerror}") from None
    out = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            state = game.from_text(text)
        except PositionError as exc:
            raise r.fail("start_positions", f"{file}, line {number}: {exc}") from None
        if game.is_terminal(state):
            raise r.fail("start_positions", f"{file}, line {number}: '{text}' is already over")
        out.append(game.to_text(state))
    if not out:
        raise r.fail("start_positions", f"'{file}' holds no positions")
    return tuple(out)
