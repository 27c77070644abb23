"""Which binding `kernel: auto` chooses for every built-in game and every search agent that plays it, and why:
compiled wherever the game has a kernel with the primitives the search calls, else the adapter with the
reason (`SearchStats.extra["binding"]`, `["binding_reason"]`). A cell that falls back to the adapter fails
here; the table in docs/guide/speed.md is this matrix, checked cell by cell.

Rolit with two players gets alpha-beta and the proof-number family compiled through its kernel's
`search_key`, `is_capture` and `move_rank`, checkers expectiminimax, max^n and paranoid through its
`player_return` and `pass_to`, and LOA the same three through its `pass_to` alone (an end scored by `outcome`,
which takes LOA's `simultaneous_win` option: `binding.needed_here`): checked node for node against the
interpreted and adapter bindings.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from framework.kernel import numba_backend
from framework.kernel.binding import decision_state
from framework.playouts import final_positions
from framework.protocols import Budget
from framework.registry import Registry
from plugins.games.checkers import Checkers
from plugins.games.rolit import Rolit

#: (column label, game, options)
GAMES = [("tictactoe", "tictactoe", {}), ("matches", "matches", {}), ("checkers", "checkers", {}),
         ("loa", "loa", {}), ("pig", "pig", {}), ("einstein", "einstein", {}),
         ("rolit-2", "rolit", {"players": 2}), ("rolit-3", "rolit", {"players": 3}),
         ("rolit-4", "rolit", {"players": 4})]
AGENTS = ["alphabeta", "pns", "pn2", "dfpn", "pds", "pdspn", "expectiminimax", "maxn", "paranoid", "brs"]
PN = ("pns", "pn2", "dfpn", "pds", "pdspn")


def expected(label: str, agent: str) -> str:
    """The cell: `compiled`, `adapter: REASON`, or `-` (the agent does not play the game)."""
    if label in ("tictactoe", "matches"):
        return "-" if agent == "brs" else f"adapter: {label} has no kernel"
    if label in ("checkers", "loa"):
        return "-" if agent == "brs" else "compiled"
    if label in ("pig", "einstein"):
        return "compiled" if agent in ("expectiminimax", "maxn", "paranoid") else "-"
    if label == "rolit-2":
        return "compiled"
    return "compiled" if agent in ("maxn", "paranoid", "brs") else "-"


@pytest.fixture(scope="module")
def registry() -> Registry:
    found = Registry()
    found.load_entry_points()
    return found


def chosen(registry: Registry, name: str, options: dict[str, Any], agent: str) -> str:
    """What `auto` chose for `agent` on the game, as `expected` writes it, from one decision of one node."""
    game = registry.create_game(name, options)
    spec = registry.agent_spec(agent)
    if not registry.plays(spec, game):
        return "-"
    params = {"depth": 1} if any(p.name == "depth" for p in spec.params) else {}
    decision = registry.create_agent(agent, game, params).select_move(game, decision_state(game), Budget(nodes=1))
    extra = decision.stats.extra
    return extra["binding"] if extra["binding"] != "adapter" else f"adapter: {extra['binding_reason']}"


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize(("label", "name", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_auto_binds_each_search_on_each_built_in_game_as_the_matrix_says(
        registry: Registry, label: str, name: str, options: dict[str, Any], agent: str) -> None:
    want = expected(label, agent)
    if want == "compiled" and not numba_backend.enabled():
        want = "interpreted"
    assert chosen(registry, name, options, agent) == want


def test_the_guide_prints_the_matrix_the_test_asserts() -> None:
    """docs/guide/speed.md's table: a row per agent, a column per game, `compiled`, `adapter` or `-`."""
    text = (Path(__file__).resolve().parents[3] / "docs" / "guide" / "speed.md").read_text()
    header = "| agent | " + " | ".join(label for label, _, _ in GAMES) + " |"
    assert header in text
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.strip().startswith("| ") and cells[0] in AGENTS:
            rows[cells[0]] = cells[1:]
    assert set(rows) == set(AGENTS)
    for agent in AGENTS:
        assert rows[agent] == [expected(label, agent).split(":")[0] for label, _, _ in GAMES], agent


def rolit_positions() -> list[Any]:
    """Rolit-2 positions from the start to near the end (random seeded plies)."""
    game = Rolit(2)
    out = []
    for seed, plies in enumerate((0, 6, 21, 44, 54)):
        rng = random.Random(seed)
        state = game.initial_state()
        for _ in range(plies):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        out.append(state)
    return out


