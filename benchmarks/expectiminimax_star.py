"""Expectiminimax with and without Ballard's Star1 / Star2: nodes and time on seeded positions; nodes/s
beside OpenSpiel's Python `expectiminimax` on Pig, and Pig's random playouts per second beside OpenSpiel's.

    python benchmarks/expectiminimax_star.py [--positions N]

Star table: for each game, depth and switch setting, the nodes and seconds summed over the same positions
(decision states met along seeded random games, `tests/plugins/agents/test_expectiminimax.py`'s
`positions`), with the node ratio to plain expectiminimax; every setting must find the same root values
(checked, to 1e-9 relative). The node convention is the search's (plugins/agents/expectiminimax/search.py):
every state visited, chance nodes and Star2's probes included.

OpenSpiel row: `open_spiel.python.algorithms.minimax.expectiminimax` (plain, no pruning; its depth counts
decision plies only) on its `pig` at goal 100 from the same scores, with our race heuristic read off its
state, nodes counted as calls of its recursive function; beside it our plain expectiminimax through the
KernelAdapter at the depth reaching about as many nodes. Only nodes/s compare (the trees differ).

Playouts: uniformly random games of two-player Pig to 100 (rolls drawn uniformly: every face has 1/6),
ours over the Game protocol in Python, OpenSpiel's C++ game driven from Python (`legal_actions`,
`apply_action`), the same number of games each.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from framework.playouts import decision_positions
from framework.protocols import Budget
from plugins.agents.expectiminimax import ExpectiminimaxAgent
from plugins.games.einstein import EinStein, ProgressHeuristic
from plugins.games.pig import Pig
from plugins.games.pig.heuristics import RaceHeuristic

SWITCHES = (("plain", False, False), ("star1", True, False), ("star1+star2", True, True))


def star_rows(game: Any, heuristic: Any, depth: int, states: list) -> list[str]:
    rows: list[str] = []
    plain_nodes, plain_scores = 0, []  # type: tuple[int, list[float]]
    for label, star1, star2 in SWITCHES:
        agent = ExpectiminimaxAgent(game, depth=depth, star1=star1, star2=star2, heuristic=heuristic,
                                    kernel="adapter")  # as measured in docs/guide/benchmarks.md
        nodes, start = 0, time.perf_counter()
        scores: list[float] = []
        for state in states:
            decision = agent.select_move(game, state, Budget())
            nodes += decision.stats.nodes
            scores.append(decision.stats.score or 0.0)
        seconds = time.perf_counter() - start
        if label == "plain":
            plain_nodes, plain_scores = nodes, scores
        elif any(abs(a - b) > 1e-9 * max(1.0, abs(b)) for a, b in zip(scores, plain_scores)):
            raise SystemExit(f"MISMATCH: {label} values differ from plain on {game.name} depth {depth}")
        rows.append(f"| {game.name} | {heuristic.name} | {depth} | {label} | {nodes:,} | {nodes / plain_nodes:.2f} | "
                    f"{seconds:.2f} | {nodes / seconds:,.0f} |")
    return rows


def openspiel_row(depth: int, ours_depth: int, count: int) -> str | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game: Any = Pig()
    heuristic = RaceHeuristic(game)
    spiel_game = pyspiel.load_game("pig", {"players": 2, "winscore": 100})
    states = decision_positions(game, count, seed=11)
    calls = [0]
    original = minimax.expectiminimax

    def counting(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    def value(spiel_state: Any) -> float:
        head = str(spiel_state).split("\n")[0]
        scores, total = head.split(", Turn total: ")
        s = tuple(int(n) for n in scores.removeprefix("Scores: ").split())
        turn = spiel_state.current_player() if not spiel_state.is_chance_node() else 0
        return heuristic.evaluate((s, int(total), max(turn, 0), False), 0) / 1000

    minimax.expectiminimax = counting
    try:
        start = time.perf_counter()
        for state in states:
            spiel_state = spiel_game.new_initial_state()
            spiel_state.apply_action(1)    # a pass to P2 and back: the same scores with P1 to move
            spiel_state.apply_action(1)
            scores = state[0]
            # play the scores in: P1 rolls a 6 and holds until near its score, likewise P2 (exactly reaching
            # them is not needed: the search's cost depends on the shape, not on the exact numbers)
            for _ in range(scores[0] // 6):
                for action in (0, 5, 1, 1):
                    if not spiel_state.is_terminal():
                        spiel_state.apply_action(action)
            counting(spiel_state, depth, value, spiel_state.current_player())
        spiel_seconds = time.perf_counter() - start
    finally:
        minimax.expectiminimax = original
    agent = ExpectiminimaxAgent(game, depth=ours_depth, star1=False, star2=False, heuristic=heuristic, kernel="adapter")
    nodes, start = 0, time.perf_counter()
    for state in states:
        nodes += agent.select_move(game, state, Budget()).stats.nodes
    seconds = time.perf_counter() - start
    return (f"| pig | OpenSpiel expectiminimax, depth {depth} decisions | {calls[0]:,} | {spiel_seconds:.2f} | "
            f"{calls[0] / spiel_seconds:,.0f} |\n"
            f"| pig | ours plain (KernelAdapter), depth {ours_depth} plies | {nodes:,} | {seconds:.2f} | "
            f"{nodes / seconds:,.0f} |")


def playout_rows(games: int) -> str:
    """Random playouts per second of two-player Pig to 100: ours and, when installed, OpenSpiel's."""
    game = Pig()
    rng = random.Random(1)
    start, plies = time.perf_counter(), 0
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            plies += 1
    ours = time.perf_counter() - start
    rows = f"| ours (Python, Game protocol) | {games} | {plies:,} | {games / ours:,.0f} | {plies / ours:,.0f} |"
    try:
        import pyspiel
    except ImportError:
        return rows
    spiel_game = pyspiel.load_game("pig", {"players": 2, "winscore": 100})
    start, plies = time.perf_counter(), 0
    for _ in range(games):
        spiel = spiel_game.new_initial_state()
        while not spiel.is_terminal():
            spiel.apply_action(rng.choice(spiel.legal_actions()))
            plies += 1
    theirs = time.perf_counter() - start
    return rows + (f"\n| OpenSpiel (C++ from Python) | {games} | {plies:,} | {games / theirs:,.0f} | "
                   f"{plies / theirs:,.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50, help="positions per game (default 50)")
    parser.add_argument("--playouts", type=int, default=2000, help="random Pig games each side (default 2000)")
    args = parser.parse_args(argv)
    print("| game | heuristic | depth | search | nodes | / plain | seconds | nodes/s |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    cases: list[tuple[Any, Any, tuple[int, ...]]] = [(EinStein(), ProgressHeuristic, (3, 5)),
                                                     (Pig(), RaceHeuristic, (6, 8))]
    for game, heuristic_class, depths in cases:
        states = decision_positions(game, args.positions, seed=7)
        for depth in depths:
            for row in star_rows(game, heuristic_class(game), depth, states):
                print(row, flush=True)
    spiel = openspiel_row(4, 8, args.positions)
    if spiel is not None:
        print("\n| game | search | nodes | seconds | nodes/s |\n|---|---|---:|---:|---:|")
        print(spiel)
    print("\n| Pig random playouts | games | plies | games/s | plies/s |\n|---|---:|---:|---:|---:|")
    print(playout_rows(args.playouts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
