"""The `tune` section of a tournament file: the agent, the parameters SPSA moves, and the validation match.

A parameter is any int or float Param the agent declares (`depth`), or one of its heuristic's, named
`PARAM.NAME` after the agent's heuristic parameter (`heuristic.king_value`): the tuned values reach the
heuristic as `{name: HEURISTIC, options: {NAME: value}}` (framework/params.py, HeuristicRef). Every
mistake is one line naming the file and the key (`tune.parameters.heuristic.king_value.start`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from framework.capabilities import capabilities
from framework.errors import ConfigError, PluginError, quoted
from framework.params import HeuristicRef, Param, heuristic_choice
from framework.registry import Registry
from framework.sprt import Sprt
from framework.tournament.entries import MAX_TASKS, Participant, Reader, participant, read_sprt

#: fishtest's default learning rate at the last iteration (its SPSA form's `r_end`).
DEFAULT_R_END = 0.002
#: Most iterations played from one θ (a batch of game pairs in flight at once).
MAX_BATCH = 1000
KEYS = ("agent", "parameters", "iterations", "batch", "validate")
PARAM_KEYS = ("start", "min", "max", "c_end", "r_end")


@dataclass(frozen=True)
class TunedParam:
    """One parameter SPSA moves within [min, max]; `integer` ones are rounded when a game is made."""

    name: str
    start: float
    min: float
    max: float
    c_end: float
    r_end: float
    integer: bool


@dataclass(frozen=True)
class Validation:
    """The match of the tuned agent against its start values: at most `games`, stopped early by `sprt`."""

    games: int
    sprt: Sprt | None = None


@dataclass(frozen=True)
class TuneSettings:
    """The validated `tune` section: `agent` holds the agent's other parameters and its budget."""

    agent: Participant
    parameters: tuple[TunedParam, ...]
    iterations: int
    batch: int = 1
    validate: Validation | None = None

    def params_at(self, values: Mapping[str, float]) -> dict[str, Any]:
        """The agent's parameters with each tuned one set to `values[name]` (a heuristic's in its options)."""
        params = dict(self.agent.params)
        integer = {p.name for p in self.parameters if p.integer}
        for name, value in values.items():
            value = round(value) if name in integer else value
            owner, _, option = name.partition(".")
            if not option:
                params[name] = value
                continue
            heuristic, options = heuristic_choice(params[owner])
            params[owner] = {"name": heuristic, "options": {**options, option: value}}
        return params

    def start(self) -> Participant:
        """The agent at its start values, under the id `start` (the validation match's reference)."""
        values = {p.name: p.start for p in self.parameters}
        return Participant("start", self.agent.agent, self.params_at(values), self.agent.budget)

    def games(self) -> int:
        """Games of the tuning (a pair per iteration) and of the validation match at most."""
        return 2 * self.iterations + (self.validate.games if self.validate else 0)

    def warnings(self) -> list[str]:
        """What in the parameters' settings makes SPSA probe badly, one line each (`validate` and `run` print
        them): a last perturbation wider than the whole range (every probe is clamped to min and max), or under
        0.5 on an integer parameter (θ ± c rounds to θ: the late pairs play the same values and learn nothing)."""
        out = []
        for p in self.parameters:
            key = f"tune.parameters.{p.name}.c_end"
            if p.c_end > p.max - p.min:
                out.append(f"{key} {p.c_end:g} exceeds the range max - min = {p.max - p.min:g}: every probe is "
                           f"clamped to min and max; give a c_end of a few percent of the range")
            if p.integer and p.c_end < 0.5:
                out.append(f"{key} {p.c_end:g} is below 0.5 on an integer parameter: θ ± c_end rounds to θ, so the "
                           "last iterations' two games play the same values and learn nothing; give c_end >= 0.5 "
                           "(1 or more is usual)")
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"agent": self.agent.as_dict(), "parameters": [asdict(p) for p in self.parameters],
                "iterations": self.iterations, "batch": self.batch,
                "validate": None if self.validate is None else asdict(self.validate)}


