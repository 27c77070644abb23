"""A UCI chess program as a Plyground engine: `python -m framework.engine.uci PROGRAM [ARGS...]`.

The adapter speaks Plyground's engine protocol (protocol.py) on its standard input and output to the referee,
and UCI to PROGRAM, its child, through python-chess's `chess.engine` (the handshake, `setoption`, `position`,
`go`, the parsing of `info` lines). It plays one game: `openspiel:chess` of the OpenSpiel bridge, whose moves
are standard algebraic notation (SAN, "Nf3", "exd5", "O-O", "e8=Q+") and whose position texts are OpenSpiel's
serialization, `chess(): FEN: <fen or nothing for the start>` then one action id per line. A UCI program plays
no other game, so the adapter names the one it plays (GAMES) and refuses the rest with an `error`.

    referee -> adapter                      adapter -> PROGRAM
    hello                                   uci ... uciok: answered with PROGRAM's `id name` (its version is the
                                            name's last word when that starts with a digit, "Stockfish 15.1")
    new (params: {NAME: VALUE})             setoption name NAME value VALUE (each parameter of the participant),
                                            ucinewgame at the first search of the game
    isready                                 isready ... readyok
    go (moves, budget, clock)               position fen START moves UCI... ; go wtime btime winc binc [movestogo]
                                            from the mover's `clock` (time, inc, movestogo: both sides are told
                                            the mover's, which is the one a program reads) when there is one,
                                            else go movetime (budget.time less MARGIN) and/or nodes
                                            (budget.nodes); DEFAULT_LIMIT when neither
    quit                                    quit

A `move` answer carries PROGRAM's best move in SAN and its last `info` as stats: depth, nodes, score (centipawns
for the side to move; a mate in n moves is +-(WIN_SCORE - n)), pv (in SAN, as far as it is legal) and in `extra`
seldepth, nps, hashfull, tbhits, the program's own time in ms, and a mate distance when it saw one. The referee
replaces the times with its own measurements. UCI has no seed: a program that draws random numbers (Stockfish's
`Skill Level` below 20 does, seeded from the clock) may play differently with the same seed; so may any program
on a time budget.
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Mapping
from typing import IO, Any

from framework.engine import protocol
from framework.engine.protocol import PROTOCOL_VERSION
from framework.errors import cap_text
from framework.protocols import WIN_SCORE

#: The games a UCI program plays here (the OpenSpiel bridge's chess, whose notation is SAN).
GAMES = ("openspiel:chess",)
#: Milliseconds taken off a per-move time budget for the adapter's own work (the referee times the whole exchange).
MARGIN_MS = 30
#: The search of a `go` whose budget and clock give no limit (seconds of `movetime`).
DEFAULT_TIME = 1.0
#: Seconds PROGRAM has to answer `uci` and `isready`.
HANDSHAKE_TIMEOUT = 60.0
#: The escapes of a position text's body (OpenSpiel's serialization on one line: newlines written `\\n`).
_ESCAPES = re.compile(r"\\\\|\\n")
#: The fields of the referee's `clock` (the mover's: seconds left, increment in seconds, moves to go).
CLOCK_FIELDS = ("time", "inc", "movestogo")


class UciError(Exception):
    """What the adapter cannot do (a message it cannot map, an option PROGRAM refuses): sent as an `error`."""


def _chess() -> Any:
    try:
        import chess
        import chess.engine
    except ImportError:
        raise UciError("the UCI adapter needs python-chess, which is not installed: pip install chess") from None
    return chess


#: OpenSpiel's chess options that are standard chess, as a tournament resolves them (its declared defaults).
STANDARD = {"chess960": False}


def split_start(text: str | None) -> tuple[str | None, list[int]]:
    """The FEN (None: the standard start) and the OpenSpiel actions played since, of an `openspiel:chess`
    position text ("chess(): FEN: \\n" is the start; see plugins/games/openspiel_bridge/game.py)."""
    if text is None:
        return None, []
    head, colon, body = text.strip().partition(":")
    if not colon or not head.startswith("chess("):
        raise UciError(f"the start {text[:120]!r} is not a position of OpenSpiel's chess")
    head_params = head[len("chess("):].rstrip(")")
    if head_params:
        raise UciError(f"the start {text[:120]!r} is chess with the options {head_params!r}; the UCI adapter "
                       "plays standard chess only")
    lines = _ESCAPES.sub(lambda m: "\n" if m.group() == "\\n" else "\\", body.strip()).split("\n")
    if not lines[0].startswith("FEN:"):
        raise UciError(f"the start {text[:120]!r} has no FEN line")
    fen = lines[0][len("FEN:"):].strip() or None
    try:
        actions = [int(line) for line in lines[1:] if line.strip()]
    except ValueError:
        raise UciError(f"the start {text[:120]!r} has a line that is not an action") from None
    return fen, actions


def start_moves(fen: str | None, actions: list[int]) -> list[str]:
    """The SAN of OpenSpiel's chess `actions` played from `fen` (read by OpenSpiel, which numbers them)."""
    if not actions:
        return []
    import pyspiel

    game = pyspiel.load_game("chess")
    state = game.new_initial_state() if fen is None else game.new_initial_state(fen)
    moves = []
    for action in actions:
        if state.is_terminal() or action not in state.legal_actions():
            raise UciError(f"the start's action {action} is not legal in OpenSpiel's chess there")
        moves.append(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    return moves


def version_of(name: str) -> str:
    """The version in a UCI `id name` (its last word when that starts with a digit), else ""."""
    words = name.split()
    return words[-1] if len(words) > 1 and words[-1][:1].isdigit() else ""


def limit_of(message: Mapping[str, Any]) -> Any:
    """The `chess.engine.Limit` of a `go`: the clock's times when it carries them, else the budget's."""
    chess = _chess()
    clock = message.get("clock") or {}
    budget = message.get("budget") or {}
    if not isinstance(clock, dict) or not isinstance(budget, dict):
        raise UciError("a go whose clock or budget is not an object")
    if "time" in clock:
        for key in CLOCK_FIELDS:
            if key in clock and (isinstance(clock[key], bool) or not isinstance(clock[key], (int, float))):
                raise UciError(f"the clock's {key} is {clock[key]!r}, not a number")
        left, increment = float(clock["time"]), float(clock.get("inc", 0.0))
        return chess.engine.Limit(white_clock=left, black_clock=left, white_inc=increment, black_inc=increment,
                                  remaining_moves=int(clock["movestogo"]) if "movestogo" in clock else None)
    time, nodes = budget.get("time"), budget.get("nodes")
    if time is None and nodes is None:
        return chess.engine.Limit(time=DEFAULT_TIME)
    movetime = None if time is None else max(1, int(float(time) * 1000) - MARGIN_MS) / 1000
    return chess.engine.Limit(time=movetime, nodes=None if nodes is None else int(nodes))


def score_of(info: Mapping[str, Any], stats: dict[str, Any]) -> None:
    """The `info` score into `stats`: centipawns for the side to move, a mate in n as +-(WIN_SCORE - n)."""
    score = info.get("score")
    if score is None:
        return
    relative = score.relative
    mate = relative.mate()
    if mate is not None:
        stats["extra"]["mate"] = mate
        stats["score"] = WIN_SCORE - mate if mate > 0 else -WIN_SCORE - mate
    else:
        stats["score"] = float(relative.score())


def stats_of(board: Any, info: Mapping[str, Any]) -> dict[str, Any]:
    """A UCI program's last `info` as the protocol's stats (board: the position searched)."""
    stats: dict[str, Any] = {"extra": {"protocol": "uci"}}
    for key in ("depth", "nodes"):
        if isinstance(info.get(key), int):
            stats[key] = info[key]
    for key in ("seldepth", "nps", "hashfull", "tbhits"):
        if isinstance(info.get(key), int):
            stats["extra"][key] = info[key]
    if isinstance(info.get("time"), float):
        stats["extra"]["uci_time_ms"] = round(info["time"] * 1000)
    score_of(info, stats)
    pv, line = [], board.copy(stack=False)
    for move in info.get("pv", ()):
        if not line.is_legal(move):
            break
        pv.append(line.san(move))
        line.push(move)
    stats["pv"] = pv
    return stats


class Adapter:
    """One UCI program behind the protocol: started at `hello`, set up by `new`, asked by `go`."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.engine: Any = None
        self.game_key: object = None
        self.fen: str | None = None
        self.start: list[str] = []

    def hello(self) -> dict[str, Any]:
        chess = _chess()
        if self.engine is None:
            try:
                self.engine = chess.engine.SimpleEngine.popen_uci(self.command, timeout=HANDSHAKE_TIMEOUT,
                                                                  stderr=sys.stderr)
            except (OSError, chess.engine.EngineError, TimeoutError) as exc:
                raise UciError(f"cannot start the UCI program {' '.join(self.command)!r}: "
                               f"{exc or type(exc).__name__}") from None
        name = str(self.engine.id.get("name", os.path.basename(self.command[0])))
        return {"type": "hello", "protocol": PROTOCOL_VERSION, "engine": name, "version": version_of(name),
                "params": {"author": str(self.engine.id.get("author", "")), "protocol": "uci"}}

    def new(self, message: Mapping[str, Any]) -> None:
        chess = _chess()
        game = message.get("game")
        if game not in GAMES:
            raise UciError(f"a UCI program plays {' or '.join(GAMES)}, not {game!r}")
        options = message.get("options") or {}
        if not isinstance(options, dict) or any(STANDARD.get(k, object()) != v for k, v in options.items()):
            raise UciError(f"the UCI adapter plays standard chess ({STANDARD!r}), not the options {options!r}")
        params = message.get("params") or {}
        if not isinstance(params, dict):
            raise UciError(f"the participant's parameters {params!r} are not UCI options by name")
        options = self.engine.options
        unknown = [name for name in params if name not in options]
        if unknown:
            raise UciError(f"{self.engine.id.get('name', 'the program')} has no UCI option "
                           f"{', '.join(map(repr, unknown))}; it has {', '.join(sorted(options))}")
        try:
            self.engine.configure(params)
        except chess.engine.EngineError as exc:
            raise UciError(f"setoption refused: {exc}") from None
        self.fen, actions = split_start(message.get("start"))
        self.start = start_moves(self.fen, actions)
        self.game_key = object()   # python-chess sends ucinewgame before the first search of a new game object

    def ready(self) -> dict[str, Any]:
        self.engine.ping()
        return {"type": "readyok"}

    def board(self, message: Mapping[str, Any]) -> Any:
        """The position of a `go`: the game's start, its moves before it and the moves of the message."""
        chess = _chess()
        if message.get("start") is not None:
            self.fen, actions = split_start(str(message["start"]))
            self.start = start_moves(self.fen, actions)
        board = chess.Board() if self.fen is None else chess.Board(self.fen)
        for text in [*self.start, *(str(m) for m in message.get("moves", []))]:
            try:
                board.push_san(text)
            except ValueError:
                raise UciError(f"the move {text[:40]!r} is not legal SAN in {board.fen()}") from None
        return board

    def go(self, message: Mapping[str, Any]) -> dict[str, Any]:
        chess = _chess()
        board = self.board(message)
        result = self.engine.play(board, limit_of(message), game=self.game_key, info=chess.engine.INFO_ALL)
        if result.move is None or not board.is_legal(result.move):
            raise UciError(f"{self.engine.id.get('name', 'the program')} answered bestmove "
                           f"{result.move or '(none)'} in {board.fen()}")
        move = board.san(result.move)
        stats = stats_of(board, result.info)
        if stats["pv"][:1] != [move]:   # a weakened program (Skill Level) may play off its PV: the PV is its own line
            stats["extra"]["pv_move"] = stats["pv"][0] if stats["pv"] else ""
            stats["pv"] = [move]
        return {"type": "move", "move": move, "stats": stats}

    def answer(self, message: Mapping[str, Any]) -> dict[str, Any] | None:
        kind = message["type"]
        if kind == "hello":
            return self.hello()
        if self.engine is None:
            raise UciError(f"'{kind}' before 'hello'")
        if kind == "new":
            self.new(message)
            return None
        if kind == "isready":
            return self.ready()
        if kind == "go":
            return self.go(message)
        raise UciError(f"a UCI program cannot answer '{kind}' (it plays moves only)")

    def close(self) -> None:
        if self.engine is not None:
            try:
                self.engine.quit()
            except Exception:
                self.engine.close()


def serve(inbox: IO[bytes], outbox: IO[bytes], command: list[str]) -> int:
    """Answer the referee's messages until `quit` or the end of the input; PROGRAM is quit then."""
    adapter = Adapter(command)

    def answer(message: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return adapter.answer(message)
        except UciError as exc:
            return {"type": "error", "message": str(exc)}
        except Exception as exc:
            traceback.print_exc()
            return {"type": "error", "message": f"{type(exc).__name__}: {exc}",
                    "traceback": cap_text(traceback.format_exc())}

    try:
        return protocol.serve(inbox, outbox, answer)
    finally:
        adapter.close()


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python -m framework.engine.uci PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    return serve(sys.stdin.buffer, protocol.protocol_output(), argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
