"""Tournament files: every mistake is a ConfigError naming the file, the key path and what was expected."""

import textwrap
from pathlib import Path

import pytest

from framework.cli import main
from framework.errors import ConfigError
from framework.tournament.config import load_config
from plugins.agents.alphabeta import PARAMS as ALPHABETA_PARAMS

FIXTURES = Path(__file__).with_name("fixture_agents.py")
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


def test_defaults_are_filled_in(tmp_path):
    config = load_config(write(tmp_path, GOOD))
    assert config.name == "t" and config.format == "round-robin" and config.games_per_pairing == 2
    declared = {p.name: p.default for p in ALPHABETA_PARAMS}
    assert config.participants[0].params == {**declared, "depth": 2, "heuristic": "lines"}
    assert config.participants[1].params == {}
    assert config.workers == 1 and config.executor.kind == "local" and str(config.results) == "results/t"


def test_run_settings_do_not_change_the_fingerprint(tmp_path):
    a = load_config(write(tmp_path, GOOD))
    b = load_config(write(tmp_path, GOOD + "workers: 2\nresults: elsewhere\nexecutor: {kind: dask}\n", "u.yaml"))
    c = load_config(write(tmp_path, GOOD + "seed: 5\n", "v.yaml"))
    assert a.fingerprint() != c.fingerprint()
    assert {**a.resolved(), "name": "u"} == b.resolved()


def test_start_positions_are_read_relative_to_the_file(tmp_path):
    (tmp_path / "open.txt").write_text("# openings\nX../.../... o\n\n.X./.../... o\n")
    config = load_config(write(tmp_path, GOOD + "start_positions: open.txt\n"))
    assert config.start_positions == ("X../.../... o", ".X./.../... o") and config.games_per_pairing == 4


