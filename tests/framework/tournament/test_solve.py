"""Solve runs: (position, solver) tasks scheduled, stored, resumed, and checked for agreement."""

import sqlite3
import textwrap
from dataclasses import replace

import pytest

from framework.cli import main
from framework.errors import ConfigError, SolveDisagreementError
from framework.tournament.solve import (check_agreement, disagreements, is_solve_file, load_solve_config,
                                        run_solves, schedule_solves)
from framework.tournament.tasks import WorkerContext

# Tic-tac-toe values proved by hand: X completes the top row; the thesis example (X threatens
# b1 and c1 at once); a centre-and-corner opening is a draw.
POSITIONS = """\
# tiny test set
XX./OO./... x; result=win; length=1
XXO/.X./O.. o; result=loss; length=2
X../.O./... x; result=draw
"""

SOLVE = """\
mode: solve
game: tictactoe
positions: tiny.txt
budget: {nodes: 20000}
seed: 5
solvers:
  - {id: ab, agent: alphabeta}
  - {id: pn, agent: pns}
  - {id: df, agent: dfpn}
"""


def setup(tmp_path, positions=POSITIONS, solve=SOLVE):
    (tmp_path / "tiny.txt").write_text(positions)
    path = tmp_path / "tiny.yaml"
    path.write_text(textwrap.dedent(solve))
    return path


class InlineExecutor:
    """Runs tasks in this process; `stop_after` results, it raises KeyboardInterrupt like a Ctrl-C."""

    def __init__(self, stop_after=None):
        self.stop_after = stop_after
        self.ran = []

    def results(self, tasks):
        context = WorkerContext()
        for task in tasks:
            if self.stop_after is not None and len(self.ran) == self.stop_after:
                raise KeyboardInterrupt
            self.ran.append(task.key)
            yield task.run(context, lambda limit, progress: None)

    def close(self):
        pass


def rows(folder):
    with sqlite3.connect(folder / "results.sqlite") as conn:
        return conn.execute("SELECT position_index, solver, value, nodes FROM solves ORDER BY 1, 2").fetchall()


def test_schedule_is_every_position_by_every_solver_with_stable_seeds(tmp_path):
    config = load_solve_config(setup(tmp_path))
    tasks = schedule_solves(config)
    assert [t.key for t in tasks[:4]] == ["position 0 by ab", "position 0 by pn", "position 0 by df",
                                          "position 1 by ab"]
    assert len(tasks) == 9 and len({t.seed for t in tasks}) == 9
    assert [t.seed for t in schedule_solves(config)] == [t.seed for t in tasks]


def test_a_run_stores_every_value_and_a_resumed_run_does_only_the_rest(tmp_path):
    config = replace(load_solve_config(setup(tmp_path)), results=tmp_path / "out")
    first = InlineExecutor(stop_after=4)
    with pytest.raises(KeyboardInterrupt):
        run_solves(config, quiet=True, executor_factory=lambda c: first)
    assert len(rows(tmp_path / "out")) == 4
    second = InlineExecutor()
    summary = run_solves(config, quiet=True, executor_factory=lambda c: second)
    assert (summary.total, summary.resumed, summary.solved_now) == (9, 4, 5)
    assert second.ran == [t.key for t in schedule_solves(config)][4:]
    values = {(i, s): v for i, s, v, _ in rows(tmp_path / "out")}
    assert {values[(0, s)] for s in ("ab", "pn", "df")} == {"win"}
    assert {values[(1, s)] for s in ("ab", "pn", "df")} == {"loss"}
    assert {values[(2, s)] for s in ("ab", "pn", "df")} == {"draw"}
    # X completes the row at once: the root and its 5 children... all solvers agree on 6 nodes.
    assert {n for i, _, _, n in rows(tmp_path / "out") if i == 0} == {6}
    again = run_solves(config, quiet=True, executor_factory=lambda c: InlineExecutor())
    assert again.solved_now == 0