def test_rolit_hashes_as_its_kernel_packs_the_search_key_and_ranks_moves_in_square_order() -> None:
    game = Rolit(2)
    kernel = game.kernel
    rules = kernel.rules.interpreted
    keys = set()
    for state in rolit_positions() + [game.pass_to(s, 1 - game.to_move(s)) for s in rolit_positions()]:
        ours = tuple(int(w) for w in kernel.to_kernel(state))
        key = rules.search_key(ours)
        assert sum(word << shift for word, shift in zip(key, kernel.key_shifts, strict=True)) == game.hash_key(state)
        keys.add(key)
        assert [rules.move_rank(ours, m) for m in game.legal_moves(state)] == list(range(len(game.legal_moves(state))))
        assert not any(rules.is_capture(ours, m) for m in game.legal_moves(state))
        if numba_backend.enabled():
            assert tuple(int(w) for w in kernel.rules.search_key(kernel.to_kernel(state))) == key
    assert len(keys) == 2 * len(rolit_positions())      # the mover tells a passed position apart


@pytest.mark.parametrize(("agent", "params", "nodes"), [
    ("alphabeta", {"depth": 3}, 0), ("alphabeta", {"depth": 3, "heuristic": "corners"}, 0),
    ("alphabeta", {"depth": 2, "tt_size": 64}, 0), *((pn, {}, 400) for pn in PN)])
def test_rolit2_searches_visit_the_same_nodes_compiled_interpreted_and_through_the_adapter(
        registry: Registry, agent: str, params: dict[str, Any], nodes: int) -> None:
    assert_same_in_every_binding(registry, agent, params, Rolit(2), rolit_positions()[1:], Budget(nodes=nodes or None))


def assert_same_in_every_binding(registry: Registry, agent: str, params: dict[str, Any], game: Any,
                                 states: list[Any], budget: Budget) -> None:
    """The agent's decision at each state, compiled and through the adapter, is the interpreted one: move,
    score, nodes, depth and every counter."""
    bindings = ["interpreted", "adapter"] + (["compiled"] if numba_backend.enabled() else [])
    for state in states:
        runs = {}
        for binding in bindings:
            decision = registry.create_agent(agent, game, {**params, "kernel": binding}).select_move(
                game, state, budget)
            assert decision.stats.extra["binding"] == binding
            runs[binding] = (decision.move, decision.stats.score, decision.stats.nodes, decision.stats.depth,
                             {k: v for k, v in decision.stats.extra.items() if not re.match("binding", k)})
        assert runs["interpreted"][2] > 10
        for binding in bindings[1:]:
            assert runs[binding] == runs["interpreted"], (agent, state, binding)


def random_positions(game: Any, plies: tuple[int, ...]) -> list[Any]:
    """Positions `plies` seeded random moves from the start (stopping where the game ends)."""
    out = []
    for seed, count in enumerate(plies):
        rng = random.Random(seed)
        state = game.initial_state()
        for _ in range(count):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        out.append(state)
    return out


def test_the_checkers_kernel_returns_what_the_game_returns_where_it_ends() -> None:
    game = Checkers()
    rules = game.kernel.rules.interpreted
    ended = [s for s in random_positions(game, tuple(range(60, 400, 7))) if game.is_terminal(s)]
    assert len(ended) > 5
    for state in ended:
        ours = tuple(int(w) for w in game.kernel.to_kernel(state))
        assert [rules.player_return(ours, seat) for seat in (0, 1)] == list(game.returns(state))
        assert rules.pass_to(ours, 1 - ours[3])[3] == 1 - ours[3]


@pytest.mark.parametrize(("agent", "params"), [("expectiminimax", {"depth": 4}), ("maxn", {"depth": 3}),
                                               ("paranoid", {"depth": 4})])
def test_checkers_dice_and_seat_searches_visit_the_same_nodes_in_every_binding(
        registry: Registry, agent: str, params: dict[str, Any]) -> None:
    game = Checkers()
    states = [s for s in random_positions(game, (0, 15, 40, 70, 90)) if not game.is_terminal(s)]
    assert_same_in_every_binding(registry, agent, params, game, states, Budget())


@pytest.mark.parametrize(("agent", "params"), [("expectiminimax", {"depth": 3}), ("maxn", {"depth": 2}),
                                               ("paranoid", {"depth": 3})])
@pytest.mark.parametrize("simultaneous", ["mover_wins", "draw"])
def test_loa_dice_and_seat_searches_visit_the_same_nodes_in_every_binding(
        registry: Registry, agent: str, params: dict[str, Any], simultaneous: str) -> None:
    """LOA's kernel has no `player_return`: compiled and interpreted, an end is scored by `outcome` (with the
    game's option), through the adapter by the game's `returns`; the same values, nodes and moves. Positions
    near the end, so that searches meet ends (and a move connecting both sides, decided by the option)."""
    game = registry.create_game("loa", {"simultaneous": simultaneous})
    states = final_positions(game, 4, seed=7, first=4, last=2)
    assert_same_in_every_binding(registry, agent, params, game, states, Budget())
