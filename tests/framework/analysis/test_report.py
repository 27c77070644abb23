"""The tournament guide's example (docs/guide/tournaments.md) runs as documented, and `plyground report`
writes what it promises."""

import re
from dataclasses import replace
from pathlib import Path

import pandas as pd
import yaml

from framework.analysis.report import write_report
from framework.analysis.tables import Results
from framework.cli import main
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament

README = Path(__file__).parents[3] / "docs" / "guide" / "tournaments.md"


def readme_yaml() -> str:
    section = README.read_text().split("# Tournaments and results", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs_and_the_report_is_written(tmp_path, capsys):
    (tmp_path / "example.yaml").write_text(readme_yaml())
    config = replace(load_config(tmp_path / "example.yaml"), results=tmp_path / "out")
    assert yaml.safe_load(readme_yaml())["results"] == "results/readme-example"
    summary = run_tournament(config, quiet=True)
    assert (summary.total, summary.played) == (12, 12)

    assert main(["report", str(tmp_path / "out"), "--parquet"]) == 0
    out = capsys.readouterr().out
    assert "Standings (Elo: Bradley-Terry fit, field mean 0, ± 95% CI)" in out
    assert "Crosstable (W-D-L and score of row against column)" in out
    peak = Results(tmp_path / "out").games["rss_peak"].max() / (1 << 20)
    assert f"Peak memory of the run: {peak:.1f} MiB resident in the largest worker process" in out
    report = (tmp_path / "out" / "report.md").read_text()
    assert f"Peak memory of the run: {peak:.1f} MiB" in report
    for heading in ("## Standings", "## Crosstable", "## Game pairs (pentanomial)", "## Terminations",
                    "## Search statistics"):
        assert heading in report
    for png in ("crosstable.png", "ratings.png", "nodes_per_move.png"):
        assert (tmp_path / "out" / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    results = Results(tmp_path / "out")
    standings = pd.read_csv(tmp_path / "out" / "tables" / "standings.csv")
    assert standings["participant"].tolist() == results.standings()["participant"].tolist()
    assert pd.read_parquet(tmp_path / "out" / "tables" / "games.parquet")["key"].tolist() == \
        results.games["key"].tolist()
    stats = results.search_stats().set_index("participant")
    assert stats.loc["random", "mean_nodes"] == 1.0 and stats.loc["mm2", "mean_depth"] <= 2
    assert stats.loc["ab3", "nodes_per_s"] > 0
    table = results.standings()
    assert table["games"].tolist() == [8, 8, 8] and table["points"].sum() == 12


def test_tables_of_a_known_tournament(tmp_path):
    """Hand-made games: a beats b twice, draws once as second; b beats c; c never plays a."""
    from framework.analysis.standings import crosstable, standings, terminations

    games = pd.DataFrame({
        "key": ["g1", "g2", "g3", "g4"], "first": ["a", "b", "a", "b"], "second": ["b", "a", "b", "c"],
        "score_first": [1.0, 0.5, 1.0, 1.0], "termination": ["normal", "normal", "time", "normal"]})
    table = standings(games, ["a", "b", "c"]).set_index("participant")
    assert table.loc["a", ["games", "wins", "draws", "losses", "points"]].tolist() == [3, 2, 1, 0, 2.5]
    assert table.loc["a", "first_wdl"] == "2-0-0" and table.loc["a", "second_wdl"] == "0-1-0"
    assert table.loc["b", ["wins", "losses", "score_pct"]].tolist() == [1, 2, 37.5]
    assert table.index.tolist() == ["a", "b", "c"] and table.attrs["elo_prior_draws"] == 1
    text, score = crosstable(games, ["a", "b", "c"])
    assert text.loc["a", "b"] == "2-1-0 (83%)" and text.loc["b", "a"] == "0-1-2 (17%)" and text.loc["a", "c"] == ""
    assert score.loc["c", "b"] == 0.0
    ends = terminations(games).set_index("termination")
    assert ends.loc["normal", ["games", "first_wins", "draws"]].tolist() == [3, 2, 1]
    assert ends.loc["time", "share_pct"] == 25.0


def test_two_games_have_standings_overall_and_per_game(tmp_path):
    path = Path(__file__).parents[3] / "tournaments" / "two-games-quick.yaml"
    config = replace(load_config(path), results=tmp_path / "out")
    assert run_tournament(config, quiet=True).played == 24
    results = Results(tmp_path / "out")
    assert results.game_names == ["tictactoe", "matches"]
    overall = results.standings().set_index("participant")
    per_game = [results.standings(game).set_index("participant") for game in results.game_names]
    assert (overall["games"] == 16).all() and all((t["games"] == 8).all() for t in per_game)
    assert overall["points"].tolist() == (per_game[0]["points"] + per_game[1]["points"])[overall.index].tolist()
    assert results.pairs()["pairs"].tolist() == [4, 4, 4]  # two colour-swapped pairs per game and pairing
    write_report(results)
    report = (tmp_path / "out" / "report.md").read_text()
    assert "24 games of tictactoe, matches" in report and "## tictactoe" in report and "## matches" in report


def test_plots_have_titles_and_the_depth_axis_whole_plies(tmp_path, monkeypatch):
    from framework.analysis import plots
    from plugins.reports.thesis import depth_plot

    seen = {}

    def keep(fig, path):
        ax = fig.axes[0]
        seen[path.name] = (ax.get_title(), [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]])
        return path

    monkeypatch.setattr(plots, "_save", keep)
    standings = pd.DataFrame({"participant": ["a", "b"], "elo": [10.0, -10.0], "elo_ci95": [5.0, 5.0]})
    plots.rating_bars(standings, tmp_path / "ratings.png")
    plots.nodes_per_move(pd.DataFrame({"participant": ["a", "b"], "nodes": [10, 100]}), tmp_path / "nodes.png")
    table = pd.DataFrame({"game": "loa", "search": "minimax", "depth": [1, 2, 3], "nodes": [30, 900, 27000]})
    depth_plot(table, tmp_path / "depth.png")
    assert seen["ratings.png"][0] == "Ratings" and seen["nodes.png"][0] == "Nodes per move"
    assert seen["depth.png"][0] == "loa" and all(t == int(t) for t in seen["depth.png"][1])


def test_report_tables_wrap_long_parameter_lists_and_separate_thousands():
    from framework.analysis.markdown import markdown_table
    from framework.analysis.report import _listing

    params = {f"parameter_{i}": i * 1000 for i in range(12)} | {"unset": None}
    cell = _listing(params)
    assert all(len(line) <= 60 for line in cell.split("<br>")) and cell.count("<br>") >= 3
    assert "unset" not in cell and cell.replace(",<br>", ", ") == ", ".join(f"parameter_{i}={i * 1000}"
                                                                          for i in range(12))
    text = markdown_table(pd.DataFrame({"nodes": [1234567.0, 89.0], "time_ms": [1500.25, 2.0], "who": ["a", "b"]}))
    assert "| 1,234,567 |   1,500.2 | a     |" in text and "|        89 |       2.0 | b     |" in text
