"""The plugin registry: pluggy wrapped, entry points loaded, names resolved.

Every game, agent and heuristic — built-in or third-party — arrives through the
`plyground` entry-point group (or `Registry.register` for programmatic use). The
registry records which plugin and distribution provided each name, refuses duplicate
names (naming both providers), and names a plugin that fails to load instead of
failing the whole run.

Environment variables (as pytest's PYTEST_DISABLE_PLUGIN_AUTOLOAD / PYTEST_PLUGINS):
- PLYGROUND_DISABLE_PLUGIN_AUTOLOAD=1: load no entry points...
- PLYGROUND_PLUGINS=dist-or-entry-point,...: ...except these, even when autoload is off.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Generic, TypeVar

import pluggy

from framework import hookspecs
from framework.agentspec import parse_agent_spec
from framework.capabilities import capabilities, declared, has_chance, player_count
from framework.errors import ConfigError, PluginError
from framework.params import AgentRef, HeuristicRef, heuristic_choice, resolve_params
from framework.protocols import Agent, Game, Heuristic
from framework.specs import AgentSpec, GameFamilySpec, GameFileSpec, GameSpec, HeuristicSpec

ENTRY_POINT_GROUP = "plyground"
#: Agents naming agents (a fallback's fallback ...) nest at most this deep; deeper is taken for a cycle.
MAX_AGENT_NESTING = 8
DISABLE_AUTOLOAD_ENV = "PLYGROUND_DISABLE_PLUGIN_AUTOLOAD"
PLUGINS_ENV = "PLYGROUND_PLUGINS"

T = TypeVar("T")


class PluginLoadWarning(UserWarning):
    """A plugin failed to load; the others still did."""


@dataclass(frozen=True)
class Provenance:
    """Who provided a registered name."""

    plugin: str
    distribution: str | None = None
    version: str | None = None

    def __str__(self) -> str:
        if self.distribution is None:
            return f"plugin '{self.plugin}'"
        return f"plugin '{self.plugin}' from {self.distribution} {self.version}"


@dataclass(frozen=True)
class Registered(Generic[T]):
    """A spec plus where it came from."""

    spec: T
    provenance: Provenance


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


class Registry:
    """Games, agents and heuristics by name, with the plugins that provided them."""

    def __init__(self, *, autoload: bool | None = None, plugins: Iterable[Any] = ()) -> None:
        """`autoload=None` follows the environment variables; True loads every entry point; False none."""
        self._pm = pluggy.PluginManager(hookspecs.PROJECT)
        self._pm.add_hookspecs(hookspecs)
        self.games: dict[str, Registered[GameSpec]] = {}
        self.agents: dict[str, Registered[AgentSpec]] = {}
        self.heuristics: dict[tuple[str, str], Registered[HeuristicSpec]] = {}
        self.game_files: dict[str, Registered[GameFileSpec]] = {}
        #: Game families by name: their members `FAMILY:MEMBER` join `games` (and their heuristics
        #: `heuristics`) when first looked up.
        self.families: dict[str, Registered[GameFamilySpec]] = {}
        self.plugins: dict[str, Provenance] = {}
        self.failed: dict[str, str] = {}
        self.clashes: dict[tuple[str, str], str] = {}  # (kind, name) registered twice -> the message naming both
        self._tried: set[tuple[str, str]] = set()  # entry points loaded (or failed) already
        if autoload is None:
            self.load_entry_points()
        elif autoload:
            self._load_entry_points(all_=True, wanted=set())
        for plugin in plugins:
            self.register(plugin)

    # -- loading -----------------------------------------------------------------

    def load_entry_points(self, only: Collection[str] | None = None) -> None:
        """Load the entry points the environment variables allow that are not loaded yet: every one,
        or those named in `only` (a tournament worker loads what its games use first, the rest on demand)."""
        wanted = {_normalise(n) for n in os.environ.get(PLUGINS_ENV, "").split(",") if n.strip()}
        self._load_entry_points(all_=not os.environ.get(DISABLE_AUTOLOAD_ENV), wanted=wanted, only=only)

    def _load_entry_points(self, all_: bool, wanted: set[str], only: Collection[str] | None = None) -> None:
        seen: set[tuple[str, str]] = set()
        about: dict[int, tuple[str, str]] = {}  # per distribution, its name and version: metadata parsed once
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            if (ep.name, ep.value) in seen:
                continue
            seen.add((ep.name, ep.value))
            if (only is not None and ep.name not in only) or (ep.name, ep.value) in self._tried:
                continue
            dist = version = None
            if ep.dist is not None:
                if id(ep.dist) not in about:
                    meta = ep.dist.metadata  # parsed on each access, as `dist.name` and `dist.version` do
                    about[id(ep.dist)] = meta["Name"], meta["Version"]
                dist, version = about[id(ep.dist)]
            if not all_ and _normalise(ep.name) not in wanted and _normalise(dist or "") not in wanted:
                continue
            self._tried.add((ep.name, ep.value))
            try:
                plugin = ep.load()
            except Exception as exc:  # a broken plugin is named, the others still load
                self._fail(ep.name, dist, f"import of '{ep.value}' failed: {type(exc).__name__}: {exc}")
                continue
            try:
                self.register(plugin, name=ep.name, distribution=dist, version=version)
            except PluginError as exc:  # a clash: this plugin is not loaded, the rest stay usable
                self._fail(ep.name, dist, str(exc))

    def _fail(self, name: str, dist: str | None, reason: str) -> None:
        who = f"plugin '{name}'" + (f" from {dist}" if dist else "")
        self.failed[name] = reason
        warnings.warn(f"{who} was not loaded: {reason}", PluginLoadWarning, stacklevel=3)

    def register(self, plugin: Any, *, name: str | None = None,
                 distribution: str | None = None, version: str | None = None) -> None:
        """Register a plugin object or module and collect what its hooks provide.

        Duplicate names raise PluginError naming both providers; a hook that raises makes
        the plugin fail to load with a PluginLoadWarning, leaving the registry unchanged.
        """
        name = name or getattr(plugin, "__name__", None) or repr(plugin)
        if name in self.plugins:
            raise PluginError(f"a plugin named '{name}' is already registered ({self.plugins[name]})")
        provenance = Provenance(name, distribution, version)
        self._pm.register(plugin, name=name)
        try:
            provided = {hook: self._call_own(plugin, hook)
                        for hook in ("plyground_games", "plyground_agents", "plyground_heuristics",
                                     "plyground_game_files", "plyground_game_families")}
        except Exception as exc:
            self._pm.unregister(plugin)
            self._fail(name, distribution, f"{type(exc).__name__}: {exc}")
            return
        additions: list[tuple[dict, Any, Any]] = []
        for spec in provided["plyground_games"]:
            additions.append((self.games, spec.name, spec))
        for spec in provided["plyground_agents"]:
            additions.append((self.agents, spec.name, spec))
        for spec in provided["plyground_heuristics"]:
            additions.append((self.heuristics, (spec.game, spec.name), spec))
        for spec in provided["plyground_game_files"]:
            additions.append((self.game_files, spec.name, spec))
        for spec in provided["plyground_game_families"]:
            additions.append((self.families, spec.name, spec))
        for spec in provided["plyground_games"]:
            missing = missing_members(spec.factory) if isinstance(spec.factory, type) else []
            if missing:
                self._pm.unregister(plugin)
                raise PluginError(f"game '{spec.name}' of {provenance}: {spec.factory.__name__} "
                                  f"{_lacks(missing)}")
        for spec in provided["plyground_agents"]:
            bound = spec.memory_bound
            if bound is not None and bound.param not in {p.name for p in spec.params}:
                self._pm.unregister(plugin)
                raise PluginError(f"agent '{spec.name}' of {provenance} declares its memory bounded by "
                                  f"'{bound.param}', which is not one of its parameters; name a declared one")
        staged: dict[int, set] = {}
        for table, key, _ in additions:
            clash = table.get(key)
            if clash is not None or key in staged.setdefault(id(table), set()):
                self._pm.unregister(plugin)
                other = clash.provenance if clash is not None else provenance
                kind = {id(self.games): "game", id(self.agents): "agent",
                        id(self.game_files): "game file", id(self.families): "game family"}.get(id(table), "heuristic")
                label = key if isinstance(key, str) else f"{key[1]}' for game '{key[0]}"
                message = (f"{kind} '{label}' is registered twice: by {other} and by {provenance}; "
                           "uninstall or rename one of them")
                self.clashes[(kind, label)] = message
                raise PluginError(message)
            staged[id(table)].add(key)
        for table, key, spec in additions:
            table[key] = Registered(spec, provenance)
        self.plugins[name] = provenance

    def _call_own(self, plugin: Any, hook_name: str) -> list:
        """What `plugin`'s own implementation of the hook returns: the hook called through pluggy (by
        keyword, as every hook is) with every other registered plugin left out, so each name is booked to
        the plugin that provided it."""
        others = [p for p in self._pm.get_plugins() if p is not plugin]
        caller = self._pm.subset_hook_caller(hook_name, remove_plugins=others)
        return [spec for provided in caller() for spec in provided]

    # -- lookup ------------------------------------------------------------------

    def game_spec(self, name: str) -> GameSpec:
        self._resolve_member(name)
        return self._lookup(self.games, name, "game").spec

    def agent_spec(self, name: str) -> AgentSpec:
        return self._lookup(self.agents, name, "agent").spec

    def game_file_spec(self, name: str) -> GameFileSpec:
        return self._lookup(self.game_files, name, "game file").spec

    def _lookup(self, table: Mapping[str, Registered[T]], name: str, kind: str) -> Registered[T]:
        """The entry for `name`, refused when two plugins provide it (whichever loaded first would be a guess)."""
        if (kind, name) in self.clashes:
            raise PluginError(self.clashes[(kind, name)])
        try:
            return _lookup(table, name, kind)
        except PluginError as exc:  # the name may be one a plugin that failed to load would have provided
            if not self.failed:
                raise
            failed = "; ".join(f"'{plugin}': {reason}" for plugin, reason in self.failed.items())
            raise PluginError(f"{exc}; plugins not loaded: {failed}") from None

    def _resolve_member(self, game: str) -> None:
        """Register the game `FAMILY:MEMBER` of a registered family, with its heuristics, if not registered yet;
        the family's PluginError (an unknown or refused member) propagates."""
        family, colon, member = game.partition(":")
        if game in self.games or not colon or family not in self.families:
            return
        entry = self.families[family]
        spec, heuristics = entry.spec.resolve(member)
        self.games[game] = Registered(spec, entry.provenance)
        for heuristic in heuristics:
            self.heuristics[(game, heuristic.name)] = Registered(heuristic, entry.provenance)

    def heuristic_spec(self, game: str, name: str) -> HeuristicSpec:
        self._resolve_member(game)
        if ("heuristic", f"{name}' for game '{game}") in self.clashes:
            raise PluginError(self.clashes[("heuristic", f"{name}' for game '{game}")])
        key = (game, name)
        if key in self.heuristics:
            return self.heuristics[key].spec
        elsewhere = sorted(g for g, n in self.heuristics if n == name)
        here = ", ".join(sorted(n for g, n in self.heuristics if g == game)) or "none"
        if elsewhere:
            raise PluginError(f"heuristic '{name}' belongs to {', '.join(elsewhere)}, not to '{game}'; "
                              f"heuristics for {game}: {here}")
        raise PluginError(f"unknown heuristic '{name}' for game '{game}'; heuristics for {game}: {here}")

    def default_for(self, option: str) -> str:
        """The game or agent a plugin declares the default of `option` ("COMMAND --OPTION"), e.g. for
        `plyground play` without `--second`: so the core names no built-in. None declared, or two, is an error."""
        named = [(r.spec.name, r.provenance) for table in (self.games, self.agents) for r in table.values()
                 if option in r.spec.default_for]
        if not named:
            raise ConfigError(f"no plugin declares a default for '{option}'; give the option explicitly")
        if len(named) > 1:
            raise PluginError(f"two plugins declare the default for '{option}': '{named[0][0]}' by {named[0][1]} "
                              f"and '{named[1][0]}' by {named[1][1]}; give the option explicitly")
        return named[0][0]

    def heuristics_for(self, game: str) -> list[HeuristicSpec]:
        self._resolve_member(game)
        return [r.spec for (g, _), r in self.heuristics.items() if g == game]

    # -- construction ------------------------------------------------------------

    def create_game(self, name: str, options: Mapping[str, Any] | None = None, where: str = "game") -> Game:
        spec = self.game_spec(name)
        game = spec.factory(**resolve_params(spec.params, options or {}, f"{where} '{name}'"))
        missing = missing_members(game)
        if missing:
            raise PluginError(f"game '{name}' of {self.games[name].provenance}: the object its factory built "
                              f"{_lacks(missing)}")
        return game

    def create_heuristic(self, game: Game, name: str | None = None,
                         options: Mapping[str, Any] | None = None, where: str = "heuristic") -> Heuristic | None:
        """Build a heuristic for `game`; None picks the game's `default_heuristic`, if any."""
        if name is None:
            name = capabilities(game).default_heuristic
            if name is None:
                return None
        spec = self.heuristic_spec(game.name, name)
        return spec.factory(game, **resolve_params(spec.params, options or {}, f"{where} '{name}'"))

    def create_agent(self, name: str, game: Game, params: Mapping[str, Any] | None = None,
                     seed: int = 0, where: str = "agent", _nesting: int = 0) -> Agent:
        """Build an agent for `game`, resolving heuristic names to heuristic objects and agent
        references (AgentRef parameters) to agents built here with the same game and seed."""
        spec = self.agent_spec(name)
        context = f"{where} '{name}'"
        self.check_plays(spec, game, context)
        resolved = resolve_params(spec.params, params or {}, context)
        for param in spec.params:
            if param.type is HeuristicRef:
                try:
                    resolved[param.name] = self.create_heuristic(game, *heuristic_choice(resolved[param.name]),
                                                                 where=f"{context}: '{param.name}': heuristic")
                except PluginError as exc:
                    raise ConfigError(f"{context}: '{param.name}': {exc}") from None
            elif param.type is AgentRef and resolved[param.name] is not None:
                resolved[param.name] = self._agent_ref(resolved[param.name], game, seed,
                                                       f"{context}: '{param.name}'", _nesting)
        return spec.factory(game=game, seed=seed, **resolved)

    def check_agent(self, name: str, game: Game, params: Mapping[str, Any] | None = None, where: str = "agent",
                    _nesting: int = 0) -> AgentSpec:
        """Check, without building anything, what `create_agent` would: the agent plays `game`, its parameters
        fit what it declares, its heuristics and the agents it names exist (and those agents' parameters fit).
        An agent's constructor is an engine's code: it runs in the agent's engine process, never here."""
        spec = self.agent_spec(name)
        context = f"{where} '{name}'"
        self.check_plays(spec, game, context)
        resolved = resolve_params(spec.params, params or {}, context)
        for param in spec.params:
            value = resolved[param.name]
            if param.type is HeuristicRef and value is not None:
                try:
                    self.heuristic_spec(game.name, str(heuristic_choice(value)[0]))
                except PluginError as exc:
                    raise ConfigError(f"{context}: '{param.name}': heuristic: {exc}") from None
            elif param.type is AgentRef and value is not None:
                if _nesting >= MAX_AGENT_NESTING:
                    raise ConfigError(f"{context}: '{param.name}': agents naming agents nest more than "
                                      f"{MAX_AGENT_NESTING} deep; is there a cycle?")
                if isinstance(value, str):
                    inner, inner_params = parse_agent_spec(value, f"{context}: '{param.name}'")
                else:
                    inner_params = dict(value)
                    inner = inner_params.pop("agent")
                try:
                    self.check_agent(inner, game, inner_params, f"{context}: '{param.name}'", _nesting + 1)
                except PluginError as exc:
                    raise ConfigError(f"{context}: '{param.name}': {exc}") from None
        return spec

    def plays(self, spec: AgentSpec, game: Game) -> bool:
        """Whether the agent of `spec` plays `game` (`check_plays` finds nothing to refuse)."""
        try:
            self.check_plays(spec, game, "agent")
        except ConfigError:
            return False
        return True

    def check_plays(self, spec: AgentSpec, game: Game, where: str) -> None:
        """A ConfigError when the agent cannot play `game`: the game has chance nodes or more than two players
        and the agent's spec does not declare it plays such games (`AgentSpec.chance`, `multiplayer`), or the
        game lacks a capability the agent needs (`AgentSpec.needs`), or the agent plays only other games
        (`AgentSpec.games`)."""
        if spec.games and game.name not in spec.games:
            raise ConfigError(f"{where} plays {', '.join(spec.games)} only, not {game.name}")
        seats = player_count(game)
        if seats > 2 and not spec.multiplayer:
            able = ", ".join(sorted(r.spec.name for r in self.agents.values() if r.spec.multiplayer))
            raise ConfigError(f"{where} plays two-player games only; {game.name} has {seats} players: "
                              f"use one of {able}")
        if has_chance(game) and not spec.chance:
            able = ", ".join(sorted(r.spec.name for r in self.agents.values() if r.spec.chance))
            raise ConfigError(f"{where} cannot search chance nodes and {game.name} has them: use one of {able}")
        offered = capabilities(game)
        for name in spec.needs:
            if getattr(offered, name) is None:
                raise ConfigError(f"{where} needs the game capability '{name}' and {game.name} has none: "
                                  f"{declared(name).help}")

    def _agent_ref(self, value: str | Mapping[str, Any], game: Game, seed: int, where: str, nesting: int) -> Agent:
        if nesting >= MAX_AGENT_NESTING:
            raise ConfigError(f"{where}: agents naming agents nest more than {MAX_AGENT_NESTING} deep; "
                              "is there a cycle?")
        if isinstance(value, str):
            name, params = parse_agent_spec(value, where)
        else:
            params = dict(value)
            name = params.pop("agent")
        try:
            return self.create_agent(name, game, params, seed=seed, where=where, _nesting=nesting + 1)
        except PluginError as exc:
            raise ConfigError(f"{where}: {exc}") from None


