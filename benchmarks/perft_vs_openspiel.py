"""Perft speed of our games against OpenSpiel's C++ games driven from Python, in the same run.

    python benchmarks/perft_vs_openspiel.py [GAME ...] [--depth N] [--repeat N] [--whole-process]

For each row of ROWS it counts the leaves of perft(depth) from the initial state with
`framework.perft.perft` (the game's own fast perft if it has one) and with OpenSpiel through
`pyspiel` (`state.legal_actions()`, `state.child(action)`), and prints leaves, leaves/s and
the ratio ours/OpenSpiel. Both sides count the same way: the last ply in bulk
(`len(legal_actions)`) and terminal states not expanded. Where OpenSpiel splits one of our
moves into several actions by the same player (checkers multi-jumps), a row sets
`peer_counting="turns"`: a ply then ends when the player to move changes, so the leaves
are ours leaf for leaf. Where OpenSpiel draws a repeated board (LOA) it counts fewer leaves from depth 5;
the difference is derived from our rules (`repetition_draws`) and checked, up to depth 5. A leaf-count
mismatch is printed and makes the exit status 1.
Peers that are not installed (`pip install -e '.[bench]'`) are skipped with a note.
Figures are noisy on a shared machine; compare ratios from one run, take the best of
`--repeat` runs. `--whole-process` also times `plyground perft GAME DEPTH` (`python -m framework.cli`)
as a whole process (interpreter start-up, plugin loading and kernel loading included, wall time around
`subprocess.run`) for rows without game options, and sets it against OpenSpiel's count in this process
(pyspiel imported and the game loaded beforehand, uncharged: the comparison favours OpenSpiel). Each
repeat runs our count, our process and OpenSpiel's count one after the other, so all three meet the same
machine load; the best of each counts. Issue #14's figure: `loa --depth 5 --repeat 5 --whole-process`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from framework.perft import perft
from framework.registry import Registry


@dataclass(frozen=True)
class Row:
    """One comparison: our game (with options) against an OpenSpiel game (with parameters) at a depth."""

    ours: str
    peer: str
    depth: int
    options: dict[str, Any] = field(default_factory=dict)
    peer_params: dict[str, Any] = field(default_factory=dict)
    peer_counting: str = "actions"  # or "turns": a ply ends when the player to move changes
    #: How our state shows the board the peer compares to draw a repeated board (None: the peer has no such rule).
    peer_board: Callable[[Any], Any] | None = None


ROWS = (
    Row("tictactoe", "tic_tac_toe", 9),
    # Misère Nim is the matches game with k at least the largest heap.
    Row("matches", "nim", 6, {"heaps": [1, 3, 5, 7], "k": 7}, {"pile_sizes": "1;3;5;7", "is_misere": True}),
    # Lines of Action: OpenSpiel draws a game whose board (the pieces, not the side to move) repeats an earlier
    # one; from depth 5 its count lacks the leaves below those draws (`repetition_draws`). Its other
    # convention (no move loses) cannot arise this close to the start.
    Row("loa", "lines_of_action", 4, peer_board=lambda state: state[:2]),
    # OpenSpiel plays a multi-jump as one action per jump; its 40-action draw rule is out of reach at depth 8.
    # Turn counting applies each of OpenSpiel's last-ply actions (to see whether the turn goes on), where
    # ours counts them in bulk; benchmarks/checkers_perft.py compares like with like in both modes.
    Row("checkers", "checkers", 8, peer_counting="turns"),
)


def spiel_perft_actions(state: Any, depth: int) -> int:
    """Perft over OpenSpiel actions, bulk-counting the last ply."""
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(spiel_perft_actions(state.child(a), depth - 1) for a in actions)


def spiel_perft_turns(state: Any, depth: int) -> int:
    """Perft where a ply is a whole turn: actions that leave the same player to move continue the ply."""
    player = state.current_player()
    total = 0
    for action in state.legal_actions():
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:
            total += spiel_perft_turns(child, depth)
        else:
            total += 1 if depth == 1 else spiel_perft_turns(child, depth - 1)
    return total


def repetition_draws(game: Any, board: Callable[[Any], Any], depth: int) -> int | None:
    """The leaves of our perft(depth) from the start that a peer drawing every repeated board does not count:
    computed with our own rules, for depth <= 5 (None deeper). Moves are reversible only when nothing is
    captured and each side moves only its own pieces, so within 5 plies a board repeats only at ply 4, both
    sides having moved a piece out and back: the start again, which the peer ends as a draw where we count
    its perft(depth - 4) leaves. Found by walking 3 plies and keeping the lines whose mover is back where
    it started (a capture would have left the other side a piece short: no return)."""
    if depth <= 4:
        return 0
    if depth > 5:
        return None
    start = game.initial_state()
    first = game.to_move(start)
    start_board = board(start)
    home = start_board[first]
    returns = 0
    for a in game.legal_moves(start):
        one = game.apply(start, a)
        for b in game.legal_moves(one):
            two = game.apply(one, b)
            for c in game.legal_moves(two):
                three = game.apply(two, c)
                if board(three)[first] != home:
                    continue
                returns += sum(board(game.apply(three, d)) == start_board for d in game.legal_moves(three))
    return returns * perft(game, start, depth - 4)


def whole_process(row: Row, depth: int) -> Callable[[], int] | None:
    """`plyground perft GAME DEPTH` run as a fresh process (None for a row with game options)."""
    if row.options:
        return None
    command = [sys.executable, "-m", "framework.cli", "perft", row.ours, str(depth)]
    return lambda: subprocess.run(command, check=True, capture_output=True).returncode


def measure(row: Row, depth: int, repeat: int, registry: Registry, pyspiel: Any | None,
            process: bool = False) -> dict[str, Any]:
    """Leaves and best times of our count, OpenSpiel's and (`process`) our whole process, interleaved per repeat."""
    game = registry.create_game(row.ours, row.options)
    state = game.initial_state()
    counts: dict[str, Callable[[], int]] = {"ours": lambda: perft(game, state, depth)}
    run_process = whole_process(row, depth) if process else None
    if run_process is not None:
        counts["process"] = run_process
    if pyspiel is not None:
        spiel_game = pyspiel.load_game(row.peer, row.peer_params)
        count = spiel_perft_turns if row.peer_counting == "turns" else spiel_perft_actions
        counts["peer"] = lambda: count(spiel_game.new_initial_state(), depth)
    leaves: dict[str, int] = {}
    best = dict.fromkeys(counts, float("inf"))
    for _ in range(repeat):
        for name, run in counts.items():
            start = time.perf_counter()
            leaves[name] = run()
            best[name] = min(best[name], time.perf_counter() - start)
    draws = repetition_draws(game, row.peer_board, depth) if pyspiel is not None and row.peer_board else 0
    return {"game": row.ours, "depth": depth, "ours": leaves["ours"], "ours_s": best["ours"],
            "peer": leaves.get("peer"), "peer_s": best.get("peer"), "process_s": best.get("process"),
            "peer_expected": None if draws is None else leaves["ours"] - draws}


