"""The kernels of Pig, EinStein and Rolit (framework/kernel/api.py) against the plain rules they restate, and
the searches of dice and seats over them: the same nodes, moves and values compiled, interpreted and through
the adapter.

Each kernel is checked by perft (chance nodes expanded: each roll a ply, as `framework.perft` counts) and by
random playouts comparing every legal move list, mover, outcome, return and successor with the game's, both
as Python (the kernel's functions interpreted) and compiled with numba.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from framework.kernel import api, numba_backend  # noqa: E402
from framework.perft import generic_perft  # noqa: E402
from framework.protocols import CHANCE, Budget  # noqa: E402
from plugins.agents.expectiminimax import ExpectiminimaxAgent  # noqa: E402
from plugins.agents.multiplayer import BestReplyAgent, MaxnAgent, ParanoidAgent  # noqa: E402
from plugins.games.einstein import CELLS, FACES, EinStein, ProgressHeuristic  # noqa: E402
from plugins.games.pig import Pig  # noqa: E402
from plugins.games.pig.heuristics import RaceHeuristic  # noqa: E402
from plugins.games.rolit import DiscsHeuristic, Rolit  # noqa: E402

compiled_only = pytest.mark.skipif(not numba_backend.enabled(), reason="PLYGROUND_JIT=0")


def einstein_setup(seed: int) -> Any:
    """An EinStein start with each side's six cubes shuffled over its corner triangle (a tournament's setup)."""
    rng = random.Random(seed)
    cells = [0] * CELLS
    triangle = [0, 1, 2, 5, 6, 10]
    for cell, cube in zip(triangle, rng.sample(range(1, FACES + 1), FACES), strict=True):
        cells[cell] = cube
    for cell, cube in zip(triangle, rng.sample(range(1, FACES + 1), FACES), strict=True):
        cells[CELLS - 1 - cell] = FACES + cube
    return (tuple(cells), 0, 0)


#: (name, game, starts): every game and seat count the kernels cover.
GAMES = [
    ("pig2-goal12", lambda: Pig(2, goal=12), lambda game: [game.initial_state(), ((7, 9), 3, 1, False)]),
    ("pig3-goal10", lambda: Pig(3, goal=10), lambda game: [game.initial_state(), ((4, 8, 2), 0, 2, True)]),
    ("pig4-goal8", lambda: Pig(4, goal=8), lambda game: [game.initial_state()]),
    ("einstein", EinStein, lambda game: [game.initial_state(), *(einstein_setup(seed) for seed in range(3))]),
    ("rolit2", lambda: Rolit(2), lambda game: [game.initial_state()]),
    ("rolit3", lambda: Rolit(3), lambda game: [game.initial_state()]),
    ("rolit4", lambda: Rolit(4), lambda game: [game.initial_state()]),
]
IDS = [name for name, _, _ in GAMES]


def functions(game: Any, binding: str) -> Any:
    kernel: api.GameKernel = game.kernel
    return kernel.rules if binding == "compiled" else kernel.rules.interpreted


def to_kernel(game: Any, binding: str, state: Any) -> Any:
    """A state as the binding's functions take it: interpreted, Python ints (as `bind` gives them)."""
    ours = game.kernel.to_kernel(state)
    return ours if binding == "compiled" else tuple(int(w) for w in ours)


def kernel_perft(rules: Any, state: Any, depth: int) -> int:
    """Perft over the kernel's functions: an ended state has no moves (`legal_moves` is for states not over)."""
    if depth == 0:
        return 1
    if rules.to_move(state) != CHANCE and rules.outcome(state, 0, 0) != api.ONGOING:
        return 0
    moves = rules.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(kernel_perft(rules, rules.apply_move(state, move), depth - 1) for move in moves)


def same_state(kernel: api.GameKernel, ours: Any, theirs: Any) -> bool:
    """Equal words (a Rolit board is kept as its 64 bits' int64 pattern: compared modulo 2**64)."""
    return [int(w) % (1 << 64) for w in ours] == [int(w) % (1 << 64) for w in kernel.to_kernel(theirs)]


