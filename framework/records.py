"""Game records in standard text formats: PGN-style for every game, PDN for draughts, JSON lines.

A record is the stored game (framework/tournament/store.py's `games` and `moves` rows) as tags
and moves. PGN (and PDN, its draughts form) tags: Event, Site, Date, Round, the players, Result,
Termination, the start position (`FEN`, with `SetUp "1"`: the game's own text format, which for a
game declaring `pdn_game_type` *is* PDN FEN) and the move time limit; each move is followed by a
`{...}` comment with its depth, nodes, time and score. PGN's `White` is seat 0 (the side that moves
first, as in chess); in PDN, as draughts software expects, `Black` is seat 0 and `White` seat 1. In both `1-0` means the
player named by the first of those tags (White in PGN; in PDN White, i.e. seat 1) won, `0-1` the
other, `1/2-1/2` a draw (PDN 3.0 follows PGN here). `parse_pgn` reads the files back.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from framework.capabilities import capabilities
from framework.errors import ConfigError
from framework.protocols import WIN_SCORE
from framework.registry import Registry
from framework.tournament.config import load_plugin_file

FORMATS = ("pgn", "pdn", "jsonl")
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
    """One ply of a record: the notation and, when known, what the search reported."""

    move: str
    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    score: float | None = None
    pv: str = ""
    binding: str | None = None      # how the search ran (framework.kernel.binding), when it said


@dataclass(frozen=True)
class Record:
    """One game: its tags (in order) and moves; `start` is the position text (None: the initial state)."""

    tags: dict[str, str]
    moves: tuple[RecordMove, ...]
    start: str | None = None
    final: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def result_token(result_first: float, result_second: float, fmt: str) -> str:
    """The Result tag: 1-0 when the player named by the first tag (PGN White = seat 0; PDN White = seat 1) won."""
    if result_first == result_second:
        return DRAW
    first_won = result_first > result_second
    if fmt == "pdn":
        return "0-1" if first_won else "1-0"
    return "1-0" if first_won else "0-1"


def records_from_results(results: Any, fmt: str, pdn_types: dict[str, int | None]) -> Iterator[Record]:
    """One Record per stored game of a `Results` (framework/analysis/tables.py), in the store's order."""
    meta = results.meta
    config = results.config
    created = meta.get("created_at")
    date = time.strftime("%Y.%m.%d", time.gmtime(created)) if created else "????.??.??"
    limit = config.get("move_time_limit")
    moves_by_key = {key: rows for key, rows in results.moves.groupby("key")}
    for row in results.games.itertuples(index=False):
        rows = moves_by_key.get(row.key)
        moves = () if rows is None else tuple(
            RecordMove(m.move, int(m.depth), int(m.nodes), float(m.wall_time),
                       None if m.score is None or m.score != m.score else float(m.score), m.pv,
                       m.binding if isinstance(m.binding, str) else None)
            for m in rows.itertuples(index=False))
        first, second = ("Black", "White") if fmt == "pdn" else ("White", "Black")
        tags = {"Event": str(config.get("name") or results.folder.name), "Site": "Plyground", "Date": date,
                "Round": str(int(row.game_index) + 1), first: row.first, second: row.second,
                "Result": result_token(row.result_first, row.result_second, fmt), "Game": row.game,
                "Termination": row.termination, "SetUp": "1", "FEN": row.start}
        if fmt == "pdn":
            tags["GameType"] = str(pdn_types[row.game])
        if limit is not None:
            tags["TimeControl"] = f"move_time_limit={limit}"
        if row.reason:
            tags["Reason"] = row.reason
        yield Record(tags, moves, row.start, row.final, {"key": row.key, "pairing": [row.pairing_a, row.pairing_b],
                                                          "winner": row.winner, "plies": int(row.plies)})


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(m: RecordMove) -> str:
    parts = []
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
    return " {" + ", ".join(parts).replace("}", ")") + "}" if parts else ""


def write_pgn(record: Record) -> str:
    """One game as PGN (or PDN: the same syntax) text, ending with a blank line."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags.items()]
    text = []
    for i, m in enumerate(record.moves):
        number = f"{i // 2 + 1}. " if i % 2 == 0 else ""
        text.append(f"{number}{m.move}{_comment(m)}")
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
    """One game as one JSON line (for pandas: `pd.read_json(file, lines=True)`)."""
    return json.dumps({"tags": record.tags, "start": record.start, "final": record.final, **record.extra,
                       "moves": [m.__dict__ for m in record.moves]}) + "\n"


_TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
_TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\S+")
_RESULTS = {"1-0", "0-1", DRAW, "*", "2-0", "0-2", "1-1"}
_COMMENT_FIELD = re.compile(r"(depth|nodes|time|score|pv) ([^,]*)")


def parse_pgn(text: str) -> list[Record]:
    """Every game of a PGN/PDN text: tags, moves (with the search figures of their comments) and start."""
    records: list[Record] = []
    tags: dict[str, str] = {}
    moves: list[RecordMove] = []
    in_moves = False

    def finish() -> None:
        nonlocal tags, moves, in_moves
        if tags or moves:
            records.append(Record(tags, tuple(moves), tags.get("FEN")))
        tags, moves, in_moves = {}, [], False

    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            if in_moves:
                finish()
            found = _TAG.fullmatch(stripped)
            if found is None:
                raise ConfigError(f"line {number}: '{stripped}' is not a tag pair; expected [Name \"value\"]")
            tags[found[1]] = re.sub(r"\\(.)", r"\1", found[2])
            continue
        if not stripped:
            continue
        in_moves = True
        for token in _TOKEN.findall(stripped):
            if token.startswith("{"):
                if moves:
                    moves[-1] = _with_comment(moves[-1], token[1:-1])
            elif token.startswith(";") or re.fullmatch(r"\d+\.+", token):
                continue
            elif token in _RESULTS:
                finish()
            else:
                moves.append(RecordMove(re.sub(r"^\d+\.+", "", token)))
    finish()
    return records


def _with_comment(move: RecordMove, comment: str) -> RecordMove:
    fields = dict(_COMMENT_FIELD.findall(comment))
    score = fields.get("score")
    value = None if score is None else WIN_SCORE if score == "win" else -WIN_SCORE if score == "loss" else float(score)
    return RecordMove(move.move, int(fields["depth"]) if "depth" in fields else None,
                      int(fields["nodes"]) if "nodes" in fields else None,
                      float(fields["time"]) if "time" in fields else None, value, fields.get("pv", ""))


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


def replay_states(game: Any, start: str, moves: Sequence[str]) -> list[Any]:
    """The positions of a stored game: the start, then one after each move (MoveParseError at an illegal one)."""
    states = [game.from_text(start)]
    for move in moves:
        states.append(game.apply(states[-1], game.parse_move(states[-1], move)))
    return states
