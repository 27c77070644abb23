"""Game records in standard text formats: PGN-style for every game, PDN for draughts, JSON lines.

A record is the stored game (framework/tournament/store.py's `games` and `moves` rows) as tags
and moves. PGN (and PDN, its draughts form) tags: Event, Site, Date, Round, the players, Result,
Termination, the start position (`FEN`, with `SetUp "1"`: the game's own text format, which for a
game declaring `pdn_game_type` *is* PDN FEN) and the move time limit; each move is followed by a
`{...}` comment with its depth, nodes, time and score. PGN's `White` is seat 0 (the side that moves
first, as in chess); in PDN, as draughts software expects, `Black` is seat 0 and `White` seat 1. In both `1-0` means the
player named by the first of those tags (White in PGN; in PDN White, i.e. seat 1) won, `0-1` the
other, `1/2-1/2` a draw (PDN 3.0 follows PGN here). `parse_pgn` reads the files back.

Move numbers follow the seats, so a reader puts every move in its player's slot: seat 0's move is `N.`, any other
seat's `N...`, and N grows when a round begins (a seat moves that is not after the previous mover: a game of
dice may give one player several moves in a row). A roll of the dice is nobody's move, so it is no ply of the
movetext: it is a comment, `{rolled 4}`, before the move it leads to (or before the result, when the game ends on
it). A game of more than two seats names each move's player in its comment (`player 3`: the `Player3` tag) and
its Result gives each seat's points, the players with the best result sharing 1 (`0-1-0`, `1/2-0-1/2`).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from framework.capabilities import capabilities
from framework.errors import ConfigError
from framework.match import rolled
from framework.protocols import CHANCE, WIN_SCORE
from framework.registry import Registry, load_plugin_file
from framework.timecontrol import clock_text

FORMATS = ("pgn", "pdn", "jsonl")
#: How a roll of the dice reads in PGN: the comment `{rolled 4}` (the dice moved; nobody chose it) before the move
#: it leads to.
ROLL_COMMENT = rolled("")
#: Before Plyground numbered moves by seat, a roll was a ply with a comment: `3 {chance: rolled 3}` (still read).
OLD_CHANCE_COMMENT = "chance: "
DRAW = "1/2-1/2"


def format_score(score: float | None) -> str:
    """A search score for people: "win"/"loss" for proven results (within half WIN_SCORE of it), else 2 decimals."""
    if score is None:
        return "–"
    if score >= WIN_SCORE / 2:
        return "win"
    if score <= -WIN_SCORE / 2:
        return "loss"
    return f"{score:.2f}".rstrip("0").rstrip(".") if score != 0 else "0"


@dataclass(frozen=True)
class RecordMove:
    """One ply of a record: the notation, the seat that moved (None: not known, as in a parsed PGN), whether the
    dice moved (a chance ply: nobody chose it), and when known what the search reported."""

    move: str
    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    score: float | None = None
    pv: str = ""
    mover: int | None = None
    chance: bool = False
    binding: str | None = None      # how the search ran (framework.kernel.binding), when it said
    binding_reason: str | None = None   # why it did not run compiled, when it said
    clock: float | None = None      # seconds left on the mover's clock after the move (a time control's)


@dataclass(frozen=True)
class Record:
    """One game: its tags (in order) and moves; `start` is the position text (None: the initial state)."""

    tags: dict[str, str]
    moves: tuple[RecordMove, ...]
    start: str | None = None
    final: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def points_token(result: Sequence[float]) -> str:
    """The Result of a game of more than two seats: each seat's points, the best result's players sharing 1
    (`0-1-0`; `1/2-0-1/2` when seats 0 and 2 tie for first)."""
    leaders = [seat for seat, r in enumerate(result) if r == max(result)]
    share = "1" if len(leaders) == 1 else f"1/{len(leaders)}"
    return "-".join(share if seat in leaders else "0" for seat in range(len(result)))


def result_token(result_first: float, result_second: float, fmt: str) -> str:
    """The Result tag: 1-0 when the player named by the first tag (PGN White = seat 0; PDN White = seat 1) won."""
    if result_first == result_second:
        return DRAW
    first_won = result_first > result_second
    if fmt == "pdn":
        return "0-1" if first_won else "1-0"
    return "1-0" if first_won else "0-1"


def make_record(*, game: str, event: str, date: str, round: str, players: Sequence[str],
                result: Sequence[float] | None,
                termination: str, reason: str, start: str, final: str, moves: Sequence[RecordMove], fmt: str,
                key: str, pdn_type: int | None = None, time_control: str | None = None,
                pairing: Sequence[str] | None = None, extra: dict[str, Any] | None = None) -> Record:
    """The record of one game, whichever door played it (a tournament's store, a workbench session): every
    writer below reads only this, so every door writes the same record.

    Seats 0 and 1 are PGN's White and Black (PDN's Black and White); a game of more seats names the others in
    `Player3`, `Player4`, ... tags, its Result gives each seat's points (`points_token`) and a `Returns` tag its
    payoffs (PGN knows two players); an unfinished game's Result is `*`. `WhiteEngine`, `BlackEngine`,
    `Player3Engine`, ... name the engine each seat played from (name and version, from its handshake) when the
    store kept them (`extra["engines"]`). The JSON line holds the players and
    payoffs per seat, the winner's name (null: no single one) and the `pairing`: the participants of the
    tournament's pairing in the order its key names them (`a vs b vs c #0`: `["a", "b", "c"]`), whichever seats
    they took in this game; a game with no pairing (a workbench session) names its players in seat order."""
    first, second = ("Black", "White") if fmt == "pdn" else ("White", "Black")
    two = len(players) == 2
    tags = {"Event": event, "Site": "Plyground", "Date": date, "Round": round, first: players[0], second: players[1],
            **{f"Player{seat + 1}": name for seat, name in enumerate(players) if seat >= 2},
            "Result": "*" if result is None else result_token(result[0], result[1], fmt) if two else
            points_token(result), "Game": game,
            "Termination": termination, "SetUp": "1", "FEN": start}
    if not two and result is not None:
        tags["Returns"] = " ".join(f"{r:g}" for r in result)
    if fmt == "pdn":
        tags["GameType"] = str(pdn_type)
    if time_control is not None:
        tags["TimeControl"] = time_control
    if reason:
        tags["Reason"] = reason
    seat_tags = [first, second, *(f"Player{seat + 1}" for seat in range(2, len(players)))]
    for tag, engine in zip(seat_tags, (extra or {}).get("engines", ())):
        if engine.get("name"):   # the engine each seat played from, as its handshake named it
            tags[f"{tag}Engine"] = " ".join(filter(None, (engine["name"], engine.get("version"))))
    leaders = [] if result is None else [seat for seat, r in enumerate(result) if r == max(result)]
    winner = players[leaders[0]] if len(leaders) == 1 else None
    return Record(tags, tuple(moves), start, final, {
        "key": key, "pairing": list(players if pairing is None else pairing), "game": game, "players": list(players),
        "result": None if result is None else [float(r) for r in result], "winner": winner,
        "termination": termination, "plies": len(moves),
        **(extra or {})})


def records_from_results(results: Any, fmt: str, pdn_types: dict[str, int | None]) -> Iterator[Record]:
    """One Record per stored game of a `Results` (framework/analysis/tables.py), in the store's order."""
    meta = results.meta
    config = results.config
    created = meta.get("created_at")
    date = time.strftime("%Y.%m.%d", time.gmtime(created)) if created else "????.??.??"
    limit = config.get("move_time_limit")
    moves_by_key = {key: rows for key, rows in results.moves.groupby("key")}
    seats_by_key = {key: rows.sort_values("seat") for key, rows in results.seats.groupby("key")}
    for row in results.games.itertuples(index=False):
        rows = moves_by_key.get(row.key)
        moves = () if rows is None else tuple(stored_move(m) for m in rows.itertuples(index=False))
        seats = seats_by_key.get(row.key)
        if seats is not None and len(seats) >= 2:
            players, result = list(seats["participant"]), [float(r) for r in seats["result"]]
        else:   # a void game keeps no seats: its two named players, scoring nothing
            players, result = [row.first, row.second], [float(row.result_first), float(row.result_second)]
        yield make_record(game=row.game, event=str(config.get("name") or results.folder.name), date=date,
                          round=str(int(row.game_index) + 1), players=players, result=result,
                          termination=row.termination, reason=row.reason, start=row.start, final=row.final,
                          moves=moves, fmt=fmt, key=row.key, pdn_type=pdn_types[row.game],
                          time_control=None if limit is None else f"move_time_limit={limit}",
                          pairing=stored_pairing(row), extra={"seed": int(row.seed), **_engines(seats)})


