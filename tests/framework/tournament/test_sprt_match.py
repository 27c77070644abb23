"""A match stopped by SPRT, end to end through YAML and the CLI; match statistics in the progress and as JSON Lines."""

import json
import textwrap
from dataclasses import replace

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.tournament.config import load_config
from framework.tournament.executors import LocalExecutor
from framework.tournament.runner import run_tournament

MATCH = """\
game: tictactoe
seed: 5
participants:
  - {id: ab, agent: alphabeta, params: {depth: 2, heuristic: lines}}
  - {id: rnd, agent: random}
games_per_pairing: 400
sprt: {elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: pentanomial}
"""


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.slow
def test_the_match_stops_when_the_sprt_decides_whatever_the_workers_and_a_rerun_plays_nothing(tmp_path, capsys):
    path = write(tmp_path, MATCH)
    assert main(["run", str(path), "--results", str(tmp_path / "one"), "-q"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("SPRT ab vs rnd: "))
    assert "(-2.94, 2.94) [0, 50]: H1 accepted (Elo >= 50) after" in line
    played = int(out.split("(0 already stored, ")[1].split(" played now")[0])
    assert played < 100  # of at most 400
    assert main(["run", str(path), "--results", str(tmp_path / "two"), "--workers", "2", "-q"]) == 0
    assert line in capsys.readouterr().out  # the same decision after the same pairs: pairs count in index order
    assert main(["run", str(path), "--results", str(tmp_path / "one"), "-q"]) == 0
    out = capsys.readouterr().out
    assert f"({played} already stored, 0 played now)" in out and line in out
    assert main(["report", str(tmp_path / "one")]) == 0
    assert line in capsys.readouterr().out
    report = (tmp_path / "one" / "report.md").read_text()
    assert "## SPRT" in report and line in report and "## Match" in report


class StopAfter(LocalExecutor):
    """A run interrupted after `n` results, as Ctrl-C would."""

    def __init__(self, n):
        super().__init__(1)
        self.n = n

    def results(self, tasks):
        for i, result in enumerate(super().results(tasks)):
            if i == self.n:
                raise KeyboardInterrupt
            yield result


@pytest.mark.slow
def test_a_resumed_match_counts_the_stored_games_and_stops_where_an_uninterrupted_one_does(tmp_path):
    config = load_config(write(tmp_path, MATCH))
    whole = run_tournament(replace(config, results=tmp_path / "whole"), quiet=True)
    parts = replace(config, results=tmp_path / "parts")
    with pytest.raises(KeyboardInterrupt):
        run_tournament(parts, quiet=True, executor_factory=lambda c: StopAfter(10))
    resumed = run_tournament(parts, quiet=True)
    assert resumed.resumed == 10 and resumed.resumed + resumed.played == whole.played
    assert resumed.sprt == whole.sprt and "H1 accepted" in whole.sprt[0]


def test_each_pairing_of_a_gauntlet_has_its_own_test(tmp_path, capsys):
    path = write(tmp_path, """\
        game: tictactoe
        format: gauntlet
        champion: rnd
        participants:
          - {id: rnd, agent: random}
          - {id: ab, agent: alphabeta, params: {depth: 2, heuristic: lines}}
          - {id: mm, agent: minimax, params: {depth: 2}}
        games_per_pairing: 400
        sprt: {elo0: 0, elo1: 50, model: trinomial}
        """)
    assert main(["run", str(path), "--results", str(tmp_path / "g"), "-q", "--report-every", "10"]) == 0
    out = capsys.readouterr().out
    for opponent in ("ab", "mm"):
        assert f"SPRT rnd vs {opponent}: LLR " in out
        assert [x for x in out.splitlines() if x.startswith(f"SPRT rnd vs {opponent}")][-1].count(
            "H0 accepted (Elo <= 0) after") == 1
        assert f"rnd vs {opponent}: 10 games, W-D-L " in out or f"rnd vs {opponent}: 5 games, W-D-L " in out


@pytest.mark.slow
def test_report_every_prints_the_match_statistics_and_report_exports_json_lines(tmp_path, capsys):
    path = write(tmp_path, """\
        game: tictactoe
        participants:
          - {id: ab, agent: alphabeta, params: {depth: 2, heuristic: lines}}
          - {id: mm, agent: minimax, params: {depth: 1}}
        games_per_pairing: 8
        """)
    assert main(["run", str(path), "--results", str(tmp_path / "r"), "-q", "--report-every", "4"]) == 0
    out = capsys.readouterr().out
    assert "ab vs mm: 4 games, W-D-L " in out and "ab vs mm: 8 games, W-D-L " in out
    assert ", score " in out and "%, Elo " in out and ", LOS " in out and ", draws " in out and "Ptnml(0-2) [" in out
    assert main(["report", str(tmp_path / "r"), "--jsonl"]) == 0
    assert "tables/*.csv and *.jsonl" in capsys.readouterr().out
    rows = [json.loads(line) for line in (tmp_path / "r" / "tables" / "match.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["participant"] == "ab" and rows[0]["games"] == 8
    assert rows[0]["wins"] + rows[0]["draws"] + rows[0]["losses"] == 8 and sum(rows[0]["ptnml"]) == 4
    games = (tmp_path / "r" / "tables" / "games.jsonl").read_text().splitlines()
    assert len(games) == 8 and {"key", "first", "second", "termination"} <= set(json.loads(games[0]))
    assert Results(tmp_path / "r").match()["games"].tolist() == [8]


def test_report_every_must_be_positive(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(write(tmp_path, MATCH)), "--report-every", "0"])
    assert exit_.value.code == 2 and "--report-every: expected an integer from 1 to" in capsys.readouterr().err


BASE = """\
game: tictactoe
participants:
  - {id: a, agent: random}
  - {id: b, agent: random}
"""


@pytest.mark.parametrize("text, message", [
    (BASE + "  - {id: c, agent: random}\nsprt: {elo0: 0, elo1: 5}\n",
     "sprt: an SPRT tests one participant against the others: use 'format: gauntlet' or two participants, not a "
     "round-robin of 3"),
    (BASE.replace("game: tictactoe", "games: [tictactoe, matches]") + "sprt: {elo0: 0, elo1: 5}\n",
     "sprt: an SPRT runs on one game; run one match per game"),
    (BASE + "sprt: {elo0: 0}\n", "sprt.elo1: missing; the SPRT tests H0: Elo = elo0 against H1: Elo = elo1"),
    (BASE + "sprt: {elo0: zero, elo1: 5}\n", "sprt.elo0: expected a number, got 'zero'"),
    (BASE + "sprt: {elo0: 0, elo1: 5, model: binomial}\n", "sprt.model: expected one of pentanomial, trinomial"),
    (BASE + "sprt: {elo0: 0, elo1: 5, normalized: yes please}\n",
     "sprt.normalized: expected true or false, got 'yes please'"),
    (BASE + "sprt: {elo0: 0, elo1: 5, alpha: 0.9}\n", "sprt: SPRT alpha must be between 0 and 0.5, got 0.9"),
    (BASE + "sprt: {elo0: 0, elo1: 5, llr: 3}\n", "sprt.llr: unknown key 'llr'"),
])
def test_sprt_mistakes_are_refused_at_validate(tmp_path, capsys, text, message):
    assert main(["validate", str(write(tmp_path, text))]) == 2
    assert message in capsys.readouterr().err


def test_the_readme_sprt_example_runs_as_documented(tmp_path, capsys):
    import re
    from pathlib import Path

    readme = (Path(__file__).parents[3] / "docs" / "howto" / "sprt.md").read_text()
    section = readme.split("**SPRT.**", 1)[1].split("**Solve mode.**", 1)[0]
    text = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    printed = re.search(r"```text\n(.*?)\n```", section, re.S).group(1)
    assert main(["run", str(write(tmp_path, text)), "--results", str(tmp_path / "r"), "-q"]) == 0
    out = capsys.readouterr().out
    assert printed in out  # the seed is the file's: the same LLR, decision and pairs
    statistics = readme.split("**Match statistics.**", 1)[1]
    line = re.search(r"```text\n(.*?)\n```", statistics, re.S).group(1)
    assert line in out
