"""The UCI adapter (framework/engine/uci.py): Debian's Stockfish plays `openspiel:chess` through it, refereed by
Plyground, and beats the random agent; its messages map to UCI and back (clock, budget, score, PV, start texts).

The games need /usr/games/stockfish (`apt-get install stockfish`, .ci/run does) and python-chess; without
them those tests are skipped saying so. Until `command:` participants reach the YAML config, the games are
driven through the Python API: a GameTask whose engine for one participant is the adapter's command.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

import pytest

from framework.engine.client import Engine, EngineFailure, EngineSpec
from framework.match import Termination
from framework.protocols import WIN_SCORE, Budget
from framework.tournament.config import Participant
from framework.tournament.tasks import GameTask, WorkerContext

chess = pytest.importorskip("chess", reason="the UCI adapter needs python-chess: pip install chess")
pytest.importorskip("pyspiel", reason="openspiel:chess needs OpenSpiel: pip install -e '.[openspiel]'")
from framework.engine import uci  # noqa: E402  (after the skip: it needs python-chess)

STOCKFISH = "/usr/games/stockfish"
needs_stockfish = pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK),
                                     reason=f"Debian's Stockfish is not installed at {STOCKFISH}: "
                                            "apt-get install -y stockfish")
ADAPTER = (sys.executable, "-m", "framework.engine.uci")
START = "chess(): FEN: \\n\\n"   # openspiel:chess's start, as the referee sends it


@dataclass(frozen=True)
class CommandGameTask(GameTask):
    """A GameTask whose participants named in `commands` play from that program (a `command:` participant)."""

    commands: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def engine_spec(self, participant: Participant) -> EngineSpec:
        command = dict(self.commands).get(participant.id)
        if command is None:
            return super().engine_spec(participant)
        return EngineSpec(participant.id, params=dict(participant.params), command=command)


def play(first: Participant, second: Participant, seed: int, commands: dict[str, tuple[str, ...]]) -> Any:
    task = CommandGameTask(key=f"g{seed}", pairing=(first.id, second.id), index=seed, game="openspiel:chess",
                           first=first, second=second, start=None, seed=seed, max_plies=300, move_time_limit=30.0,
                           commands=tuple(commands.items()))
    context = WorkerContext()
    try:
        return task.run(context, lambda limit, progress: None).record
    finally:
        context.engines.close()


@needs_stockfish
def test_stockfish_through_the_adapter_beats_the_random_agent_with_either_colour():
    stockfish = Participant("stockfish", "uci", {"Skill Level": 20, "Threads": 1, "Hash": 16}, Budget(time=0.05))
    random = Participant("random", "random", {}, Budget())
    commands = {"stockfish": (*ADAPTER, STOCKFISH)}
    for seed, (first, second) in enumerate(((stockfish, random), (random, stockfish))):
        record = play(first, second, seed, commands)
        assert record.termination is Termination.NORMAL, record.reason
        assert record.players[record.winner] == "stockfish", (record.reason, record.result)
        theirs = [m for m in record.moves if m.mover == record.winner]
        assert theirs and all(m.depth >= 1 and m.nodes > 0 and m.pv[:1] == (m.move,) for m in theirs)
        assert record.moves[-1].move.endswith("#") and record.moves[-1].mover == record.winner   # mated


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
    ("openspiel:chess", {"chess960": True}, {}, "plays standard chess, without options"),
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
