"""The endgame test-set generator: deterministic from its seed, whatever the number of workers, and the
shipped 488-position file is what the default solver proves today, line for line."""

import json
import re
from pathlib import Path

import pytest

from framework.endgames import (
    Settings,
    create_solver,
    generate,
    header,
    label,
    parse_bands,
    prove_win,
    render,
    wins_within,
)
from framework.errors import ConfigError, SolveDisagreementError
from framework.protocols import Budget, Proof, SearchStats, SolveResult
from framework.tournament.config import load_config

THESIS = Path(__file__).parents[2] / "tournaments" / "thesis-loa-endgames.yaml"
#: What `plyground make-endgames` uses when its options are not given (the defaults the plugins declare).
DEFAULT = Settings(game="loa", player="alphabeta", solver="pns")
SMALL = Settings("loa", "alphabeta", "pns", count=4, seed=7, budget=2_000, easy=50, medium=500)


def test_the_same_seed_gives_the_same_file_on_one_or_two_workers():
    one = render(SMALL, *generate(SMALL, workers=1))
    two = render(SMALL, *generate(SMALL, workers=2))
    assert one == two
    lines = [line for line in one.splitlines() if not line.startswith("#")]
    assert len(lines) == 4 and len({line.split(";")[0] for line in lines}) == 4
    nodes = [int(line.split("nodes=")[1].split(";")[0]) for line in lines]
    # quotas 1 : 2 : 2 of 4 positions, rounded down: none below 50 nodes, one below 500, the rest above
    assert nodes == sorted(nodes) and sum(n < 500 for n in nodes) == 1 and all(n >= 50 for n in nodes)


@pytest.mark.slow
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


def test_a_solver_given_a_parameter_its_solve_ignores_is_refused():
    with pytest.raises(ConfigError, match="solver 'alphabeta:heuristic=mobility': 'heuristic' has no effect when "
                                          "agent 'alphabeta' solves"):
        generate(Settings("loa", "alphabeta", "alphabeta:heuristic=mobility"))


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


# --- the referee-labelled set: chosen without reference to any compared solver -------------------------------

REFEREED = Settings("tictactoe", "alphabeta", "pns", count=4, seed=3, referees=("pns", "dfpn"),
                    referee_budget=10_000, bands=((1, 3), (4, 9)))


def test_a_refereed_set_is_the_same_on_one_or_two_workers_and_split_evenly_over_the_distance_bands(registry):
    one = render(REFEREED, *generate(REFEREED, workers=1))
    assert one == render(REFEREED, *generate(REFEREED, workers=2))
    lines = one.splitlines()
    assert lines[0].startswith("# 4 tictactoe positions, each a win for the side to move agreed by 2 referees "
                               "(plyground make-endgames --game tictactoe --player alphabeta --referee pns "
                               "--referee dfpn --referee-budget 10000 --bands 1-3,4-9 --seed 3 --count 4)")
    tally = re.fullmatch(r"# sampled (\d+) positions from (\d+) games: (\d+) kept, (\d+) not a win, (\d+) "
                         r"unresolved, (\d+) repeat \(unresolved: a referee found no value within 10000 nodes\)",
                         lines[2])
    sampled, games, kept, *dropped = map(int, tally.groups())
    assert kept == 4 and sampled == kept + sum(dropped) and games >= 2
    notes = [dict(part.strip().split("=", 1) for part in line.split(" | ")[1].split(";")) for line in lines[3:]]
    distances = [int(n["distance"]) for n in notes]
    assert len(notes) == 4 and sum(d <= 3 for d in distances) == 2 and sum(4 <= d <= 9 for d in distances) == 2
    assert distances == sorted(distances) and all(d % 2 == 1 for d in distances)  # the winner moves last
    game = registry.create_game("tictactoe")
    for line, note in zip(lines[3:], notes):
        assert note["result"] == "win" and note["referees"].startswith("pns ") and ", dfpn " in note["referees"]
        state = game.from_text(line.split(" | ")[0])
        for name in REFEREED.referees:
            assert create_solver(registry, game, name).solve(game, state, Budget(nodes=10_000)).value is Proof.WIN


