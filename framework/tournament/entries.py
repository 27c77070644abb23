"""The entries a run's YAML file is read from, shared by the tournament config (config.py) and the tuning
settings (framework/tournament/tune.py): `Reader`, typed access that names the file and key path of every
mistake; participants (a registered agent, or a program), their budgets and time controls; SPRT settings.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from framework.engine.programs import PROTOCOLS, engine_argv, program_id, resolve_program
from framework.errors import ConfigError, PluginError, PlygroundError, quoted
from framework.params import HeuristicRef, Param, heuristic_choice
from framework.protocols import Budget
from framework.registry import Registry
from framework.specs import solve_refusal
from framework.sprt import MODELS as SPRT_MODELS
from framework.sprt import Sprt
from framework.timecontrol import TimeControl

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
#: Most games (or solves) in one run: building a million tasks takes about 7 s and 0.5 GB (measured);
#: a bigger experiment is several runs.
MAX_TASKS = 1_000_000
#: Largest node budget: searches count nodes in 64-bit integers (numba int64).
MAX_NODES = 1 << 62
#: Longest time budget or move time limit, in seconds: a week. A longer one is a typo, not a budget.
MAX_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Participant:
    """An agent with its parameters, budget and time control (None: none; its budget alone binds) under an id, or
    a program (`command`, its argv with the program's absolute path first) that speaks `protocol` ("plyground", or
    "uci" through framework.engine.uci); a program's `agent` is "" and its `params` empty, `name` is what the config
    calls it (None: its id)."""

    id: str
    agent: str
    params: Mapping[str, Any]
    budget: Budget
    time_control: TimeControl | None = None
    command: tuple[str, ...] | None = None
    protocol: str = "plyground"
    name: str | None = None

    @property
    def program(self) -> bool:
        """Whether this participant is a program rather than a registered agent."""
        return self.command is not None

    def engine_command(self) -> tuple[str, ...] | None:
        """The argv that starts its engine: the program itself, or the UCI adapter around it (None: an agent)."""
        return None if self.command is None else engine_argv(self.command, self.protocol)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "agent": self.agent, "params": dict(self.params),
                               "budget": {"time": self.budget.time, "nodes": self.budget.nodes}}
        if self.command is not None:   # absent for agents, so folders made before keep their fingerprint
            out.update(command=list(self.command), protocol=self.protocol, name=self.name)
        if self.time_control is not None:
            out["time_control"] = str(self.time_control)
        return out


class Reader:
    """Typed access to a YAML mapping that reports the file and key path of every mistake."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, message: str) -> ConfigError:
        """The error at `key`; a message that names the key itself (a plugin's, told where) does not repeat it."""
        if key and message.startswith(f"{key} "):
            message = message[len(key) + 1:]
        return ConfigError(f"{self.path}: {key}: {message}" if key else f"{self.path}: {message}")

    def mapping(self, value: Any, key: str, known: Mapping[str, Any] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping of keys to values, got {quoted(value)}")
        if known is not None:
            for k in value:
                if k not in known:
                    raise self.fail(join_key(key, label(k)), f"unknown key {quoted(k)}; known keys: "
                                                           f"{', '.join(known)}")
        return value

    def integer(self, value: Any, key: str, minimum: int, maximum: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
            raise self.fail(key, f"expected an integer from {minimum:,} to {maximum:,}, got {quoted(value)}")
        return value

    def seconds(self, value: Any, key: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_SECONDS \
                or not math.isfinite(value):
            raise self.fail(key, f"expected a positive, finite number of seconds, at most {MAX_SECONDS:,.0f} "
                                 f"(a week), got {quoted(value)}")
        return float(value)

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected a non-empty string, got {quoted(value)}")
        return value

    def filename(self, value: Any, key: str) -> str:
        """A non-empty string that can name a file (no NUL character)."""
        if "\0" in self.string(value, key):
            raise self.fail(key, f"a file name cannot hold a NUL character, got {quoted(value)}")
        return value

    def choice(self, value: Any, key: str, choices: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in choices:
            raise self.fail(key, f"expected one of {', '.join(choices)}, got {quoted(value)}")
        return value

    def params(self, declared: tuple[Param, ...], given: Any, key: str, owner: str) -> dict[str, Any]:
        """Check `given` against a plugin's declared Params; defaults are filled in."""
        given = {} if given is None else self.mapping(given, key)
        known = {p.name: p for p in declared}
        out = {}
        for name, value in given.items():
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise self.fail(join_key(key, label(name)), f"unknown parameter {quoted(name)} of {owner} "
                                                          f"(known parameters: {names})")
            out[name] = known[name].coerce(value, f"{self.path}: {join_key(key, name)}")
        return {p.name: out.get(p.name, p.default) for p in declared}


def label(key: Any) -> str:
    """A mapping key as it appears in a key path, cut short when it is long."""
    text = str(key) if isinstance(key, (str, int, float, bool)) else quoted(key)
    return text if len(text) <= 60 else text[:57] + "..."


def join_key(key: str, child: str) -> str:
    return f"{key}.{child}" if key else child


def read_sprt(r: Reader, entry: Any, at: str) -> Sprt:
    """The SPRT settings under the key path `at`: {elo0, elo1, alpha, beta, model, normalized}."""
    entry = r.mapping(entry, at, {"elo0": 1, "elo1": 1, "alpha": 1, "beta": 1, "model": 1, "normalized": 1})
    values: dict[str, Any] = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key in entry:
            value = entry[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise r.fail(f"{at}.{key}", f"expected a number, got {value!r}")
            values[key] = float(value)
        elif key in ("elo0", "elo1"):
            raise r.fail(f"{at}.{key}", "missing; the SPRT tests H0: Elo = elo0 against H1: Elo = elo1, e.g. "
                                        "'sprt: {elo0: 0, elo1: 5}'")
    values["model"] = r.choice(entry.get("model", "pentanomial"), f"{at}.model", SPRT_MODELS)
    normalized = entry.get("normalized", False)
    if not isinstance(normalized, bool):
        raise r.fail(f"{at}.normalized", f"expected true or false, got {normalized!r}")
    try:
        return Sprt(normalized=normalized, **values)
    except ConfigError as exc:
        raise r.fail(at, str(exc)) from None


def participant(r: Reader, entry: Any, registry: Registry, games: list[tuple[str, Any]], key: str, *,
                taken: Collection[str] = (), solver: bool = False, default_id: str | None = None) -> Participant:
    """One `{id, agent, params, budget}` entry at the key path `key`, its agent checked for every game (its
    parameters against what it declares; nothing is built); or a program, `{id, command, name, protocol,
    budget}` (not for tuning, `default_id`: a program declares no parameters to tune)."""
    if isinstance(entry, dict) and "command" in entry:
        if default_id:
            raise r.fail(f"{key}.command", "tuning changes an agent's declared parameters, and a program declares "
                                           "none; tune a registered agent ('agent: NAME')")
        return _program(r, entry, key, taken)
    entry = r.mapping(entry, key, {"agent": 1, "params": 1, "budget": 1, "time_control": 1} if default_id else
                      {"id": 1, "agent": 1, "params": 1, "budget": 1, "time_control": 1, "command": 1, "name": 1,
                       "protocol": 1, "options": 1})
    if "agent" not in entry:
        either = "" if default_id else " (or 'command: [PROGRAM, ARGS...]' for a program)"
        raise r.fail(f"{key}.agent", f"missing; name a registered agent{either}, e.g. 'agent: NAME'")
    for extra, instead in (("name", "an agent's is its id"), ("protocol", "an agent speaks Plyground's"),
                           ("options", "an agent's settings are its params")):
        if extra in entry:
            raise r.fail(f"{key}.{extra}", f"'{extra}' belongs to a program's participant ('command: [PROGRAM, "
                                           f"ARGS...]'); {instead}")
    agent = r.string(entry.get("agent"), f"{key}.agent")
    pid = entry.get("id", default_id or agent)
    if not isinstance(pid, str) or not ID_PATTERN.match(pid):
        raise r.fail(f"{key}.id", f"expected an id of letters, digits and _.+- , got {quoted(pid)}")
    if pid in taken:
        raise r.fail(f"{key}.id", f"'{pid}' is already the id of another participant; ids must be unique")
    try:
        spec = registry.agent_spec(agent)
    except PluginError as exc:
        raise r.fail(f"{key}.agent", str(exc)) from None
    if spec.interactive:
        raise r.fail(f"{key}.agent", f"agent '{agent}' is a person at the terminal, and tournaments run "
                                     "unattended in worker processes; play it with 'plyground play GAME "
                                     f"--first {agent}'")
    params = r.params(spec.params, entry.get("params"), f"{key}.params", f"agent '{agent}'")
    for game_name, game in games:
        for param in spec.params:
            if param.type is HeuristicRef and params[param.name] is not None:
                try:
                    registry.heuristic_spec(game_name, str(heuristic_choice(params[param.name])[0]))
                except PluginError as exc:
                    raise r.fail(f"{key}.params.{param.name}", str(exc)) from None
        try:
            registry.check_agent(agent, game, params, where=key)   # builds nothing: constructors run in engines
        except PlygroundError as exc:
            raise r.fail(key, str(exc)) from None
    budget = read_budget(r, entry.get("budget"), f"{key}.budget")
    control = None if entry.get("time_control") is None else \
        read_time_control(r, entry["time_control"], f"{key}.time_control")
    if solver and not callable(getattr(spec.factory, "solve", None)):
        able = sorted(n for n, reg in registry.agents.items() if callable(getattr(reg.spec.factory, "solve", None)))
        raise r.fail(f"{key}.agent", f"agent '{agent}' cannot solve positions (it has no solve method); "
                                     f"agents that can: {', '.join(able) or 'none'}")
    refusal = solve_refusal(spec, params) if solver else None
    if refusal is not None:
        raise r.fail(f"{key}.params", refusal)
    return Participant(pid, agent, params, budget, control)


def read_time_control(r: Reader, entry: Any, key: str) -> TimeControl:
    """A time control in fastchess's syntax (framework/timecontrol.py) at the key path `key`."""
    try:
        return TimeControl.parse(str(entry) if isinstance(entry, (int, float)) and not isinstance(entry, bool)
                                 else entry, key)
    except ConfigError as exc:
        raise r.fail(key, str(exc).removeprefix(f"{key}: ")) from None


def _program(r: Reader, entry: dict[str, Any], key: str, taken: Collection[str]) -> Participant:
    """A program's participant: `command: [PROGRAM, ARGS...]` (a path relative to the config's folder, or a name
    on PATH), optional `id`, `name`, `protocol` (plyground or uci), `options` (the program's own settings by name:
    UCI's `setoption`, the `params` of Plyground's `new`) and `budget`."""
    if "agent" in entry or "params" in entry:
        raise r.fail(key, "a participant is either an agent ('agent:', 'params:') or a program ('command:', "
                          "'options:'), not both")
    entry = r.mapping(entry, key, {"id": 1, "command": 1, "name": 1, "protocol": 1, "options": 1, "budget": 1,
                                   "time_control": 1})
    argv = entry["command"]
    if isinstance(argv, str):
        raise r.fail(f"{key}.command", f"expected a list of the program and its arguments, e.g. "
                                       f"'command: [{argv.split()[0] if argv.split() else 'PROGRAM'}, ...]', "
                                       f"got the string {quoted(argv)}")
    if not isinstance(argv, list):
        raise r.fail(f"{key}.command", f"expected a list of the program and its arguments, got {quoted(argv)}")
    try:
        command = resolve_program(argv, r.path.parent, f"{r.path}: {key}.command")
    except ConfigError as exc:
        raise ConfigError(str(exc)) from None
    protocol = r.choice(entry.get("protocol", "plyground"), f"{key}.protocol", PROTOCOLS)
    name = None if entry.get("name") is None else r.string(entry["name"], f"{key}.name")
    pid = entry.get("id", name if name is not None and ID_PATTERN.match(name) else program_id(command))
    if not isinstance(pid, str) or not ID_PATTERN.match(pid):
        raise r.fail(f"{key}.id", f"expected an id of letters, digits and _.+- , got {quoted(pid)}")
    if pid in taken:
        raise r.fail(f"{key}.id", f"'{pid}' is already the id of another participant; ids must be unique (give "
                                  "this one an 'id')")
    control = None if entry.get("time_control") is None else \
        read_time_control(r, entry["time_control"], f"{key}.time_control")
    options = r.mapping(entry.get("options") or {}, f"{key}.options", None)
    for option, value in options.items():
        if not isinstance(option, str) or not isinstance(value, (str, int, float, bool)):
            raise r.fail(f"{key}.options", f"expected NAME: VALUE (text, a number or true/false), got "
                                           f"{quoted(option)}: {quoted(value)}")
    return Participant(pid, "", dict(options), read_budget(r, entry.get("budget"), f"{key}.budget"), control,
                       command=command, protocol=protocol, name=name)


def read_budget(r: Reader, entry: Any, key: str) -> Budget:
    if entry is None:
        return Budget()
    entry = r.mapping(entry, key, {"time": 1, "nodes": 1})
    time_, nodes = entry.get("time"), entry.get("nodes")
    return Budget(time=None if time_ is None else r.seconds(time_, f"{key}.time"),
                  nodes=None if nodes is None else r.integer(nodes, f"{key}.nodes", 1, MAX_NODES))
