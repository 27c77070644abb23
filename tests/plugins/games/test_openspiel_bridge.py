"""The OpenSpiel bridge (`openspiel:NAME`): the conformance suite on games chosen for coverage, perft against a
plain pyspiel perft, refusals and errors in one line, and the searches running through it."""

import sys

import pytest

from framework.cli import main
from framework.conformance import GameConformance, check_game_object, check_playouts
from framework.errors import ConfigError, MoveParseError, PluginError, PositionError
from framework.match import play_game
from framework.perft import perft
from framework.protocols import CHANCE, UNLIMITED
from framework.registry import Registry
from plugins.agents.random_agent import RandomAgent

pyspiel = pytest.importorskip("pyspiel")

REGISTRY = Registry()


def bridged(name: str, **options):
    return REGISTRY.create_game(f"openspiel:{name}", options)


def spiel_perft(state, depth: int) -> int:
    """Perft on OpenSpiel's own states, no bridge: the count `framework.perft` makes (the last ply in bulk)."""
    actions = state.legal_actions()
    if depth == 1 or not actions:
        return len(actions) if depth == 1 else 0
    total = 0
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        total += spiel_perft(child, depth - 1)
    return total


# -- the conformance suite ---------------------------------------------------------------------------------------

class TestTicTacToe(GameConformance):
    game_factory = staticmethod(lambda: bridged("tic_tac_toe"))
    perft = {1: 9, 2: 72, 3: 504, 4: 3024, 5: 15120}
    positions = ["tic_tac_toe(): 4 0 8", "tic_tac_toe(): 0 3 1 4 2"]   # x won the top row in the second
    bad_positions = ["connect_four(): 3", "tic_tac_toe(): 4 4", "tic_tac_toe() 4", "", "tic_tac_toe(): x"]
    bad_moves = [(None, "x(3,3)"), (None, "4"), ("tic_tac_toe(): 4", "x(1,1)")]


class TestConnectFour(GameConformance):
    game_factory = staticmethod(lambda: bridged("connect_four"))
    perft = {1: 7, 2: 49, 3: 343, 4: 2401}
    positions = ["connect_four(): 3 3 3 3 3 3"]
    bad_positions = ["connect_four(): 9"]
    playouts = 5


class TestSmallBreakthrough(GameConformance):
    game_factory = staticmethod(lambda: bridged("breakthrough", rows=5, columns=4))
    playouts = 5


class TestTwoPlayerPig(GameConformance):
    game_factory = staticmethod(lambda: bridged("pig", winscore=20))
    perft = {1: 2, 2: 8, 3: 20, 4: 68}   # as plugins/games/pig's: roll or stop, then six faces or the next turn
    playouts = 4


class TestThreePlayerPig(GameConformance):
    game_factory = staticmethod(lambda: bridged("pig", players=3, winscore=10))
    playouts = 3


class TestChineseCheckersForThree(GameConformance):
    game_factory = staticmethod(lambda: bridged("chinese_checkers", players=3))
    playouts = 1
    max_plies = 60


class TestChess(GameConformance):
    """Chess serializes as FEN plus moves, not a plain history: the one-line text escapes it."""
    game_factory = staticmethod(lambda: bridged("chess"))
    perft = {1: 20, 2: 400}
    playouts = 1
    max_plies = 40


class TestBackgammon(GameConformance):
    game_factory = staticmethod(lambda: bridged("backgammon"))
    playouts = 1
    max_plies = 40


# -- checked against OpenSpiel itself -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, options, depth", [
    ("tic_tac_toe", {}, 6), ("connect_four", {}, 4), ("breakthrough", {"rows": 6, "columns": 5}, 3),
    ("pig", {"players": 3, "winscore": 5}, 6), ("backgammon", {}, 2), ("othello", {}, 4),
])
def test_perft_through_the_bridge_equals_a_plain_pyspiel_perft(name, options, depth):
    game = bridged(name, **options)
    assert perft(game, game.initial_state(), depth) == spiel_perft(pyspiel.load_game(name, options)
                                                                   .new_initial_state(), depth)


def test_tic_tac_toe_has_255168_finished_games_through_the_bridge():
    game = bridged("tic_tac_toe")

    def finished(state) -> int:
        if game.is_terminal(state):
            return 1
        return sum(finished(game.apply(state, move)) for move in game.legal_moves(state))

    assert finished(game.initial_state()) == 255_168