def table(results: list[dict[str, Any]]) -> str:
    lines = [f"{'game':<10} {'depth':>5} {'leaves':>12} {'ours leaves/s':>14} {'OpenSpiel leaves/s':>19} "
             f"{'ratio':>7}  check"]
    for r in results:
        ours_rate = r["ours"] / r["ours_s"] if r["ours_s"] > 0 else float("inf")
        if r["peer"] is None:
            peer_rate, ratio, check = "-", "-", "peer skipped"
        else:
            rate = r["peer"] / r["peer_s"] if r["peer_s"] > 0 else float("inf")
            peer_rate, ratio = f"{rate:,.0f}", f"{ours_rate / rate:.2f}"
            check = checked(r)
        lines.append(f"{r['game']:<10} {r['depth']:>5} {r['ours']:>12,} {ours_rate:>14,.0f} {peer_rate:>19} "
                     f"{ratio:>7}  {check}")
    return "\n".join(lines)


def checked(result: dict[str, Any]) -> str:
    """Whether the peer counted the leaves we expect of it: ours, less its repetition draws (`repetition_draws`)."""
    ours, peer, expected = result["ours"], result["peer"], result["peer_expected"]
    if expected is None:
        return f"not compared: OpenSpiel {peer:,} (repetition draws not derived beyond depth 5)"
    if peer != expected:
        return f"MISMATCH: OpenSpiel {peer:,}"
    return "same leaves" if expected == ours else f"same leaves less OpenSpiel's {ours - peer:,} below repetition draws"


def import_pyspiel() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="our game names to run (default: every row)")
    parser.add_argument("--depth", type=int, help="override every row's depth")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement; the best time counts")
    parser.add_argument("--whole-process", action="store_true",
                        help="also time `plyground perft GAME DEPTH` as a whole process against OpenSpiel")
    args = parser.parse_args(argv)
    rows = [row for row in ROWS if not args.games or row.ours in args.games]
    unknown = sorted(set(args.games) - {row.ours for row in ROWS})
    if unknown:
        parser.error(f"no benchmark row for {', '.join(unknown)}; rows: {', '.join(r.ours for r in ROWS)}")
    pyspiel = import_pyspiel()
    if pyspiel is None:
        print("OpenSpiel (pyspiel) is not installed; peer columns skipped. Install: pip install -e '.[bench]'")
    registry = Registry()
    results = [measure(row, args.depth or row.depth, args.repeat, registry, pyspiel, args.whole_process)
               for row in rows]
    print(table(results))
    for result in results:
        seconds = result["process_s"]
        if seconds is not None:
            peer = f"; OpenSpiel in-process {result['peer_s']:.2f} s, ratio {result['peer_s'] / seconds:.1f}x" \
                if result["peer_s"] else ""
            print(f"plyground perft {result['game']} {result['depth']} as a whole process: {seconds:.2f} s{peer}")
    return 1 if any(checked(r).startswith("MISMATCH") for r in results if r["peer"] is not None) else 0


if __name__ == "__main__":
    sys.exit(main())
