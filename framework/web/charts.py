"""Inline SVG charts of a game's moves: nodes, time and score per move (replay), and the evaluation from a fixed
side (replay and the play page)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from framework.protocols import WIN_SCORE


def clip(scores: Sequence[float | None]) -> list[float | None]:
    """Scores for a chart: proven wins and losses (|score| >= WIN_SCORE/2) drawn just past the largest
    ordinary score, so one proof does not flatten every other point."""
    ordinary = [abs(s) for s in scores if s is not None and abs(s) < WIN_SCORE / 2]
    edge = 1.25 * max(ordinary, default=1.0) or 1.0
    return [s if s is None or abs(s) < WIN_SCORE / 2 else math.copysign(edge, s) for s in scores]


def chart(name: str, values: Sequence[float | None], movers: Sequence[int], log: bool = False,
          caption: str = "", one_line: bool = False) -> str:
    """An inline SVG chart: one point per move (seat 0 and seat 1 coloured apart), its line per seat.

    `one_line`: a single line through every known point (a value from one side's point of view), and no
    point where the value is unknown (a person's move)."""
    width, height, pad = 320, 90, 4
    shown = [None if v is None else (math.log10(v + 1) if log else v) for v in values]
    known = [v for v in shown if v is not None]
    low, high = (min(known + [0.0]), max(known + [0.0])) if known else (0.0, 1.0)
    if high == low:
        high = low + 1
    n = max(len(values), 1)

    def xy(i: int, v: float | None) -> tuple[float, float]:
        x = pad + (width - 2 * pad) * (i + 0.5) / n
        y = height - pad - (height - 2 * pad) * (((low if v is None else v) - low) / (high - low))
        return round(x, 1), round(y, 1)

    def path(seat: int | None) -> str:
        return " ".join(f"{x},{y}" for i, v in enumerate(shown) if (seat is None or movers[i] == seat)
                        and v is not None for x, y in [xy(i, v)])

    lines = [f'<polyline class="{"evaluation" if seat is None else f"series-{seat}"}" fill="none" '
             f'points="{points}"/>' for seat in ((None,) if one_line else (0, 1)) for points in [path(seat)] if points]
    dots = []
    for i, v in enumerate(shown):
        if v is None and one_line:
            continue
        x, y = xy(i, v)
        label = "–" if values[i] is None else f"{values[i]:.4g}"
        dots.append(f'<circle class="point series-{movers[i]}{" missing" if v is None else ""}" cx="{x}" cy="{y}" '
                    f'r="3" data-ply="{i + 1}"><title>ply {i + 1}: {escape(label)}</title></circle>')
    axis = xy(0, 0.0)[1]
    zero = "" if not low < 0 < high else f'<line class="axis" x1="0" x2="{width}" y1="{axis}" y2="{axis}"/>'
    return (f'<figure><figcaption>{escape(caption or name)}{" (log scale)" if log else ""}</figcaption>'
            f'<svg id="chart-{escape(name)}" class="chart" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}">{zero}{"".join(lines)}{"".join(dots)}</svg></figure>')


def evaluation(scores: Sequence[float | None], movers: Sequence[int], names: Sequence[str]) -> str:
    """The search scores of a two-seat game's moves as one line from the first seat's side (a second-seat score
    negated: the games are zero-sum), so the line rises while the first seat gains; "" when no move has a score
    or the game has more than two seats (their scores are each mover's own, not one quantity)."""
    if len(names) != 2 or all(s is None for s in scores):
        return ""
    side = [None if s is None or m not in (0, 1) else (s if m == 0 else -s) + 0.0 for s, m in zip(scores, movers)]
    return chart("evaluation", clip(side), movers, caption=f"evaluation, {names[0]}'s side (up: {names[0]} better)",
                 one_line=True)
