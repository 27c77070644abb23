"""The registry discovers plugins through real entry points, records provenance and names failures."""

import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from framework import ConfigError, GameSpec, HeuristicSpec, PluginError, hookimpl
from framework.cli import main
from framework.match import play_game
from framework.registry import PluginLoadWarning, Registry
from plugins.agents.random_agent import RandomAgent
from plugins.games.tictactoe import TicTacToe


def test_builtins_arrive_through_the_entry_point_group_with_their_distribution(registry):
    assert {"tictactoe"} <= set(registry.games)
    assert {"random", "minimax", "alphabeta", "human"} <= set(registry.agents)
    provenance = registry.games["tictactoe"].provenance
    assert provenance.distribution == "plyground" and provenance.plugin == "tictactoe"
    assert provenance.version


def test_autoload_off_loads_no_entry_points(monkeypatch):
    monkeypatch.setenv("PLYGROUND_PLUGINS", "")
    monkeypatch.setenv("PLYGROUND_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert Registry().games == {}


def test_plugins_variable_selects_single_entry_points(monkeypatch):
    monkeypatch.setenv("PLYGROUND_PLUGINS", "tictactoe,random")
    registry = Registry()
    assert set(registry.games) == {"tictactoe"} and set(registry.agents) == {"random"}


def _write_distribution(root, dist, module, source):
    (root / f"{module}.py").write_text(textwrap.dedent(source))
    info = root / f"{dist.replace('-', '_')}-1.2.3.dist-info"  # the name part has no dashes
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.2.3\n")
    (info / "entry_points.txt").write_text(f"[plyground]\n{module} = {module}\n")


THIRD_PARTY_AGENT = """
    from framework import AgentSpec, Decision, hookimpl

    class FirstMove:
        def __init__(self, game, seed=0):
            pass
        def select_move(self, game, state, budget):
            return Decision(game.legal_moves(state)[0])

    @hookimpl
    def plyground_agents():
        return [AgentSpec("first-move", FirstMove, "always the first legal move")]
"""


def test_a_separate_installed_package_is_discovered_and_playable(tmp_path, monkeypatch):
    _write_distribution(tmp_path, "plyground-firstmove", "firstmove_plugin", THIRD_PARTY_AGENT)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PLYGROUND_PLUGINS", "plyground,plyground-firstmove")
    registry = Registry()
    assert registry.agents["first-move"].provenance.distribution == "plyground-firstmove"
    assert registry.agents["first-move"].provenance.version == "1.2.3"
    game = registry.create_game("tictactoe")
    agents = [registry.create_agent("first-move", game), registry.create_agent("first-move", game)]
    record = play_game(game, agents)
    # Both always take the first free square in reading order: X completes the top-left diagonal a3-b2-c1.
    assert [m.move for m in record.moves] == ["a3", "b3", "c3", "a2", "b2", "c2", "a1"]
    assert record.winner == 0


def test_a_plugin_that_fails_to_import_is_named_and_the_others_still_load(tmp_path, monkeypatch):
    _write_distribution(tmp_path, "plyground-broken", "broken_plugin", "raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PLYGROUND_PLUGINS", "plyground,plyground-broken")
    with pytest.warns(PluginLoadWarning, match=r"plugin 'broken_plugin' from plyground-broken.*boom"):
        registry = Registry()
    assert "tictactoe" in registry.games and "broken_plugin" in registry.failed


def test_a_duplicate_name_from_another_distribution_names_both_and_the_rest_stays_usable(tmp_path, monkeypatch,
                                                                                          capsys):
    """It used to raise from Registry(), so every command failed, `list` included."""
    source = THIRD_PARTY_AGENT.replace('"first-move"', '"random"')
    _write_distribution(tmp_path, "plyground-impostor", "impostor_plugin", source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PLYGROUND_PLUGINS", "plyground,plyground-impostor")
    clash = (r"agent 'random' is registered twice: by plugin '\w+' from (plyground|plyground-impostor) .* and by "
             r"plugin '\w+' from (plyground|plyground-impostor)")
    with pytest.warns(PluginLoadWarning, match=clash):
        registry = Registry()
    with pytest.raises(PluginError, match=clash):
        registry.agent_spec("random")
    assert registry.create_game("tictactoe").name == "tictactoe" and registry.agent_spec("minimax")
    with pytest.warns(PluginLoadWarning):
        assert main(["list"]) == 0
    assert "registered twice" in capsys.readouterr().out


class _DuplicateGames:
    @staticmethod
    @hookimpl
    def plyground_games():
        return [GameSpec("twice", TicTacToe, "x"), GameSpec("twice", TicTacToe, "y")]


def test_a_plugin_registering_one_name_twice_is_refused():
    registry = Registry(autoload=False)
    with pytest.raises(PluginError, match="game 'twice' is registered twice"):
        registry.register(_DuplicateGames, name="dup")
    assert registry.games == {}


def test_registering_the_same_plugin_name_twice_is_refused(registry):
    with pytest.raises(PluginError, match="a plugin named 'tictactoe' is already registered"):
        registry.register(object(), name="tictactoe")


class _RaisingHook:
    @staticmethod
    @hookimpl
    def plyground_agents():
        raise ValueError("cannot list agents")


def test_a_plugin_whose_hook_raises_is_named_and_skipped():
    registry = Registry(autoload=False)
    with pytest.warns(PluginLoadWarning, match="plugin 'raiser' was not loaded: ValueError: cannot list agents"):
        registry.register(_RaisingHook, name="raiser")
    assert "raiser" in registry.failed and registry.agents == {}


def test_unknown_names_list_what_exists(registry):
    with pytest.raises(PluginError, match=r"unknown game 'chess'; available games: .*tictactoe"):
        registry.create_game("chess")
    with pytest.raises(PluginError, match=r"unknown agent 'stockfish'; available agents: .*alphabeta"):
        registry.create_agent("stockfish", TicTacToe())


class _OtherGameHeuristic:
    @staticmethod
    @hookimpl
    def plyground_heuristics():
        return [HeuristicSpec("material", "othergame", object, "for another game")]


def test_a_heuristic_of_another_game_is_refused_with_the_choices(registry):
    own = Registry(autoload=False)
    own.register(sys.modules["plugins.games.tictactoe"], name="ttt")
    own.register(sys.modules["plugins.agents.alphabeta"], name="ab")
    own.register(_OtherGameHeuristic, name="other")
    game = own.create_game("tictactoe")
    with pytest.raises(ConfigError, match=r"'heuristic': heuristic 'material' belongs to othergame, not to "
                                          r"'tictactoe'; heuristics for tictactoe: lines, thesis"):
        own.create_agent("alphabeta", game, {"depth": 2, "heuristic": "material"})
    with pytest.raises(ConfigError, match="unknown heuristic 'nope' for game 'tictactoe'"):
        own.create_agent("alphabeta", game, {"depth": 2, "heuristic": "nope"})


def test_agent_parameters_are_validated_naming_the_key(registry):
    game = registry.create_game("tictactoe")
    with pytest.raises(ConfigError, match=r"agent 'minimax': 'depth' must be an integer, got 'deep'"):
        registry.create_agent("minimax", game, {"depth": "deep"})
    with pytest.raises(ConfigError, match=r"unknown parameter 'dpeth' \(known parameters: depth, heuristic\)"):
        registry.create_agent("minimax", game, {"dpeth": 3})


def test_heuristic_names_resolve_to_objects_for_the_agent(registry):
    game = registry.create_game("tictactoe")
    agent = registry.create_agent("alphabeta", game, {"depth": 2, "heuristic": "thesis"})
    assert agent.heuristic.name == "thesis"
    assert registry.create_agent("alphabeta", game, {"depth": 2}).heuristic.name == "lines"


def test_programmatic_registration_records_no_distribution():
    registry = Registry(autoload=False)
    registry.register(sys.modules["plugins.agents.random_agent"], name="rnd")
    assert registry.agents["random"].provenance.distribution is None
    assert isinstance(registry.create_agent("random", TicTacToe(), seed=3), RandomAgent)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert str(registry.agents["random"].provenance) == "plugin 'rnd'"


def test_the_agent_tutorial_plugin_installs_and_plays(tmp_path, monkeypatch):
    source = (Path(__file__).parents[2] / "docs" / "tutorials" / "greedy" / "plyground_greedy.py").read_text()
    _write_distribution(tmp_path, "my-plugin", "my_plugin", source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PLYGROUND_PLUGINS", "plyground,my-plugin")
    registry = Registry()
    game = registry.create_game("tictactoe")
    greedy = registry.create_agent("greedy", game)
    state = game.from_text("XX./OO./... x")
    assert game.format_move(state, greedy.select_move(game, state, None).move) == "c3"
    record = play_game(game, [greedy, registry.create_agent("random", game, seed=1)])
    assert record.termination.value == "normal"