def test_the_command_line_perft_of_tic_tac_toe(capsys):
    assert main(["perft", "openspiel:tic_tac_toe", "5"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [row[1] for row in rows] == ["9", "72", "504", "3,024", "15,120"]


def test_states_wrap_openspiel_states_and_apply_returns_a_child():
    game = bridged("pig")
    start = game.initial_state()
    rolled = game.apply(start, game.parse_move(start, "roll"))
    assert game.to_move(rolled) == CHANCE and start.history == () and rolled.history == (0,)
    assert game.chance_outcomes(rolled) == tuple((face, pytest.approx(1 / 6)) for face in range(6))
    assert [game.format_move(rolled, move) for move in game.legal_moves(rolled)] == [
        "Roll_1", "Roll_2", "Roll_3", "Roll_4", "Roll_5", "Roll_6"]
    assert game.parse_move(rolled, "Roll 3") == game.parse_move(rolled, "Roll_3") == 2
    assert game.apply(start, 0) == rolled and hash(game.apply(start, 0)) == hash(rolled)
    assert str(start.spiel) == str(pyspiel.load_game("pig").new_initial_state())   # untouched


def test_returns_are_openspiels_two_players_win_draw_or_lose():
    game = bridged("tic_tac_toe")
    won = game.from_text("tic_tac_toe(): 0 3 1 4 2")
    assert game.is_terminal(won) and game.returns(won) == (1.0, -1.0) and game.to_move(won) == 1
    three = bridged("pig", players=3, winscore=2)
    state = three.initial_state()
    for notation in ("roll", "Roll_2", "stop"):
        state = three.apply(state, three.parse_move(state, notation))
    assert three.is_terminal(state) and three.returns(state) == (1.0, -0.5, -0.5)


def test_a_text_of_another_game_or_that_openspiel_cannot_read_is_one_line():
    game = bridged("connect_four", rows=5)
    assert game.to_text(game.initial_state()) == "connect_four(rows=5):"
    with pytest.raises(PositionError, match=r"'connect_four\(\): 3' is not a position of connect_four\(rows=5\)"):
        game.from_text("connect_four(): 3")
    # OpenSpiel would apply column 77 unchecked and write past the board (a segfault at exit on another machine)
    with pytest.raises(PositionError, match=r"OpenSpiel cannot read the position 'connect_four\(rows=5\): 77' "
                                            r"of connect_four\(rows=5\): action 77 at ply 1 is not legal there"):
        game.from_text("connect_four(rows=5): 77")
    with pytest.raises(PositionError, match="action 3 at ply 8 is not legal there"):   # the game is over
        game.from_text("connect_four(rows=5): 0 1 0 1 0 1 0 3")
    with pytest.raises(MoveParseError, match="'x9' is not a legal move of openspiel:connect_four here; legal: x0"):
        game.parse_move(game.initial_state(), "x9")


# -- refusals, options and the extra -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, reason", [
    ("kuhn_poker", "an imperfect-information game (players see different things)"),
    ("goofspiel", "not a sequential game (players move simultaneously)"),
])
def test_a_game_plyground_cannot_play_is_refused_in_one_line(capsys, name, reason):
    assert main(["perft", f"openspiel:{name}", "2"]) == 2
    err = capsys.readouterr().err
    assert err == f"plyground: error: game 'openspiel:{name}' is refused: {reason}; " + err.split("; ", 1)[1]
    assert err.count("\n") == 1


def test_a_one_player_game_and_a_game_openspiel_does_not_have_are_refused():
    with pytest.raises(ConfigError, match="'openspiel:2048' with the options {} is refused: a one-player game"):
        bridged("2048")
    with pytest.raises(PluginError, match="unknown game 'openspiel:chequers': OpenSpiel has no game 'chequers'"):
        REGISTRY.game_spec("openspiel:chequers")


def test_options_are_openspiels_parameters_checked_by_name_and_by_openspiel():
    assert bridged("pig", players=3).num_players == 3
    with pytest.raises(ConfigError, match="unknown parameter 'goal' .*players, winscore"):
        bridged("pig", goal=10)
    with pytest.raises(ConfigError, match="'players' must be an integer"):
        bridged("pig", players="three")
    with pytest.raises(ConfigError, match="'openspiel:pig' with the options {'players': 1} is refused: a one-player"):
        bridged("pig", players=1)
    with pytest.raises(ConfigError, match="^game 'openspiel:efg_game': OpenSpiel cannot load it: "):
        bridged("efg_game")   # its default file is not there


def test_without_openspiel_installed_the_games_say_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)   # `import pyspiel` raises ImportError
    with pytest.raises(PluginError, match=r"^the openspiel:NAME games need OpenSpiel, which is not installed: "
                                          r"pip install -e '\.\[openspiel\]'$"):
        Registry().game_spec("openspiel:connect_four")


def test_list_openspiel_shows_the_playable_games_and_why_not_the_others(capsys):
    assert main(["list", "--openspiel"]) == 0
    out = capsys.readouterr().out
    playable, refused = out.split("refused (")
    for name in ("connect_four", "tic_tac_toe", "pig", "backgammon", "breakthrough", "hex"):
        assert f"  openspiel:{name}\n" in playable
    assert ("  openspiel:kuhn_poker: an imperfect-information game (players see different things); Plyground plays "
            "perfect-information games only\n") in refused
    assert "  openspiel:2048: a one-player game" in refused


