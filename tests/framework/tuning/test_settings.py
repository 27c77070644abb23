"""The `tune` section: every mistake is one line naming the file and the key; heuristics take options."""

import textwrap

import pytest

from framework.errors import ConfigError
from framework.tournament.config import load_config
from tests.framework.tuning.helpers import toy_file

GOOD = "{x: {start: 10, min: 0, max: 100, c_end: 8}}"


def refused(path):
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert message.startswith(str(path)) and "\n" not in message
    return message


def test_a_good_section_is_read_with_defaults(tmp_path):
    config = load_config(toy_file(tmp_path, parameters=GOOD, extra="validate: {games: 10}\n"))
    (x,) = config.tune.parameters
    assert (x.name, x.start, x.min, x.max, x.c_end, x.r_end, x.integer) == ("x", 10, 0, 100, 8, 0.002, False)
    assert config.tune.batch == 1 and config.tune.validate.games == 10 and config.tune.validate.sprt is None
    assert config.participants[0].params == {"x": 10.0, "level": 12} and config.task_count() == 2 * 300 + 10


@pytest.mark.parametrize(("parameters", "key", "says"), [
    ("{y: {start: 1, min: 0, max: 2, c_end: 1}}", "tune.parameters.y", "unknown parameter 'y'; the numeric "
     "parameters of agent 'peaked' (its heuristic's as HEURISTIC_PARAM.NAME) are: x, level"),
    ("{x: {start: 120, min: 0, max: 100, c_end: 8}}", "tune.parameters.x.start",
     "120 is outside [min, max] = [0, 100]"),
    ("{x: {start: 10, min: 0, max: 100, c_end: 0}}", "tune.parameters.x.c_end", "expected a number > 0"),
    ("{x: {start: 10, min: 0, max: 100, c_end: -2}}", "tune.parameters.x.c_end", "expected a number > 0"),
    ("{x: {start: 10, min: 0, max: 100, c_end: 8, r_end: 0}}", "tune.parameters.x.r_end", "expected a number > 0"),
    ("{x: {start: 10, min: 0, max: 100}}", "tune.parameters.x.c_end", "missing"),
    ("{x: {start: ten, min: 0, max: 100, c_end: 8}}", "tune.parameters.x.start", "expected a finite number"),
    ("{x: {start: 10, min: 50, max: 50, c_end: 8}}", "tune.parameters.x", "expected min < max"),
    ("{x: {start: 10, min: -5, max: 100, c_end: 8}}", "tune.parameters.x.min", "must be at least 0.0"),
    ("{level: {start: 2, min: 0.5, max: 20, c_end: 1}}", "tune.parameters.level.min", "an integer parameter"),
    ("{x: {start: 10, min: 0, max: 100, c_end: 8, step: 1}}", "tune.parameters.x.step", "unknown key 'step'"),
    ("{}", "tune.parameters", "at least one parameter"),
])
def test_bad_parameters_are_refused_naming_the_key(tmp_path, parameters, key, says):
    message = refused(toy_file(tmp_path, parameters=parameters))
    assert f": {key}: " in message and says in message


def test_a_non_numeric_parameter_is_refused(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent("""\
        mode: tune
        game: tictactoe
        tune:
          agent: {agent: alphabeta, params: {depth: 2}}
          parameters: {pvs: {start: 0, min: 0, max: 1, c_end: 1}}
          iterations: 10
        """))
    message = refused(path)
    assert ": tune.parameters.pvs: 'pvs' is true or false, not a number; SPSA tunes int and float" in message


def test_a_heuristic_parameter_is_named_after_the_agents_heuristic_param(tmp_path):
    path = tmp_path / "t.yaml"
    text = textwrap.dedent("""\
        mode: tune
        game: checkers
        tune:
          agent: {agent: alphabeta, params: {depth: 1, heuristic: material}}
          parameters: {heuristic.NAME: {start: 100, min: 50, max: 400, c_end: 20}}
          iterations: 10
        """)
    path.write_text(text.replace("NAME", "king_value"))
    config = load_config(path)
    assert config.participants[0].params["heuristic"] == {"name": "material", "options": {"king_value": 100.0}}
    assert config.tune.params_at({"heuristic.king_value": 150.5})["heuristic"]["options"] == {"king_value": 150.5}
    path.write_text(text.replace("NAME", "kings"))
    assert "unknown parameter 'heuristic.kings'" in refused(path) and "heuristic.king_value" in refused(path)