def read_tune(r: Reader, entry: Any, registry: Registry, game_name: str, game: Any) -> TuneSettings:
    """The `tune` section, checked against the agent's (and its heuristic's) declared Params."""
    entry = r.mapping(entry, "tune", dict.fromkeys(KEYS))
    if "agent" not in entry:
        raise r.fail("tune.agent", "missing; the agent to tune, e.g. 'agent: {agent: NAME, params: {...}}'")
    agent = participant(r, entry["agent"], registry, [(game_name, game)], "tune.agent", default_id="tuned")
    declared = declared_params(registry, agent, game)
    if entry.get("parameters") is None:
        raise r.fail("tune.parameters", "missing; the parameters SPSA moves, each with start, min, max and c_end, "
                                        "e.g. 'parameters: {depth: {start: 3, min: 1, max: 8, c_end: 1}}'")
    given = r.mapping(entry["parameters"], "tune.parameters")
    if not given:
        raise r.fail("tune.parameters", "expected at least one parameter to tune")
    parameters = tuple(_parameter(r, str(name), spec, declared, agent.agent) for name, spec in given.items())
    if entry.get("iterations") is None:
        raise r.fail("tune.iterations", f"missing; how many SPSA iterations to play (a game pair each), from 1 to "
                                        f"{MAX_TASKS // 2:,}, e.g. 'iterations: 200'")
    iterations = r.integer(entry["iterations"], "tune.iterations", 1, MAX_TASKS // 2)
    batch = r.integer(entry.get("batch", 1), "tune.batch", 1, MAX_BATCH)
    validate = None if entry.get("validate") is None else _validation(r, entry["validate"])
    return TuneSettings(agent, parameters, iterations, batch, validate)


def declared_params(registry: Registry, agent: Participant, game: Any) -> dict[str, Param]:
    """The agent's Params by name and its heuristic's as `PARAM.NAME` (SPSA moves the int and float ones)."""
    spec = registry.agent_spec(agent.agent)
    out = {p.name: p for p in spec.params}
    for param in spec.params:
        if param.type is HeuristicRef:
            name = heuristic_choice(agent.params.get(param.name))[0] or capabilities(game).default_heuristic
            if name is None:
                continue
            try:
                heuristic = registry.heuristic_spec(game.name, name)
            except PluginError:   # config.participant already refused an unknown heuristic
                continue
            out.update({f"{param.name}.{p.name}": p for p in heuristic.params})
    return out


def _parameter(r: Reader, name: str, entry: Any, declared: dict[str, Param], agent: str) -> TunedParam:
    key = f"tune.parameters.{name}"
    numeric = [n for n, p in declared.items() if p.type in (int, float)]
    if name not in declared:
        raise r.fail(key, f"unknown parameter '{name}'; the numeric parameters of agent '{agent}' (its heuristic's "
                          f"as HEURISTIC_PARAM.NAME) are: {', '.join(numeric) or 'none'}")
    param = declared[name]
    if param.type not in (int, float):
        raise r.fail(key, f"'{name}' is {param.describe()}, not a number; SPSA tunes int and float parameters: "
                          f"{', '.join(numeric) or 'none'}")
    if param.choices is not None:
        raise r.fail(key, f"'{name}' takes only the values {', '.join(map(str, param.choices))}; SPSA tunes "
                          "parameters over a range")
    entry = r.mapping(entry, key, dict.fromkeys(PARAM_KEYS))
    values: dict[str, float] = {}
    for field in PARAM_KEYS:
        value = entry.get(field, DEFAULT_R_END if field == "r_end" else None)
        if value is None:
            raise r.fail(f"{key}.{field}", "missing; a tuned parameter needs start, min, max and c_end (the "
                                           "perturbation at the last iteration), e.g. '{start: 100, min: 50, "
                                           "max: 400, c_end: 20}'")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise r.fail(f"{key}.{field}", f"expected a finite number, got {quoted(value)}")
        values[field] = float(value)
    for field in ("min", "max"):
        if param.type is int and values[field] != int(values[field]):
            raise r.fail(f"{key}.{field}", f"'{name}' is an integer parameter: expected an integer, got "
                                           f"{quoted(entry[field])}")
        try:
            param.coerce(int(values[field]) if param.type is int else values[field], f"{r.path}: {key}.{field}")
        except ConfigError as exc:
            raise ConfigError(f"{exc} (the bound of what the plugin accepts)") from None
    if not values["min"] < values["max"]:
        raise r.fail(key, f"expected min < max, got min {values['min']:g} and max {values['max']:g}")
    if not values["min"] <= values["start"] <= values["max"]:
        raise r.fail(f"{key}.start", f"{values['start']:g} is outside [min, max] = [{values['min']:g}, "
                                     f"{values['max']:g}]")
    for field, meaning in (("c_end", "the perturbation at the last iteration"),
                           ("r_end", "the learning rate at the last iteration")):
        if values[field] <= 0:
            raise r.fail(f"{key}.{field}", f"expected a number > 0 ({meaning}), got {quoted(entry[field])}")
    return TunedParam(name, integer=param.type is int, **values)


def _validation(r: Reader, entry: Any) -> Validation:
    entry = r.mapping(entry, "tune.validate", {"games": 1, "sprt": 1})
    games = r.integer(entry.get("games"), "tune.validate.games", 2, MAX_TASKS)
    if games % 2:
        raise r.fail("tune.validate.games", f"expected an even number, so each side plays both colours equally; "
                                            f"got {games}")
    sprt = None if entry.get("sprt") is None else read_sprt(r, entry["sprt"], "tune.validate.sprt")
    return Validation(games, sprt)