def _engines(seats: Any) -> dict[str, Any]:
    """`engines`: each seat's engine as its handshake named it ({name, version}), when the store kept them."""
    if seats is None or "engine" not in seats.columns or not seats["engine"].map(lambda v: isinstance(v, str)).any():
        return {}
    return {"engines": [{"name": _text(name), "version": _text(version)}
                        for name, version in zip(seats["engine"], seats["engine_version"])]}


def stored_pairing(row: Any) -> list[str]:
    """The participants of a stored game's pairing, in its key's order (the store keeps the first id in
    `pairing_a` and the others joined by " vs " in `pairing_b`; ids hold no spaces)."""
    return [row.pairing_a, *str(row.pairing_b).split(" vs ")]


def stored_move(m: Any) -> RecordMove:
    """A row of the store's `moves` table as a record's ply (a chance ply has no search figures)."""
    if int(m.mover) == CHANCE:
        return RecordMove(m.move, mover=None, chance=True)
    score = None if m.score is None or m.score != m.score else float(m.score)
    clock = getattr(m, "clock", None)
    return RecordMove(m.move, int(m.depth), int(m.nodes), float(m.wall_time), score, m.pv, int(m.mover),
                      binding=_text(m.binding), binding_reason=_text(getattr(m, "binding_reason", None)),
                      clock=None if clock is None or clock != clock else float(clock))