class Fixed:
    """A solver that answers `value` whatever it is asked."""

    def __init__(self, value, nodes=7):
        self.value, self.nodes = value, nodes

    def solve(self, game, state, budget):
        return SolveResult(self.value, None, SearchStats(nodes=self.nodes))


def test_a_position_is_kept_only_when_every_referee_proves_it_a_win(registry):
    game = registry.create_game("tictactoe")
    state = game.initial_state()
    win, loss, unknown = Fixed(Proof.WIN, 7), Fixed(Proof.LOSS), Fixed(Proof.UNKNOWN)
    assert label([("a", win), ("b", Fixed(Proof.WIN, 9))], game, state, 10) == ("kept", (7, 9))
    assert label([("a", loss), ("b", win)], game, state, 10) == ("not a win", ())
    assert label([("a", unknown), ("b", win)], game, state, 10) == ("unresolved", ())
    assert label([("a", win), ("b", unknown)], game, state, 10) == ("unresolved", ())


def test_referees_proving_different_values_stop_the_set(registry):
    game = registry.create_game("tictactoe")
    with pytest.raises(SolveDisagreementError, match="referees disagree on .*: a proved a win, b a draw"):
        label([("a", Fixed(Proof.WIN)), ("b", Fixed(Proof.DRAW))], game, game.initial_state(), 10)


@pytest.mark.parametrize("settings, message", [
    (Settings("tictactoe", "alphabeta", "pns", referees=("pns",)), r"referees \['pns'\]: name at least two"),
    (Settings("tictactoe", "alphabeta", "pns", referees=("pns", "dfpn"), referee_budget=0),
     "the referee budget must be at least 1 node, got 0"),
    (Settings("tictactoe", "alphabeta", "pns", referees=("pns", "random")), "solver 'random': agent 'random' cannot"),
])
def test_bad_referee_settings_are_refused(settings, message):
    with pytest.raises(ConfigError, match=message):
        generate(settings)


@pytest.mark.parametrize("text, message", [("1-12,x", "expected FROM-TO"), ("1-12,10-20", "must start after"),
                                           ("0-4", "1 <= FROM <= TO"), ("5-4", "1 <= FROM <= TO")])
