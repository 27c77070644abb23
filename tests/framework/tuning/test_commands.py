"""A tuning through every door: `plyground validate`, `run` (guarded worker processes), `report` and the workbench."""

from dataclasses import replace
from pathlib import Path

from starlette.testclient import TestClient

from framework.analysis.tables import Results
from framework.cli import main
from framework.tournament.config import ExecutorConfig, load_config
from framework.tournament.tune import Validation
from framework.tuning.report import TuneReport
from framework.tuning.runner import run_tuning
from framework.web.app import create_app
from tests.framework.tuning.helpers import toy_file

ROOT = Path(__file__).resolve().parents[3]


def test_a_tuning_runs_on_guarded_workers_reports_and_shows_in_the_workbench(tmp_path, capsys):
    path = toy_file(tmp_path, iterations=6, extra="batch: 3\nvalidate: {games: 4, sprt: {elo0: 0, elo1: 50}}\n")
    text = path.read_text().replace("mode: tune", "mode: tune\nworkers: 2")
    path.write_text(text)
    assert main(["validate", str(path)]) == 0
    assert "tuning 'tune', game matches, agent peaked, 1 parameter(s) (x), 6 iterations = 12 games, then at most " \
           "4 validation games" in capsys.readouterr().out
    assert main(["run", "--quiet", str(path)]) == 0
    out = capsys.readouterr().out
    assert "6 iterations in" in out and "tuned values: x " in out
    assert "validation after 6 iterations, tuned vs start:" in out and "SPRT LLR" in out
    results = Results(tmp_path / "out")
    assert len(results.games) == 12 + 4 and set(TuneReport(results).tables()) >= {"tuning", "final", "games", "moves"}
    assert main(["report", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Final values" in out and "validation after 6 iterations" in out
    assert (tmp_path / "out" / "trajectory.png").stat().st_size > 1000
    assert "![trajectory](trajectory.png)" in (tmp_path / "out" / "report.md").read_text()
    assert (tmp_path / "out" / "tables" / "tuning.csv").read_text().startswith(
        "iteration,parameter,value,perturbation,plus,minus,score")
    with TestClient(create_app(tmp_path), base_url="http://127.0.0.1") as client:   # its own address
        page = client.get("/results/out")
        assert page.status_code == 200 and "Final values" in page.text and "trajectory.png" in page.text
        assert client.get("/results/out/tables/tuning.csv").text.startswith("iteration,parameter")
    assert main(["run", "--quiet", str(path)]) == 0   # all stored: nothing to play
    assert "(6 already stored, 0 played now)" in capsys.readouterr().out


def test_the_shipped_example_runs_a_few_iterations(tmp_path):
    config = load_config(ROOT / "tournaments" / "tune-positional.yaml")
    assert [p.name for p in config.tune.parameters] == ["heuristic.advance", "heuristic.centre"]
    assert config.tune.validate.sprt is not None
    short = replace(config, results=tmp_path / "out", tune=replace(config.tune, iterations=2,
                                                                    validate=Validation(games=2)))
    summary = run_tuning(short, quiet=True)
    assert (summary.iterations, summary.played) == (2, 2) and "validation after 2 iterations" in summary.validation
    assert len(Results(tmp_path / "out").games) == 6


def test_a_tuning_on_dask_stores_the_same_theta_as_on_local_workers(tmp_path):
    path = toy_file(tmp_path, iterations=4, extra="batch: 2\n")
    thetas = [run_tuning(replace(load_config(path), results=tmp_path / kind, workers=2, executor=ExecutorConfig(kind)),
                         quiet=True).theta for kind in ("local", "dask")]
    assert thetas[0] == thetas[1]
    local, dask = (TuneReport(Results(tmp_path / kind)).tuning for kind in ("local", "dask"))
    assert local.equals(dask) and len(Results(tmp_path / "dask").games) == 8
