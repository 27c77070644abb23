"""The endgame test-set generator: deterministic from its seed, whatever the number of workers, and the
shipped 488-position file is what the default solver proves today, line for line."""

from pathlib import Path

import pytest

from framework.endgames import Settings, create_solver, generate, header, prove_win, render
from framework.errors import ConfigError
from framework.protocols import Proof, SearchStats, SolveResult
from framework.tournament.config import load_config

THESIS = Path(__file__).parents[2] / "tournaments" / "thesis-loa-endgames.yaml"
#: What `plyground make-endgames` uses when its options are not given (the defaults the plugins declare).
DEFAULT = Settings(game="loa", player="alphabeta", solver="pns")
SMALL = Settings("loa", "alphabeta", "pns", count=4, seed=7, budget=2_000, easy=50, medium=500)


def test_the_same_seed_gives_the_same_file_on_one_or_two_workers():
    one = render(SMALL, generate(SMALL, workers=1))
    two = render(SMALL, generate(SMALL, workers=2))
    assert one == two
    lines = [line for line in one.splitlines() if not line.startswith("#")]
    assert len(lines) == 4 and len({line.split(";")[0] for line in lines}) == 4
    nodes = [int(line.split("nodes=")[1].split(";")[0]) for line in lines]
    # quotas 1 : 2 : 2 of 4 positions, rounded down: none below 50 nodes, one below 500, the rest above
    assert nodes == sorted(nodes) and sum(n < 500 for n in nodes) == 1 and all(n >= 50 for n in nodes)


def test_every_line_of_the_shipped_file_is_reproved_by_the_default_solver_with_its_length_and_nodes(registry):
    """The whole 488-position file through the Solver protocol (compiled pns: about 2 s); regenerating
    it (`plyground make-endgames`, 2 minutes) gives the same bytes."""
    config = load_config(THESIS)
    game = registry.create_game("loa")
    solver = create_solver(registry, game, DEFAULT.solver)
    positions, notes = config.start_positions, config.position_notes
    assert len(positions) == len(set(positions)) == 488
    fields = [dict(part.strip().split("=", 1) for part in note.split(";")) for note in notes]
    assert {f["result"] for f in fields} == {"win"}
    proofs = [prove_win(solver, game, game.from_text(position), DEFAULT.budget) for position in positions]
    assert proofs == [(int(f["length"]), int(f["nodes"])) for f in fields]


def test_the_shipped_header_is_the_default_command():
    shipped = (Path(__file__).parents[2] / "tournaments" / "positions" / "loa-endgames-488.txt").read_text()
    assert shipped.splitlines()[:2] == header(DEFAULT)


def test_a_move_that_wins_at_once_has_proof_length_one(registry):
    game = registry.create_game("tictactoe")
    solver = create_solver(registry, game, "pns")
    assert prove_win(solver, game, game.from_text("XX./OO./... x"), 100) == (1, 6)
    assert prove_win(solver, game, game.from_text("XXO/.X./O.. o"), 1000) is None     # O loses: nothing to prove


def test_the_defaults_are_the_ones_the_plugins_declare(registry):
    assert DEFAULT == Settings(*(registry.default_for(f"make-endgames --{option}")
                                 for option in ("game", "player", "solver")))


def test_the_game_solver_and_player_are_named_in_the_header():
    lines = header(Settings("loa", player="minimax", solver="pns:tree_limit=100000"))
    assert ("plyground make-endgames --game loa --player minimax --solver pns:tree_limit=100000 --seed 2002"
            in lines[0])
    assert "nodes (pns proof)" in lines[1]


def test_an_agent_that_cannot_solve_is_refused_as_solver():
    with pytest.raises(ConfigError, match="solver 'random': agent 'random' cannot solve positions"):
        generate(Settings("loa", "alphabeta", "random"))


def test_a_solver_that_reports_no_proof_length_is_refused(registry):
    game = registry.create_game("tictactoe")
    solver = create_solver(registry, game, "dfpn")
    with pytest.raises(ConfigError, match="proved a win but reports no proof length"):
        prove_win(solver, game, game.from_text("XX./OO./... x"), 100)


def test_a_proof_of_unknown_length_counts_as_no_proof(registry):
    class UnknownLength:
        def solve(self, game, state, budget):
            return SolveResult(Proof.WIN, None, SearchStats(nodes=5, extra={"proof_length": None}))

    game = registry.create_game("tictactoe")
    assert prove_win(UnknownLength(), game, game.from_text("XX./OO./... x"), 100) is None


def test_a_game_without_heuristics_is_refused(monkeypatch):
    monkeypatch.setattr("framework.endgames.Registry.heuristics_for", lambda self, game: [])
    with pytest.raises(ConfigError, match="game 'loa' has no heuristic for the self-play agents"):
        generate(DEFAULT)


@pytest.mark.parametrize("settings", [Settings("loa", "alphabeta", "pns", count=0),
                                      Settings("loa", "alphabeta", "pns", easy=10, medium=5),
                                      Settings("loa", "alphabeta", "pns", budget=10)])
def test_bad_settings_are_refused(settings):
    with pytest.raises(ConfigError, match="expected|at least 1"):
        generate(settings)


def test_make_endgames_on_tictactoe_stops_with_a_clear_message_when_the_quotas_cannot_fill(capsys, tmp_path):
    """Every tic-tac-toe proof is easy, and 3 positions give the easy bucket no room: it used to run forever."""
    from framework.cli import main

    code = main(["make-endgames", "--game", "tictactoe", "--count", "3", "--patience", "20",
                 "--out", str(tmp_path / "ttt.txt")])
    err = capsys.readouterr().err
    assert code == 2 and not (tmp_path / "ttt.txt").exists()
    assert "0/3 positions from 20 games" in err  # the progress line
    assert ("stopped after 20 games of tictactoe: the last 20 kept no new position (kept so far: easy 0/0, "
            "medium 0/1, hard 0/2); the difficulty quotas may never fill for this game: turn them off (--no-quotas)"
            in err)


def test_without_quotas_any_proven_win_counts(capsys, tmp_path):
    from framework.cli import main

    out = tmp_path / "ttt.txt"
    assert main(["make-endgames", "--game", "tictactoe", "--count", "3", "--no-quotas", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert "--no-quotas" in lines[0] and len(lines) == 2 + 3
    assert "3/3 positions from 2 games" in capsys.readouterr().err


def test_patience_must_be_positive():
    with pytest.raises(ConfigError, match="patience must be at least 1 game, got 0"):
        generate(Settings("tictactoe", "alphabeta", "pns", patience=0))