@pytest.mark.parametrize("binding", ["interpreted", pytest.param("compiled", marks=compiled_only)])
@pytest.mark.parametrize(("name", "make", "starts"), GAMES, ids=IDS)
def test_the_kernel_plays_random_games_as_the_rules_do(name: str, make: Any, starts: Any, binding: str) -> None:
    game = make()
    kernel: api.GameKernel = game.kernel
    rules = functions(game, binding)
    rng = random.Random(name)
    n = game.num_players if hasattr(game, "num_players") else 2
    for start in starts(game):
        for _ in range(6 if binding == "interpreted" else 3):
            state, ours = start, to_kernel(game, binding, start)
            while True:
                over = game.is_terminal(state)
                assert (rules.to_move(ours) != CHANCE and rules.outcome(ours, 0, 0) != api.ONGOING) == over
                if over:
                    returns = game.returns(state)
                    for seat in range(n):
                        assert rules.player_return(ours, seat) == returns[seat]
                        assert rules.outcome(ours, seat, 0) == (api.WIN if returns[seat] > 0 else
                                                                api.LOSS if returns[seat] < 0 else api.DRAW)
                    break
                assert rules.to_move(ours) == game.to_move(state)
                moves = game.legal_moves(state)
                assert [kernel.move(m) for m in rules.legal_moves(ours)] == moves
                if game.to_move(state) == CHANCE:
                    for move, probability in game.chance_outcomes(state):
                        assert rules.chance_probability(ours, kernel.move_id(move)) == float(probability)
                move = rng.choice(moves)
                state, ours = game.apply(state, move), rules.apply_move(ours, kernel.move_id(move))
                assert same_state(kernel, ours, state)


