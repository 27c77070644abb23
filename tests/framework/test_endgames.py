"""The endgame test-set generator: deterministic from its seed, whatever the number of workers."""

from pathlib import Path

import pytest

from framework.endgames import Settings, generate, prove_win, render
from framework.errors import ConfigError
from framework.tournament.config import load_config

THESIS = Path(__file__).parents[2] / "tournaments" / "thesis-loa-endgames.yaml"
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
    config = load_config(THESIS)
    game = registry.create_game("loa")
    positions, notes = config.start_positions, config.position_notes
    assert len(positions) == len(set(positions)) == 488
    fields = [dict(part.strip().split("=", 1) for part in note.split(";")) for note in notes]
    assert {f["result"] for f in fields} == {"win"}
    for i in (0, 1, 2, 120, 121):
        proof = prove_win(game, game.from_text(positions[i]), 50_000)
        assert proof == (int(fields[i]["length"]), int(fields[i]["nodes"]))


def test_a_move_that_wins_at_once_has_proof_length_one(registry):
    game = registry.create_game("tictactoe")
    assert prove_win(game, game.from_text("XX./OO./... x"), 100) == (1, 6)
    assert prove_win(game, game.from_text("XXO/.X./O.. o"), 1000) is None     # O loses: nothing to prove


@pytest.mark.parametrize("settings", [Settings(count=0), Settings(easy=10, medium=5), Settings(budget=10)])
def test_bad_settings_are_refused(settings):
    with pytest.raises(ConfigError, match="expected|at least 1"):
        generate(settings)
