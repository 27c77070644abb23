"""What a plugin hands to the registry: a name, a factory and declared parameters."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from framework.params import Param
from framework.protocols import Agent, Game, Heuristic


def doc_help(obj: object) -> str:
    """The first paragraph of `obj`'s docstring on one line: a spec's help taken from the class it registers,
    whole (a docstring's first line alone may stop mid-sentence)."""
    return " ".join((obj.__doc__ or "").split("\n\n")[0].split())


@dataclass(frozen=True)
class GameSpec:
    """A game: `factory(**options)` returns a Game.

    `default_for` names the command-line options (as `"COMMAND --OPTION"`) this game is the default
    of, so the core names no game: `Registry.default_for` resolves them.
    """

    name: str
    factory: Callable[..., Game]
    help: str
    params: tuple[Param, ...] = ()
    default_for: tuple[str, ...] = ()


@dataclass(frozen=True)
class MemoryBound:
    """The parameter that bounds an agent's memory, and what its value counts (for reports)."""

    param: str
    holds: str


@dataclass(frozen=True)
class AgentSpec:
    """An agent: `factory(game=..., seed=..., **params)` returns an Agent.

    Parameters of type HeuristicRef arrive resolved: the factory receives the Heuristic
    object built for the agent's game, never the name. What reports need to know of an agent is
    declared here, beside it: `algorithm`, the published algorithm it implements as reports name it
    (e.g. "proof-number search"); `memory_bound`, the parameter bounding its memory; `nodes`, what
    one of its nodes counts. `default_for`: the command-line options it is the default of (see GameSpec).
    `chance` and `multiplayer`: whether it plays games with chance nodes and with more than two players;
    `needs`: the game capabilities it cannot do without (framework/capabilities.py); `games`: the only games
    it plays (a game's own strategy; empty: any game); the registry refuses to
    build it for a game it cannot play, so `validate` names the mismatch.
    `interactive`: a person chooses its moves, so `plyground play` asks it in its own process with no time
    budget, `plyground serve` takes its moves from the page, and tournaments (unattended) refuse it.
    `solve_ignores`: parameters its `solve` does not use (a solver that proves with wins and losses ignores an
    evaluation): solve mode and `plyground solve` refuse them, naming each, rather than run as if they mattered.
    """

    name: str
    factory: Callable[..., Agent]
    help: str
    params: tuple[Param, ...] = ()
    algorithm: str = ""
    memory_bound: MemoryBound | None = None
    nodes: str = ""
    default_for: tuple[str, ...] = ()
    chance: bool = False
    multiplayer: bool = False
    needs: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    interactive: bool = False
    solve_ignores: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeuristicSpec:
    """A heuristic for one game: `factory(game, **params)` returns a Heuristic."""

    name: str
    game: str
    factory: Callable[..., Heuristic]
    help: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class GameFamilySpec:
    """Games named `NAME:MEMBER`, made on demand: a plugin bridging another library's games cannot list
    them all up front (they take parameters, and the library may be absent), so the registry asks it.

    `resolve(member)` returns the member's GameSpec (named `NAME:MEMBER`) with the heuristics registered
    for it, or raises PluginError saying why the member is unknown or refused; `members()` lists every
    member as `(member, reason)`, the reason empty when the member is playable (`plyground list --family`).
    """

    name: str
    resolve: Callable[[str], tuple[GameSpec, tuple[HeuristicSpec, ...]]]
    members: Callable[[], list[tuple[str, str]]]
    help: str


@dataclass(frozen=True)
class GameFileSpec:
    """A game-theory example shipped as a data file (YAML or CSV), read by `framework.gametheory.files`."""

    name: str
    path: str
    help: str


def first_line(documented: object) -> str:
    """The first line of an object's docstring: a spec's one-line help taken from the class it registers."""
    return (documented.__doc__ or "").partition("\n")[0]


def solve_refusal(spec: AgentSpec, params: Mapping[str, Any]) -> str | None:
    """Why `params` cannot go to the solver of `spec` (None: nothing to refuse): the first parameter set to a value
    that its `solve` ignores (`AgentSpec.solve_ignores`)."""
    for name in spec.solve_ignores:
        if params.get(name) is not None:
            return (f"'{name}' has no effect when agent '{spec.name}' solves (it proves with wins and losses only, "
                    f"and never evaluates a position); remove it")
    return None

