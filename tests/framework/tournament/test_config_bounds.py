"""Careless or hostile tournament files and options are refused at `validate`, fast, in one line."""

import textwrap
import time
from pathlib import Path

import pytest

from framework.cli import main
from framework.errors import ConfigError
from framework.tournament.config import load_config, max_workers
from framework.tournament.scheduler import schedule
from tests.framework.test_safeyaml import BOMB
from tests.framework.tournament.test_examples import TOURNAMENTS

GOOD = """\
game: tictactoe
participants:
  - {id: ab, agent: alphabeta, params: {depth: 2, heuristic: lines}}
  - {id: rnd, agent: random}
"""


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def refused(tmp_path, text) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}") and "\n" not in message
    return message


@pytest.mark.parametrize("text, message", [
    (GOOD.replace("depth: 2", "depth: 100000000000000000000"), "params.depth: 'depth' must be at most 256, got"),
    (GOOD.replace("depth: 2", "depth: 2, tt_size: 100000000000000000000"),
     "params.tt_size: 'tt_size' must be at most 16777216, got 100000000000000000000"),
    (GOOD.replace("depth: 2", "depth: 2, aspiration_width: .nan"),
     "'aspiration_width' must be a finite number, got nan"),
    (GOOD.replace("depth: 2", "depth: 2, singular_margin: .inf"), "'singular_margin' must be a finite number, got inf"),
    (GOOD.replace("{id: rnd, agent: random}", "{id: rnd, agent: random, budget: {time: .inf}}"),
     "participants[1].budget.time: expected a positive, finite number of seconds"),
    (GOOD.replace("{id: rnd, agent: random}", "{id: rnd, agent: random, budget: {time: .nan}}"),
     "participants[1].budget.time: expected a positive, finite number of seconds"),
    (GOOD.replace("{id: rnd, agent: random}", "{id: rnd, agent: random, budget: {nodes: 100000000000000000000}}"),
     "participants[1].budget.nodes: expected an integer from 1 to 4,611,686,018,427,387,904"),
    (GOOD + "move_time_limit: .inf\n", "move_time_limit: expected a positive, finite number of seconds"),
    (GOOD + "seed: 100000000000000000000\n", "seed: expected an integer from 0 to 9,223,372,036,854,775,807"),
    (GOOD + "max_plies: 100000000000000000000\n", "max_plies: expected an integer from 1 to 100,000"),
    (GOOD + "workers: 100000\n", f"workers: expected a number of workers from 1 to {max_workers()}"),
    (GOOD + "games_per_pairing: 1000000000000\n", "games_per_pairing: expected an integer from 1 to 1,000,000"),
    (GOOD.replace("game: tictactoe", "games: [tictactoe, matches]").replace(", heuristic: lines", "")
     + "games_per_pairing: 600000\n",
     "games_per_pairing: 600,000 games per pairing make 1,200,000 games in all, more than the 1,000,000"),
    (GOOD.replace("game: tictactoe", "game: {name: matches, options: {k: 8000}}").replace(", heuristic: lines", ""),
     "game.options.k: 'k' must be at most 100, got 8000"),
    (GOOD + "plugins: [passwd]\n", "plugins[0]: 'passwd' is not a Python file"),
    (GOOD + "seed: !!int 0xZZ\n", "line 5: !!int '0xZZ' cannot be read"),
    (GOOD + "seed: 1\nseed: 2\n", "line 6: the key 'seed' appears twice in one mapping"),
    (GOOD + BOMB.replace("a:", "x:", 1), "the data expands to more than 100,000 values"),
])
def test_unbounded_values_are_refused_naming_the_key(tmp_path, text, message):
    (tmp_path / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    started = time.process_time()  # CPU time: the machine's load stretches wall time, not this
    assert message in refused(tmp_path, text)
    assert time.process_time() - started < 5


def test_an_agent_constructor_that_raises_forfeits_naming_the_participant(tmp_path, capsys):
    (tmp_path / "bad_agent.py").write_text(textwrap.dedent("""\
        from framework import AgentSpec, hookimpl

        class Broken:
            def __init__(self, game, seed=0):
                raise ZeroDivisionError("the agent divides by zero")

        @hookimpl
        def plyground_agents():
            return [AgentSpec("broken", Broken, "raises when built")]
        """))
    path = write(tmp_path, GOOD.replace("{id: rnd, agent: random}", "{id: oops, agent: broken}")
                 + "plugins: [bad_agent.py]\n")
    assert main(["validate", str(path)]) == 0   # validation builds no agent: constructors run in engines
    assert main(["run", str(path), "--quiet", "--results", str(tmp_path / "r")]) == 0
    assert "Traceback" not in capsys.readouterr().err
    from framework.analysis.tables import Results
    forfeits = Results(tmp_path / "r").forfeits()
    assert set(forfeits["participant"]) == {"oops"}
    assert all(r.endswith("(oops) crashed when created: ZeroDivisionError: the agent divides by zero")
               for r in forfeits["reason"]), list(forfeits["reason"])


def test_a_non_python_plugin_file_is_refused_by_the_loader_too(tmp_path):
    from framework.registry import Registry, load_plugin_file
    (tmp_path / "passwd").write_text("root:x:0:0\n")
    with pytest.raises(ConfigError, match="plugin file '.*passwd' is not a Python module"):
        load_plugin_file(Registry(autoload=False), str(tmp_path / "passwd"))


@pytest.mark.parametrize("argv, message", [
    (["run", "t.yaml", "--workers", "0"], "argument --workers: expected a number of workers from 1 to"),
    (["run", "t.yaml", "--workers", "-3"], "argument --workers: expected a number of workers from 1 to"),
    (["run", "t.yaml", "--workers", "100000"], "argument --workers: expected a number of workers from 1 to"),
    (["play", "tictactoe", "--max-plies", "-1"], "argument --max-plies: expected an integer from 1 to 100,000, got -1"),
    (["play", "tictactoe", "--time", "nan"], "argument --time: expected a positive number of seconds"),
    (["play", "tictactoe", "--nodes", "0"], "argument --nodes: expected an integer from 1 to"),
])
def test_command_line_numbers_are_refused_by_argparse(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_play_names_the_option_whose_agent_cannot_be_built(capsys):
    """play builds engines in their worker process (engine.py): a constructor that raises there is refused too."""
    agents = Path(__file__).with_name("fault_agents.py")
    assert main(["play", "matches", "--plugin", str(agents), "--first", "minimax",
                 "--second", "faulty:fault=raise_init"]) == 2
    assert capsys.readouterr().err == ("plyground: error: --second 'faulty:fault=raise_init': the agent could not be "
                                       "built: ZeroDivisionError: the agent divides by zero\n")


@pytest.mark.parametrize("path", TOURNAMENTS)
def test_task_count_is_the_schedule_length(path):
    config = load_config(path)
    if config.tune is not None:   # a tuning schedules its pairs as θ moves: a pair per iteration, then the match
        assert config.task_count() == 2 * config.tune.iterations + config.tune.validate.games
        return
    assert config.task_count() == len(schedule(config))
