"""Adjudication (resign and draw rules on both engines' scores) and openings (random order, random plies,
who moved first), end to end through YAML and the CLI."""

import textwrap
from pathlib import Path

import pytest

from framework.adjudication import Adjudication, Adjudicator, DrawRule, ResignRule
from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import ConfigError
from framework.match import Termination, play_game
from plugins.games.tictactoe import TicTacToe

pytestmark = pytest.mark.slow   # tournaments run end to end (the quick subset leaves them out)

SCORERS = Path(__file__).with_name("fixture_scorers.py")


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_resign_needs_both_scores_beyond_the_threshold_for_n_moves_of_each_side():
    judge = Adjudicator(Adjudication(resign=ResignRule(score=500, moves=2)))
    assert judge.add(0, 600) is None and judge.add(1, -600) is None and judge.add(0, 600) is None
    assert judge.add(1, -600) == (0, "both engines' scores were beyond 500 for 2 moves each")
    one_sided = Adjudicator(Adjudication(resign=ResignRule(score=500, moves=1)))
    assert one_sided.add(0, 600) is None and one_sided.add(1, -100) is None  # the side behind does not agree
    unscored = Adjudicator(Adjudication(resign=ResignRule(score=500, moves=1)))
    assert unscored.add(0, 600) is None and unscored.add(1, None) is None  # no score: no verdict


def test_draw_needs_both_scores_near_zero_for_n_moves_after_move_m():
    judge = Adjudicator(Adjudication(draw=DrawRule(score=10, moves=1, after=2)))
    verdicts = [judge.add(ply % 2, 5.0) for ply in range(6)]
    assert verdicts[:5] == [None] * 5  # moves 1 and 2 are before the rule applies
    assert verdicts[5] == (None, "both engines' scores were within 10 of 0 for 1 moves each after move 2")
    broken = Adjudicator(Adjudication(draw=DrawRule(score=10, moves=2)))
    assert [broken.add(p % 2, s) for p, s in enumerate([0, 0, 50, 0, 0, 0])] == [None] * 6  # 50 broke the streak


@pytest.mark.parametrize("rule", [ResignRule(score=5, moves=0), DrawRule(score=-1, moves=3)])
def test_bad_rules_are_refused(rule):
    with pytest.raises(ConfigError, match="expected moves >= 1 and score >= 0"):
        Adjudication(**({"resign": rule} if isinstance(rule, ResignRule) else {"draw": rule}))


def test_play_game_records_an_adjudicated_result_with_its_own_termination():
    from tests.framework.tournament.fixture_scorers import Scorer

    game = TicTacToe()
    record = play_game(game, [Scorer(game, score=-900.0), Scorer(game, score=900.0)],
                       adjudication=Adjudication(resign=ResignRule(score=800, moves=1)))
    assert record.termination is Termination.RESIGN_ADJUDICATION and record.winner == 1 and record.plies == 2
    assert record.reason == ("adjudicated a win for O (second): both engines' scores were beyond 800 for 1 moves "
                             "each")
    assert not record.termination.is_forfeit


MATCH = f"""\
game: tictactoe
plugins: [{SCORERS}]
participants:
  - {{id: up, agent: scorer, params: {{score: 900}}}}
  - {{id: down, agent: scorer, params: {{score: -900}}}}
games_per_pairing: 2
adjudication:
  resign: {{score: 800, moves: 1}}
"""


def test_a_tournament_adjudicates_by_its_yaml_rules_and_reports_the_termination(tmp_path, capsys):
    assert main(["run", str(write(tmp_path, MATCH)), "--results", str(tmp_path / "r"), "-q"]) == 0
    games = Results(tmp_path / "r").games
    assert games["termination"].tolist() == ["resign_adjudication"] * 2 and (games["winner"] == "up").all()
    assert main(["report", str(tmp_path / "r")]) == 0
    assert "resign_adjudication" in (tmp_path / "r" / "report.md").read_text()
    drawn = MATCH.replace("score: 900", "score: 3").replace("score: -900", "score: -3").replace(
        "resign: {score: 800, moves: 1}", "draw: {score: 5, moves: 1, after: 1}")
    assert main(["run", str(write(tmp_path, drawn, "d.yaml")), "--results", str(tmp_path / "d"), "-q"]) == 0
    games = Results(tmp_path / "d").games
    assert games["termination"].tolist() == ["draw_adjudication"] * 2 and games["plies"].tolist() == [4, 4]


@pytest.mark.parametrize("text, message", [
    ("adjudication: {resign: {score: 500}}\n", "adjudication.resign.moves: missing"),
    ("adjudication: {resign: {score: -5, moves: 2}}\n", "adjudication.resign.score: expected a number >= 0"),
    ("adjudication: {draw: {score: 5, moves: 0}}\n", "adjudication.draw.moves: expected an integer"),
    ("adjudication: {draw: {score: 5, moves: 2, after: -1}}\n", "adjudication.draw.after: expected an integer"),
    ("adjudication: {resign: {score: 5, moves: 2, after: 3}}\n", "adjudication.resign.after: unknown key 'after'"),
    ("adjudication: {surrender: {}}\n", "adjudication.surrender: unknown key 'surrender'"),
    ("opening: {order: random}\n", "opening.order: expected one of file, shuffled, got 'random'"),
    ("opening: {random_plies: -1}\n", "opening.random_plies: expected an integer"),
])
def test_adjudication_and_opening_mistakes_are_refused_at_validate(tmp_path, capsys, text, message):
    base = "game: tictactoe\nparticipants: [{id: a, agent: random}, {id: b, agent: random}]\n"
    assert main(["validate", str(write(tmp_path, base + text))]) == 2
    assert message in capsys.readouterr().err