def test_the_cli_runs_in_worker_processes_and_validates(tmp_path, capsys):
    path = setup(tmp_path)
    assert main(["validate", str(path)]) == 0
    assert "3 positions x 3 solvers = 9 tasks" in capsys.readouterr().out
    assert main(["run", str(path), "--results", str(tmp_path / "cli"), "--workers", "2", "-q"]) == 0
    assert len(rows(tmp_path / "cli")) == 9


def test_a_solver_contradicting_the_file_stops_the_run_loudly(tmp_path):
    wrong = POSITIONS.replace("result=loss", "result=win")       # fabricated: the thesis example is a loss
    config = replace(load_solve_config(setup(tmp_path, positions=wrong)), results=tmp_path / "out")
    with pytest.raises(SolveDisagreementError, match="position 1: ab loss .*the file claims win"):
        run_solves(config, quiet=True, executor_factory=lambda c: InlineExecutor())
    # The disagreeing result is stored, so every later run over the folder fails again before solving.
    with pytest.raises(SolveDisagreementError, match="position 1"):
        run_solves(config, quiet=True, executor_factory=lambda c: InlineExecutor())


def test_disagreement_between_solvers_is_found_and_unknown_proves_nothing():
    fabricated = [(0, "ab", "win"), (0, "pn", "loss"), (1, "ab", "draw"), (1, "pn", "unknown"), (2, "x", "win")]
    assert disagreements(fabricated, ("unknown", "draw", "win")) == ["position 0: ab win, pn loss"]
    with pytest.raises(SolveDisagreementError, match="disagree on the value of 1 position"):
        check_agreement(fabricated, ("unknown", "draw", "win"), "here")
    check_agreement(fabricated[2:], ("unknown", "draw", "win"), "here")


@pytest.mark.parametrize("change, message", [
    (("mode: solve", "mode: games"), "mode: expected one of solve"),
    (("seed: 5", "seed: 5\ncolour: blue"), "unknown key 'colour'"),
    (("game: tictactoe", "game: chess"), "game:"),
    (("positions: tiny.txt", "positions: missing.txt"), "cannot read positions file"),
    (("{id: df, agent: dfpn}", "{id: ab, agent: dfpn}"), "'ab' is already the id"),
    (("{id: df, agent: dfpn}", "{id: 'b a d', agent: dfpn}"), "expected an id"),
    (("{id: df, agent: dfpn}", "{id: df, agent: nothing}"), "solvers\\[2\\].agent"),
    (("{id: df, agent: dfpn}", "{id: df, agent: random}"), "cannot solve positions"),
    (("{id: df, agent: dfpn}", "{id: df, agent: dfpn, params: {depth: 3}}"), "unknown parameter 'depth'"),
    (("{id: df, agent: dfpn}", "{id: df, agent: dfpn, params: {solve_share: 2.0}}"), "solvers\\[2\\]"),
    (("budget: {nodes: 20000}", "budget: {}"), "expected a node and/or time limit"),
])
def test_config_mistakes_name_the_key(tmp_path, change, message):
    path = setup(tmp_path, solve=SOLVE.replace(*change))
    with pytest.raises(ConfigError, match=message):
        load_solve_config(path)


def test_config_file_errors(tmp_path):
    with pytest.raises(ConfigError, match="cannot read solve file"):
        load_solve_config(tmp_path / "none.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("mode: [solve\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_solve_config(bad)
    assert not is_solve_file(bad) and not is_solve_file(tmp_path / "none.yaml")
    solvers = setup(tmp_path, solve=SOLVE.split("solvers:")[0] + "solvers: []\n")
    with pytest.raises(ConfigError, match="expected a list of solvers"):
        load_solve_config(solvers)


def test_the_shipped_thesis_file_is_valid():
    from pathlib import Path

    config = load_solve_config(Path(__file__).parents[3] / "tournaments" / "thesis-loa-endgames.yaml")
    assert len(config.positions) == 488 and set(config.claims) == {"win"}
    assert [s.agent for s in config.solvers] == ["alphabeta", "pns", "pn2", "dfpn"]
    assert str(config.results) == "results/thesis"
