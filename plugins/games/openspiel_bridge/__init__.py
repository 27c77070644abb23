"""OpenSpiel's games as Plyground games: `openspiel:NAME` is OpenSpiel's game NAME (e.g. `openspiel:connect_four`).

OpenSpiel (DeepMind; `pip install -e '.[openspiel]'`) holds a hundred games. Every one that is perfect-
information and sequential, with chance nodes or more than two players included, is a Plyground game
here, made on first use (a game family, framework/hookspecs.py): its options are OpenSpiel's parameters
with OpenSpiel's defaults (`--option players=3`, YAML `options:`), its default heuristic the average of
seeded random playouts (heuristics.py). The rest are refused with one line saying why:
imperfect-information games (players see different things), simultaneous-move games, one-player games,
two-player games that are not zero-sum, and games whose chance OpenSpiel only samples (no exact
probabilities). `plyground list --family openspiel` lists every game with its verdict. The bridge itself
(states, notation, text) is game.py.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from functools import partial
from typing import Any

from framework.errors import ConfigError, PluginError, quoted
from framework.hookspecs import hookimpl
from framework.params import Param
from framework.specs import GameFamilySpec, GameSpec, HeuristicSpec, first_line
from plugins.games.openspiel_bridge.game import OpenSpielGame
from plugins.games.openspiel_bridge.heuristics import PlayoutHeuristic

FAMILY = "openspiel"
INSTALL = "pip install -e '.[openspiel]'"
#: The most playouts one evaluation of the `playouts` heuristic may ask for.
MAX_PLAYOUTS = 10_000
#: The largest value an integer option of an OpenSpiel game may take here: this many times its default, and at
#: least MIN_INT_BOUND (`connect_four` with rows=5000 was accepted, and its page was megabytes).
INT_BOUND_FACTOR = 10
MIN_INT_BOUND = 100


def _pyspiel() -> Any:
    """OpenSpiel's Python module, or a PluginError saying what to install."""
    try:
        import pyspiel
    except ImportError:
        raise PluginError(f"the {FAMILY}:NAME games need OpenSpiel, which is not installed: {INSTALL}") from None
    return pyspiel


def _type_refusal(game_type: Any) -> str:
    """Why a game of this OpenSpiel GameType cannot be a Plyground game ("" when it can)."""
    kind = type(game_type)
    if game_type.information != kind.Information.PERFECT_INFORMATION:
        return ("an imperfect-information game (players see different things); Plyground plays "
                "perfect-information games only")
    if game_type.dynamics != kind.Dynamics.SEQUENTIAL:
        return "not a sequential game (players move simultaneously); Plyground's players take turns"
    if game_type.chance_mode == kind.ChanceMode.SAMPLED_STOCHASTIC:
        return "OpenSpiel only samples its chance outcomes; Plyground needs their exact probabilities"
    return ""


def _game_refusal(spiel_game: Any) -> str:
    """Why a loaded OpenSpiel game (its parameters applied) cannot be a Plyground game ("" when it can)."""
    game_type = spiel_game.get_type()
    reason = _type_refusal(game_type)
    if reason:
        return reason
    if spiel_game.num_players() < 2:
        return "a one-player game; Plyground's games have at least two seats"
    if spiel_game.num_players() == 2 and game_type.utility != type(game_type).Utility.ZERO_SUM:
        return (f"a two-player game that is not zero-sum ({game_type.utility.name.lower()}); Plyground's two "
                "players win, draw or lose")
    return ""


def _load(member: str, options: dict[str, Any]) -> Any:
    pyspiel = _pyspiel()
    try:
        return pyspiel.load_game(member, options)
    except pyspiel.SpielError as exc:
        given = f" with the options {quoted(options)}" if options else ""
        raise ConfigError(f"game '{FAMILY}:{member}': OpenSpiel cannot load it{given}: {str(exc).strip()}") from None


def make_game(member: str, defaults: dict[str, Any], **options: Any) -> OpenSpielGame:
    """OpenSpiel's game `member` with `options` (only those that differ from OpenSpiel's defaults are passed,
    so the game's string, the head of every position text, names only what was changed)."""
    changed = {key: value for key, value in options.items() if value != defaults.get(key)}
    spiel_game = _load(member, changed)
    reason = _game_refusal(spiel_game)
    if reason:
        raise ConfigError(f"game '{FAMILY}:{member}' with the options {quoted(changed)} is refused: {reason}")
    return OpenSpielGame(f"{FAMILY}:{member}", spiel_game)


def _game_types() -> dict[str, Any]:
    return {game_type.short_name: game_type for game_type in _pyspiel().registered_games()}


def resolve(member: str) -> tuple[GameSpec, tuple[HeuristicSpec, ...]]:
    """The GameSpec of `openspiel:MEMBER` and its heuristic; a PluginError for an unknown or refused game."""
    game_type = _game_types().get(member)
    name = f"{FAMILY}:{member}"
    if game_type is None:
        raise PluginError(f"unknown game '{name}': OpenSpiel has no game '{member}'; "
                          f"'plyground list --family {FAMILY}' lists those Plyground can play")
    reason = _type_refusal(game_type)
    if reason:
        raise PluginError(f"game '{name}' is refused: {reason}")
    defaults = dict(game_type.parameter_specification)
    params = tuple(_param(key, value) for key, value in sorted(defaults.items()))
    spec = GameSpec(name, partial(make_game, member, defaults), f"OpenSpiel's {game_type.long_name}", params)
    heuristic = HeuristicSpec(PlayoutHeuristic.name, name, PlayoutHeuristic, first_line(PlayoutHeuristic), (
        Param("playouts", int, 8, "random playouts averaged per evaluation", minimum=1, maximum=MAX_PLAYOUTS),
        Param("seed", int, 0, "seeds the playouts (with the state's history)", minimum=0),
    ))
    return spec, (heuristic,)


def _param(key: str, default: Any) -> Param:
    """An OpenSpiel parameter as a Param; an integer one is bounded (INT_BOUND_FACTOR), OpenSpiel bounds none."""
    if isinstance(default, bool) or not isinstance(default, int):
        return Param(key, type(default), default, f"OpenSpiel's parameter '{key}'")
    bound = max(MIN_INT_BOUND, INT_BOUND_FACTOR * abs(default))
    return Param(key, int, default, f"OpenSpiel's parameter '{key}' (at most {bound:,} here)", maximum=bound)


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The process's stderr (file descriptor 2) silenced: OpenSpiel's C++ writes there when a game it loads
    looks for a data file (`OpenSpiel exception: ... CHECK_TRUE(fd_)`) or has known issues, which a listing
    reports as the game's refusal anyway."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def members() -> list[tuple[str, str]]:
    """Every OpenSpiel game as (name, why it is refused or "" when it is playable), by name."""
    out = []
    with _quiet_stderr():
        for member, game_type in sorted(_game_types().items()):
            reason = _type_refusal(game_type)
            if not reason:
                try:
                    reason = _game_refusal(_load(member, {}))
                except ConfigError as exc:
                    reason = str(exc).partition(": ")[2]
            out.append((member, reason))
    return out


@hookimpl
def plyground_game_families() -> list[GameFamilySpec]:
    return [GameFamilySpec(FAMILY, resolve, members,
                           f"OpenSpiel's perfect-information games as {FAMILY}:NAME (needs {INSTALL})")]
