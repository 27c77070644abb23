"""Alpha-beta against peers, in one run: nodes and time to solve tic-tac-toe, and fixed-depth searches.

    python benchmarks/alphabeta_peers.py [--checkers-depth N] [--loa-depth N]

Rows: our `alphabeta` with every enhancement off, with its defaults (quiescence off, so
the tree is the same fixed-depth tree the peers search), and as a solver (tic-tac-toe only);
easyAI's `Negamax` with its transposition table, driven through a small adapter of our
game and heuristic; OpenSpiel's Python `alpha_beta_search` on its own games (tic-tac-toe
solved; Lines of Action and checkers at the depth with our heuristic read from OpenSpiel's
board, checkers' multi-jumps seen as one move: see `spiel_search.py`).
Peers count nodes our way, every call of their recursive search (root and leaves included),
by wrapping that function for the run. Ratios are against our defaults in the same run;
each row is the fastest of `--repeat` runs (the first warms caches and compiled kernels).
Peers that are not installed (`pip install -e '.[bench]'`) are skipped with a note.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from typing import Any

from spiel_search import SPIEL_NAMES, Counted, spiel_alphabeta  # this script's folder is on sys.path

from framework.protocols import UNLIMITED
from framework.registry import Registry
from plugins.agents.alphabeta import ALL_OFF, AlphaBetaAgent


def optional(module: str) -> Any | None:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


class EasyAIGame:
    """Our game and state seen through easyAI's TwoPlayerGame interface (make/unmake on a stack)."""

    def __init__(self, game: Any, state: Any) -> None:
        self.game, self.state = game, state
        self.stack: list[Any] = []

    def possible_moves(self) -> list:
        return list(self.game.legal_moves(self.state))

    def make_move(self, move: Any) -> None:
        self.stack.append(self.state)
        self.state = self.game.apply(self.state, move)

    def unmake_move(self, move: Any) -> None:
        self.state = self.stack.pop()

    def switch_player(self) -> None:   # our states carry the player to move
        pass

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def ttentry(self) -> Any:
        return self.state


def easyai_row(easyai: Any, game: Any, heuristic: Any, state: Any, depth: int) -> dict:
    from easyAI.AI.TranspositionTable import TranspositionTable

    negamax_module = sys.modules["easyAI.AI.Negamax"]   # the module, whose global `negamax` recurses

    def scoring(wrapped: EasyAIGame) -> float:
        mover = game.to_move(wrapped.state)
        if game.is_terminal(wrapped.state):
            return heuristic.terminal(wrapped.state, mover, 0) if heuristic else game.returns(wrapped.state)[mover]
        return heuristic.evaluate(wrapped.state, mover)

    with Counted(negamax_module, "negamax") as counter:
        start = time.perf_counter()
        ai = easyai.Negamax(depth, scoring, tt=TranspositionTable())
        move = ai(EasyAIGame(game, state))
        elapsed = time.perf_counter() - start
    return {"who": "easyAI Negamax + TT", "nodes": counter.calls, "time": elapsed,
            "move": game.format_move(state, move)}


def openspiel_row(pyspiel: Any, spiel_game: str, game: Any, heuristic: Any, depth: int) -> dict:
    from open_spiel.python.algorithms import minimax

    start = time.perf_counter()
    if heuristic is not None:   # a fixed depth, our heuristic on OpenSpiel's board (spiel_search.py)
        nodes, _, move = spiel_alphabeta(pyspiel, game, heuristic, pyspiel.load_game(spiel_game).new_initial_state(),
                                         depth)
        return {"who": "OpenSpiel alpha_beta_search", "nodes": nodes, "time": time.perf_counter() - start,
                "move": move}
    spiel = pyspiel.load_game(spiel_game)
    with Counted(minimax, "_alpha_beta") as counter:
        _, action = minimax.alpha_beta_search(spiel, maximum_depth=depth)
    return {"who": "OpenSpiel alpha_beta_search", "nodes": counter.calls, "time": time.perf_counter() - start,
            "move": spiel.new_initial_state().action_to_string(action)}


