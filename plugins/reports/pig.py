"""The Pig reproduction report: Neller & Presser's (2004) optimal play of Pig, solved exactly, and a tournament.

    plyground run tournaments/pig.yaml && python -m plugins.reports.pig results/pig [--out FOLDER]

`write_pig_report(results, folder)` writes `README.md` and `boundary.png`: the optimal first player's win
probability at several goals (goal 100 beside the paper's 0.5306), the exact win probability of the optimal
policy against "hold at N" (both seatings, from `solver.matchup`: no sampling), the optimal policy's
roll/hold boundary (the paper's figure: the turn total at which it holds, by the player's and the
opponent's score), and the stored tournament's results (win rates with 95% Wilson intervals), where the
optimal policy's sampled score against "hold at 20" must agree with the exact one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import numpy as np  # noqa: E402

from framework.analysis.multiplayer import wilson  # noqa: E402
from framework.analysis.tables import Results  # noqa: E402
from plugins.games.pig.solver import hold_at, matchup, solve  # noqa: E402

GOALS = (10, 25, 50, 100)
PAPER = {100: 0.5306}
HOLD_TOTALS = (15, 20, 25)


def hold_boundary(goal: int) -> np.ndarray:
    """boundary[i, j]: the smallest turn total at which the optimal player with score i against j holds."""
    solution = solve(goal)
    boundary = np.zeros((goal, goal), dtype=int)
    for i in range(goal):
        for j in range(goal):
            boundary[i, j] = next(k for k in range(goal - i + 1) if not solution.should_roll(i, j, k))
    return boundary


def plot_boundary(goal: int, path: Path) -> np.ndarray:
    """Draw the hold boundary of `goal` into `path`; returns it."""
    boundary = hold_boundary(goal)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    image = left.imshow(boundary.T, origin="lower", cmap="viridis")
    left.set(xlabel="player's score i", ylabel="opponent's score j", title=f"hold at turn total (goal {goal})")
    fig.colorbar(image, ax=left)
    for j in (0, 30, 60, 90):
        right.plot(range(goal), boundary[:, j], label=f"opponent {j}")
    right.plot(range(goal), [20] * goal, "k:", label="hold at 20")
    right.set(xlabel="player's score i", ylabel="turn total where it holds",
              title="the boundary at some opponent scores")
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return boundary


def tournament_table(results: Results) -> tuple[str, dict[str, float]]:
    """Markdown rows of the champion's win rate against each opponent; the rates by opponent."""
    games = results.games
    champion = results.config.get("champion")
    rows, rates = [], {}
    for (a, b), group in games.groupby(["pairing_a", "pairing_b"], sort=False):
        first_wins = group["result_first"] > group["result_second"]
        wins_a = float(np.where(group["first"] == a, first_wins, ~first_wins).sum())
        if b == champion:
            a, b, wins_a = b, a, len(group) - wins_a
        low, high = wilson(wins_a, len(group))
        rates[b] = wins_a / len(group)
        rows.append(f"| {a} | {b} | {len(group)} | {100 * wins_a / len(group):.1f}% | "
                    f"{100 * low:.1f}% - {100 * high:.1f}% |")
    return "\n".join(rows), rates


def write_pig_report(results: Results, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    values = "\n".join(f"| {goal} | {solve(goal).win_probability(0, 0, 0):.6f} | {PAPER.get(goal, '')} |"
                       for goal in GOALS)
    optimal = solve(100).rolls
    exact = {total: matchup(100, optimal, hold_at(100, total)) for total in HOLD_TOTALS}
    matchups = "\n".join(f"| hold at {t} | {100 * m.a_first:.2f}% | {100 * m.b_first:.2f}% | {100 * m.average:.2f}% |"
                         for t, m in exact.items())
    boundary = plot_boundary(100, folder / "boundary.png")
    rows, rates = tournament_table(results)
    sampled = rates.get("hold20")
    games = len(results.games[results.games["pairing_b"] == "hold20"])
    low, high = wilson(sampled * games, games) if sampled is not None else (0.0, 1.0)
    agrees = low <= exact[20].average <= high
    text = f"""# Optimal play of Pig (Neller & Presser 2004), solved exactly

Reproduce: `plyground run tournaments/pig.yaml && python -m plugins.reports.pig results/pig`
(the solution takes about a second per goal; the tournament a few minutes on two cores).

## The optimal first player's win probability

Value iteration over P(i, j, k) (the mover's score, the opponent's, the turn total), solved score sum by
score sum with Newton steps (`plugins/games/pig/solver.py`; every state satisfies the optimality equations
to 1e-12, tested). `plyground solve pig --option goal=G` prints the same numbers.

| goal | P(first player wins), optimal play | Neller & Presser |
|---:|---:|---:|
{values}

## The optimal policy against "hold at N" (exact)

A fixed policy makes each score sum's equations linear, so the chance that the optimal player beats
"hold at N" is computed exactly (`solver.matchup`, checked against plain value iteration in the tests).

| opponent | optimal moves first | opponent moves first | both seatings |
|---|---:|---:|---:|
{matchups}

## The roll/hold boundary

The first turn total at which the optimal player holds, by its score and the opponent's (as the paper's
figure): from 0-0 it holds at {boundary[0, 0]}; when the opponent nears the goal it rolls on to win in one
turn; near its own goal it holds as soon as the turn total finishes the game.

![boundary](boundary.png)

## Tournament

{len(results.games)} games, gauntlet of the optimal policy against the others, seat-swapped pairs, each game with \
its own dice (`tournaments/pig.yaml`): the champion's win rate with its 95% Wilson interval.

| champion | opponent | games | champion's win rate | 95% interval |
|---|---|---:|---:|---:|
{rows}

The exact win probability of the optimal policy against hold at 20 over both seatings,
{100 * exact[20].average:.2f}%, {'lies inside' if agrees else 'lies OUTSIDE'} the sampled interval
({100 * low:.1f}% - {100 * high:.1f}%).
"""
    path = folder / "README.md"
    path.write_text(text)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m plugins.reports.pig", description=__doc__.splitlines()[0])
    parser.add_argument("results", help="the results folder of tournaments/pig.yaml")
    parser.add_argument("--out", help="where to write README.md and boundary.png (default: the results folder)")
    args = parser.parse_args(argv)
    results = Results(args.results)
    print(write_pig_report(results, Path(args.out or args.results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