#: The members every game has (framework/protocols.py, `Game`), in the protocol's order, and of them the
#: data members (`name`, the `player_names` property), which a game may set in its `__init__`.
GAME_MEMBERS: tuple[str, ...] = (*Game.__annotations__, *(n for n in vars(Game) if not n.startswith("_")))
GAME_DATA = frozenset(n for n in GAME_MEMBERS if not callable(getattr(Game, n, None)))


def missing_members(game: Any) -> list[str]:
    """The members of the Game protocol that `game` lacks.

    A game class without an `__init__` of its own is checked whole at registration, so a first game
    missing `name` is named there rather than failing later inside an agent; a class with its own
    `__init__` may set data members (`player_names` from its options) there, so only its methods are
    checked until an instance exists (`Registry.create_game` checks that), and a class that forwards
    attributes (`__getattr__`, as a wrapper may) only as an instance.
    """
    if isinstance(game, type):
        own = {n for c in game.__mro__[:-1] for n in vars(c)}
        if "__getattr__" in own:
            return []
        if "__init__" in own:
            return [n for n in GAME_MEMBERS if n not in GAME_DATA and not hasattr(game, n)]
    return [n for n in GAME_MEMBERS if not hasattr(game, n)]


def _lacks(missing: list[str]) -> str:
    return (f"lacks {', '.join(missing)} of the Game protocol (framework/protocols.py): "
            f"add {'it' if len(missing) == 1 else 'them'}, see docs/tutorials/first-game.md")


