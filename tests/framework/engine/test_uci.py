"""The UCI adapter (framework/engine/uci.py): Debian's Stockfish plays `openspiel:chess` through it, refereed by
Plyground, and beats the random agent; its messages map to UCI and back (clock, budget, score, PV, start texts).

The games need /usr/games/stockfish (`apt-get install stockfish`, .ci/run does) and python-chess; without
them those tests are skipped saying so. The games are tournaments of a YAML file, Stockfish a `command:`
participant with `protocol: uci` and its `options`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.engine.client import Engine, EngineFailure, EngineSpec
from framework.protocols import WIN_SCORE

chess = pytest.importorskip("chess", reason="the UCI adapter needs python-chess: pip install chess")
pytest.importorskip("pyspiel", reason="openspiel:chess needs OpenSpiel: pip install -e '.[openspiel]'")
from framework.engine import uci  # noqa: E402  (after the skip: it needs python-chess)

STOCKFISH = "/usr/games/stockfish"
needs_stockfish = pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK),
                                     reason=f"Debian's Stockfish is not installed at {STOCKFISH}: "
                                            "apt-get install -y stockfish")
ADAPTER = (sys.executable, "-m", "framework.engine.uci")
START = "chess(): FEN: \\n\\n"   # openspiel:chess's start, as the referee sends it


def tournament(tmp_path: Path, options: str) -> Results:
    """Stockfish (a `command:` participant through the adapter, with these `options`) against the random agent,
    two games of openspiel:chess, run as `plyground run` runs them."""
    config = tmp_path / "sf.yaml"
    config.write_text(f"""name: sf
game: openspiel:chess
games_per_pairing: 2
max_plies: 300
workers: 1
results: {tmp_path / "out"}
participants:
  - {{id: stockfish, command: [{STOCKFISH}], protocol: uci, options: {options}, budget: {{time: 0.1}}}}
  - {{id: random, agent: random}}
