"""Tuning runs: convergence on a toy agent with a known optimum, exact resume, growth, refusals and the warning."""

import re
import sqlite3

import pytest

from framework.errors import ConfigError
from framework.tuning.runner import run_tuning
from tests.framework.tuning.helpers import InlineExecutor, interrupted_after, load, toy_file
from tests.framework.tuning.toy_agents import PEAK, PEAK_LEVEL

#: The toy's strength peaks at x = PEAK; SPSA from x = 10 ends within this of it on every seed tried.
TOLERANCE = 5.0
SEEDS = (1, 2, 3, 4, 5)


def inline(config, **kwargs):
    return run_tuning(config, quiet=True, executor_factory=lambda c: InlineExecutor(), **kwargs)


def rows(folder):
    with sqlite3.connect(folder / "results.sqlite") as conn:
        return conn.execute("SELECT iteration, parameter, value, perturbation, plus, minus, score FROM tuning "
                            "ORDER BY iteration, parameter").fetchall()


@pytest.mark.parametrize("seed", SEEDS)
def test_tuning_from_far_away_converges_to_the_toy_agents_peak(tmp_path, seed):
    summary = inline(load(toy_file(tmp_path, seed=seed)))
    assert summary.iterations == summary.played == 300
    assert abs(summary.theta["x"] - PEAK) <= TOLERANCE, summary.theta
    stored = rows(tmp_path / "out")
    assert len(stored) == 300 and len({value for _, _, value, *_ in stored}) > 20   # θ after every iteration
    with sqlite3.connect(tmp_path / "out" / "results.sqlite") as conn:   # every game stored like any other
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (600,)
        assert conn.execute("SELECT COUNT(DISTINCT key) FROM moves").fetchone() == (600,)


def test_an_integer_parameter_converges_too_and_is_played_as_integers(tmp_path):
    parameters = ("{x: {start: 70, min: 0, max: 100, c_end: 2, r_end: 0.01}, "
                  "level: {start: 2, min: 0, max: 20, c_end: 2, r_end: 0.05}}")
    path = toy_file(tmp_path, parameters=parameters)
    summary = inline(load(path))
    assert abs(summary.theta["level"] - PEAK_LEVEL) <= 3, summary.theta
    levels = [(plus, minus) for _, name, _, _, plus, minus, _ in rows(tmp_path / "out") if name == "level"]
    assert all(p == int(p) and m == int(m) for p, m in levels)


def test_an_interrupted_run_resumes_on_the_same_theta_sequence(tmp_path):
    whole = inline(load(toy_file(tmp_path, iterations=60), results=tmp_path / "whole"))
    config = load(toy_file(tmp_path, iterations=60), results=tmp_path / "cut")
    for stop in (37, 27):   # interrupted mid-pair, twice
        with pytest.raises(KeyboardInterrupt):
            run_tuning(config, quiet=True, executor_factory=interrupted_after(stop))
    cut = rows(tmp_path / "cut")
    assert 0 < len(cut) < 60
    resumed = inline(config)
    assert resumed.resumed == len(cut) and resumed.theta == whole.theta
    assert rows(tmp_path / "cut") == rows(tmp_path / "whole")


def test_batches_resume_exactly_too(tmp_path):
    extra = "batch: 4\n"
    whole = inline(load(toy_file(tmp_path, iterations=30, extra=extra), results=tmp_path / "whole"))
    config = load(toy_file(tmp_path, iterations=30, extra=extra), results=tmp_path / "cut")
    with pytest.raises(KeyboardInterrupt):
        run_tuning(config, quiet=True, executor_factory=interrupted_after(13))
    assert inline(config).theta == whole.theta and rows(tmp_path / "cut") == rows(tmp_path / "whole")


def test_raising_iterations_continues_from_the_stored_theta(tmp_path):
    inline(load(toy_file(tmp_path, iterations=20)))
    first = rows(tmp_path / "out")
    grown = inline(load(toy_file(tmp_path, iterations=35)))
    assert (grown.resumed, grown.played) == (20, 15)
    assert rows(tmp_path / "out")[:20] == first and len(rows(tmp_path / "out")) == 35


