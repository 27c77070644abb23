"""MCTS written once (`plugins/agents/mcts/search.py`) makes the same tree from a seed in every binding, on
every built-in game: the same move, nodes (the agent docstring's convention), iterations, principal variation,
score, tree size, proof and root visits, over two decisions in a row (the generator carries on).

Games with a kernel (checkers, LOA, Pig, EinStein, Rolit for 2, 3 and 4 seats) run compiled, their rules
interpreted and through the adapter over the game's Python methods, and `auto` binds them compiled: chance
nodes (Pig, EinStein) sampled, reward vectors for n seats (Rolit). Tic-tac-toe and matches have no kernel: the
adapter is their only binding, and `auto` says so; each runs twice and must repeat itself. Playouts random and
heuristic (epsilon-greedy, the game's default heuristic, cut at a playout depth), the MCTS-Solver on and off
where it proves (two seats, no dice); elsewhere the switch changes nothing, and one run of each stands.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from framework.capabilities import capability, has_chance, player_count
from framework.kernel.binding import decision_state
from framework.protocols import CHANCE, UNLIMITED

#: Slow (tests/conftest.py): every game in every binding.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("compiled_kernels_on")]

#: (game, options, iterations a decision, plies of a seeded random game to the second position): small
#: budgets, so the interpreted and adapter bindings stay quick; late second positions, so the solver proves.
GAMES = {
    "tictactoe": ("tictactoe", {}, 300, 4),
    "matches": ("matches", {}, 300, 4),
    "checkers": ("checkers", {}, 100, 60),
    "loa": ("loa", {}, 30, 40),
    "pig": ("pig", {}, 200, 150),
    "einstein": ("einstein", {}, 150, 16),
    "rolit-2": ("rolit", {"players": 2}, 50, 54),
    "rolit-3": ("rolit", {"players": 3}, 50, 54),
    "rolit-4": ("rolit", {"players": 4}, 50, 54),
}
#: Random playouts to the end (each seat's return backed up), heuristic ones cut after a few plies (scored by
#: the heuristic for every seat).
PLAYOUTS = {"random": {"playout_depth": None}, "heuristic": {"playout": "heuristic", "epsilon": 0.3,
                                                             "playout_depth": 10}}


def proves(game: Any) -> bool:
    """Whether the MCTS-Solver proves anything in `game`: two seats and no dice."""
    return player_count(game) == 2 and not has_chance(game)


#: (game, playout, solver): the solver off only where it would prove.
CASES = [(name, playout, solver) for name in sorted(GAMES) for playout in sorted(PLAYOUTS)
         for solver in (True, False) if solver or name in ("tictactoe", "matches", "checkers", "loa", "rolit-2")]


def positions(game: Any, plies: int) -> tuple[Any, Any]:
    """The first position where a seat moves, and one where a seat moves after up to `plies` plies of a
    seeded random game (outcomes drawn uniformly; it stops short of the end)."""
    rng, state = random.Random(plies), game.initial_state()
    for _ in range(plies):
        following = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.is_terminal(following):
            break
        state = following
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.legal_moves(state)[0])
    return decision_state(game), state


def decisions(registry: Any, game: Any, options: dict[str, Any], plies: int) -> tuple[Any, ...]:
    """Two decisions in a row (the generator carries on), at `positions`, with everything they report; moves
    and lines as their reprs, so a kernel int leaking out as a numpy int differs."""
    agent = registry.create_agent("mcts", game, options, seed=11)
    found = []
    for state in positions(game, plies):
        decision = agent.select_move(game, state, UNLIMITED)
        stats = decision.stats
        assert decision.move in game.legal_moves(state)
        found.append((repr(decision.move), stats.nodes, repr(stats.pv), stats.score, stats.peak_entries,
                      stats.extra["iterations"], stats.extra["proof"], stats.extra["root_visits"],
                      stats.extra["binding"]))
    return tuple(found)


@pytest.mark.parametrize("name, playout, solver", CASES)
def test_every_binding_makes_the_same_tree_on_every_game(registry, name, playout, solver):
    game_name, game_options, iterations, plies = GAMES[name]
    game = registry.create_game(game_name, game_options)
    assert proves(game) == (name in ("tictactoe", "matches", "checkers", "loa", "rolit-2"))
    options = {"iterations": iterations, "solver": solver, **PLAYOUTS[playout]}
    offered = ("compiled", "interpreted", "adapter") if capability(game, "kernel") is not None else ("adapter",)
    runs = {kernel: decisions(registry, game, {**options, "kernel": kernel}, plies) for kernel in offered}
    auto = registry.create_agent("mcts", game, options, seed=11).bind(game)
    assert auto.binding == offered[0]
    if offered == ("adapter",):
        assert auto.reason == f"{game_name} has no kernel"
        runs["again"] = decisions(registry, game, {**options, "kernel": "adapter"}, plies)
    figures = {kernel: [run[:-1] for run in found] for kernel, found in runs.items()}
    first = next(iter(figures.values()))
    assert all(found == first for found in figures.values()), figures
    assert all(run[-1] == kernel for kernel in offered for run in runs[kernel])
    assert first[0][1] > iterations     # nodes: the root, descents and playouts, more than one per iteration