@pytest.mark.parametrize(("extra", "key", "says"), [
    ("validate: {games: 11}\n", "tune.validate.games", "expected an even number"),
    ("validate: {games: 10, sprt: {elo1: 5}}\n", "tune.validate.sprt.elo0", "missing"),
    ("batch: 0\n", "tune.batch", "expected an integer from 1"),
    ("rounds: 3\n", "tune.rounds", "unknown key 'rounds'"),
])
def test_bad_settings_are_refused_naming_the_key(tmp_path, extra, key, says):
    message = refused(toy_file(tmp_path, parameters=GOOD, extra=extra))
    assert f": {key}: " in message and says in message


def test_a_tuning_file_without_its_section_or_with_other_modes_keys_is_refused(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("mode: tune\ngame: tictactoe\n")
    assert ": tune: missing" in refused(path)
    path.write_text("mode: tune\ngame: tictactoe\ngames_per_pairing: 2\n")
    assert "'games_per_pairing' belongs to 'mode: games'" in refused(path)
    path.write_text("mode: tune\ngame: tictactoe\ntune: {parameters: {}}\n")
    assert ": tune.agent: missing" in refused(path)


def test_a_game_of_more_than_two_players_is_refused(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("mode: tune\ngame: {name: rolit, options: {players: 4}}\n"
                    "tune: {agent: {agent: paranoid}, parameters: {}, iterations: 5}\n")
    assert ": game: tuning scores colour-swapped pairs of two-player games; rolit seats 4" in refused(path)


def test_heuristic_options_reach_the_heuristic_and_bad_ones_are_refused(registry):
    game = registry.create_game("checkers")
    agent = registry.create_agent("alphabeta", game, {"depth": 1, "heuristic": {"name": "material",
                                                                                  "options": {"king_value": 200}}})
    assert agent.heuristic.weights == (200.0,)
    with pytest.raises(ConfigError, match=r"'heuristic': heuristic 'material': unknown parameter 'queen'"):
        registry.create_agent("alphabeta", game, {"heuristic": {"name": "material", "options": {"queen": 1}}})
    with pytest.raises(ConfigError, match=r"'heuristic' must be a heuristic name or \{name: NAME, options"):
        registry.create_agent("alphabeta", game, {"heuristic": {"kind": "material"}})


@pytest.mark.parametrize(("section", "key"), [
    ("tune: {agent: {agent: peaked}, iterations: 5}\n", "tune.parameters"),
    ("tune: {agent: {agent: peaked}, parameters: " + GOOD + "}\n", "tune.iterations"),
])
def test_a_missing_iterations_or_parameters_says_missing_and_gives_an_example(tmp_path, section, key):
    """They said 'got None' where every other missing key says 'missing'."""
    path = toy_file(tmp_path)
    text = path.read_text()
    path.write_text(text[:text.index("tune:")] + section)
    message = refused(path)
    assert f": {key}: missing; " in message and "e.g." in message and "None" not in message


def test_an_agent_that_does_not_play_the_game_is_named_once(tmp_path):
    """The key was repeated: `tune.agent: tune.agent 'pig_policy' plays pig only, not checkers`."""
    path = tmp_path / "t.yaml"
    path.write_text("mode: tune\ngame: checkers\ntune:\n  agent: {agent: pig_policy}\n"
                    "  parameters: {depth: {start: 2, min: 1, max: 4, c_end: 1}}\n  iterations: 3\n")
    message = refused(path)
    assert ": tune.agent: 'pig_policy' plays pig only, not checkers" in message and message.count("tune.agent") == 1


@pytest.mark.parametrize(("parameters", "warned"), [
    ("{x: {start: 10, min: 0, max: 100, c_end: 150}}", ["tune.parameters.x.c_end 150 exceeds the range max - min "
                                                        "= 100"]),
    ("{level: {start: 2, min: 0, max: 20, c_end: 0.3}}", ["tune.parameters.level.c_end 0.3 is below 0.5 on an "
                                                          "integer parameter"]),
    ("{level: {start: 2, min: 0, max: 20, c_end: 1}, x: {start: 10, min: 0, max: 100, c_end: 0.3}}", []),
])
def test_a_perturbation_wider_than_the_range_or_too_small_for_an_integer_is_warned_about(tmp_path, capsys,
                                                                                       parameters, warned):
    from framework.cli import main
    path = toy_file(tmp_path, parameters=parameters)
    warnings = load_config(path).tune.warnings()
    assert len(warnings) == len(warned) and all(w.startswith(s) for w, s in zip(warnings, warned))
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("warning: ") == len(warned) and all(s in out for s in warned)