@pytest.mark.parametrize(("change", "named"), [
    ("c_end: 8, r_end: 0.1", "tune.parameters.x.c_end (8 stored, 9 now)"),
    ("start: 10, min: 0", "tune.parameters.x.start (10 stored, 20 now)"),
])
def test_a_changed_parameter_definition_is_refused_naming_the_key(tmp_path, change, named):
    inline(load(toy_file(tmp_path, iterations=5)))
    changed = toy_file(tmp_path, iterations=5, parameters="{x: {start: 10, min: 0, max: 100, c_end: 8, r_end: 0.1}}"
                       .replace(change, change.replace("8", "9").replace("start: 10", "start: 20")))
    with pytest.raises(ConfigError, match="another definition") as error:
        inline(load(changed))
    assert named in str(error.value) and "\n" not in str(error.value)


def test_fewer_iterations_than_stored_are_refused(tmp_path):
    inline(load(toy_file(tmp_path, iterations=6)))
    with pytest.raises(ConfigError, match=r"tune.iterations \(6 stored, 5 now"):
        inline(load(toy_file(tmp_path, iterations=5)))


def test_a_parameter_that_changes_no_move_is_warned_about(tmp_path):
    summary = inline(load(toy_file(tmp_path, agent="deaf", iterations=12)))
    assert summary.warning and "(x) seem not to change play" in summary.warning and "'deaf'" in summary.warning
    assert inline(load(toy_file(tmp_path / "..", agent="peaked", iterations=12),
                       results=tmp_path / "peaked")).warning is None


def test_the_validation_match_ends_with_the_sprt_verdict(tmp_path):
    extra = "validate: {games: 200, sprt: {elo0: 0, elo1: 100}}\n"
    path = toy_file(tmp_path, parameters="{x: {start: 0, min: 0, max: 100, c_end: 8, r_end: 0.2}}", iterations=150,
                    extra=extra)
    summary = inline(load(path))
    assert "tuned vs start" in summary.validation and "H1 accepted" in summary.validation, summary.validation


def test_tuning_games_get_the_tournaments_memory_limit(tmp_path):
    limits = []

    class Recording(InlineExecutor):
        def results(self, tasks):
            for task in tasks:
                limits.append(task.memory_limit_mb)
                yield from super().results([task])

    config = load(toy_file(tmp_path, iterations=2, extra="", name="t.yaml"), memory_limit_mb=1234)
    run_tuning(config, quiet=True, executor_factory=lambda c: Recording())
    assert limits == [1234] * 4


@pytest.mark.parametrize("change", ["seed: 2", "name: renamed"])
def test_changing_the_seed_or_name_of_a_finished_tuning_gives_the_tuning_hint(tmp_path, change):
    """It gave the tournament's ("only raising games_per_pairing, adding participants ...")."""
    inline(load(toy_file(tmp_path, iterations=3)))
    path = toy_file(tmp_path, iterations=3)
    path.write_text(path.read_text().replace("seed: 1", change) if change.startswith("seed")
                    else f"{change}\n{path.read_text()}")
    with pytest.raises(ConfigError) as error:
        inline(load(path))
    message = str(error.value)
    assert f"changed: {change.split(':')[0]}" in message and "only raising tune.iterations or changing tune.validate" \
        in message and "games_per_pairing" not in message


def test_the_validation_line_prints_the_match_as_a_tournament_does(tmp_path):
    """W-D-L and score only, before: now Elo +- its interval, LOS, draws and the pentanomial too."""
    path = toy_file(tmp_path, parameters="{x: {start: 0, min: 0, max: 100, c_end: 8, r_end: 0.2}}", iterations=40,
                    extra="validate: {games: 40}\n")
    line = inline(load(path)).validation
    assert line.startswith("validation after 40 iterations, tuned vs start: 40 games, W-D-L "), line
    interval = r"(\d+\.\d|n/a \(reaches a 0% or 100% score\))"
    assert re.search(rf"Elo (-?\d+\.\d \+- {interval}|n/a \(too few games\)), LOS (\d+\.\d%|n/a)", line), line
    assert "Ptnml(0-2) [" in line


def test_the_report_prints_an_integer_parameter_as_an_integer(tmp_path):
    from framework.analysis.tables import Results
    from framework.tuning.report import TuneReport
    parameters = ("{x: {start: 70, min: 0, max: 100, c_end: 2, r_end: 0.01}, "
                  "level: {start: 3, min: 0, max: 20, c_end: 2, r_end: 0.05}}")
    config = load(toy_file(tmp_path, parameters=parameters, iterations=4))
    inline(config)
    final = TuneReport(Results(tmp_path / "out")).final()
    text = final.to_string(index=False)
    level = final[final["parameter"] == "level"].iloc[0]
    assert all(isinstance(level[c], int) for c in ("start", "tuned", "min", "max")) and level["start"] == 3
    assert ".000000" not in text, text
