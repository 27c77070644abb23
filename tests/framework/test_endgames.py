"""The endgame test-set generator: deterministic from its seed, whatever the number of workers."""

from pathlib import Path

import pytest

from framework.endgames import Settings, generate, prove_win, read_positions, render
from framework.errors import ConfigError, PositionError

SHIPPED = Path(__file__).parents[2] / "tournaments" / "positions" / "loa-endgames-488.txt"
SMALL = Settings(count=4, seed=7, budget=2_000, easy=50, medium=500)


def test_the_same_seed_gives_the_same_file_on_one_or_two_workers():
    one = render(SMALL, generate(SMALL, workers=1))
    two = render(SMALL, generate(SMALL, workers=2))
    assert one == two
    lines = [line for line in one.splitlines() if not line.startswith("#")]
    assert len(lines) == 4 and len({line.split(";")[0] for line in lines}) == 4
    nodes = [int(line.split("nodes=")[1].split(";")[0]) for line in lines]
    # quotas 1 : 2 : 2 of 4 positions, rounded down: none below 50 nodes, one below 500, the rest above
    assert nodes == sorted(nodes) and sum(n < 500 for n in nodes) == 1 and all(n >= 50 for n in nodes)


def test_the_shipped_file_reproves_its_first_and_last_easy_lines(registry):
    game = registry.create_game("loa")
    entries = read_positions(str(SHIPPED), game)
    assert len(entries) == 488 and {e.result for e in entries} == {"win"}
    assert len({e.position for e in entries}) == 488
    for entry in entries[:3] + entries[120:122]:
        proof = prove_win(game, game.from_text(entry.position), 50_000)
        assert proof == (int(entry.fields["length"]), int(entry.fields["nodes"]))


def test_a_move_that_wins_at_once_has_proof_length_one(registry):
    game = registry.create_game("tictactoe")
    assert prove_win(game, game.from_text("XX./OO./... x"), 100) == (1, 6)
    assert prove_win(game, game.from_text("XXO/.X./O.. o"), 1000) is None     # O loses: nothing to prove


@pytest.mark.parametrize("settings", [Settings(count=0), Settings(easy=10, medium=5), Settings(budget=10)])
def test_bad_settings_are_refused(settings):
    with pytest.raises(ConfigError, match="expected|at least 1"):
        generate(settings)


@pytest.mark.parametrize("text, error, message", [
    ("XX./OO./... x; result=maybe\n", PositionError, "result 'maybe'"),
    ("XX./OO. x; result=win\n", PositionError, "line 1"),
    ("# only a comment\n", ConfigError, "holds no positions"),
    ("XXX/OO./... o; result=win\n", PositionError, "already over"),
])
def test_bad_positions_files_name_the_line(tmp_path, registry, text, error, message):
    path = tmp_path / "p.txt"
    path.write_text(text)
    with pytest.raises(error, match=message):
        read_positions(str(path), registry.create_game("tictactoe"))


def test_a_missing_positions_file_is_named(tmp_path, registry):
    with pytest.raises(ConfigError, match="cannot read positions file"):
        read_positions(str(tmp_path / "none.txt"), registry.create_game("tictactoe"))