BAD = [
    ("game: [unclosed", "not valid YAML"),
    ("- a list", "expected a mapping of keys to values, got ['a list']"),
    (GOOD + "colour: red\n", "colour: unknown key 'colour'; known keys: name, mode, game,"),
    ("participants: []\n", "game: missing; name the game to play"),
    (GOOD.replace("tictactoe", "chess"), "game: unknown game 'chess'; available games: "),
    (GOOD.replace("rnd, agent: random", "rnd, agent: human"),
     "participants[1].agent: agent 'human' is a person at the terminal, and tournaments run unattended"),
    (GOOD.replace("rnd, agent: random", "rnd, agent: randy"),
     "participants[1].agent: unknown agent 'randy'; available agents: alphabeta, "),
    (GOOD.replace("depth: 2", "depth: two"), "participants[0].params.depth: 'depth' must be an integer"),
    (GOOD.replace("depth: 2", "depth: -1"), "participants[0].params.depth: 'depth' must be at least 1, got -1"),
    (GOOD.replace("depth: 2", "deep: 2"),
     "participants[0].params.deep: unknown parameter 'deep' of agent 'alphabeta' (known parameters: aspiration, "
     "aspiration_width, depth, heuristic,"),
    (GOOD.replace("heuristic: lines", "heuristic: sharpness"),
     "participants[0].params.heuristic: unknown heuristic 'sharpness' for game 'tictactoe'; heuristics for "
     "tictactoe: lines, thesis"),
    (GOOD.replace("heuristic: lines", "heuristic: material"),
     "participants[0].params.heuristic: heuristic 'material' belongs to checkers, not to 'tictactoe'; "
     "heuristics for tictactoe: lines, thesis"),
    (GOOD.replace("rnd, agent: random}", "rnd, agent: random, budget: {time: -1}}"),
     "participants[1].budget.time: expected a positive, finite number of seconds, at most 604,800 (a week), got -1"),
    (GOOD.replace("rnd, agent: random}", "rnd, agent: random, budget: {nodes: 0}}"),
     "participants[1].budget.nodes: expected an integer from 1 to 4,611,686,018,427,387,904, got 0"),
    (GOOD.replace("rnd, agent: random}", "rnd, agent: random, budget: {moves: 3}}"),
     "participants[1].budget.moves: unknown key 'moves'; known keys: time, nodes"),
    (GOOD.replace("rnd, agent", "ab, agent"), "participants[1].id: 'ab' is already the id of another participant"),
    (GOOD.replace("id: rnd", "id: 'r n d'"), "participants[1].id: expected an id of letters, digits"),
    (GOOD.replace("{id: ab, agent: alphabeta, params: {depth: 2, heuristic: lines}}",
                  "{id: ab, agent: alphabeta, params: {depth: 2}}")
     .replace("game: tictactoe", "game: {name: tictactoe, options: {size: 4}}"),
     "game.options.size: unknown parameter 'size' of game 'tictactoe' (known parameters: none)"),
    ("game: tictactoe\nparticipants:\n  - {agent: random}\n", "participants: expected a list of at least two"),
    (GOOD + "games_per_pairing: 3\n", "games_per_pairing: expected even, so each participant plays both colours"),
    (GOOD + "games_per_pairing: 0\n", "games_per_pairing: expected an integer from 1 to 1,000,000, got 0"),
    (GOOD + "format: swiss\n", "format: expected one of round-robin, gauntlet, got 'swiss'"),
    (GOOD + "format: gauntlet\n", "champion: a gauntlet needs the id of the participant who plays the field; "
                                  "expected one of ab, rnd, got None"),
    (GOOD + "champion: ab\n", "champion: only a gauntlet has a champion"),
    (GOOD + "positions: p.txt\n", "positions: 'positions' belongs to 'mode: solve', and this file is in mode games"),
    (GOOD + "mode: tournament\n", "mode: expected one of games, solve, tune, got 'tournament'"),
    (GOOD + "games: [matches]\n", "games: name either one 'game' or a list of 'games', not both"),
    (GOOD.replace("game: tictactoe", "games: []"), "games: expected a list of games, got []"),
    (GOOD.replace("game: tictactoe", "games: [tictactoe, tictactoe]"), "games: a game is listed twice"),
    (GOOD.replace("game: tictactoe", "games: [tictactoe, {name: matches, options: {k: 0}}]"),
     "games[1].options.k: 'k' must be at least 1, got 0"),
    (GOOD.replace("game: tictactoe", "games: [tictactoe, matches]"),
     "participants[0].params.heuristic: heuristic 'lines' belongs to tictactoe, not to 'matches'; heuristics for "
     "matches: normal_play, theory"),
    (GOOD.replace("game: tictactoe", "games: [tictactoe, matches]").replace(", heuristic: lines", "")
     + "start_positions: open.txt\n", "start_positions: positions are in one game's text format; with several games"),
    (GOOD + "workers: 0\n", "workers: expected a number of workers from 1 to "),
    (GOOD + "seed: -3\n", "seed: expected an integer from 0 to 9,223,372,036,854,775,807, got -3"),
    (GOOD + "move_time_limit: 0\n",
     "move_time_limit: expected a positive, finite number of seconds, at most 604,800 (a week), got 0"),
    (GOOD + "executor: {kind: ray}\n", "executor.kind: expected one of local, dask, got 'ray'"),
    (GOOD + "executor: {address: 'tcp://x:8786'}\n", "executor.address: only the dask executor takes an address"),
    (GOOD + "plugins: [missing.py]\n", "plugins[0]: no such plugin file 'missing.py'"),
    (GOOD + "plugins: missing.py\n", "plugins: expected a list of Python files, got 'missing.py'"),
    (GOOD + "start_positions: none.txt\n", "start_positions: cannot read"),
    (GOOD + "games_per_pairing: 2\nstart_positions: open.txt\n",
     "games_per_pairing: expected a multiple of 4 so each of the 2 start positions is played with both colours"),
    (GOOD + "start_positions: badpos.txt\n", "badpos.txt, line 2: 'XXXX' is not a tic-tac-toe position"),
    (GOOD + "start_positions: over.txt\n", "over.txt, line 1: 'XXX/OO./... o' is already over"),
    (GOOD + "start_positions: empty.txt\n", "empty.txt' holds no positions"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_each_mistake_names_the_file_key_and_expectation(tmp_path, text, message):
    (tmp_path / "open.txt").write_text("X../.../... o\n.X./.../... o\n")
    (tmp_path / "badpos.txt").write_text("X../.../... o\nXXXX\n")
    (tmp_path / "over.txt").write_text("XXX/OO./... o\n")
    (tmp_path / "empty.txt").write_text("# nothing\n")
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}: ") and message in str(info.value)


def test_an_agent_that_rejects_its_parameters_when_built_forfeits_its_games(tmp_path):
    """Validation checks parameters against what the agent declares and builds nothing (a constructor is an
    engine's code); a constructor that refuses its parameters costs its participant its games, with the reason."""
    path = write(tmp_path, f"""\
        game: tictactoe
        plugins: [{FIXTURES}]
        results: {tmp_path / 'out'}
        participants:
          - {{agent: random}}
          - {{agent: picky, params: {{mode: bad}}}}
        """)
    load_config(path)
    assert main(["run", str(path), "--quiet"]) == 0
    from framework.analysis.tables import Results
    forfeits = Results(tmp_path / "out").forfeits()
    assert set(forfeits["participant"]) == {"picky"} and len(forfeits) == 2
    assert all("crashed when created: ConfigError:" in r and "mode 'bad' cannot be combined" in r
               for r in forfeits["reason"]), list(forfeits["reason"])


def test_a_missing_file_and_a_broken_plugin_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read tournament file '.*nope.yaml'"):
        load_config(tmp_path / "nope.yaml")
    (tmp_path / "broken.py").write_text("raise ImportError('no numpy here')\n")
    with pytest.raises(ConfigError, match="plugin file '.*broken.py' failed to import: ImportError: no numpy here"):
        load_config(write(tmp_path, GOOD + "plugins: [broken.py]\n"))


def test_validate_command(tmp_path, capsys):
    path = write(tmp_path, GOOD + "games_per_pairing: 4\n")
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ok — tournament 't', game tictactoe, round-robin, 2 participants, 1 pairings, 4 games" in out
    bad = write(tmp_path, GOOD.replace("depth: 2", "depth: x"), "bad.yaml")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "participants[0].params.depth" in err and "Traceback" not in err