#: Draws at the edges of the shares of 2 and 6 moves (where a float sum of 1/6 could land on the wrong side).
EDGE_DRAWS = sorted({0, 2**32 - 1, *(k * 2**32 // n + e for n in (2, 6) for k in range(1, n) for e in (-1, 0, 1, 2))})


def default(rules: Any, name: str) -> Any:
    """The kernel interface's own `random_move` or `random_outcome` (`api`'s body) over `rules`' primitives."""
    body = getattr(api, name)
    return types.FunctionType(body.__code__, {**vars(api), "legal_moves": rules.legal_moves,
                                             "chance_probability": getattr(rules, "chance_probability", None)})


@pytest.mark.parametrize("binding", ["interpreted", pytest.param("compiled", marks=compiled_only)])
@pytest.mark.parametrize(("name", "make", "starts"), GAMES[:4], ids=IDS[:4])
def test_the_kernels_own_draws_pick_what_the_interfaces_defaults_pick(name: str, make: Any, starts: Any,
                                                                      binding: str) -> None:
    """Pig's `random_move` and `random_outcome` and EinStein's `random_outcome` build no list; for every draw at
    the edges of a share, and random ones, along random games, they pick what `api`'s definitions pick."""
    game = make()
    rules = functions(game, binding)
    own = {name: getattr(rules, name) for name in ("random_move", "random_outcome") if name in vars(
        game.kernel.rules.module)}
    assert own
    rng = random.Random(name)
    checked = 0
    for start in starts(game) * 4:
        state = to_kernel(game, binding, start)
        while rules.to_move(state) == CHANCE or rules.outcome(state, 0, 0) == api.ONGOING:
            chance = rules.to_move(state) == CHANCE
            mine = own.get("random_outcome" if chance else "random_move")
            if mine is not None:
                theirs = default(rules, "random_outcome" if chance else "random_move")
                for draw in EDGE_DRAWS + [rng.getrandbits(32) for _ in range(20)]:
                    assert mine(state, draw) == theirs(state, draw), (state, draw)
                    checked += 1
            state = rules.apply_move(state, rng.choice(list(rules.legal_moves(state))))
    assert checked > 1000


@pytest.mark.parametrize("binding", ["interpreted", pytest.param("compiled", marks=compiled_only)])
@pytest.mark.parametrize(("name", "make", "starts", "depth"), [
    (*GAMES[0], 8), (*GAMES[1], 7), (*GAMES[2], 6), (*GAMES[3], 4), (*GAMES[4], 4), (*GAMES[5], 4), (*GAMES[6], 4),
], ids=IDS)
def test_the_kernel_counts_the_perft_of_the_rules(name: str, make: Any, starts: Any, depth: int,
                                                   binding: str) -> None:
    game = make()
    rules = functions(game, binding)
    for start in starts(game):
        for d in range(depth + 1):
            assert kernel_perft(rules, to_kernel(game, binding, start), d) == generic_perft(game, start, d), (start, d)


def openspiel_perft(state: Any, depth: int) -> int:
    """Perft over OpenSpiel's state: chance outcomes and actions alike, an ended state a leaf only at depth 0."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(openspiel_perft(state.child(action), depth - 1) for action in actions)


@pytest.mark.parametrize(("players", "goal", "depth"), [(2, 10, 9), (3, 6, 8), (4, 5, 7)])
def test_the_pig_kernel_counts_the_perft_of_openspiels_pig(players: int, goal: int, depth: int) -> None:
    """A peer we did not write: OpenSpiel's `pig` (test-only; skipped without pyspiel) counts the same paths."""
    pyspiel = pytest.importorskip("pyspiel")
    theirs = pyspiel.load_game("pig", {"players": players, "winscore": goal}).new_initial_state()
    game = Pig(players, goal=goal)
    ours = to_kernel(game, "interpreted", game.initial_state())
    assert [kernel_perft(game.kernel.rules.interpreted, ours, d) for d in range(depth + 1)] == [
        openspiel_perft(theirs, d) for d in range(depth + 1)]


def sampled(game: Any, start: Any, plies: int, seed: int) -> Any:
    """A position `plies` random moves (and rolls) from `start`, not over and not a chance node."""
    rng = random.Random(seed)
    state = start
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    while not game.is_terminal(state) and game.to_move(state) == CHANCE:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return None if game.is_terminal(state) else state


#: (name, game, heuristic, agent, options, plies of the sampled positions). One heuristic per game and search: a
#: search compiles once per heuristic function it binds, and the other heuristics' compiled functions (EinStein's
#: lead, Rolit's corners) are checked as functions against their `evaluate` (test_heuristic_functions.py).
SEARCHES = [
    ("einstein-star2", EinStein, ProgressHeuristic, ExpectiminimaxAgent, {"depth": 4}, (1, 4, 9)),
    ("einstein-star1", EinStein, ProgressHeuristic, ExpectiminimaxAgent, {"depth": 3, "star2": False}, (3, 7)),
    ("einstein-maxn", EinStein, ProgressHeuristic, MaxnAgent, {"depth": 3}, (2, 6)),
    ("pig2-star2", lambda: Pig(2, goal=20), RaceHeuristic, ExpectiminimaxAgent, {"depth": 6}, (3, 12)),
    ("pig3-maxn", lambda: Pig(3, goal=15), RaceHeuristic, MaxnAgent, {"depth": 5}, (2, 9)),
    ("pig3-paranoid", lambda: Pig(3, goal=15), RaceHeuristic, ParanoidAgent, {"depth": 5}, (4, 11)),
    ("rolit3-paranoid", lambda: Rolit(3), DiscsHeuristic, ParanoidAgent, {"depth": 3}, (0, 10, 30)),
    ("rolit4-maxn", lambda: Rolit(4), DiscsHeuristic, MaxnAgent, {"depth": 3, "shallow": True}, (5, 25)),
    ("rolit3-brs", lambda: Rolit(3), DiscsHeuristic, BestReplyAgent, {"depth": 3}, (6, 40)),
    ("rolit2-brs", lambda: Rolit(2), DiscsHeuristic, BestReplyAgent, {"depth": 4}, (8, 50)),
]


@pytest.mark.parametrize(("name", "make", "heuristic", "agent", "options", "plies"), SEARCHES,
                         ids=[s[0] for s in SEARCHES])
def test_a_search_visits_the_same_nodes_for_the_same_answer_in_every_binding(
        name: str, make: Any, heuristic: Any, agent: Any, options: dict[str, Any], plies: tuple[int, ...]) -> None:
    game = make()
    bindings = ["interpreted", "adapter"] + (["compiled"] if numba_backend.enabled() else [])
    for seed, count in enumerate(plies):
        state = sampled(game, game.initial_state(), count, seed)
        if state is None:
            continue
        runs = {}
        for binding in bindings:
            decision = agent(game, heuristic=heuristic(game), kernel=binding, **options).select_move(
                game, state, Budget())
            stats = decision.stats
            assert stats.extra["binding"] == binding
            runs[binding] = (decision.move, stats.score, stats.nodes, stats.depth,
                             {k: v for k, v in stats.extra.items() if k not in ("binding", "binding_reason")})
        assert runs["interpreted"][2] > 10
        for binding in bindings[1:]:
            assert runs[binding] == runs["interpreted"], (name, count, binding)


def test_auto_runs_the_dice_and_seat_searches_compiled_and_says_why_not_elsewhere() -> None:
    from plugins.agents.alphabeta import AlphaBetaAgent
    from plugins.games.pig.heuristics import OptimalHeuristic
    game = Pig(2, goal=10)
    state = game.initial_state()
    expected = "compiled" if numba_backend.enabled() else "interpreted"
    assert ExpectiminimaxAgent(game, depth=2, heuristic=RaceHeuristic(game)).select_move(
        game, state, Budget()).stats.extra["binding"] == expected
    # the optimal heuristic reads the solver's table: no compiled function, so the adapter runs
    assert ExpectiminimaxAgent(game, depth=2, heuristic=OptimalHeuristic(game)).select_move(
        game, state, Budget()).stats.extra["binding"] == "adapter"
    # Rolit-2's kernel has the primitives alpha-beta calls (search_key, is_capture, move_rank)
    rolit = Rolit(2)
    decision = AlphaBetaAgent(rolit, depth=2, heuristic=DiscsHeuristic(rolit)).select_move(
        rolit, rolit.initial_state(), Budget())
    assert decision.stats.extra["binding"] == expected


def reload_case(game_name: str) -> list[Any]:
    """Every search of dice and seats the game takes, on a sampled position, as `auto` binds it (printed as
    JSON when this file runs as a script)."""
    out = []
    for name, make, heuristic, agent, options, plies in SEARCHES:
        if name.startswith(game_name):
            game = make()
            state = sampled(game, game.initial_state(), plies[0], 0)
            decision = agent(game, heuristic=heuristic(game), **options).select_move(game, state, Budget())
            out.append([name, str(decision.move), decision.stats.score, decision.stats.nodes,
                        decision.stats.extra["binding"]])
    return out


@compiled_only
@pytest.mark.parametrize("game_name", ["einstein", "pig", "rolit"])
def test_the_compiled_searches_load_from_the_cache_in_a_second_process(game_name: str, tmp_path: Path) -> None:
    """numba cannot load some compiled recursions from its disk cache (SEARCH_DESIGN.md): a fresh cache is
    filled by one process and read by a second, both giving what the interpreted searches give here."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PLYGROUND_JIT": "0"}
    interpreted = subprocess.run([sys.executable, __file__, game_name], env=env, capture_output=True, text=True,
                                 timeout=900, check=True)
    expected = json.loads(interpreted.stdout.replace('"interpreted"', '"compiled"'))
    assert expected and all(row[-1] == "compiled" for row in expected)
    for _ in range(2):
        done = subprocess.run([sys.executable, __file__, game_name], env={**env, "PLYGROUND_JIT": "1"},
                              capture_output=True, text=True, timeout=900, check=False)
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
        assert json.loads(done.stdout) == expected
    assert any(tmp_path.rglob("*.nbi"))


if __name__ == "__main__":
    print(json.dumps(reload_case(sys.argv[1])))