OPENINGS = """\
game: tictactoe
seed: 4
format: gauntlet
champion: mm
participants:
  - {id: mm, agent: minimax, params: {depth: 1}}
  - {id: r1, agent: random}
  - {id: r2, agent: random}
start_positions: open.txt
games_per_pairing: 8
opening: {order: shuffled, random_plies: 1}
"""
POSITIONS = ["X../.../... o", ".X./.../... o", "..X/.../... o", ".../.X./... o"]


def test_random_order_and_random_plies_start_each_pair_alike_and_the_report_says_who_moved_first(tmp_path, capsys):
    (tmp_path / "open.txt").write_text("\n".join(POSITIONS) + "\n")
    assert main(["run", str(write(tmp_path, OPENINGS)), "--results", str(tmp_path / "r"), "-q"]) == 0
    games = Results(tmp_path / "r").games
    starts = {}
    for row in games.itertuples():
        starts.setdefault((row.pairing_b, row.pair), set()).add(row.start)
    assert all(len(s) == 1 for s in starts.values())  # both games of a pair start alike
    for pair in range(4):
        assert starts[("r1", pair)] == starts[("r2", pair)]  # so does every pairing's pair k
    firsts = [next(iter(starts[("r1", pair)])) for pair in range(4)]
    # one random ply (an O) from each file position, in a shuffled order: every X square once, X to move
    assert all(s.endswith(" x") and s.count("O") == 1 for s in firsts)
    x_squares = sorted(s.replace("O", ".") for s in firsts)
    assert x_squares == sorted(p.replace(" o", " x") for p in POSITIONS)
    assert [s.replace("O", ".") for s in firsts] != [p.replace(" o", " x") for p in POSITIONS]  # not file order
    assert (games["moved_first"] == games["first"]).all()
    assert main(["report", str(tmp_path / "r")]) == 0
    assert "The participant in seat 0 (`first`) moved first in every game." in \
        (tmp_path / "r" / "report.md").read_text()


def test_a_start_position_with_seat_1_to_move_is_reported(tmp_path, capsys):
    (tmp_path / "open.txt").write_text("X../.../... o\n")
    text = OPENINGS.replace("opening: {order: shuffled, random_plies: 1}\n", "").replace("games_per_pairing: 8",
                                                                                       "games_per_pairing: 2")
    assert main(["run", str(write(tmp_path, text)), "--results", str(tmp_path / "r"), "-q"]) == 0
    games = Results(tmp_path / "r").games
    assert (games["moved_first"] == games["second"]).all()
    assert main(["report", str(tmp_path / "r")]) == 0
    assert ("moved first in 0 games and the one in seat 1 (`second`) in 4 (start positions with seat 1 to move)"
            in (tmp_path / "r" / "report.md").read_text())


def _readme_yaml(marker):
    import re

    howto = Path(__file__).parents[3] / "docs" / "howto"
    pages = (howto.parent / "guide" / "tournaments.md").read_text() + (howto / "start-positions.md").read_text()
    section = pages.split(marker, 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_the_readme_adjudication_and_opening_examples_run_as_documented(tmp_path, capsys):
    import shutil

    (tmp_path / "positions").mkdir()
    shutil.copy(Path(__file__).parents[3] / "tournaments" / "positions" / "tictactoe-openings.txt",
                tmp_path / "positions")
    text = MATCH.split("adjudication:")[0] + _readme_yaml("**Adjudication.**") + _readme_yaml("**Openings.**")
    # tic-tac-toe is short: one scored move each, not three, before the board fills
    text = text.replace("games_per_pairing: 2", "games_per_pairing: 6").replace("moves: 3}", "moves: 1}")
    assert main(["run", str(write(tmp_path, text)), "--results", str(tmp_path / "r"), "-q"]) == 0
    games = Results(tmp_path / "r").games
    assert set(games["termination"]) <= {"resign_adjudication", "normal"} and "resign_adjudication" in set(
        games["termination"])
    files = (tmp_path / "positions" / "tictactoe-openings.txt").read_text().split("\n")
    assert not set(games["start"]) & {line.strip() for line in files}  # two random plies from each


def test_each_game_of_a_tournament_can_have_its_own_positions_file(tmp_path, capsys):
    (tmp_path / "ttt.txt").write_text("X../.../... o\n")
    (tmp_path / "heaps.txt").write_text("3,4,5 k=3 a\n2,2 k=3 a\n")
    text = """\
        games:
          - {name: tictactoe, start_positions: ttt.txt}
          - {name: matches, start_positions: heaps.txt}
        participants: [{id: a, agent: random}, {id: b, agent: random}]
        games_per_pairing: 4
        """
    assert main(["validate", str(write(tmp_path, text))]) == 0, capsys.readouterr().err
    assert main(["run", str(write(tmp_path, text)), "--results", str(tmp_path / "r"), "-q"]) == 0
    games = Results(tmp_path / "r").games
    assert set(games[games["game"] == "tictactoe"]["start"]) == {"X../.../... o"}
    assert len(set(games[games["game"] == "matches"]["start"])) == 2
    bad = text.replace("games_per_pairing: 4", "games_per_pairing: 2")
    assert main(["validate", str(write(tmp_path, bad, "bad.yaml"))]) == 2
    assert ("games_per_pairing: expected a multiple of 4 so every start position of each game (1, 2 positions) is "
            "played with both colours, got 2" in capsys.readouterr().err)
