"""Tournament configuration: a YAML file read by `framework.safeyaml`, validated against the registry.

Every mistake is a ConfigError naming the file, the key path (`participants[2].params.depth`)
and what was expected, raised before any game starts. Agent, game and heuristic options are
checked against the Params each plugin declares (framework/params.py), so the config knows
no plugin by name. Every number is bounded (the MAX_ constants below): a typo must not start
a run that cannot finish, fill the memory or overflow the results store.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from framework.adjudication import Adjudication, DrawRule, ResignRule
from framework.capabilities import player_count
from framework.errors import ConfigError, PluginError, PlygroundError, PositionError, one_line, quoted
from framework.protocols import Budget
from framework.registry import Registry, load_plugin_file
from framework.safeyaml import MAX_BYTES, load_yaml, read_text
from framework.sprt import Sprt
from framework.tournament.entries import (
    MAX_TASKS,
    Participant,
    Reader,
    participant,
    read_budget,
    read_sprt,
    read_time_control,
)
from framework.tournament.tune import read_tune

MODES = ("games", "solve", "tune")
FORMATS = ("round-robin", "gauntlet")
EXECUTORS = ("local", "dask")
DEFAULT_MOVE_TIME_LIMIT = 60.0
#: Most participants: a round-robin of 1,000 already plays 999,000 games at two per pairing.
MAX_PARTICIPANTS = 1000
#: Seeds are stored as SQLite integers (signed 64-bit).
MAX_SEED = (1 << 63) - 1
#: Longest game before adjudication: far past any game here (checkers' 40-move rule ends one in hundreds).
MAX_PLIES = 100_000
#: Longest positions file, in characters.
MAX_POSITIONS_TEXT = 16 * MAX_BYTES
#: Worker processes at most, whatever the machine: each is a Python process with numba loaded.
WORKER_CEILING = 256


def max_workers() -> int:
    """The most workers this machine runs: 4 per CPU (a worker per CPU is the useful maximum; the
    rest is headroom for workers that wait), and never more than WORKER_CEILING."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(WORKER_CEILING, 4 * cpus)


def check_workers(value: int, where: str) -> int:
    """`value` if it is a usable number of workers, else ConfigError saying the range."""
    limit = max_workers()
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise ConfigError(f"{where}: expected a number of workers from 1 to {limit} (4 per CPU on this machine, "
                          f"at most {WORKER_CEILING}), got {quoted(value)}")
    return value

COMMON_KEYS = ("name", "mode", "game", "seed", "move_time_limit", "plugins", "workers", "results", "executor",
               "memory_limit_mb")
#: Address space (MiB) a game's process may add to its warm parent's (RLIMIT_AS): an agent past it forfeits.
DEFAULT_MEMORY_LIMIT_MB = 4096
MAX_MEMORY_LIMIT_MB = 1 << 22
#: Top-level keys of each mode: `games` plays a tournament, `solve` runs solvers on positions, `tune` tunes an
#: agent's numeric parameters by SPSA (framework/tuning).
KEYS = {"games": COMMON_KEYS + ("games", "participants", "format", "champion", "games_per_pairing", "start_positions",
                                "max_plies", "sprt", "adjudication", "opening", "time_control"),
        "solve": COMMON_KEYS + ("solvers", "positions", "budget"),
        "tune": COMMON_KEYS + ("tune", "start_positions", "max_plies", "adjudication", "opening")}


@dataclass(frozen=True)
class ExecutorConfig:
    """Where games run: `local` worker processes, or a Dask cluster (`address` None starts a LocalCluster)."""

    kind: str = "local"
    address: str | None = None


@dataclass(frozen=True)
class Opening:
    """How games start: start positions in file order or shuffled by the seed, then `random_plies` random moves
    (the same for both games of a colour-swapped pair, and for every pairing in that round)."""

    order: str = "file"
    random_plies: int = 0


