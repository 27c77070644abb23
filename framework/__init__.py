"""Plyground's core: protocols, plugin registry, match runner. It knows no game or algorithm by name."""

from framework.errors import ConfigError, IllegalMoveError, MoveParseError, PluginError, PlygroundError, PositionError
from framework.hookspecs import hookimpl
from framework.params import AgentRef, HeuristicRef, Param
from framework.protocols import WIN_SCORE, Agent, BaseHeuristic, Budget, Decision, Game, Heuristic, SearchStats
from framework.specs import AgentSpec, GameFileSpec, GameSpec, HeuristicSpec

__all__ = ["Agent", "AgentRef", "AgentSpec", "BaseHeuristic", "Budget", "ConfigError", "Decision", "Game",
           "GameFileSpec", "GameSpec",
           "Heuristic", "HeuristicRef", "HeuristicSpec", "IllegalMoveError", "MoveParseError", "Param",
           "PlygroundError", "PluginError", "PositionError", "SearchStats", "WIN_SCORE", "hookimpl"]
