"""Solve mode: every solver on every position, stored and resumable like games, values checked for agreement."""

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import ConfigError
from framework.protocols import Budget
from framework.registry import Registry
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from framework.tournament.scheduler import schedule

FIXTURES = Path(__file__).with_name("fixture_agents.py")
POSITIONS = """\
# three positions with known values for the side to move
XXO/.X./O.. o | the thesis example
XO./.../... x | X wins
.X./.O./... x | a draw
"""


def write(tmp_path, solvers, extra=""):
    (tmp_path / "p.txt").write_text(POSITIONS)
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(f"""\
        mode: solve
        game: tictactoe
        positions: p.txt
        budget: {{nodes: 100000}}
        move_time_limit: 1
        workers: 2
        plugins: [{FIXTURES}]
        results: {tmp_path / 'out'}
        solvers: {solvers}
        """) + extra)
    return path


def minimax_value(text: str) -> str:
    """The value for the side to move by plain full-depth minimax (the baseline agent), independent of the solvers."""
    registry = Registry()
    game = registry.create_game("tictactoe")
    score = registry.create_agent("minimax", game).select_move(game, game.from_text(text), Budget()).stats.score
    return "win" if score > 0 else "loss" if score < 0 else "draw"


@pytest.mark.slow
def test_solvers_agree_with_minimax_and_the_run_resumes(tmp_path, capsys):
    path = write(tmp_path, "[{id: ab, agent: alphabeta}, {id: pns, agent: pns}, {id: dfpn, agent: dfpn}]")
    assert main(["validate", str(path)]) == 0
    assert "3 positions x 3 solvers = 9 solves" in capsys.readouterr().out
    assert main(["run", str(path), "--quiet"]) == 0
    assert "9 solves in" in capsys.readouterr().out
    results = Results(tmp_path / "out")
    assert len(results.solves) == 9 and (results.solves["status"] == "solved").all()
    for position, group in results.solves.groupby("position"):
        assert set(group["value"]) == {minimax_value(position)}
    assert results.solves.set_index(["position_index", "solver"]).loc[(0, "pns"), "note"] == "the thesis example"
    summary = results.solve_summary().set_index("solver")
    assert summary["solved"].tolist() == [3, 3, 3] and (summary["common"] == 3).all()
    assert summary.loc["ab", "nodes"] == results.solves[results.solves["solver"] == "ab"]["nodes"].sum()
    assert summary.loc["ab", "extra_nodes_first_reaching_depth"] <= summary.loc["ab", "nodes"]
    assert results.disagreements().empty
    assert main(["run", str(path), "--quiet"]) == 0
    assert "(9 already stored, 0 played now)" in capsys.readouterr().out
    assert main(["report", str(tmp_path / "out")]) == 0
    assert "All solvers that solved a position agree on its value." in capsys.readouterr().out
    assert (tmp_path / "out" / "solved_by_nodes.png").exists()
    assert "## Results" in (tmp_path / "out" / "report.md").read_text()


@pytest.mark.slow
def test_crashing_hanging_and_lying_solvers(tmp_path, capsys):
    path = write(tmp_path, "[{id: ab, agent: alphabeta}, {id: crash, agent: crasher}, {id: hang, agent: hanger}, "
                           "{id: liar, agent: liar}]")
    config = load_config(path)
    config = replace(config, start_positions=config.start_positions[:2], position_notes=config.position_notes[:2])
    run_tournament(config, quiet=True)
    solves = Results(tmp_path / "out").solves.set_index(["position_index", "solver"])
    assert solves.loc[(0, "crash"), ["status", "reason"]].tolist() == [
        "crash", "crash crashed: RuntimeError: deliberate crash"]
    assert solves.loc[(1, "hang"), ["status", "reason"]].tolist() == [
        "time", "hang was stopped after 1s (hard time limit)"]
    bad = Results(tmp_path / "out").disagreements()
    assert bad.values.tolist() == [[0, "XXO/.X./O.. o", "ab", "loss"], [0, "XXO/.X./O.. o", "liar", "win"]]


@pytest.mark.parametrize("solvers, extra, message", [
    ("[{id: r, agent: random}]", "", "solvers[0].agent: agent 'random' cannot solve positions (it has no solve "
                                     "method); agents that can: "),
    ("[]", "", "solvers: expected a list of at least one solvers, got []"),
    ("[{agent: alphabeta, params: {heuristic: lines}}]", "",
     "solvers[0].params: 'heuristic' has no effect when agent 'alphabeta' solves (it proves with wins and losses "
     "only, and never evaluates a position); remove it"),
    ("[{agent: pns}]", "games_per_pairing: 2\n", "games_per_pairing: 'games_per_pairing' belongs to 'mode: games'"),
    ("[{agent: pns}]", "budget: {nodes: -5}\n", "budget.nodes: expected an integer from 1 to "
                                             "4,611,686,018,427,387,904, got -5"),
])
def test_solve_mode_config_errors(tmp_path, solvers, extra, message):
    path = write(tmp_path, solvers)
    if extra.startswith("budget:"):   # replaces the default budget: a key given twice is an error of its own
        path.write_text(path.read_text().replace("budget: {nodes: 100000}\n", extra))
    else:
        path.write_text(path.read_text() + extra)
    with pytest.raises(ConfigError, match="s.yaml: ") as info:
        load_config(path)
    assert message in str(info.value)


def test_a_solve_run_needs_positions(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("mode: solve\ngame: tictactoe\nsolvers: [{agent: pns}]\n")
    with pytest.raises(ConfigError, match="positions: missing; name a file of positions to solve"):
        load_config(path)


def test_solvers_without_their_own_budget_get_the_default(tmp_path):
    config = load_config(write(tmp_path, "[{id: a, agent: pns}, {id: b, agent: pns, budget: {time: 2}}]"))
    assert [p.budget.nodes for p in config.participants] == [100000, None]
    assert [t.key for t in schedule(config)][:3] == ["a @ 0", "b @ 0", "a @ 1"]
