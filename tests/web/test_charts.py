"""The evaluation chart: one line from the first seat's side, in play and in replay."""

from __future__ import annotations

import re

from framework.protocols import WIN_SCORE
from framework.web.charts import evaluation


def points(svg: str) -> list[tuple[str, float]]:
    """(ply, value) of every point, from the titles, and the y of each (higher value, smaller y)."""
    return [(ply, float(value)) for ply, value in re.findall(r"<title>ply (\d+): ([-\d.e+]+)</title>", svg)]


def heights(svg: str) -> list[float]:
    return [float(y) for y in re.findall(r'<circle [^>]*cy="([-\d.]+)"', svg)]


def test_the_second_seats_scores_are_negated_and_unscored_moves_are_left_out():
    svg = evaluation([10.0, -5.0, None, 20.0, 0.0], [0, 1, 0, 1, 1], ("X", "O"))
    assert points(svg) == [("1", 10.0), ("2", 5.0), ("4", -20.0), ("5", 0.0)]
    y = heights(svg)
    assert y[0] < y[1] < y[3] < y[2]   # up is better for X: 10 > 5 > 0 > -20
    assert re.findall(r'<polyline class="evaluation series-(\d)"', svg) == ["0", "1"]   # a line per engine
    assert "evaluation, X&#x27;s side (up: X better)" in svg


def test_a_proven_result_is_drawn_just_past_the_largest_ordinary_score():
    svg = evaluation([2.0, WIN_SCORE], [0, 1], ("X", "O"))
    assert points(svg) == [("1", 2.0), ("2", -2.5)]


def test_no_chart_without_a_score_or_with_more_than_two_seats():
    assert evaluation([None, None], [0, 1], ("X", "O")) == ""
    assert evaluation([1.0, 2.0, 3.0], [0, 1, 2], ("Red", "Yellow", "Green")) == ""