def test_bad_distance_bands_are_refused(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_bands(text)


def test_distance_bands_parse():
    assert parse_bands("1-12,13-24,25-36") == ((1, 12), (13, 24), (25, 36))


def test_make_endgames_with_referees_writes_the_refereed_set(tmp_path):
    from framework.cli import main

    out = tmp_path / "ttt.txt"
    assert main(["make-endgames", "--game", "tictactoe", "--count", "4", "--seed", "3", "--referee", "pns",
                 "--referee", "dfpn", "--referee-budget", "10000", "--bands", "1-3,4-9", "--out", str(out),
                 "--quiet"]) == 0
    assert out.read_text() == render(REFEREED, *generate(REFEREED))


REFEREED_SET = Path(__file__).parents[2] / "tournaments" / "positions" / "loa-endgames-refereed-488.txt"


def test_the_shipped_refereed_set_is_what_its_referees_prove_today_on_its_cheaper_lines(registry):
    """The referees the header names re-prove lines whose labels took each under 100,000 nodes (every third
    of them, at least ten lines), with the recorded nodes; `plyground make-endgames` with the header's options
    regenerates the whole file (hours: see the set's README)."""
    lines = REFEREED_SET.read_text().splitlines()
    command = lines[0].split("(plyground make-endgames ")[1].rstrip(")").split()
    specs = [command[i + 1] for i, word in enumerate(command) if word == "--referee"]
    budget = int(command[command.index("--referee-budget") + 1])
    game = registry.create_game("loa")
    referees = [(spec.split(":")[0], create_solver(registry, game, spec)) for spec in specs]
    cheap = []
    for line in lines[3:]:
        position, note = line.split(" | ")
        recorded = [int(part.split()[1]) for part in note.split("referees=")[1].split(";")[0].split(", ")]
        if max(recorded) < 100_000:
            cheap.append((position, tuple(recorded)))
    assert len(cheap[::3]) >= 10
    for position, recorded in cheap[::3]:
        assert label(referees, game, game.from_text(position), budget) == ("kept", recorded), position


def test_an_interrupted_refereed_set_resumes_from_its_journal_without_playing_its_games_again(tmp_path, monkeypatch):
    import framework.endgames as endgames

    journal = tmp_path / "set.journal"
    whole = render(REFEREED, *generate(REFEREED))
    played: list[int] = []
    real = endgames.play_and_prove

    def stop_after_two(settings, index, open_buckets=()):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(index)
        return real(settings, index, open_buckets)

    monkeypatch.setattr(endgames, "play_and_prove", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        generate(REFEREED, journal=journal)
    assert played == [0, 1] and len(journal.read_text().splitlines()) == 3  # the settings and two games

    def counted(settings, index, open_buckets=()):
        played.append(index)
        return real(settings, index, open_buckets)

    monkeypatch.setattr(endgames, "play_and_prove", counted)
    assert render(REFEREED, *generate(REFEREED, journal=journal)) == whole
    assert 0 not in played[2:] and 1 not in played[2:]
    # a larger set of the same settings goes on from it; other settings are refused, naming the setting
    bigger = Settings(**{**REFEREED.__dict__, "count": 6})
    generate(bigger, journal=journal)
    other = Settings(**{**REFEREED.__dict__, "referee_budget": 20_000})
    with pytest.raises(ConfigError, match=r"set.journal: it was made with other settings \(referee_budget: 10000"):
        generate(other, journal=journal)


# --- the hard set: no forced win shorter than --min-win-plies, by an exhaustive search ----------------------


def shortest_win(game, state, player, plies):
    """Brute force, to check `wins_within` against: the fewest plies in which `player` forces a win, found by
    visiting every line of `plies` plies (no line cut short), or None when there is no forced win that soon."""
    if game.is_terminal(state):
        return 0 if game.returns(state)[player] > 0 else None
    if plies == 0:
        return None
    values = [shortest_win(game, game.apply(state, move), player, plies - 1) for move in game.legal_moves(state)]
    wins = [value + 1 for value in values if value is not None]
    if game.to_move(state) == player:
        return min(wins, default=None)
    return max(wins) if len(wins) == len(values) else None


#: LOA positions whose shortest forced win is 1, 3 and more than 4 plies. The first is hand-made: Black a1 and c1
#: against White h6 and h8, Black to move; c1-b2 (one piece on that diagonal) joins a1. The other two are
#: lines of the refereed set, their values found by `shortest_win` over every line of 4 plies.
LOA_SHORTEST = [(".......w/......../.......w/......../......../......../......../b.b..... b", 1),
                ("....b.../.b.wbw../...bb.w./..wbwb../...bbww./..bww.../...b..../........ b", 3),
                ("..b...../.....ww./.b.b..../....bw../..wbw.../.b..bw../...w.w../........ b", None)]


@pytest.mark.parametrize("text, shortest", LOA_SHORTEST)
def test_wins_within_finds_the_shortest_forced_win_of_loa_positions(registry, text, shortest):
    game = registry.create_game("loa")
    state = game.from_text(text)
    assert shortest_win(game, state, game.to_move(state), 4) == shortest
    assert [wins_within(game, state, plies) for plies in range(5)] == [
        shortest is not None and shortest <= plies for plies in range(5)]
    if shortest == 1:
        assert game.is_terminal(game.apply(state, game.parse_move(state, "c1-b2")))


def test_wins_within_on_hand_checked_tictactoe_positions(registry):
    game = registry.create_game("tictactoe")
    assert wins_within(game, game.from_text("XX./OO./... x"), 1)
    # X must block O's diagonal in the bottom-left corner, which opens two lines of X's at once: won at ply 3
    fork = game.from_text("X.O/.O./..X x")
    assert [wins_within(game, fork, plies) for plies in range(1, 5)] == [False, False, True, True]
    assert not wins_within(game, game.initial_state(), 9)  # tic-tac-toe is a draw


def test_wins_within_agrees_with_a_brute_force_on_the_refereed_sets_positions(registry):
    game = registry.create_game("loa")
    lines = [line for line in REFEREED_SET.read_text().splitlines() if not line.startswith("#")]
    found = set()
    for line in lines[::40]:
        position, note = line.split(" | ")
        state = game.from_text(position)
        shortest = shortest_win(game, state, game.to_move(state), 3)
        found.add(shortest)
        assert [wins_within(game, state, plies) for plies in (1, 2, 3)] == [
            shortest is not None and shortest <= plies for plies in (1, 2, 3)], position
        if "distance=1;" in note:  # the self-play game's winner won with its next move
            assert shortest == 1
    assert {1, 3, None} <= found  # the sample holds each kind


HARD = Settings(**{**REFEREED.__dict__, "min_win_plies": 3})


def test_min_win_plies_drops_shorter_wins_before_the_referees_and_counts_them(registry, tmp_path):
    from framework.cli import main

    out = tmp_path / "ttt.txt"
    assert main(["make-endgames", "--game", "tictactoe", "--count", "4", "--seed", "3", "--referee", "pns",
                 "--referee", "dfpn", "--referee-budget", "10000", "--bands", "1-3,4-9", "--min-win-plies", "3",
                 "--out", str(out), "--quiet"]) == 0
    text = out.read_text()
    assert text == render(HARD, *generate(HARD, workers=2))
    lines = text.splitlines()
    assert "--bands 1-3,4-9 --min-win-plies 3 --seed 3 --count 4)" in lines[0]
    assert "min_win_plies (no forced win in fewer plies: an exhaustive search found none)" in lines[1]
    tally = re.fullmatch(r"# sampled (\d+) positions from (\d+) games: (\d+) kept, (\d+) shorter win, (\d+) not a "
                         r"win, (\d+) unresolved, (\d+) repeat \(shorter win: the side to move forces a win within 2 "
                         r"plies, found by an exhaustive search before any referee was asked; unresolved: a referee "
                         r"found no value within 10000 nodes\)", lines[2])
    sampled, _, kept, shorter, *dropped = map(int, tally.groups())
    assert kept == 4 and shorter > 0 and sampled == kept + shorter + sum(dropped)
    game = registry.create_game("tictactoe")
    for line in lines[3:]:
        position, note = line.split(" | ")
        assert "; min_win_plies=3; referees=pns " in note
        state = game.from_text(position)
        assert not wins_within(game, state, 2) and wins_within(game, state, 9)


def test_a_journal_of_another_min_win_plies_is_refused_and_an_older_journal_counts_as_without(tmp_path):
    journal = tmp_path / "set.journal"
    generate(REFEREED, journal=journal)
    with pytest.raises(ConfigError, match=r"set.journal: it was made with other settings \(min_win_plies: 0, now 3\)"):
        generate(HARD, journal=journal)
    lines = journal.read_text().splitlines()
    older = {key: value for key, value in json.loads(lines[0]).items() if key != "min_win_plies"}
    journal.write_text("\n".join([json.dumps(older), *lines[1:]]) + "\n")
    assert render(REFEREED, *generate(REFEREED, journal=journal)) == render(REFEREED, *generate(REFEREED))


@pytest.mark.parametrize("settings, message", [
    (Settings("tictactoe", "alphabeta", "pns", min_win_plies=5),
     "--min-win-plies 5 needs --referee: it filters the positions sampled for the referees"),
    (Settings(**{**REFEREED.__dict__, "min_win_plies": -1}),
     "--min-win-plies must be 0 .off. or a number of plies, got -1"),
])
def test_bad_min_win_plies_are_refused(settings, message):
    with pytest.raises(ConfigError, match=message):
        generate(settings)


def test_make_endgames_refuses_min_win_plies_without_referees(capsys, tmp_path):
    from framework.cli import main

    assert main(["make-endgames", "--game", "tictactoe", "--min-win-plies", "5", "--out", str(tmp_path / "x.txt")]) == 2
    assert "--min-win-plies 5 needs --referee" in capsys.readouterr().err
