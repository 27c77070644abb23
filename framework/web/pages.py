"""HTML for the workbench, rendered on the server: whole pages and the fragments the scripts swap in.

Every text that comes from a user, a plugin or a results folder goes through `escape`. Boards come
from the game's `render_svg` capability, or its text `render` in a <pre> when it has none.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import urlencode

from framework.capabilities import capabilities
from framework.match import rolled, seat_names
from framework.protocols import CHANCE, Game, State
from framework.records import format_score
from framework.web.charts import evaluation
from framework.web.play import DEFAULT_COACH_TIME, DEFAULT_MOVE_TIME, PlaySession


def layout(title: str, body: str, script: str | None = None) -> str:
    tag = f'<script src="/static/{script}" defer></script>' if script else ""
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)} · Plyground</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
            f'<link rel="stylesheet" href="/static/style.css">{tag}</head><body>'
            f'<nav><a href="/">Plyground</a> <a href="/">new game</a> <a href="/results">results</a></nav>'
            f'<main>{body}</main></body></html>')


def error_page(status: int, message: str) -> str:
    return layout("Error", f'<h1>Error {status}</h1><p class="error" id="message">{escape(message)}</p>'
                           '<p><a href="/">Back to the start page</a></p>')


def board(game: Game, state: State, flipped: bool = False, rolled: str | None = None) -> str:
    """The game's SVG board, or its text rendering when the game draws no SVG; `rolled`: the dice's outcome that
    led to `state` (its notation), for a game with dice to show (`render_svg`'s `rolled`)."""
    draw = capabilities(game).render_svg
    if draw is not None:
        takes_roll = rolled is not None and "rolled" in inspect.signature(draw).parameters
        svg = draw(state, flipped=flipped, rolled=rolled) if takes_roll else draw(state, flipped=flipped)
        return f'<div class="board-box">{svg}</div>'
    return f'<pre class="board-text">{escape(game.render(state))}</pre>'


def index(games: Sequence[str], agents: Sequence[str], form: Mapping[str, str], message: str = "",
          folders: Sequence[str] = (), seats: Sequence[str] = (), players: int = 2,
          families: Sequence[str] = ()) -> str:
    """The start page: the new-game form (refilled after an error, with the error above it), with one seat
    selector per player of the form's game and options (`players`; "Seats for this game" redraws them).

    The game is typed, not picked from a fixed menu: `games` (the registered games and the playable members of
    the game families) are suggestions, and a game family's member named otherwise is still accepted on submit.

    An empty seat plays what `plyground play` would: the agents plugins declare as its defaults."""
    def field(name: str, default: str = "") -> str:
        return escape(form.get(name, default))

    error = f'<p class="error" id="message">{escape(message)}</p>' if message else ""
    agent_list = ", ".join(escape(a) for a in agents)
    results = "".join(f'<li><a href="/results/{escape(f)}">{escape(f)}</a></li>' for f in folders)
    given = list(seats) or [form.get("first", ""), form.get("second", "")]
    seat_fields = "".join(
        f'<label>{escape(ordinal.capitalize())} seat <input name="seat" list="agent-names" '
        f'value="{escape(given[i] if i < len(given) else "")}" placeholder="NAME:key=value,... (empty: the default)">'
        f'</label>' for i, ordinal in enumerate(seat_names(players)))
    names = "".join(f'<option value="{escape(a)}">' for a in agents)
    family_help = (f"Games of a family are named FAMILY:NAME (families: {', '.join(escape(f) for f in families)}). "
                   if families else "")
    game_names = "".join(f'<option value="{escape(g)}">' for g in games)
    return layout("New game", f"""<h1>New game</h1>{error}
<form method="post" action="/play" id="new-game" class="form">
<label>Game <input name="game" list="game-names" value="{field("game")}" required autocomplete="off"
 placeholder="a game's name, e.g. {escape(games[0] if games else "")}"></label>
<datalist id="game-names">{game_names}</datalist>
<label>Game options <input name="options" value="{field("options")}" placeholder="key=value,key=value"></label>
<datalist id="agent-names">{names}</datalist>
<fieldset id="seats" data-players="{players}"><legend>Seats ({players} players)</legend>{seat_fields}</fieldset>
<label>Seconds per engine move <input name="time" value="{field("time")}" placeholder="{DEFAULT_MOVE_TIME:g}"></label>
<label>Coach (optional) <input name="coach" value="{field("coach")}" placeholder="NAME:key=value,..."></label>
<label>Coach seconds <input name="coach_time" value="{field("coach_time")}"
 placeholder="{DEFAULT_COACH_TIME:g}"></label>
<label>Start position (optional) <input name="position" value="{field("position")}"
 placeholder="the game's text format"></label>
<label>Dice seed (optional, for analysis) <input name="seed" value="{field("seed")}"
 placeholder="empty: a fresh one, a fair game"></label>
<button type="submit" id="play-button">Play</button>
<button type="submit" formmethod="get" formaction="/" formnovalidate id="seats-button">Seats for this game</button>
</form>
<p class="help">{family_help}A seat is an agent: {agent_list}. The interactive one is you, clicking or typing
moves. Changed the game or its options? "Seats for this game" redraws one seat per player. Dice are rolled by the
game's seeded stream, never chosen. Leave the dice seed empty for a fair game: its seed stays secret until the game
ends (then the record shows it, so the game replays). A seed you give fixes every roll in advance: good for
analysis (the same dice again), not for a game that should say who plays better.</p>
{f'<h2>Results</h2><ul>{results}</ul>' if results else ''}""")


def play_page(session: PlaySession) -> str:
    players = " vs ".join(escape(session.label(seat)) for seat in range(len(session.seats)))
    return layout(f"{session.game_name}", f'<h1>{escape(session.game_name)}: {players}</h1>'
                  f'<div id="panel" data-session="{escape(session.id)}">{panel(session)}</div>', "play.js")


def engine_line(played: Any) -> str:
    """Depth, nodes, time (in its worker), score and PV of an engine move."""
    e = played.engine
    if e is None:
        return ""
    pv = " ".join(e.pv)
    took = f"{e.wall_time * 1000:.1f} ms" if e.wall_time < 0.1 else f"{e.wall_time:.2f}s"   # a fast search is not 0.00s
    return (f'<span class="stats">depth {e.depth} · nodes {e.nodes:,} · {took} · score '
            f'{escape(format_score(e.score))}{" · pv " + escape(pv) if pv else ""}</span>')


def panel(session: PlaySession, message: str = "") -> str:
    """The part of the play page that changes after each action."""
    game, state = session.game, session.state
    result = session.result_text()
    if result is not None:
        status = f'<p id="result" class="result">{escape(result)}</p>'
        if session.details:
            status += (f'<details id="traceback" open><summary>Traceback</summary>'
                       f'<pre>{escape(session.details)}</pre></details>')
    else:
        who = session.label(session.mover)
        status = (f'<p id="status">{escape(who)} to move'
                  f'{"" if session.seats[session.mover].human else " (engine)"}</p>')
    legal = session.legal()
    buttons = "".join(f'<button type="button" data-action="move" data-move="{escape(n)}">{escape(n)}</button>'
                      for n, clicks in legal if not clicks)
    rows = []
    for i, played in enumerate(session.moves):
        if played.mover == CHANCE:   # the dice moved: nobody chose it
            rows.append(f'<li data-ply="{i + 1}" class="chance"><span class="move roll">'
                        f'{escape(rolled(played.move))}</span></li>')
            continue
        verdict = f'<div class="verdict">coach: {escape(played.verdict)}</div>' if played.verdict else ""
        rows.append(f'<li data-ply="{i + 1}"><b>{escape(game.player_names[played.mover])}</b> '
                    f'<span class="move">{escape(played.move)}</span> {engine_line(played)}{verdict}</li>')
    can_move = session.person_to_move()
    disabled = "" if can_move else "disabled"
    error = f'<p class="error" id="message">{escape(message)}</p>' if message else '<p id="message"></p>'
    data = json.dumps([[n, list(c)] for n, c in legal]).replace("</", "<\\/")
    return f"""<div class="play" data-engine-turn="{int(session.engine_to_move())}"
 data-position="{escape(game.to_text(state))}" data-version="{session.version}"
 data-last="{escape(json.dumps(last_clicks(session)))}">
<div class="left">{board(game, state, session.flipped, last_roll(session.moves))}</div>
<div class="right">{status}{error}
<form id="move-form" class="inline"><input name="move" id="move-input" autocomplete="off"
 placeholder="type a move" {disabled}><button type="submit" {disabled}>Move</button>
{buttons if can_move else ""}</form>
<div class="controls"><button type="button" data-action="undo">Undo</button>
<button type="button" data-action="flip">Flip board</button>
<button type="button" data-action="resign">Resign</button>
<a class="button" href="/?{escape(session_query(session))}">New game</a>
<a class="button" id="record-jsonl" href="/play/{escape(session.id)}/record.jsonl" download>Record (JSONL)</a>
<a class="button" id="record-pgn" href="/play/{escape(session.id)}/record.pgn" download>Record
 ({"PDN" if capabilities(game).pdn_game_type is not None else "PGN"})</a></div>
<ol id="moves">{"".join(rows)}</ol>
{evaluation([p.engine.score if p.engine else None for p in session.moves], [p.mover for p in session.moves],
            game.player_names)}
<details><summary>Position text</summary><code>{escape(game.to_text(state))}</code></details></div></div>
<script type="application/json" id="legal">{data}</script>"""


def last_roll(moves: Sequence[Any]) -> str | None:
    """The notation of the roll that led to the position after `moves` (objects with `mover` and `move`, the
    session's or the store's), None when the last move was a seat's."""
    return str(moves[-1].move) if moves and moves[-1].mover == CHANCE else None


def last_clicks(session: PlaySession) -> list[str]:
    """The squares of the last move a seat made (back over the rolls after it), for the board to highlight."""
    clicks = capabilities(session.game).move_clicks
    for i in range(len(session.moves) - 1, -1, -1):
        before = session.states[i]
        mover = session.game.to_move(before)
        if mover != CHANCE or i == 0:
            if clicks is None or mover == CHANCE:
                return []
            return list(clicks(before, session.game.parse_move(before, session.moves[i].move)))
    return []


def session_query(session: PlaySession) -> str:
    """The start page's query string refilling the form with this game's settings (a `seat` field per seat)."""
    fields = [("game", session.game_name),
              ("options", ",".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
                                   for k, v in session.options.items())),
              *(("seat", seat.spec) for seat in session.seats),
              ("time", f"{session.budget.time:g}" if session.budget.time else "")]
    if session.coach is not None:
        fields.append(("coach", session.coach.spec))
    return urlencode(fields)


def table(frame: Any, name: str, csv: str, index: bool = False) -> str:
    """A pandas DataFrame as an HTML table with a filter box (results.js filters rows) and its CSV link."""
    html = frame.to_html(index=index, classes="data", border=0, float_format=lambda v: f"{v:.3g}",
                         na_rep="", escape=True, table_id=f"table-{name}")
    return (f'<div class="table-box"><input class="filter" data-table="table-{escape(name)}" '
            f'placeholder="filter rows"> <a href="{escape(csv)}">CSV</a>{html}</div>')
