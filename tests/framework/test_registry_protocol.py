"""A game missing members of the Game protocol is named at registration, by what it lacks, not later
inside an agent ("the agent could not be built: AttributeError ...")."""

import pytest

from framework import GameSpec, PluginError, hookimpl
from framework.cli import main
from framework.conformance import ConformanceFailure, check_game_object
from framework.protocols import Game
from framework.registry import GAME_MEMBERS, PluginLoadWarning, Registry, missing_members
from tests.framework.test_registry import _write_distribution

#: The tutorial's first step as a newcomer may type it: the rules, but neither `name` nor `player_names`.
NAMELESS_RACE = """
    from framework import GameSpec, hookimpl

    class Race:
        def initial_state(self): return (0, 0)
        def to_move(self, state): return state[1]
        def legal_moves(self, state): return [] if state[0] == 10 else [n for n in (1, 2, 3) if state[0] + n <= 10]
        def apply(self, state, move): return (state[0] + move, 1 - state[1])
        def is_terminal(self, state): return state[0] == 10
        def returns(self, state): return (-1.0, 1.0) if state[1] == 0 else (1.0, -1.0)
        def format_move(self, state, move): return f"+{move}"
        def parse_move(self, state, text): return int(text[1:])
        def render(self, state): return str(state)
        def to_text(self, state): return f"{state[0]} {state[1]}"
        def from_text(self, text): return tuple(map(int, text.split()))

    @hookimpl
    def plyground_games():
        return [GameSpec("race", Race, "race to 10")]
"""


def test_the_members_are_read_from_the_protocol_itself():
    assert set(GAME_MEMBERS) == {"name", "player_names", "initial_state", "to_move", "legal_moves", "apply",
                                 "is_terminal", "returns", "format_move", "parse_move", "render", "to_text",
                                 "from_text"}
    assert all(hasattr(Game, n) or n in Game.__annotations__ for n in GAME_MEMBERS)


def test_an_installed_game_missing_members_is_named_at_registration_and_by_the_command_line(tmp_path, monkeypatch,
                                                                                            capsys):
    _write_distribution(tmp_path, "plyground-race", "race_plugin", NAMELESS_RACE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PLYGROUND_PLUGINS", "plyground,plyground-race")
    lacks = r"game 'race' of plugin 'race_plugin' from plyground-race 1.2.3: Race lacks name, player_names of the " \
            r"Game protocol \(framework/protocols.py\)"
    with pytest.warns(PluginLoadWarning, match=lacks):
        registry = Registry()
    assert "race" not in registry.games and "tictactoe" in registry.games
    with pytest.raises(PluginError, match=r"unknown game 'race'; .*plugins not loaded: 'race_plugin': " + lacks):
        registry.create_game("race")
    with pytest.warns(PluginLoadWarning):
        assert main(["play", "race", "--first", "random", "--second", "random"]) == 2
    err = capsys.readouterr().err
    assert "lacks name, player_names of the Game protocol" in err and "agent could not be built" not in err


class _Half:
    """A game class with only some methods: named at registration with every missing one."""

    name = "half"
    player_names = ("a", "b")

    def initial_state(self):
        return 0


class _HalfPlugin:
    @staticmethod
    @hookimpl
    def plyground_games():
        return [GameSpec("half", _Half, "half a game")]


def test_a_programmatic_registration_is_refused_and_leaves_the_registry_unchanged():
    registry = Registry(autoload=False)
    with pytest.raises(PluginError, match=r"game 'half' of plugin 'half': _Half lacks to_move, legal_moves, apply, "
                                          r"is_terminal, returns, format_move, parse_move, render, to_text, from_text "
                                          r"of the Game protocol"):
        registry.register(_HalfPlugin, name="half")
    assert registry.games == {} and "half" not in registry.plugins


class _Seated:
    """Sets its data members in `__init__` (as games with a `players` option do): only methods are checked
    on the class, the data members on the object the factory builds."""

    def __init__(self, named: bool = True) -> None:
        if named:
            self.name = "seated"
        self.player_names = ("a", "b")

    initial_state = to_move = legal_moves = apply = is_terminal = returns = _Half.initial_state
    format_move = parse_move = render = to_text = from_text = _Half.initial_state


def test_data_members_set_in_init_are_checked_on_the_built_game():
    assert missing_members(_Seated) == [] and missing_members(_Seated()) == []
    assert missing_members(_Seated(named=False)) == ["name"]

    class Plugin:
        @staticmethod
        @hookimpl
        def plyground_games():
            return [GameSpec("seated", lambda: _Seated(named=False), "x")]

    registry = Registry(autoload=False)
    registry.register(Plugin, name="seated")
    with pytest.raises(PluginError, match=r"game 'seated' of plugin 'seated': the object its factory built lacks "
                                          r"name of the Game protocol"):
        registry.create_game("seated")


class _Forwarding:
    """A wrapper that forwards every attribute to the game it wraps: complete only as an instance."""

    def __init__(self) -> None:
        from plugins.games.tictactoe import TicTacToe
        self._inner = TicTacToe()

    def __getattr__(self, name):
        return getattr(self._inner, name)


def test_a_forwarding_class_is_checked_as_the_object_it_builds():
    assert missing_members(_Forwarding) == [] and missing_members(_Forwarding()) == []


def test_every_built_in_game_has_every_member(registry):
    for name in registry.games:
        assert missing_members(registry.game_spec(name).factory) == []
        assert missing_members(registry.create_game(name)) == []


def test_the_conformance_suite_names_the_same_members():
    with pytest.raises(ConformanceFailure, match="missing: to_move, legal_moves"):
        check_game_object(_Half())
