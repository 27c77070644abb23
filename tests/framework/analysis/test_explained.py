"""The first output explains itself: an Elo the games cannot estimate says so, the match figures carry a
legend, and `plyground report` prints the search statistics the README promises."""

import math

import pandas as pd

from framework.analysis.pairs import pair_stats
from framework.analysis.standings import MATCH_LEGEND, NOT_ESTIMATED, UNBOUNDED, elo_estimate, match_line
from framework.cli import main


def _row(ptnml):
    stats = pair_stats(ptnml)
    return pd.Series({"participant": "a", "opponent": "b", "games": 2 * sum(ptnml), "wins": 0, "draws": 0,
                      "losses": 0, "score_pct": 100 * stats.score, "elo": stats.elo, "elo_error": stats.elo_error,
                      "los_pct": 100 * stats.los, "draw_pct": 0.0, "ptnml": list(ptnml)})


def test_one_pair_has_no_spread_so_no_interval_and_no_los():
    """It printed `Elo 190.8 +- 0.0, LOS 100.0%`: one pair scoring 1.5 of 2, as if that were certain."""
    assert pair_stats((0, 0, 0, 1, 0)).elo_error == 0.0
    assert elo_estimate(190.8, 0.0, 100.0) == ("190.8", NOT_ESTIMATED, NOT_ESTIMATED)
    line = match_line(_row((0, 0, 0, 1, 0)))
    assert f"Elo {NOT_ESTIMATED}, LOS {NOT_ESTIMATED}," in line


def test_below_five_pairs_no_pairing_estimates_anything():
    """One rule for every pairing: two pairs with a spread printed `Elo -88.7 +- 136.3, LOS 7.9%` beside pairings
    that printed n/a; under MIN_PAIRS complete pairs Elo, interval and LOS all read n/a."""
    stats = pair_stats((0, 1, 1, 1, 0))   # four pairs with a spread: an interval exists, but four are too few
    assert math.isfinite(stats.elo) and 0 < stats.elo_error < math.inf
    assert f"Elo {NOT_ESTIMATED}, LOS {NOT_ESTIMATED}," in match_line(_row((0, 1, 1, 1, 0)))
    assert f"Elo {NOT_ESTIMATED}" not in match_line(_row((1, 0, 1, 2, 1)))


def test_a_perfect_score_has_no_finite_elo():
    """It printed `Elo inf +- inf`."""
    line = match_line(_row((0, 0, 0, 0, 5)))
    assert f"Elo {NOT_ESTIMATED}, LOS {NOT_ESTIMATED}," in line and "inf" not in line


def test_an_interval_reaching_a_perfect_score_keeps_the_elo_and_los():
    """Four pairs won and one split: the Elo is finite, its interval reaches 100% (infinite), LOS is measured.
    The interval says why it is missing: more games would not bound it (a tuning validation of 104 pairs, 101
    won, read `n/a (too few games)`)."""
    stats = pair_stats((0, 0, 0, 1, 4))
    assert math.isfinite(stats.elo) and stats.elo_error == math.inf and stats.los > 0.99
    line = match_line(_row((0, 0, 0, 1, 4)))
    assert f"Elo {stats.elo:.1f} +- {UNBOUNDED}, LOS {100 * stats.los:.1f}%" in line


def test_spread_gives_an_interval():
    stats = pair_stats((1, 2, 3, 2, 1))
    assert elo_estimate(stats.elo, stats.elo_error, 100 * stats.los) == \
        (f"{stats.elo:.1f}", f"{stats.elo_error:.1f}", f"{100 * stats.los:.1f}%")
    assert elo_estimate(math.nan, math.nan) == (NOT_ESTIMATED,) * 3   # no complete pair at all


def run_one_pair(folder, name="one-pair") -> None:
    """Run a tournament of one colour-swapped pair, minimax at depth 2 against random, in `folder` (the cwd)."""
    (folder / f"{name}.yaml").write_text(
        f"name: {name}\ngame: tictactoe\ngames_per_pairing: 2\nseed: 1\nworkers: 1\n"
        "participants:\n  - {id: mm, agent: minimax, params: {depth: 2}}\n  - {id: rnd, agent: random}\n")
    assert main(["run", f"{name}.yaml", "--quiet"]) == 0


def test_run_and_report_explain_their_figures(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_one_pair(tmp_path)
    out = capsys.readouterr().out.splitlines()
    line = next(line for line in out if line.startswith("mm vs rnd: 2 games"))
    assert f"+- {NOT_ESTIMATED}" in line or f"Elo {NOT_ESTIMATED}" in line     # one pair: no spread
    assert out[out.index(line) + 1] == MATCH_LEGEND
    assert main(["report", "results/one-pair"]) == 0
    report = capsys.readouterr().out
    assert MATCH_LEGEND in report and NOT_ESTIMATED in report and " inf " not in report
    heading = next(line for line in report.splitlines() if line.startswith("Search statistics"))
    table = report.split(heading, 1)[1].strip().splitlines()
    assert table[0].split() == ["participant", "moves", "mean_nodes", "median_nodes", "nodes_per_s", "mean_depth",
                                "mean_time_ms"]
    assert [row.split()[0] for row in table[1:3]] == ["mm", "rnd"]
    assert f"{MATCH_LEGEND}." in (tmp_path / "results" / "one-pair" / "report.md").read_text()
