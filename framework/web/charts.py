"""The evaluation chart of a game's moves from a fixed side (the play page and replay), and the clipping of proven
results every score chart shares (replay's per-seat charts are `results.chart`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from framework.protocols import WIN_SCORE

WIDTH, HEIGHT, PAD = 320, 90, 4


def clip(scores: Sequence[float | None]) -> list[float | None]:
    """Scores for a chart: proven wins and losses (|score| >= WIN_SCORE/2) drawn just past the largest
    ordinary score, so one proof does not flatten every other point."""
    ordinary = [abs(s) for s in scores if s is not None and abs(s) < WIN_SCORE / 2]
    edge = 1.25 * max(ordinary, default=1.0) or 1.0
    return [s if s is None or abs(s) < WIN_SCORE / 2 else math.copysign(edge, s) for s in scores]


def evaluation(scores: Sequence[float | None], movers: Sequence[int], names: Sequence[str]) -> str:
    """The search scores of a two-seat game's moves from the first seat's side (a second-seat score negated: the
    games are zero-sum), so the lines rise while the first seat gains: a line per seat (two engines need not score
    on one scale), a point per scored move (a person's move has none); "" when no move has a score or the game has
    more than two seats (their scores are each mover's own, not one quantity)."""
    if len(names) != 2 or all(s is None for s in scores):
        return ""
    side = clip([None if s is None or m not in (0, 1) else (s if m == 0 else -s) + 0.0 for s, m in zip(scores, movers)])
    known = [(i, v) for i, v in enumerate(side) if v is not None]
    low, high = min(0.0, *(v for _, v in known)), max(0.0, *(v for _, v in known))
    high = high if high > low else low + 1

    def x(i: int) -> str:
        return f"{PAD + (WIDTH - 2 * PAD) * (i + 0.5) / len(side):.1f}"

    def y(v: float) -> str:
        return f"{HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / (high - low):.1f}"

    dots = "".join(f'<circle class="point series-{movers[i]}" cx="{x(i)}" cy="{y(v)}" r="3" data-ply="{i + 1}">'
                   f'<title>ply {i + 1}: {v:.4g}</title></circle>' for i, v in known)
    lines = "".join(f'<polyline class="evaluation series-{seat}" fill="none" points="{points}"/>'
                    for seat in (0, 1) for points in [" ".join(f"{x(i)},{y(v)}" for i, v in known if movers[i] == seat)]
                    if points)
    caption = f"evaluation, {names[0]}'s side (up: {names[0]} better)"
    return (f'<figure><figcaption>{escape(caption)}</figcaption><svg id="chart-evaluation" class="chart" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}"><line class="axis" x1="0" '
            f'x2="{WIDTH}" y1="{y(0.0)}" y2="{y(0.0)}"/>{lines}{dots}</svg></figure>')
