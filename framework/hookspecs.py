"""The complete list of Plyground's extension points.

A plugin is any module or object with functions marked `@hookimpl` and named as below.
Built-in plugins register through the `plyground` entry-point group exactly as a
third-party package does. Hooks are called by keyword, so new arguments can be added
later and implementations opt into them by naming them.
"""

from __future__ import annotations

import pluggy

from framework.specs import AgentSpec, GameFamilySpec, GameFileSpec, GameSpec, HeuristicSpec

PROJECT = "plyground"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def plyground_games() -> list[GameSpec]:
    """Return the games this plugin provides."""


@hookspec
def plyground_agents() -> list[AgentSpec]:
    """Return the agents (move choosers) this plugin provides; agents are generic over Game."""


@hookspec
def plyground_heuristics() -> list[HeuristicSpec]:
    """Return the heuristics this plugin provides, each registered for one game by name."""


@hookspec
def plyground_game_files() -> list[GameFileSpec]:
    """Return normal- or extensive-form games shipped as data files, for `plyground nash NAME`."""


@hookspec
def plyground_game_families() -> list[GameFamilySpec]:
    """Return the game families this plugin provides: games named `FAMILY:MEMBER`, each resolved on first use
    (e.g. another library's games, which take parameters and need that library installed)."""
