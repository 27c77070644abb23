"""Game families (`plyground_game_families`): games named FAMILY:MEMBER, resolved on first use, with provenance."""

from __future__ import annotations

import pytest

from framework.errors import PluginError
from framework.hookspecs import hookimpl
from framework.registry import Registry
from framework.specs import GameFamilySpec, GameSpec, HeuristicSpec
from plugins.games.tictactoe import TicTacToe


def _family(calls: list[str]) -> GameFamilySpec:
    def resolve(member: str) -> tuple[GameSpec, tuple[HeuristicSpec, ...]]:
        calls.append(member)
        if member != "ttt":
            raise PluginError(f"the boxed family has no '{member}'")
        heuristic = HeuristicSpec("nothing", "boxed:ttt", lambda game: None, "scores nothing")
        return GameSpec("boxed:ttt", TicTacToe, "tic-tac-toe in a box"), (heuristic,)

    return GameFamilySpec("boxed", resolve, lambda: [("ttt", ""), ("chess", "too big")], "games in a box")


class _Plugin:
    """A plugin object providing one family (hashable, as pluggy's sets of plugins need)."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    @hookimpl
    def plyground_game_families(self) -> list[GameFamilySpec]:
        return [_family(self.calls)]


def _plugin(calls: list[str]) -> _Plugin:
    return _Plugin(calls)


def test_a_member_is_resolved_once_on_first_use_and_credited_to_its_plugin():
    calls: list[str] = []
    registry = Registry(autoload=False)
    registry.register(_plugin(calls), name="boxes")
    assert "boxed:ttt" not in registry.games and calls == []
    game = registry.create_game("boxed:ttt")
    assert isinstance(game, TicTacToe) and calls == ["ttt"]
    registry.create_game("boxed:ttt")
    assert calls == ["ttt"] and str(registry.games["boxed:ttt"].provenance) == "plugin 'boxes'"
    assert [spec.name for spec in registry.heuristics_for("boxed:ttt")] == ["nothing"]


def test_heuristic_lookup_resolves_the_member_too():
    registry = Registry(autoload=False)
    registry.register(_plugin([]), name="boxes")
    assert registry.heuristic_spec("boxed:ttt", "nothing").help == "scores nothing"


def test_the_familys_refusal_and_unknown_families_are_plugin_errors():
    registry = Registry(autoload=False)
    registry.register(_plugin([]), name="boxes")
    with pytest.raises(PluginError, match="the boxed family has no 'go'"):
        registry.game_spec("boxed:go")
    with pytest.raises(PluginError, match="unknown game 'crate:ttt'; available games: none"):
        registry.game_spec("crate:ttt")


def test_a_family_registered_twice_names_both_plugins():
    registry = Registry(autoload=False)
    registry.register(_plugin([]), name="boxes")
    with pytest.raises(PluginError, match="game family 'boxed' is registered twice: by plugin 'boxes' and by "
                                          "plugin 'more-boxes'"):
        registry.register(_plugin([]), name="more-boxes")
