"""The Pig and Rolit reproduction reports: written from small runs, with the facts they state."""

import textwrap
from dataclasses import replace

import pandas as pd
import pytest

from framework.analysis.tables import Results
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from plugins.reports.multiplayer import verdict, write_multiplayer_report
from plugins.reports.pig import hold_boundary, write_pig_report


def run(tmp_path, text, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(text))
    config = replace(load_config(path), results=tmp_path / name)
    run_tournament(config, quiet=True)
    return Results(tmp_path / name)


@pytest.mark.slow
def test_the_pig_report_states_the_exact_values_and_the_sampled_ones(tmp_path):
    results = run(tmp_path, """\
        game: pig
        format: gauntlet
        champion: optimal
        games_per_pairing: 4
        participants:
          - {id: optimal, agent: pig_policy}
          - {id: hold20, agent: pig_policy, params: {policy: hold_at, total: 20}}
        """, "pig")
    text = write_pig_report(results, tmp_path / "report").read_text()
    assert "| 100 | 0.530593 | 0.5306 |" in text
    assert "| hold at 20 | 57.15% | 50.83% | 53.99% |" in text
    assert "| optimal | hold20 | 4 |" in text and "from 0-0 it holds at 21" in text
    assert (tmp_path / "report" / "boundary.png").stat().st_size > 10_000


def test_the_hold_boundary_ends_where_a_hold_wins():
    boundary = hold_boundary(100)
    assert boundary[0, 0] == 21
    assert all(boundary[i, 0] == 100 - i for i in range(90, 100))   # near the goal: hold exactly on reaching it


def test_the_multiplayer_report_decides_the_claim_from_the_numbers(tmp_path):
    results = run(tmp_path, """\
        game: {name: rolit, options: {players: 3}}
        games_per_pairing: 3
        participants:
          - {id: brs, agent: brs, params: {depth: 1}}
          - {id: paranoid, agent: paranoid, params: {depth: 1}}
          - {id: maxn, agent: maxn, params: {depth: 1}}
        """, "rolit")
    text = write_multiplayer_report([results], tmp_path / "report").read_text()
    assert "## 3 players (`rolit`: 3 games)" in text
    assert "The paper's claim, BRS wins most (of BRS, paranoid and max^n): **" in text


def test_the_verdict_needs_brs_on_top_and_says_whether_the_intervals_part():
    def table(rows):
        return pd.DataFrame(rows, columns=["participant", "games", "wins", "win_ci95"])
    clear = table([("brs", 100, 70, "60.4-77.9%"), ("maxn", 100, 20, "13.3-28.9%")])
    close = table([("brs", 100, 40, "30.9-49.8%"), ("maxn", 100, 35, "26.4-44.7%")])
    behind = table([("brs", 100, 20, "13.3-28.9%"), ("paranoid", 100, 50, "40.4-59.6%"),
                    ("mcts", 100, 90, "82.6-94.5%")])       # not one of the compared searches
    assert verdict(clear).startswith("**Holds here**") and "clears the runner-up's" in verdict(clear)
    assert "intervals overlap" in verdict(close)
    assert verdict(behind).startswith("**Does not hold here**: paranoid won most (50.0%")
    tied = table([("brs", 100, 30, "22.0-39.4%"), ("paranoid", 100, 30, "22.0-39.4%")])
    assert verdict(tied) == ("**Undecided here**: BRS tied for most wins with paranoid "
                             "(30.0% of their games).")