def test_list_of_an_unknown_family_is_one_line(capsys):
    assert main(["list", "--family", "openspeil"]) == 2
    assert capsys.readouterr().err == ("plyground: error: --family: no game family 'openspeil'; families: "
                                       "openspiel\n")


# -- the searches through the bridge ------------------------------------------------------------------------------

def test_mcts_through_the_bridge_beats_random_at_connect_four():
    game = bridged("connect_four")
    wins = 0
    for i in range(8):   # colour-swapped pairs, seeded: the same games every run
        mcts = REGISTRY.create_agent("mcts", game, {"iterations": 100}, seed=i)
        agents = [mcts, RandomAgent(game, seed=i)] if i % 2 == 0 else [RandomAgent(game, seed=i), mcts]
        record = play_game(game, agents, seed=i)
        wins += record.result[i % 2] == 1
    assert wins >= 7


def test_alphabeta_with_the_playout_heuristic_takes_a_win_in_one():
    game = bridged("connect_four")
    state = game.from_text("connect_four(): 0 1 0 1 0 1")   # x has three in column 0
    agent = REGISTRY.create_agent("alphabeta", game, {"depth": 2})
    assert game.format_move(state, agent.select_move(game, state, UNLIMITED).move) == "x0"


def test_the_playout_heuristic_is_seeded_by_the_state():
    game = bridged("connect_four")
    heuristic = REGISTRY.create_heuristic(game)
    state = game.from_text("connect_four(): 3 3 2")
    assert heuristic.name == "playouts" and heuristic.evaluate(state, 0) == heuristic.evaluate(state, 0)
    assert -1000 <= heuristic.evaluate(state, 0) <= 1000


@pytest.mark.parametrize("agent", ["maxn", "paranoid", "mcts"])
def test_three_player_pig_is_played_by_maxn_and_mcts(agent):
    game = bridged("pig", players=3, winscore=10)
    params = {"iterations": 50} if agent == "mcts" else {"depth": 2}
    agents = [REGISTRY.create_agent(agent, game, params, seed=1), RandomAgent(game, seed=2), RandomAgent(game, seed=3)]
    record = play_game(game, agents, seed=5, max_plies=2000)
    assert len(record.result) == 3 and sorted(record.result) == [-0.5, -0.5, 1.0]


def test_solve_proves_tic_tac_toe_a_draw_with_proof_number_search(capsys):
    assert main(["solve", "openspiel:tic_tac_toe", "--solver", "pns"]) == 0
    assert capsys.readouterr().out.startswith("draw  (P1 to move, best move x(0,0); pns, ")


def test_list_names_the_family_and_how_to_list_its_games(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "game families (games named FAMILY:NAME; 'plyground list --family FAMILY' lists them):\n  openspiel " in out


def test_expectiminimax_plays_two_player_pig_with_the_default_heuristic():
    game = bridged("pig", winscore=10)
    agents = [REGISTRY.create_agent("expectiminimax", game, {"depth": 3}, seed=1), RandomAgent(game, seed=2)]
    record = play_game(game, agents, seed=3, max_plies=2000)
    assert sorted(record.result) == [-1.0, 1.0] and record.termination.value == "normal"


def _playable() -> list[str]:
    from plugins.games.openspiel_bridge import members
    return [name for name, reason in members() if not reason]


@pytest.mark.slow
@pytest.mark.parametrize("name", _playable())
def test_every_playable_game_passes_the_per_state_rules_on_a_random_playout(name):
    """The classes above run the whole suite on chosen games; this runs its per-state checks on all the others."""
    game = bridged(name)
    check_game_object(game)
    assert check_playouts(game, game.initial_state(), 1, 0, 80) >= 2


def test_listing_the_family_lets_none_of_openspiels_cpp_output_through(capfd):
    """OpenSpiel's C++ wrote `OpenSpiel exception: ... CHECK_TRUE(fd_)` and a quoridor warning to stderr."""
    assert main(["list", "--family", "openspiel"]) == 0
    out, err = capfd.readouterr()
    assert err == "" and "connect_four" in out
    sys.stderr.write("stderr works again\n")
    assert capfd.readouterr().err == "stderr works again\n"


@pytest.mark.parametrize(("options", "says"), [
    ({"rows": 5000}, "game 'openspiel:connect_four': 'rows' must be at most 100, got 5000"),
    ({"columns": 101}, "game 'openspiel:connect_four': 'columns' must be at most 100, got 101"),
])
def test_an_integer_board_option_is_bounded_with_the_bound_named(options, says):
    """`rows=5000,columns=5000` was accepted (a 4.2 MB workbench page at 2000x2000)."""
    with pytest.raises(ConfigError) as error:
        Registry().create_game("openspiel:connect_four", options)
    assert str(error.value) == says
    assert Registry().create_game("openspiel:connect_four", {"rows": 100, "columns": 8}) is not None
