"""Growing a match on its results folder: more games per pairing, another participant; what would alter
stored games stays refused, naming the key."""

import textwrap

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import ConfigError
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament

pytestmark = pytest.mark.slow   # tournaments run end to end (the quick subset leaves them out)

MEASURED = ["wall_time", "finished_at", "rss_start", "rss_peak", "rss_scope"]
HEAD = """\
game: tictactoe
seed: 11
participants:
  - {id: ab, agent: alphabeta, params: {depth: 1, heuristic: lines}}
  - {id: rnd, agent: random}
"""


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def games(folder):
    return Results(folder).games.drop(columns=MEASURED).sort_values("key").reset_index(drop=True)


def test_raising_games_per_pairing_keeps_the_stored_games_and_plays_the_missing_ones(tmp_path, capsys):
    path = write(tmp_path, HEAD + "games_per_pairing: 2\n")
    assert main(["run", str(path), "--results", str(tmp_path / "grown"), "-q"]) == 0
    before = games(tmp_path / "grown")
    path.write_text(path.read_text().replace("games_per_pairing: 2", "games_per_pairing: 6"))
    assert main(["run", str(path), "--results", str(tmp_path / "grown"), "-q"]) == 0
    assert "6 games in" in capsys.readouterr().out.split("(2 already stored, 4 played now)")[0]
    grown = games(tmp_path / "grown")
    assert grown.iloc[:2].equals(before)  # the stored games, untouched
    assert main(["run", str(path), "--results", str(tmp_path / "fresh"), "-q"]) == 0
    assert grown.equals(games(tmp_path / "fresh"))  # the same seeds for the same keys: as if run at once
    assert Results(tmp_path / "grown").config["games_per_pairing"] == 6


def test_adding_a_participant_to_a_round_robin_plays_only_its_games(tmp_path, capsys):
    path = write(tmp_path, HEAD + "games_per_pairing: 2\n")
    assert main(["run", str(path), "--results", str(tmp_path / "grown"), "-q"]) == 0
    path.write_text(path.read_text().replace("games_per_pairing", "  - {id: mm, agent: minimax, params: {depth: 1}}\n"
                                                                  "games_per_pairing"))
    assert main(["run", str(path), "--results", str(tmp_path / "grown"), "-q"]) == 0
    assert "(2 already stored, 4 played now)" in capsys.readouterr().out
    assert main(["run", str(path), "--results", str(tmp_path / "fresh"), "-q"]) == 0
    assert games(tmp_path / "grown").equals(games(tmp_path / "fresh"))


@pytest.mark.parametrize("change, message", [
    (("games_per_pairing: 4", "games_per_pairing: 2"),
     "games_per_pairing: 4 stored, 2 now (fewer would drop stored games)"),
    (("depth: 1", "depth: 2"), "participants: 'ab' changed (params)"),
    (("  - {id: rnd, agent: random}\n", ""), "participants: 'rnd' was removed"),
    (("seed: 11", "seed: 12"), "changed: seed"),
])
def test_changes_that_would_alter_stored_games_are_refused_naming_the_key(tmp_path, change, message):
    path = write(tmp_path, HEAD + "  - {id: mm, agent: minimax, params: {depth: 1}}\ngames_per_pairing: 4\n"
                                  f"format: gauntlet\nchampion: ab\nresults: {tmp_path / 'out'}\n")
    run_tournament(load_config(path), quiet=True)
    path.write_text(path.read_text().replace(*change))
    with pytest.raises(ConfigError, match=r"holds results of a different configuration \(.*" + message.replace(
            "(", r"\(").replace(")", r"\)")):
        run_tournament(load_config(path), quiet=True)


def test_reordering_the_participants_is_refused(tmp_path):
    path = write(tmp_path, HEAD + f"games_per_pairing: 2\nresults: {tmp_path / 'out'}\n")
    run_tournament(load_config(path), quiet=True)
    lines = path.read_text().splitlines()
    lines[3], lines[4] = lines[4], lines[3]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ConfigError, match="participants: the stored participants are in another order"):
        run_tournament(load_config(path), quiet=True)


def test_the_readme_growing_example_runs_as_documented(tmp_path, capsys):
    import re
    from pathlib import Path

    howto = Path(__file__).parents[3] / "docs" / "howto" / "resume.md"
    section = howto.read_text().split("**Growing a match.**", 1)[1]
    text = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    first = text.replace("games_per_pairing: 6", "games_per_pairing: 2")
    first = "\n".join(line for line in first.splitlines() if "id: mm" not in line) + "\n"
    path = write(tmp_path, first)
    assert main(["run", str(path), "--results", str(tmp_path / "r"), "-q"]) == 0
    path.write_text(text)
    assert main(["run", str(path), "--results", str(tmp_path / "r"), "-q"]) == 0
    assert "growing-example: 18 games in" in capsys.readouterr().out.split("(2 already stored, 16 played now)")[0]