""")
    assert main(["run", str(config), "--quiet"]) == 0
    return Results(tmp_path / "out")


@needs_stockfish
def test_stockfish_through_the_adapter_beats_the_random_agent_with_either_colour(tmp_path):
    results = tournament(tmp_path, "{Skill Level: 20, Threads: 1, Hash: 16}")
    assert len(results.games) == 2
    for game in results.games.itertuples():
        assert game.termination == "normal", game.reason
        assert (game.first if game.result_first > 0 else game.second) == "stockfish", game.reason
        moves = results.moves[results.moves["key"] == game.key].sort_values("ply")
        theirs = moves[moves["participant"] == "stockfish"]
        assert len(theirs) and (theirs["depth"] >= 1).all() and (theirs["nodes"] > 0).all()
        assert moves["move"].iloc[-1].endswith("#") and moves["participant"].iloc[-1] == "stockfish"   # mated
    names = set(results.seats[results.seats["participant"] == "stockfish"]["engine"])
    assert len(names) == 1 and names.pop().startswith("Stockfish")   # its `id name`, version included


@needs_stockfish
def test_an_option_the_program_does_not_have_forfeits_its_games_naming_it(tmp_path):
    results = tournament(tmp_path, "{Skil Level: 3}")
    assert (results.games["termination"] != "normal").all()
    assert results.games["reason"].str.contains("'Skil Level'").all(), results.games["reason"].tolist()


@needs_stockfish
def test_the_adapter_says_the_programs_name_maps_go_and_info_and_refuses_what_uci_cannot_do():
    engine = Engine(EngineSpec("stockfish", command=(*ADAPTER, STOCKFISH)))
    try:
        assert engine.name.startswith("Stockfish ") and engine.version == engine.name.split()[-1]
        assert engine.params["protocol"] == "uci" and engine.params["author"]
        engine.new_game("openspiel:chess", {}, 0, 1, START, {"Threads": 1})
        answer = engine.request({"type": "go", "moves": ["e4", "e5"], "budget": {"nodes": 20_000}, "clock": {}},
                                30.0, ("move",))
        stats = answer["stats"]
        assert stats["pv"][0] == answer["move"] and stats["depth"] >= 1 and stats["nodes"] >= 1
        assert abs(stats["score"]) < 500 and stats["extra"]["seldepth"] >= 1
        board = chess.Board()
        for text in ["e4", "e5", *stats["pv"]]:
            board.push_san(text)   # the PV is legal SAN from the position searched
        # mate in one for White (scholar's mate): the score is WIN_SCORE - 1, the move Qxf7#
        scholar = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]
        answer = engine.request({"type": "go", "moves": scholar, "budget": {"time": 0.2}, "clock": {}}, 30.0,
                                ("move",))
        assert answer["move"] == "Qxf7#" and answer["stats"]["score"] == WIN_SCORE - 1
        # the referee's clock, when it carries one, is what the program is given
        clock = {"time": 2.0, "inc": 0.01, "movestogo": 5}
        answer = engine.request({"type": "go", "moves": ["e4"], "budget": {}, "clock": clock}, 30.0, ("move",))
        assert chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").parse_san(answer["move"])
        with pytest.raises(EngineFailure, match="cannot answer 'solve'"):
            engine.request({"type": "solve", "moves": [], "budget": {}}, 30.0, ("solved",), step="solving")
    finally:
        engine.close()


@needs_stockfish
@pytest.mark.parametrize("game, options, params, reason", [
    ("tictactoe", {}, {}, "a UCI program plays openspiel:chess, not 'tictactoe'"),
    ("openspiel:chess", {"chess960": True}, {}, "not the options {'chess960': True}"),
    ("openspiel:chess", {}, {"Skill Levl": 3}, "has no UCI option 'Skill Levl'; it has "),
    ("openspiel:chess", {}, {"Skill Level": 99}, "setoption refused: "),
])
def test_a_game_or_an_option_the_program_cannot_take_is_refused_before_the_game(game, options, params, reason):
    engine = Engine(EngineSpec("stockfish", command=(*ADAPTER, STOCKFISH)))
    try:
        with pytest.raises(EngineFailure, match=reason.replace("(", r"\(")):
            engine.new_game(game, options, 0, 1, None, params)
    finally:
        engine.close()


def test_a_program_that_does_not_start_is_named():
    with pytest.raises(EngineFailure, match="cannot start the UCI program '/nonexistent/engine'"):
        Engine(EngineSpec("nothing", command=(*ADAPTER, "/nonexistent/engine")))


def test_the_clock_goes_to_go_when_it_carries_times_else_the_budget():
    limit = uci.limit_of({"clock": {"time": 60.0, "inc": 1.0, "movestogo": 20}, "budget": {"time": 5}})
    assert (limit.white_clock, limit.black_clock, limit.white_inc, limit.black_inc, limit.remaining_moves,
            limit.time) == (60.0, 60.0, 1.0, 1.0, 20, None)   # the mover's clock, whichever side it is
    limit = uci.limit_of({"clock": {}, "budget": {"time": 0.5, "nodes": 1000}})
    assert (limit.time, limit.nodes, limit.white_clock) == ((500 - uci.MARGIN_MS) / 1000, 1000, None)
    assert uci.limit_of({"clock": {}, "budget": {"time": 0.001}}).time == 0.001   # never below 1 ms
    assert uci.limit_of({"budget": {}}).time == uci.DEFAULT_TIME
    with pytest.raises(uci.UciError, match="the clock's inc is 'x', not a number"):
        uci.limit_of({"clock": {"time": 1, "inc": "x"}})
    with pytest.raises(uci.UciError, match="not an object"):
        uci.limit_of({"clock": [1]})


def test_start_texts_of_openspiel_chess_give_the_fen_and_the_moves_since():
    assert uci.split_start(None) == (None, [])
    assert uci.split_start(START) == (None, [])
    fen = "8/8/8/8/8/8/8/K1k4R w - - 0 1"
    assert uci.split_start(f"chess(): FEN: {fen}\\n\\n") == (fen, [])
    # the text of the position after 1. e4 e5, as the bridge writes it, read back as its moves in SAN
    from framework.registry import Registry

    game = Registry().create_game("openspiel:chess", {})
    state = game.initial_state()
    for text in ("e4", "e5", "Nf3"):
        state = game.apply(state, game.parse_move(state, text))
    assert uci.start_moves(*uci.split_start(game.to_text(state))) == ["e4", "e5", "Nf3"]
    for text, reason in [("connect_four(): 1 2", "not a position of OpenSpiel's chess"),
                         ("chess(chess960=True): FEN: \\n\\n", "with the options 'chess960=True'"),
                         ("chess(): 12\\n", "has no FEN line"),
                         ("chess(): FEN: \\nx\\n", "a line that is not an action")]:
        with pytest.raises(uci.UciError, match=reason):
            uci.split_start(text)
    with pytest.raises(uci.UciError, match="action 5 is not legal"):
        uci.start_moves(None, [5])


def test_scores_for_the_side_to_move_and_the_programs_version():
    from chess.engine import Cp, Mate, PovScore

    stats: dict[str, Any] = {"extra": {}}
    uci.score_of({"score": PovScore(Cp(-35), chess.BLACK)}, stats)
    assert stats["score"] == -35.0   # relative: the side to move's (python-chess makes it Black's when Black moves)
    uci.score_of({"score": PovScore(Mate(-3), chess.WHITE)}, stats)
    assert stats["score"] == -(WIN_SCORE - 3) and stats["extra"]["mate"] == -3
    assert uci.version_of("Stockfish 15.1") == "15.1" and uci.version_of("Komodo") == ""