def _text(value: Any) -> str | None:
    """A TEXT column's value as read back (pandas gives None or NaN for NULL)."""
    return value if isinstance(value, str) else None


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(m: RecordMove, seats: int) -> str:
    """A move's comment: its player in a game of more than two seats, and what its search reported."""
    parts = [f"player {m.mover + 1}"] if seats > 2 and m.mover is not None else []
    if m.depth is not None:
        parts.append(f"depth {m.depth}")
    if m.nodes is not None:
        parts.append(f"nodes {m.nodes}")
    if m.time is not None:
        parts.append(f"time {m.time:.3f}")
    if m.score is not None:
        parts.append(f"score {format_score(m.score)}")
    if m.pv:
        parts.append(f"pv {m.pv}")
    text = ", ".join(parts).replace("}", ")")
    if m.clock is not None:   # PGN's clock command: what was left after the move
        text = f"[%clk {clock_text(m.clock)}]" + (f" {text}" if text else "")
    return " {" + text + "}" if text else ""


def _seats(tags: dict[str, str]) -> int:
    """How many seats a record's tags name (White and Black, then Player3, Player4, ...)."""
    return 2 + sum(1 for name in tags if re.fullmatch(r"Player\d+", name))


def write_pgn(record: Record) -> str:
    """One game as PGN (or PDN: the same syntax) text, ending with a blank line: move numbers by seat, rolls of
    the dice as comments (see the module's docstring)."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags.items()]
    seats = _seats(record.tags)
    text: list[str] = []
    number, previous, decisions = 1, None, 0
    for m in record.moves:
        if m.chance:
            text.append("{" + rolled(m.move).replace("}", ")") + "}")
            continue
        seat = m.mover if m.mover is not None else decisions % seats
        decisions += 1
        if previous is not None and seat <= previous:
            number += 1
        previous = seat
        text.append(f"{number}{'.' if seat == 0 else '...'} {m.move}{_comment(replace(m, mover=seat), seats)}")
    text.append(record.tags.get("Result", "*"))
    return "\n".join(lines) + "\n\n" + _wrap(" ".join(text)) + "\n\n"


def _wrap(text: str, width: int = 79) -> str:
    """Movetext in lines of at most `width` characters (PGN's export format), breaking only between tokens."""
    out, line = [], ""
    for token in re.findall(r"\{[^}]*\}|\S+", text):
        if line and len(line) + 1 + len(token) > width:
            out.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    out.append(line)
    return "\n".join(out)


def write_json(record: Record) -> str:
    """One game as one line of strict JSON (no NaN or Infinity: a missing number is null), for pandas:
    `pd.read_json(file, lines=True)`."""
    return json.dumps({"tags": record.tags, "start": record.start, "final": record.final, **record.extra,
                       "moves": [asdict(m) for m in record.moves]}, allow_nan=False) + "\n"


_TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
_TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\S+")
_RESULTS = {"1-0", "0-1", DRAW, "*", "2-0", "0-2", "1-1"}
#: A game of more than two seats: each seat's points (`points_token`).
_POINTS = re.compile(r"(?:0|1|1/\d+)(?:-(?:0|1|1/\d+)){2,}")
_COMMENT_FIELD = re.compile(r"(player|depth|nodes|time|score|pv) ([^,]*)")
_NUMBER = re.compile(r"(\d+)(\.+)")
_CLOCK = re.compile(r"\[%clk (\d+):(\d\d):(\d\d(?:\.\d+)?)\]")


def parse_pgn(text: str) -> list[Record]:
    """Every game of a PGN/PDN text: tags, moves (with the search figures of their comments and their seats) and
    start.

    A game's movetext runs to the next tag section; only its last token is read as the result (`1-0`,
    `1/2-1/2`, `0-1-0`, ...), so a move written like one (Matches' `1-1`) stays a move. A move's seat is read from
    its number (`N.` seat 0, `N...` seat 1) or, in a game of more seats, its comment's `player`; a `{rolled 4}`
    comment is a chance ply of its own."""
    records: list[Record] = []
    tags: dict[str, str] = {}
    tokens: list[str] = []

    def finish() -> None:
        nonlocal tags, tokens
        if tokens and (tokens[-1] in _RESULTS or _POINTS.fullmatch(tokens[-1])):
            tokens.pop()
        moves: list[RecordMove] = []
        seat: int | None = None
        after_move = False   # the token before was a move (an old file's roll ply is one, then its comment)
        for token in tokens:
            if token.startswith("{"):
                comment = token[1:-1]
                if comment.startswith(ROLL_COMMENT):
                    moves.append(RecordMove(comment[len(ROLL_COMMENT):], chance=True))
                elif moves and after_move and comment.startswith(OLD_CHANCE_COMMENT):
                    moves[-1] = replace(moves[-1], chance=True, mover=None)
                elif moves and not moves[-1].chance:
                    moves[-1] = _with_comment(moves[-1], comment)
                after_move = False
                continue
            if token.startswith(";"):
                continue
            number = _NUMBER.match(token)
            if number is not None:
                seat = 0 if len(number[2]) == 1 else 1
                token = token[number.end():]
                if not token:
                    continue
            moves.append(RecordMove(token, mover=seat))
            seat, after_move = None, True
        if tags or moves:
            records.append(Record(tags, tuple(moves), tags.get("FEN")))
        tags, tokens = {}, []

    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            if tokens:
                finish()
            found = _TAG.fullmatch(stripped)
            if found is None:
                raise ConfigError(f"line {number}: '{stripped}' is not a tag pair; expected [Name \"value\"]")
            tags[found[1]] = re.sub(r"\\(.)", r"\1", found[2])
            continue
        tokens += _TOKEN.findall(stripped)
    finish()
    return records


def _with_comment(move: RecordMove, comment: str) -> RecordMove:
    fields = dict(_COMMENT_FIELD.findall(comment))
    score = fields.get("score")
    value = None if score is None else WIN_SCORE if score == "win" else -WIN_SCORE if score == "loss" else float(score)
    mover = int(fields["player"]) - 1 if "player" in fields else move.mover
    clk = _CLOCK.search(comment)
    clock = None if clk is None else int(clk[1]) * 3600 + int(clk[2]) * 60 + float(clk[3])
    return RecordMove(move.move, int(fields["depth"]) if "depth" in fields else None,
                      int(fields["nodes"]) if "nodes" in fields else None,
                      float(fields["time"]) if "time" in fields else None, value, fields.get("pv", ""), mover,
                      clock=clock)


def export(results: Any, fmt: str) -> Iterable[str]:
    """The text of every stored game of `results` in format `fmt` (pgn, pdn or jsonl)."""
    if fmt not in FORMATS:
        raise ConfigError(f"unknown record format '{fmt}'; choose one of {', '.join(FORMATS)}")
    types = {name: capabilities(game_for(results, name)).pdn_game_type for name in set(results.games["game"])}
    if fmt == "pdn" and None in types.values():
        others = ", ".join(sorted(name for name, kind in types.items() if kind is None))
        raise ConfigError(f"PDN is a draughts format, but these results hold {others} games; use --format pgn")
    for record in records_from_results(results, "pgn" if fmt == "jsonl" else fmt, types):
        yield write_json(record) if fmt == "jsonl" else write_pgn(record)


def game_for(results: Any, name: str) -> Any:
    """The game object a results folder played, with its options and the tournament's plugin files."""
    options = dict(next((o for n, o in results.config.get("games") or [] if n == name),
                        results.config.get("game_options") or {}))
    registry = Registry()
    for file in results.config.get("plugins") or []:
        load_plugin_file(registry, file)
    return registry.create_game(name, options)


def seating(results: Any, g: Any) -> str:
    """Who sat where in the stored game `g` (a row of `results.games`): "a – b", "a – b – c" (every seat, in order)."""
    seats = results.seats[results.seats["key"] == g.key].sort_values("seat")
    return " – ".join(seats["participant"]) if len(seats) >= 2 else f"{g.first} – {g.second}"


def replay_states(game: Any, start: str, moves: Sequence[str]) -> list[Any]:
    """The positions of a stored game: the start, then one after each move (MoveParseError at an illegal one)."""
    states = [game.from_text(start)]
    for move in moves:
        states.append(game.apply(states[-1], game.parse_move(states[-1], move)))
    return states
