"""Python path vs compiled path vs OpenSpiel, in one run: perft and search nodes/s with ratios.

    python benchmarks/speed.py [--quick] [--pn-positions N] [--pn-nodes N]

Perft (leaves/s, the last ply counted in bulk by every side): our interpreted rules
(`PLYGROUND_JIT=0`), our compiled rules (`framework.kernel`), and OpenSpiel's C++ games driven
from Python (`pyspiel`: `legal_actions`, `child`; checkers counted by turns, as in
`benchmarks/perft_vs_openspiel.py`). All three must count the same leaves, or the row
says MISMATCH and the exit status is 1.

Solvers (nodes/s): `pns`, `pn2`, `dfpn` and the alpha-beta solver (the thesis run's switches) on
Lines of Action endgame positions (the last plies of seeded random games), interpreted vs
compiled, each position with the same node budget; the two must visit the same number of nodes
and give the same answers (checked).

Fixed-depth alpha-beta (nodes/s): LOA with `groups`, checkers with `positional`, each from the
start and from three midgame positions (16 seeded random plies), with the thesis run's exact
switches (iterative deepening, transposition table, TT move, hints, killers, history; no
quiescence) under a node budget never reached, so iterative deepening runs (the nodes of every
iteration count). Interpreted and compiled must visit the same nodes and choose the same moves
with the same scores (checked). OpenSpiel column: OpenSpiel's Python `alpha_beta_search` from
the same positions to the same depth with our heuristic on its board (`spiel_search.py`: how
its nodes are counted — every state it visits, root and leaves included, as ours — and how
checkers' multi-jumps become one move); it must find the same value (checked). Without a TT
or move ordering it searches another tree, so besides the nodes/s ratio the table gives the
time-to-depth ratio. The start positions are searched once more with PVS and late-move reductions on
(`pvs+lmr` rows; interpreted and compiled checked as above, no OpenSpiel column).

Columns: nodes (or leaves) per second of each path; `jit/py` and `jit/OS` are the compiled
path's nodes/s over the interpreted path's and over OpenSpiel's; `OS t/jit t` is OpenSpiel's
time over the compiled path's time for the same work: the same perft, or the same searches to
the same depth (where the node counts differ, this is the speed-up a user sees).

Each timing repeats its run until it has taken at least `--min-seconds` and keeps the best
run, so short compiled runs are measured fairly; figures are noisy on a shared machine, so
read the ratios of one run. Kernels are warmed (compiled or loaded) before any timing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from perft_vs_openspiel import import_pyspiel, spiel_perft_actions, spiel_perft_turns  # noqa: E402
from spiel_search import random_line, replay, spiel_alphabeta, twin  # noqa: E402

from framework.capabilities import capabilities  # noqa: E402
from framework.perft import perft  # noqa: E402
from framework.playouts import final_positions  # noqa: E402
from framework.protocols import Budget, Heuristic  # noqa: E402
from framework.registry import Registry  # noqa: E402

#: (our game, OpenSpiel game, how OpenSpiel's plies are counted, depth; quick depth)
PERFT_ROWS = (("loa", "lines_of_action", "actions", 4, 3), ("checkers", "checkers", "turns", 8, 5))
#: The alpha-beta solver's switches in the thesis run (tournaments/thesis-loa-endgames.yaml): compiled.
THESIS_ALPHABETA = {"iterative_deepening": True, "transposition_table": True, "tt_move": True, "move_hints": True,
                    "killers": True, "history": True, "quiescence": False}
#: Fixed-depth alpha-beta: (game, heuristic, depth from the start, at the midgames; quick depths).
FIXED_DEPTH_ROWS = (("loa", "groups", 5, 4, 3, 2), ("checkers", "positional", 8, 8, 4, 4))
#: The same searches again with principal-variation search and late-move reductions on: the re-searching
#: switches, compiled too (no OpenSpiel column: LMR searches another tree, with another value).
PVS_LMR = {"pvs": True, "lmr": True}
#: Seeds of the midgame positions, each `MIDGAME_PLIES` random plies from the start.
MIDGAME_SEEDS, MIDGAME_PLIES = (1, 2, 3), 16
#: A node budget no search here reaches: with a budget the agent deepens iteratively.
NEVER_REACHED = Budget(nodes=1 << 40)


def best_time(run: Callable[[], Any], min_seconds: float) -> tuple[Any, float]:
    """The result of `run` and its best time over as many runs as fit in `min_seconds` (at least one)."""
    best, spent, result = float("inf"), 0.0, None
    while spent < min_seconds or result is None:
        start = time.perf_counter()
        result = run()
        took = time.perf_counter() - start
        best, spent = min(best, took), spent + took
    return result, best


def interpreted(run: Callable[[], Any]) -> Callable[[], Any]:
    """`run` with compiled kernels off (the interpreted path of the very same rules)."""
    def wrapped():
        before = os.environ.get("PLYGROUND_JIT")
        os.environ["PLYGROUND_JIT"] = "0"
        try:
            return run()
        finally:
            if before is None:
                del os.environ["PLYGROUND_JIT"]
            else:
                os.environ["PLYGROUND_JIT"] = before
    return wrapped


def both_paths(run: Callable[[], Any], min_seconds: float) -> tuple[tuple[Any, float], tuple[Any, float]]:
    """(result, best seconds) of `run` interpreted, then compiled (`best_time` each)."""
    return best_time(interpreted(run), min_seconds), best_time(run, min_seconds)


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def perft_rows(registry: Registry, pyspiel: Any, quick: bool, min_seconds: float) -> list[dict[str, Any]]:
    rows = []
    for name, peer, counting, depth, quick_depth in PERFT_ROWS:
        depth = quick_depth if quick else depth
        game = registry.create_game(name)
        state = game.initial_state()
        row: dict[str, Any] = {"what": f"perft {name} d{depth}"}
        row["py"] = best_time(interpreted(lambda: perft(game, state, depth)), min_seconds)
        warm = capabilities(game).warmup
        if warm is not None:
            warm()
            row["jit"] = best_time(lambda: perft(game, state, depth), min_seconds)
        if pyspiel is not None:
            spiel = pyspiel.load_game(peer)
            count = spiel_perft_turns if counting == "turns" else spiel_perft_actions
            row["peer"] = best_time(lambda: count(spiel.new_initial_state(), depth), min_seconds)
        leaves = {row[k][0] for k in ("py", "jit", "peer") if k in row}
        row["check"] = f"{row['py'][0]:,} leaves" if len(leaves) == 1 else f"MISMATCH {sorted(leaves)}"
        rows.append(row)
    return rows


def search_rows(registry: Registry, positions: int, nodes: int, min_seconds: float) -> list[dict[str, Any]]:
    game = registry.create_game("loa")
    sample = final_positions(game, positions, seed=2002, first=10, last=6)   # 6 to 10 plies before the end
    rows = []
    for name, params in (("pns", {"tree_limit": nodes + 100}), ("pn2", {"tree_limit": nodes + 100}),
                         ("dfpn", {"tt_size": nodes}), ("alphabeta", THESIS_ALPHABETA)):
        agent = registry.create_agent(name, game, params)   # built: its compiled search is warm

        def solve_all():
            results = [agent.solve(game, s, Budget(nodes=nodes)) for s in sample]
            return (sum(r.stats.nodes for r in results), [(r.value, r.move) for r in results])

        (py, py_s), (jit, jit_s) = both_paths(solve_all, min_seconds)
        solved = sum(value.value != "unknown" for value, _ in jit[1])
        what = f"{name} loa {positions} endgames" if name != "alphabeta" else f"ab solver loa {positions} endg."
        rows.append({"what": what, "py": (py[0], py_s), "jit": (jit[0], jit_s),
                     "check": f"{py[0]:,} nodes, {solved} solved" if py == jit else "MISMATCH"})
    return rows


def fixed_depth_rows(registry: Registry, pyspiel: Any, quick: bool, min_seconds: float) -> list[dict[str, Any]]:
    rows = []
    for name, heuristic, start_depth, mid_depth, quick_start, quick_mid in FIXED_DEPTH_ROWS:
        game = registry.create_game(name)
        evaluate = cast(Heuristic, registry.create_heuristic(game, heuristic))  # rows name registered heuristics
        lines = [random_line(game, MIDGAME_PLIES, seed) for seed in MIDGAME_SEEDS]
        for where, depth, group, switches in (
                ("start", quick_start if quick else start_depth, [[]], {}),
                (f"{len(lines)} midg.", quick_mid if quick else mid_depth, lines, {}),
                ("start pvs+lmr", quick_start if quick else start_depth, [[]], PVS_LMR)):
            states = [replay(game, moves) for moves in group]
            agent = registry.create_agent("alphabeta", game, {**THESIS_ALPHABETA, **switches, "depth": depth,
                                                              "heuristic": heuristic})

            def decide_all():
                decisions = [agent.select_move(game, s, NEVER_REACHED) for s in states]
                return (sum(d.stats.nodes for d in decisions),
                        [(game.format_move(s, d.move), d.stats.score) for s, d in zip(states, decisions)])

            (py, py_s), (jit, jit_s) = both_paths(decide_all, min_seconds)
            row: dict[str, Any] = {"what": f"ab {heuristic} {name} {where} d{depth}", "py": (py[0], py_s),
                                   "jit": (jit[0], jit_s),
                   "check": f"{py[0]:,} nodes" if py == jit else "MISMATCH"}
            if pyspiel is not None and not switches:
                twins = [twin(pyspiel, game, moves) for moves in group]
                peer, peer_s = best_time(lambda: [spiel_alphabeta(pyspiel, game, evaluate, t, depth) for t in twins],
                                         min_seconds)
                row["peer"] = (sum(nodes for nodes, _, _ in peer), peer_s)
                same = all(value == score for (_, value, _), (_, score) in zip(peer, jit[1]))
                row["check"] += f"; OS {row['peer'][0]:,}, " + ("same values" if same else "MISMATCH of values")
            rows.append(row)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    def number(x: float | None, form: str, suffix: str = "") -> str:
        return "-" if x is None else format(x, form) + suffix

    lines = [f"{'measure':<40} {'Python /s':>11} {'compiled /s':>12} {'OpenSpiel /s':>12} {'jit/py':>7} "
             f"{'jit/OS':>7} {'OS t/jit t':>10}  check"]
    for r in rows:
        py = rate(*r["py"])
        jit = rate(*r["jit"]) if "jit" in r else None
        peer = rate(*r["peer"]) if "peer" in r else None
        both = jit is not None and peer is not None
        lines.append(f"{r['what']:<40} {py:>11,.0f} {number(jit, ',.0f'):>12} {number(peer, ',.0f'):>12} "
                     f"{number(None if jit is None else jit / py, '.1f', 'x'):>7} "
                     f"{number(jit / peer if jit is not None and peer is not None else None, '.1f', 'x'):>7} "
                     f"{number(r['peer'][1] / r['jit'][1] if both else None, '.1f', 'x'):>10}  {r['check']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small depths and budgets (a smoke run)")
    parser.add_argument("--pn-positions", type=int, default=20, help="LOA endgame positions for pns")
    parser.add_argument("--pn-nodes", type=int, default=20_000, help="node budget of each pns solve")
    parser.add_argument("--min-seconds", type=float, default=0.5, help="repeat each timing this long")
    args = parser.parse_args(argv)
    pyspiel = import_pyspiel()
    if pyspiel is None:
        print("OpenSpiel (pyspiel) is not installed; its column is skipped. Install: pip install -e '.[bench]'")
    registry = Registry()
    min_seconds = 0.0 if args.quick else args.min_seconds
    rows = perft_rows(registry, pyspiel, args.quick, min_seconds)
    rows += search_rows(registry, 3 if args.quick else args.pn_positions, 500 if args.quick else args.pn_nodes,
                        min_seconds)
    rows += fixed_depth_rows(registry, pyspiel, args.quick, min_seconds)
    print(table(rows))
    return 1 if any("MISMATCH" in r["check"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
