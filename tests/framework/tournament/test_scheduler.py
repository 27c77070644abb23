"""The scheduler: exact pairings, colour balance, start positions and seeds."""

import textwrap
from collections import Counter

from framework.tournament.config import load_config
from framework.tournament.scheduler import pairings, schedule

FOUR = """\
game: tictactoe
games_per_pairing: 4
participants:
  - {id: a, agent: random}
  - {id: b, agent: random}
  - {id: c, agent: random}
  - {id: d, agent: random}
"""


def config(tmp_path, extra=""):
    (tmp_path / "open.txt").write_text("X../.../... o\n.X./.../... o\n")
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(FOUR + extra))
    return load_config(path)


def test_round_robin_plays_every_pair_with_both_colours_equally(tmp_path):
    tasks = schedule(config(tmp_path))
    assert pairings(config(tmp_path)) == [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]
    assert len(tasks) == 24 and len({t.key for t in tasks}) == 24
    assert Counter((t.first.id, t.second.id) for t in tasks) == {
        (x, y): 2 for x in "abcd" for y in "abcd" if x != y}
    assert Counter(t.first.id for t in tasks) == {p: 6 for p in "abcd"}
    assert Counter(t.second.id for t in tasks) == {p: 6 for p in "abcd"}
    ab = [t for t in tasks if t.pairing == ("a", "b")]
    assert [(t.index, t.first.id) for t in ab] == [(0, "a"), (1, "b"), (2, "a"), (3, "b")]
    assert [t.key for t in tasks[:6]] == [f"{x} vs {y} #0" for x, y in pairings(config(tmp_path))]


def test_gauntlet_plays_the_champion_against_the_field(tmp_path):
    tasks = schedule(config(tmp_path, "format: gauntlet\nchampion: c\n"))
    assert sorted({t.pairing for t in tasks}) == [("c", "a"), ("c", "b"), ("c", "d")]
    assert Counter(t.first.id for t in tasks) == {"c": 6, "a": 2, "b": 2, "d": 2}


def test_each_start_position_is_played_with_both_colours(tmp_path):
    tasks = schedule(config(tmp_path, "start_positions: open.txt\n"))
    ab = [(t.first.id, t.start) for t in tasks if t.pairing == ("a", "b")]
    assert ab == [("a", "X../.../... o"), ("b", "X../.../... o"), ("a", ".X./.../... o"), ("b", ".X./.../... o")]


def test_seeds_depend_on_the_tournament_seed_and_the_game_only(tmp_path):
    one, again = schedule(config(tmp_path)), schedule(config(tmp_path))
    other = schedule(config(tmp_path, "seed: 9\n"))
    assert [t.seed for t in one] == [t.seed for t in again]
    assert len({t.seed for t in one}) == 24
    assert not {t.seed for t in one} & {t.seed for t in other}


def test_several_games_each_get_every_pairing(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(FOUR.replace("game: tictactoe", "games: [tictactoe, {name: matches, options: {heaps: [3], k: 2}}]"))
    tasks = schedule(load_config(path))
    assert len(tasks) == 48 and Counter(t.game for t in tasks) == {"tictactoe": 24, "matches": 24}
    assert tasks[0].key == "tictactoe: a vs b #0" and tasks[24].key == "matches: a vs b #0"
    assert tasks[24].game_options == {"heaps": (3,), "k": 2}
    assert Counter(t.first.id for t in tasks if t.game == "matches") == {p: 6 for p in "abcd"}
