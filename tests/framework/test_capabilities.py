"""Optional game capabilities: declared once, read through one accessor, kept or hidden by wrappers by rule."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from framework.capabilities import CAPABILITIES, Capabilities, GameWrapper, capabilities, declared
from framework.errors import PluginError

ROOT = Path(__file__).resolve().parents[2]


class Shuffle(GameWrapper):
    def legal_moves(self, state):
        return list(reversed(self._game.legal_moves(state)))


class Reframed(GameWrapper):
    """Overrides nothing a capability depends on."""

    name = "reframed"


def test_every_capability_is_read_off_the_game_and_absent_ones_are_none(registry):
    loa = capabilities(registry.create_game("loa"))
    assert loa.kernel is not None and loa.hash_key is not None and loa.default_heuristic == "concentration"
    assert loa.repetition_limit == 3 and loa.offers("repetition_limit")
    matches = capabilities(registry.create_game("matches"))
    assert matches.kernel is None and matches.hash_key is None and not matches.offers("kernel")


def test_a_capability_set_to_none_is_still_offered(registry):
    """A checkers game without a repetition draw still tells solvers that positions repeat."""
    offered = capabilities(registry.create_game("checkers", {"repetition_limit": None}))
    assert offered.repetition_limit is None and offered.offers("repetition_limit")


def test_an_unknown_capability_name_is_an_error_naming_the_declared_ones():
    with pytest.raises(PluginError, match="'kernal' is not a declared game capability; declared: hash_key"):
        declared("kernal")
    with pytest.raises(PluginError, match="'kernal'"):
        Capabilities().offers("kernal")
    with pytest.raises(AttributeError):
        capabilities(object()).kernal  # type: ignore[attr-defined]  # noqa: B018


def test_the_protocol_docs_list_every_declared_capability():
    from framework.protocols import Game

    for name in CAPABILITIES:
        assert f"`{name}" in Game.__doc__, name


def test_a_wrapper_hides_exactly_the_capabilities_depending_on_what_it_overrides(registry):
    game = registry.create_game("loa")
    shuffled = capabilities(Shuffle(game))
    hidden = {name for name in CAPABILITIES if CAPABILITIES[name].depends_on & {"legal_moves"}}
    assert hidden == {"ordered_moves", "perft", "kernel", "exact_values"}
    assert all(getattr(shuffled, name) is None for name in hidden)
    assert shuffled.hash_key is not None and shuffled.is_noisy is not None and shuffled.end_reason is not None
    kept = capabilities(Reframed(game))
    assert all((getattr(kept, n) is None) == (getattr(capabilities(game), n) is None) for n in CAPABILITIES)
    assert Reframed(game).name == "reframed" and Shuffle(game).name == "loa"


def test_the_hidden_capability_names_the_overridden_method(registry):
    with pytest.raises(AttributeError, match="Shuffle hides the capability 'kernel': it overrides legal_moves"):
        Shuffle(registry.create_game("loa")).kernel  # noqa: B018


def test_no_module_probes_a_capability_by_name():
    """Capabilities are read through `capabilities(game)`; a getattr/hasattr with a declared name is a probe."""
    probes = []
    for path in [*ROOT.glob("framework/**/*.py"), *ROOT.glob("plugins/**/*.py"), *ROOT.glob("benchmarks/*.py")]:
        if path.name == "capabilities.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value in CAPABILITIES):
                probes.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id}(..., {node.args[1].value!r})")
    assert not probes, probes
