"""What plugins declare in their specs beside a name and a factory: defaults for options, memory bounds."""

from __future__ import annotations

import pytest

from framework.errors import ConfigError, PluginError
from framework.hookspecs import hookimpl
from framework.params import Param
from framework.registry import Registry
from framework.specs import AgentSpec, MemoryBound


class Plugin:
    def __init__(self, *specs: AgentSpec) -> None:
        self.specs = specs

    @hookimpl
    def plyground_agents(self) -> list[AgentSpec]:
        return list(self.specs)


def _registry(*specs: AgentSpec) -> Registry:
    registry = Registry(autoload=False)
    registry.register(Plugin(*specs), name="test")
    return registry


def test_a_default_is_the_one_agent_or_game_a_plugin_declares_for_the_option(registry):
    assert registry.default_for("play --second") == "alphabeta"
    assert registry.default_for("play --first") == "human"
    assert registry.default_for("make-endgames --game") == "loa"


def test_an_option_without_a_declared_default_must_be_given():
    with pytest.raises(ConfigError, match="no plugin declares a default for 'play --second'; give the option"):
        _registry().default_for("play --second")


def test_two_declared_defaults_for_one_option_are_an_error_naming_both():
    registry = _registry(AgentSpec("a", object, "a", default_for=("play --second",)),
                         AgentSpec("b", object, "b", default_for=("play --second",)))
    with pytest.raises(PluginError, match="two plugins declare the default for 'play --second': 'a' by .* and 'b'"):
        registry.default_for("play --second")


def test_a_memory_bound_must_name_a_declared_parameter():
    with pytest.raises(PluginError, match="agent 'x' of plugin 'test' declares its memory bounded by 'size'"):
        _registry(AgentSpec("x", object, "x", (Param("limit", int, 1, "most nodes"),),
                            memory_bound=MemoryBound("size", "nodes")))


def test_the_built_in_solvers_declare_their_memory_bound_and_algorithm(registry):
    declared = {name: (r.spec.memory_bound.param, r.spec.algorithm) for name, r in registry.agents.items()
                if r.spec.memory_bound is not None}
    assert declared == {"alphabeta": ("tt_size", "alpha-beta"), "pns": ("tree_limit", "proof-number search"),
                        "pn2": ("tree_limit", "PN²"), "dfpn": ("tt_size", "df-pn"), "pds": ("tt_size", "PDS"),
                        "pdspn": ("tt_size", "PDS-PN"), "mcts": ("iterations", "Monte-Carlo tree search"),
                        "openspiel-mcts": ("simulations", "Monte-Carlo tree search")}


def test_a_person_is_the_agent_its_plugin_declares_interactive_not_one_with_an_attribute_of_that_name():
    from framework.web.play import parse_seat

    class Probe:
        interactive = True   # not a declaration: an engine that happens to have this attribute

    registry = _registry(AgentSpec("typist", Probe, "a person", interactive=True),
                         AgentSpec("probe", Probe, "an engine"))
    assert parse_seat(registry, "typist", "first").human
    assert not parse_seat(registry, "probe", "first").human
    assert Registry().agent_spec("human").interactive
