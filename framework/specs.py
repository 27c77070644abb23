"""What a plugin hands to the registry: a name, a factory and declared parameters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from framework.params import Param


@dataclass(frozen=True)
class GameSpec:
    """A game: `factory(**options)` returns a Game."""

    name: str
    factory: Callable[..., object]
    help: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class AgentSpec:
    """An agent: `factory(game=..., seed=..., **params)` returns an Agent.

    Parameters of type HeuristicRef arrive resolved: the factory receives the Heuristic
    object built for the agent's game, never the name.
    """

    name: str
    factory: Callable[..., object]
    help: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class HeuristicSpec:
    """A heuristic for one game: `factory(game, **params)` returns a Heuristic."""

    name: str
    game: str
    factory: Callable[..., object]
    help: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class GameFileSpec:
    """A game-theory example shipped as a data file (YAML or CSV), read by `framework.gametheory.files`."""

    name: str
    path: str
    help: str