def ours(label: str, game: Any, state: Any, agent: AlphaBetaAgent, solve: bool = False) -> dict:
    start = time.perf_counter()
    if solve:
        result = agent.solve(game, state, UNLIMITED)
        stats, move = result.stats, result.move
        label += f" [{result.value.value}; first-reaching-depth nodes {stats.extra['nodes_first_reaching_depth']:,}]"
    else:
        decision = agent.select_move(game, state, UNLIMITED)
        stats, move = decision.stats, decision.move
    return {"who": label, "nodes": stats.nodes, "time": time.perf_counter() - start,
            "move": game.format_move(state, move)}


def table(title: str, rows: list[dict], notes: list[str]) -> None:
    base = next(r for r in rows if r["who"].startswith("alphabeta defaults"))
    print(f"\n## {title}\n")
    print("| search | nodes | time (s) | nodes/s | move | nodes / ours | time / ours |")
    print("|---|---:|---:|---:|---|---:|---:|")
    for r in rows:
        print(f"| {r['who']} | {r['nodes']:,} | {r['time']:.3f} | {r['nodes'] / r['time']:,.0f} | {r['move']} "
              f"| {r['nodes'] / base['nodes']:.2f} | {r['time'] / base['time']:.2f} |")
    for note in notes:
        print(f"\n{note}")


def best_of(repeat: int, measure: Callable[[], dict]) -> dict:
    """The row with the least time over `repeat` runs (the first also warms caches and compiled kernels)."""
    return min((measure() for _ in range(repeat)), key=lambda row: row["time"])


def run(name: str, depth: int | None, spiel_game: str | None, easyai: Any, pyspiel: Any, repeat: int) -> None:
    registry = Registry()
    game = registry.create_game(name)
    heuristic = registry.create_heuristic(game) if depth is not None else None
    state = game.initial_state()
    plain = AlphaBetaAgent(game, depth=depth, heuristic=heuristic, **ALL_OFF)
    defaults = AlphaBetaAgent(game, depth=depth, heuristic=heuristic, quiescence=False)
    rows = [best_of(repeat, lambda: ours("alphabeta, every enhancement off", game, state, plain)),
            best_of(repeat, lambda: ours("alphabeta defaults (quiescence off)", game, state, defaults))]
    if depth is None:
        solver = AlphaBetaAgent(game)
        rows.append(best_of(repeat, lambda: ours("alphabeta solver", game, state, solver, solve=True)))
    notes = []
    full = depth if depth is not None else 9
    if easyai is None:
        notes.append("easyAI is not installed: its row is skipped (pip install -e '.[bench]').")
    else:
        rows.append(best_of(repeat, lambda: easyai_row(easyai, game, heuristic, state, full)))
    if spiel_game is None:
        notes.append("OpenSpiel: skipped for this game (see the module docstring).")
    elif pyspiel is None:
        notes.append("OpenSpiel is not installed: its row is skipped (pip install -e '.[bench]').")
    else:
        rows.append(best_of(repeat, lambda: openspiel_row(pyspiel, spiel_game, game, heuristic, full)))
    title = f"{name}: solve from the start" if depth is None else f"{name}: depth {depth} from the start"
    table(title, rows, notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkers-depth", type=int, default=6)
    parser.add_argument("--loa-depth", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the fastest is shown")
    args = parser.parse_args(argv)
    easyai, pyspiel = optional("easyAI"), optional("pyspiel")
    run("tictactoe", None, "tic_tac_toe", easyai, pyspiel, args.repeat)
    run("checkers", args.checkers_depth, SPIEL_NAMES["checkers"], easyai, pyspiel, args.repeat)
    run("loa", args.loa_depth, SPIEL_NAMES["loa"], easyai, pyspiel, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