def _lookup(table: Mapping[str, Registered[T]], name: str, kind: str) -> Registered[T]:
    if name in table:
        return table[name]
    known = ", ".join(sorted(table)) or "none"
    raise PluginError(f"unknown {kind} '{name}'; available {kind}s: {known}")


def load_plugin_file(registry: Registry, file: str) -> None:
    """Import a plugin module from a file and register it, once per registry (workers do this too)."""
    name = f"plyground_local_{hashlib.sha1(file.encode()).hexdigest()[:10]}"
    if name in registry.plugins:
        return
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise ConfigError(f"plugin file '{file}' is not a Python module; a plugin file ends in .py")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise ConfigError(f"plugin file '{file}' failed to import: {type(exc).__name__}: {exc}") from None
    registry.register(module, name=name)


class WorkerRegistry(Registry):
    """A worker's registry: only the named entry points at first, every other one when a name is missing.

    Importing every installed plugin can cost a fresh worker process more than hundreds of fast
    games; the supervisor names the plugins that provide the tournament's games, agents and
    heuristics, and anything else (an agent that names another agent) still resolves, because a
    lookup that fails loads the remaining entry points and looks again.
    """

    def __init__(self, entry_points: tuple[str, ...]) -> None:
        super().__init__(autoload=False)
        self.load_entry_points(entry_points)
        self.complete = False

    def _retry(self, lookup: Callable[..., Any], *args: Any) -> Any:
        try:
            return lookup(*args)
        except PluginError:
            if self.complete:
                raise
        self.complete = True
        self.load_entry_points()
        return lookup(*args)

    def game_spec(self, name: str) -> GameSpec:
        return self._retry(super().game_spec, name)

    def agent_spec(self, name: str) -> AgentSpec:
        return self._retry(super().agent_spec, name)

    def game_file_spec(self, name: str) -> GameFileSpec:
        return self._retry(super().game_file_spec, name)

    def heuristic_spec(self, game: str, name: str) -> HeuristicSpec:
        return self._retry(super().heuristic_spec, game, name)

    def heuristics_for(self, game: str) -> list[HeuristicSpec]:
        if not self.complete:
            self.complete = True
            self.load_entry_points()
        return super().heuristics_for(game)
