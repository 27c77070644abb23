"""Fixtures of the agent tests: the three bindings a search written once runs in."""

import copy
import json
from pathlib import Path

import pytest

#: The figures the PN family's tests record (answer, move, drawn, extra, nodes, peak entries per search), as
#: the compiled and interpreted twins of commit 5f8f5a4 both gave them (their equality tests passed): every
#: binding of the searches written once must give them still.
PN_FIGURES = json.loads((Path(__file__).parent / "pn_figures.json").read_text())


@pytest.fixture(params=["compiled", "interpreted", "adapter"])
def binding(request, monkeypatch):
    """`binding(game)`: the game as a search sees it in one binding: compiled over its kernel, its rules
    interpreted (`PLYGROUND_JIT=0`), or a copy without its kernel, run through `framework.kernel.adapter`."""
    monkeypatch.setenv("PLYGROUND_JIT", "0" if request.param == "interpreted" else "1")

    def game_as_bound(game):
        if request.param != "adapter":
            return game
        plain = copy.copy(game)
        del plain.kernel
        return plain
    return game_as_bound