OPENING_ORDERS = ("file", "shuffled")
#: Most random opening plies: an opening, not a random game.
MAX_RANDOM_PLIES = 1000


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
    mode: str = "games"
    position_notes: tuple[str, ...] = ()
    games: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    sprt: Sprt | None = None
    adjudication: Adjudication | None = None
    opening: Opening | None = None
    game_positions: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (game, its own start positions) with `games`
    seats: int = 2  # players per game (the game's num_players): a pairing seats that many participants
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB
    tune: Any = None  # mode tune: the `tune` section (framework.tournament.tune.TuneSettings)

    def resolved(self) -> dict[str, Any]:
        """The settings that determine the results (not where or how fast they are computed).

    In solve mode the solvers are `participants` and the positions `start_positions`. With several
    `games`, every pairing plays `games_per_pairing` games of each.
    """
        return {"name": self.name, "game": self.game, "game_options": dict(self.game_options),
                "participants": [p.as_dict() for p in self.participants], "format": self.format,
                "champion": self.champion, "games_per_pairing": self.games_per_pairing,
                "start_positions": list(self.start_positions), "seed": self.seed, "max_plies": self.max_plies,
                "move_time_limit": self.move_time_limit, "plugins": list(self.plugins), "mode": self.mode,
                "position_notes": list(self.position_notes),
                "games": [[name, dict(options)] for name, options in self.all_games()],
                # absent when unset, so folders made before these keys existed keep their fingerprint
                **{key: asdict(value) for key, value in (("sprt", self.sprt), ("adjudication", self.adjudication),
                                                         ("opening", self.opening)) if value is not None},
                **({"game_positions": {g: list(p) for g, p in self.game_positions}} if self.game_positions else {}),
                **({"memory_limit_mb": self.memory_limit_mb}
                   if self.memory_limit_mb != DEFAULT_MEMORY_LIMIT_MB else {}),
                **({"tune": self.tune.as_dict()} if self.tune is not None else {})}

    def positions_of(self, game: str) -> tuple[str, ...]:
        """The start positions of `game`: its own file with several games, else `start_positions`."""
        return dict(self.game_positions).get(game, self.start_positions)

    def all_games(self) -> tuple[tuple[str, Mapping[str, Any]], ...]:
        """(name, options) of every game played; `game` and `game_options` are the first of them."""
        return self.games or ((self.game, self.game_options),)

    def fingerprint(self) -> str:
        """A hash of `resolved()`: a results folder only ever holds games of one fingerprint."""
        text = json.dumps(self.resolved(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def participant(self, pid: str) -> Participant:
        return next(p for p in self.participants if p.id == pid)

    def task_count(self) -> int:
        """How many tasks `scheduler.schedule` makes, computed without making them (tuning: its games, the
        validation match's at most)."""
        if self.tune is not None:
            return self.tune.games()
        return _task_count(self.mode, self.format, len(self.participants), self.games_per_pairing,
                           len(self.all_games()), len(self.start_positions), self.seats)


def _seats(r: Reader, games: list[tuple[str, Any, Any]], participants: int, fmt: str) -> int:
    """The players per game, the same for every game of the run, and enough participants to fill the seats."""
    counts = {name: player_count(game) for name, _, game in games}
    seats = counts[games[0][0]]
    if any(n != seats for n in counts.values()):
        raise r.fail("games", "every game of a run seats the same number of players; got "
                              + ", ".join(f"{name} {n}" for name, n in counts.items()))
    if participants < seats:
        raise r.fail("participants", f"{games[0][0]} seats {seats} players and there are {participants} "
                                     f"participants: add {seats - participants} more")
    return seats


def _task_count(mode: str, fmt: str, participants: int, games_per_pairing: int, games: int, positions: int,
                seats: int = 2) -> int:
    if mode == "solve":
        return positions * participants
    pairings = math.comb(participants - 1, seats - 1) if fmt == "gauntlet" else math.comb(participants, seats)
    return pairings * games_per_pairing * games


def load_config(path: str | Path, registry: Registry | None = None) -> TournamentConfig:
    """Read and validate a tournament file; raise ConfigError on the first mistake."""
    path = Path(path)
    data = load_yaml(read_text(path, MAX_BYTES, "tournament file"), str(path))
    r = Reader(path)
    data = r.mapping(data, "")
    mode = r.choice(data.get("mode", "games"), "mode", MODES)
    for key in data:
        other = next((m for m in MODES if m != mode and key in KEYS[m]), None)
        if key not in KEYS[mode] and other:
            raise r.fail(str(key), f"'{key}' belongs to 'mode: {other}', and this file is in mode {mode}")
    r.mapping(data, "", dict.fromkeys(KEYS[mode]))
    plugins = tuple(_plugin_files(r, data.get("plugins"), path.parent))
    registry = registry or Registry()
    for plugin_path in plugins:
        load_plugin_file(registry, plugin_path)

    if mode == "games" and "games" in data:
        if "game" in data:
            raise r.fail("games", "name either one 'game' or a list of 'games', not both")
        entries = data["games"]
        if not isinstance(entries, list) or not entries:
            raise r.fail("games", f"expected a list of games, got {quoted(entries)}")
        games = [_game(r, registry, entry, f"games[{i}]") for i, entry in enumerate(entries)]
        if len({name for name, _, _ in games}) < len(games):
            raise r.fail("games", "a game is listed twice; list each game once")
    elif "game" in data:
        games = [_game(r, registry, data["game"], "game")]
    else:
        raise r.fail("game", "missing; name the game to play, as 'game: NAME' ('plyground list' shows the games)")
    game_name, game_options, game = games[0]

    common: dict[str, Any] = dict(path=path, name=r.string(data.get("name", path.stem), "name"), game=game_name,
                  game_options=game_options, seed=r.integer(data.get("seed", 0), "seed", 0, MAX_SEED),
                  move_time_limit=r.seconds(data.get("move_time_limit", DEFAULT_MOVE_TIME_LIMIT), "move_time_limit"),
                  plugins=plugins, workers=check_workers(data.get("workers", 1), f"{path}: workers"),
                  executor=_executor(r, data.get("executor")), mode=mode,
                  memory_limit_mb=r.integer(data.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB), "memory_limit_mb",
                                            64, MAX_MEMORY_LIMIT_MB),
                  games=tuple((name, options) for name, options, _ in games))
    common["results"] = Path(r.filename(data.get("results", f"results/{common['name']}"), "results"))
    if mode == "solve":
        return _solve_config(r, data, registry, game, common)
    if mode == "tune":
        return _tune_config(r, data, registry, game, common)
    participants = _participants(r, data.get("participants"), registry, [(name, g) for name, _, g in games])
    if data.get("time_control") is not None:   # the tournament's, for each participant without one of its own
        control = read_time_control(r, data["time_control"], "time_control")
        participants = tuple(p if p.time_control is not None else replace(p, time_control=control)
                             for p in participants)
    ids = [p.id for p in participants]
    fmt = r.choice(data.get("format", "round-robin"), "format", FORMATS)
    champion = data.get("champion")
    if fmt == "gauntlet":
        if champion not in ids:
            raise r.fail("champion", f"a gauntlet needs the id of the participant who plays the field; "
                                     f"expected one of {', '.join(ids)}, got {quoted(champion)}")
    elif champion is not None:
        raise r.fail("champion", "only a gauntlet has a champion; set 'format: gauntlet' or remove it")

    seats = _seats(r, games, len(participants), fmt)
    if len(games) > 1 and data.get("start_positions") is not None:
        raise r.fail("start_positions", "positions are in one game's text format; with several games, give each "
                                        "game its own file: games: [{name: GAME, start_positions: FILE}, ...]")
    positions = tuple(text for text, _ in _positions(r, "start_positions", data.get("start_positions"),
                                                    path.parent, game))
    game_positions = {}  # each game's own positions file, in its own text format
    for i, (entry, (name, _, built)) in enumerate(zip(data.get("games") or [], games)):
        if isinstance(entry, dict) and entry.get("start_positions") is not None:
            game_positions[name] = tuple(text for text, _ in _positions(
                r, f"games[{i}].start_positions", entry["start_positions"], path.parent, built))
    counts = [len(p) for p in (positions, *game_positions.values()) if p]
    per_position = math.lcm(*(seats * n for n in counts)) if counts else seats
    games_per_pairing = r.integer(data.get("games_per_pairing", per_position), "games_per_pairing", 1, MAX_TASKS)
    if games_per_pairing % per_position:
        files = (f"each of the {counts[0]} start positions is" if len(counts) == 1 else
                 f"every start position of each game ({', '.join(map(str, counts))} positions) is")
        sides = "with both colours" if seats == 2 else "from every seat"
        what = (f"a multiple of {per_position} so {files} played {sides}" if counts
                else "even, so each participant plays both colours equally" if seats == 2
                else f"a multiple of {seats}, so each participant plays every seat equally often")
        raise r.fail("games_per_pairing", f"expected {what}, got {games_per_pairing}")
    tasks = _task_count("games", fmt, len(participants), games_per_pairing, len(games), len(positions), seats)
    if tasks > MAX_TASKS:
        raise r.fail("games_per_pairing", f"{games_per_pairing:,} games per pairing make {tasks:,} games in all, "
                                          f"more than the {MAX_TASKS:,} one run may hold; split the tournament "
                                          "into several runs")

    max_plies = data.get("max_plies")
    if seats > 2:
        for key in ("sprt", "adjudication"):
            if data.get(key) is not None:
                raise r.fail(key, f"'{key}' compares two players' results; {game_name} seats {seats}: remove it")
    sprt = None if data.get("sprt") is None else _sprt(r, data["sprt"], fmt, len(participants), len(games))
    adjudication = None if data.get("adjudication") is None else _adjudication(r, data["adjudication"])
    opening = None if data.get("opening") is None else _opening(r, data["opening"])
    return TournamentConfig(
        sprt=sprt, adjudication=adjudication, opening=opening, participants=participants, format=fmt,
        champion=champion, games_per_pairing=games_per_pairing, start_positions=positions,
        game_positions=tuple(game_positions.items()), seats=seats,
        max_plies=None if max_plies is None else r.integer(max_plies, "max_plies", 1, MAX_PLIES), **common)


def _sprt(r: Reader, entry: Any, fmt: str, participants: int, games: int) -> Sprt:
    """`sprt: {elo0, elo1, alpha, beta, model, normalized}`: a match of one tested participant, one game."""
    if fmt != "gauntlet" and participants != 2:
        raise r.fail("sprt", f"an SPRT tests one participant against the others: use 'format: gauntlet' or two "
                             f"participants, not a round-robin of {participants}")
    if games > 1:
        raise r.fail("sprt", "an SPRT runs on one game; run one match per game")
    return read_sprt(r, entry, "sprt")


def _adjudication(r: Reader, entry: Any) -> Adjudication:
    """`adjudication: {resign: {score, moves}, draw: {score, moves, after}}`, each rule optional."""
    entry = r.mapping(entry, "adjudication", {"resign": 1, "draw": 1})
    rules: dict[str, Any] = {}
    for name, rule, keys in (("resign", ResignRule, ("score", "moves")),
                             ("draw", DrawRule, ("score", "moves", "after"))):
        if entry.get(name) is None:
            continue
        given = r.mapping(entry[name], f"adjudication.{name}", dict.fromkeys(keys))
        for key in ("score", "moves"):
            if key not in given:
                raise r.fail(f"adjudication.{name}.{key}", f"missing; e.g. '{name}: {{score: 500, moves: 4}}' "
                                                           "(score in the engines' own units)")
        score = given["score"]
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score < math.inf:
            raise r.fail(f"adjudication.{name}.score", f"expected a number >= 0 in the engines' score units, "
                                                       f"got {score!r}")
        values: dict[str, Any] = {"score": float(score),
                                  "moves": r.integer(given["moves"], f"adjudication.{name}.moves", 1, MAX_PLIES)}
        if "after" in given:
            values["after"] = r.integer(given["after"], f"adjudication.{name}.after", 0, MAX_PLIES)
        rules[name] = rule(**values)
    return Adjudication(**rules)


def _opening(r: Reader, entry: Any) -> Opening:
    """`opening: {order: file|shuffled, random_plies: N}`."""
    entry = r.mapping(entry, "opening", {"order": 1, "random_plies": 1})
    return Opening(order=r.choice(entry.get("order", "file"), "opening.order", OPENING_ORDERS),
                   random_plies=r.integer(entry.get("random_plies", 0), "opening.random_plies", 0, MAX_RANDOM_PLIES))


def _solve_config(r: Reader, data: dict[str, Any], registry: Registry, game: Any,
                  common: dict[str, Any]) -> TournamentConfig:
    """Solve mode: every solver on every position, each within the default or its own budget."""
    if "positions" not in data:
        raise r.fail("positions", "missing; name a file of positions to solve, one per line")
    positions = _positions(r, "positions", data["positions"], r.path.parent, game)
    default = read_budget(r, data.get("budget"), "budget")
    solvers = _participants(r, data.get("solvers"), registry, [(common["game"], game)], key="solvers",
                            minimum=1, solver=True)
    solvers = tuple(p if p.budget != Budget() else replace(p, budget=default) for p in solvers)
    if len(positions) * len(solvers) > MAX_TASKS:
        raise r.fail("positions", f"{len(positions):,} positions x {len(solvers)} solvers make more than the "
                                  f"{MAX_TASKS:,} solves one run may hold; split the positions file")
    return TournamentConfig(participants=solvers, format="solve", champion=None, games_per_pairing=1,
                            start_positions=tuple(text for text, _ in positions), max_plies=None,
                            position_notes=tuple(note for _, note in positions), **common)


def _tune_config(r: Reader, data: dict[str, Any], registry: Registry, game: Any,
                 common: dict[str, Any]) -> TournamentConfig:
    """Tune mode: SPSA over the `tune` section's parameters, in colour-swapped pairs from the start positions."""
    seats = player_count(game)
    if seats != 2:
        raise r.fail("game", f"tuning scores colour-swapped pairs of two-player games; {common['game']} seats {seats}")
    if "tune" not in data:
        raise r.fail("tune", "missing; name the agent and the parameters to tune, e.g. 'tune: {agent: {agent: NAME}, "
                             "parameters: {NAME: {start: 1, min: 0, max: 2, c_end: 0.1}}, iterations: 500}'")
    tune = read_tune(r, data["tune"], registry, common["game"], game)
    positions = tuple(text for text, _ in _positions(r, "start_positions", data.get("start_positions"), r.path.parent,
                                                    game))
    max_plies = data.get("max_plies")
    return TournamentConfig(
        participants=(tune.start(),), format="tune", champion=None, games_per_pairing=2, start_positions=positions,
        max_plies=None if max_plies is None else r.integer(max_plies, "max_plies", 1, MAX_PLIES), tune=tune,
        adjudication=None if data.get("adjudication") is None else _adjudication(r, data["adjudication"]),
        opening=None if data.get("opening") is None else _opening(r, data["opening"]), **common)


def _game(r: Reader, registry: Registry, entry: Any, key: str) -> tuple[str, dict[str, Any], Any]:
    """(name, resolved options, game object) of a `game` entry: a name or {name, options}."""
    if isinstance(entry, dict):  # start_positions: read by load_config, once the game is known
        entry = r.mapping(entry, key, {"name": 1, "options": 1, "start_positions": 1})
        name, name_key, options = r.string(entry.get("name"), f"{key}.name"), f"{key}.name", entry.get("options")
    else:
        name, name_key, options = r.string(entry, key), key, None
    try:
        spec = registry.game_spec(name)
    except PluginError as exc:
        raise r.fail(name_key, str(exc)) from None
    resolved = r.params(spec.params, options, f"{key}.options", f"game '{name}'")
    try:
        game = spec.factory(**resolved)
    except PlygroundError as exc:
        raise r.fail(key, str(exc)) from None
    except Exception as exc:   # a plugin's bug: one line naming it, not a traceback
        raise r.fail(key, f"game '{name}' could not be built: {one_line(exc)}") from None
    return name, resolved, game


def _participants(r: Reader, entries: Any, registry: Registry, games: list[tuple[str, Any]], *,
                  key: str = "participants", minimum: int = 2, solver: bool = False) -> tuple[Participant, ...]:
    """Participants (or solvers), each checked by building its agent for every game; solvers must have `solve`."""
    if not isinstance(entries, list) or len(entries) < minimum:
        raise r.fail(key, f"expected a list of at least {'two' if minimum == 2 else 'one'} {key}, "
                          f"got {quoted(entries)}")
    if len(entries) > MAX_PARTICIPANTS:
        raise r.fail(key, f"{len(entries):,} {key} are more than the {MAX_PARTICIPANTS:,} one run may hold")
    out: list[Participant] = []
    for i, entry in enumerate(entries):
        out.append(participant(r, entry, registry, games, f"{key}[{i}]", taken={p.id for p in out}, solver=solver))
    return tuple(out)


def _executor(r: Reader, entry: Any) -> ExecutorConfig:
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


def _plugin_files(r: Reader, entry: Any, base: Path) -> list[str]:
    if entry is None:
        return []
    if not isinstance(entry, list):
        raise r.fail("plugins", f"expected a list of Python files, got {quoted(entry)}")
    out = []
    for i, item in enumerate(entry):
        file = base / r.filename(item, f"plugins[{i}]")
        try:
            file = file.resolve()
            found = file.is_file()
        except OSError as exc:   # a name too long, a symlink loop ...
            raise r.fail(f"plugins[{i}]", f"cannot use plugin file {quoted(item)}: {exc.strerror or exc}") from None
        if not found:
            raise r.fail(f"plugins[{i}]", f"no such plugin file '{item}' (looked for {file})")
        if file.suffix != ".py":
            raise r.fail(f"plugins[{i}]", f"'{item}' is not a Python file; a plugin file is a module ending in .py")
        out.append(str(file))
    return out


def _positions(r: Reader, key: str, entry: Any, base: Path, game: Any) -> list[tuple[str, str]]:
    """(position, note) per line of a positions file: `POSITION` or `POSITION | note`; '#' starts a comment line."""
    if entry is None:
        return []
    file = base / r.filename(entry, key)
    try:
        lines = read_text(file, MAX_POSITIONS_TEXT, "positions file").splitlines()
    except ConfigError as exc:
        raise r.fail(key, str(exc)) from None
    out = []
    for number, line in enumerate(lines, 1):
        text, _, note = (part.strip() for part in line.partition("|"))
        if not text or text.startswith("#"):
            continue
        try:
            state = game.from_text(text)
        except PositionError as exc:
            raise r.fail(key, f"{file}, line {number}: {exc}") from None
        if game.is_terminal(state):
            raise r.fail(key, f"{file}, line {number}: '{text}' is already over")
        out.append((game.to_text(state), note))
    if not out:
        raise r.fail(key, f"'{file}' holds no positions")
    return out
