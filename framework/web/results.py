"""Results folders in the browser: standings, crosstable, tables as CSV, the report's plots, game replay with
charts, and the live feed (finished games from the store, games in progress from the run's live file).

A `Library` is the folder given to `plyground serve --results`: one results folder, or a folder
holding several; pages name a folder by its directory name and nothing else, so a request cannot
reach outside it. Stores are read while a tournament may be writing them (SQLite WAL mode allows
readers beside the writer).
"""

from __future__ import annotations

import json
import math
import sqlite3
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException

from framework.analysis.tables import Results
from framework.errors import PlygroundError
from framework.match import rolled
from framework.protocols import CHANCE
from framework.records import format_score, game_for, replay_states, seating
from framework.tournament.live import LIVE, read_live
from framework.tournament.store import DATABASE
from framework.tuning.report import TuneReport
from framework.web import pages
from framework.web.charts import clip, evaluation

#: The last finished games the live page lists.
RECENT = 10


class Library:
    """The results folders under one directory (or that directory itself, when it is a results folder)."""

    def __init__(self, root: str | Path | None) -> None:
        self.root = None if root is None else Path(root)

    def folders(self) -> dict[str, Path]:
        if self.root is None or not self.root.is_dir():
            return {}
        found = {}
        if (self.root / DATABASE).exists():
            found[self.root.name] = self.root
        for child in sorted(self.root.iterdir()):
            if child.is_dir() and (child / DATABASE).exists():
                found[child.name] = child
        return found

    def names(self) -> list[str]:
        return list(self.folders())

    def open(self, name: str) -> Path:
        folders = self.folders()
        if name not in folders:
            known = ", ".join(folders) or "none (start the server with --results DIR)"
            raise HTTPException(404, f"no results folder '{name}'; known: {known}")
        return folders[name]


def _load(folder: Path) -> Results:
    try:
        return Results(folder)
    except PlygroundError as exc:
        raise HTTPException(404, str(exc)) from None


def index_body(library: Library) -> str:
    items = "".join(f'<li><a href="/results/{escape(n)}">{escape(n)}</a> · <a href="/results/{escape(n)}/live">live'
                    f'</a></li>' for n in library.names())
    return f"<h1>Results</h1><ul>{items or '<li>none: start the server with --results DIR</li>'}</ul>"


def results_body(folder: Path) -> str:
    """Standings (Elo ± 95% interval), crosstable, the other tables (filterable, as CSV) and the games."""
    results = _load(folder)
    name = escape(folder.name)
    head = f'<h1>{name}</h1><p><a href="/results/{name}/live">live view</a></p>'
    if results.mode == "solve":
        return head + "".join(f"<h2>{escape(k)}</h2>{pages.table(v, k, _csv(folder, k))}"
                              for k, v in results.tables().items())
    if results.mode == "tune":   # final values, the validation match, every iteration, the plots
        tuning = TuneReport(results)
        notes = "".join(f"<p>{escape(line)}</p>" for line in (tuning.validation, tuning.warning) if line)
        return "".join([head, "<h2>Final values</h2>", pages.table(tuning.final(), "final", _csv(folder, "final")),
                        notes, _plots(folder), "<h2>Iterations</h2>",
                        pages.table(tuning.tuning, "tuning", _csv(folder, "tuning")),
                        "<h2>Games</h2>", _game_list(folder.name, results.games)])
    if results.multiplayer:   # points, ratings, who finished ahead of whom, wins per seat: no pairs of two
        tables = results.tables()
        titles = {"standings": "Standings", "ratings": "Ratings", "ahead": "Finished ahead",
                  "seat_wins": "Wins per seat", "terminations": "Terminations", "search_stats": "Search stats"}
        return "".join([head, *(f"<h2>{title}</h2>"
                                f"{pages.table(tables[key], key, _csv(folder, key), index=key == 'ahead')}"
                                for key, title in titles.items()),
                        "<h2>Games</h2>", _game_list(folder.name, results.games, seats=results.seats),
                        _plots(folder)])
    body = [head, "<h2>Standings</h2>", pages.table(_standings(results), "standings", _csv(folder, "standings")),
            "<h2>Crosstable</h2>",
            pages.table(results.crosstable(), "crosstable", _csv(folder, "crosstable"), index=True)]
    for key in ("pairs", "terminations", "forfeits", "search_stats"):
        title = escape(key.replace("_", " "))
        body.append(f"<h2>{title}</h2>{pages.table(results.tables()[key], key, _csv(folder, key))}")
    body.append("<h2>Games</h2>" + _game_list(folder.name, results.games))
    body.append(_plots(folder))
    return "".join(body)


def _plots(folder: Path) -> str:
    """The report's PNGs in the folder (none before `plyground report` ran)."""
    plots = sorted(p.name for p in folder.glob("*.png"))
    name = escape(folder.name)
    return "<h2>Plots</h2>" + "".join(
        f'<figure><img src="/results/{name}/plots/{escape(quote(p))}" alt="{escape(p)}">'
        f'<figcaption>{escape(p)}</figcaption></figure>' for p in plots) if plots else ""


def plot_file(folder: Path, name: str) -> Path:
    """A PNG the report wrote into `folder` (`plyground report`); 404 for any other path, however spelled."""
    path = (folder / name).resolve()
    if path.suffix != ".png" or path.parent != folder.resolve() or not path.is_file():
        raise HTTPException(404, f"no plot '{name}' in '{folder.name}'; run 'plyground report' on it to draw them")
    return path


def _csv(folder: Path, table: str) -> str:
    return f"/results/{folder.name}/tables/{table}.csv"


def _standings(results: Results) -> Any:
    table = results.standings().copy()
    table["elo"] = [f"{e:+.0f} ± {c:.0f}" if e == e and c == c else "" for e, c in zip(table["elo"], table["elo_ci95"])]
    return table.drop(columns=["elo_ci95"])


def _game_list(run: str, games: Any, limit: int | None = None, seats: Any = None) -> str:
    """The games, linked to their replay; `seats` (the store's seats table) names every seat of a game of more
    than two players."""
    rows = games.sort_values("finished_at", ascending=False) if limit else games
    if limit:
        rows = rows.head(limit)
    seated = {} if seats is None else {key: " – ".join(group.sort_values("seat")["participant"])
                                       for key, group in seats.groupby("key")}
    items = []
    for g in rows.itertuples(index=False):
        result = "draw" if g.winner is None or g.winner != g.winner else f"{g.winner} wins"
        who = seated.get(g.key) or f"{g.first} – {g.second}"
        items.append(f'<li><a href="/results/{escape(run)}/games/{escape(quote(g.key, safe=""))}">{escape(who)}</a> '
                     f'({escape(g.game)}, {g.plies} plies): {escape(result)} '
                     f'<span class="muted">{escape(g.termination)}</span></li>')
    return f'<ul class="games">{"".join(items)}</ul>'


def table_csv(folder: Path, name: str) -> str:
    results = _load(folder)
    tables = TuneReport(results).tables() if results.mode == "tune" else results.tables()
    if name not in tables:
        raise HTTPException(404, f"no table '{name}'; tables: {', '.join(tables)}")
    return tables[name].to_csv(index=name in ("crosstable", "ahead"))


def replay_body(folder: Path, key: str) -> str:
    """Every position of one game (shown one at a time by replay.js), the moves with PV, and the charts."""
    results = _load(folder)
    rows = results.games[results.games["key"] == key]
    if not len(rows):
        raise HTTPException(404, f"no game '{key}' in '{folder.name}'")
    g = next(rows.itertuples(index=False))
    moves = results.moves[results.moves["key"] == key].sort_values("ply")
    game = game_for(results, g.game)
    try:
        states = replay_states(game, g.start, list(moves["move"]))
    except PlygroundError as exc:
        raise HTTPException(422, f"game '{key}' does not replay: {exc}") from None
    played = list(moves.itertuples(index=False))
    frames = "".join(f'<div class="frame" data-ply="{i}"{"" if i == 0 else " hidden"}>'
                     f'{pages.board(game, s, rolled=pages.last_roll(played[i - 1:i]))}</div>'
                     for i, s in enumerate(states))
    items = []
    for m in moves.itertuples(index=False):
        if m.mover == CHANCE:   # the dice moved: nobody chose it
            items.append(f'<li data-ply="{m.ply}" class="chance"><span class="move roll">{escape(rolled(m.move))}'
                         f'</span></li>')
            continue
        score = None if m.score is None or m.score != m.score else m.score
        items.append(f'<li data-ply="{m.ply}"><b>{escape(game.player_names[m.mover])}</b> '
                     f'<span class="move">{escape(m.move)}</span> <span class="stats">depth {m.depth} · nodes '
                     f'{m.nodes:,} · {m.wall_time:.3f}s · score {escape(format_score(score))}'
                     f'{" · pv " + escape(m.pv) if m.pv else ""}</span></li>')
    movers = list(moves["mover"])
    scores = [None if s is None or s != s else float(s) for s in moves["score"]]
    charts = (evaluation(scores, movers, game.player_names)
              + chart("nodes", [float(n) for n in moves["nodes"]], movers, log=True)
              + chart("time", [float(t) for t in moves["wall_time"]], movers)
              + chart("score", clip(scores), movers))
    result = "draw" if g.winner is None or g.winner != g.winner else f"{g.winner} wins"
    return (f'<h1>{escape(seating(results, g))}</h1><p id="result">{escape(result)} — '
            f'{escape(g.termination)}{": " + escape(g.reason) if g.reason else ""}</p>'
            f'<div class="replay" data-plies="{len(states) - 1}"><div class="left">{frames}'
            f'<p class="controls"><button type="button" id="first">«</button><button type="button" id="prev">◀</button>'
            f'<span id="ply">ply 0 / {len(states) - 1}</span><button type="button" id="next">▶</button>'
            f'<button type="button" id="last">»</button> <span class="muted">(arrow keys too)</span></p></div>'
            f'<div class="right"><div class="charts">{charts}</div><ol id="moves">{"".join(items)}</ol></div></div>'
            f'<p><a href="/results/{escape(folder.name)}">back to the results</a></p>')


def chart(name: str, values: list[float | None], movers: list[int], log: bool = False) -> str:
    """An inline SVG chart: one point per move (each seat coloured apart), its line per seat; a roll of the dice
    (mover CHANCE) has no point."""
    width, height, pad = 320, 90, 4
    shown = [None if v is None else (math.log10(v + 1) if log else v) for v in values]
    known = [v for v in shown if v is not None]
    low, high = (min(known + [0.0]), max(known + [0.0])) if known else (0.0, 1.0)
    if high == low:
        high = low + 1
    n = max(len(values), 1)

    def xy(i: int, v: float | None) -> tuple[float, float]:
        x = pad + (width - 2 * pad) * (i + 0.5) / n
        y = height - pad - (height - 2 * pad) * (((low if v is None else v) - low) / (high - low))
        return round(x, 1), round(y, 1)

    lines, points = [], []
    for seat in sorted(set(movers) - {CHANCE}):
        path = " ".join(f"{x},{y}" for i, v in enumerate(shown) if movers[i] == seat and v is not None
                        for x, y in [xy(i, v)])
        if path:
            lines.append(f'<polyline class="series-{seat}" fill="none" points="{path}"/>')
    for i, v in enumerate(shown):
        if movers[i] == CHANCE:
            continue
        x, y = xy(i, v)
        label = "–" if values[i] is None else f"{values[i]:.4g}"
        points.append(f'<circle class="point series-{movers[i]}{" missing" if v is None else ""}" cx="{x}" cy="{y}" '
                      f'r="3" data-ply="{i + 1}"><title>ply {i + 1}: {escape(label)}</title></circle>')
    axis = xy(0, 0.0)[1]
    zero = "" if not low < 0 < high else f'<line class="axis" x1="0" x2="{width}" y1="{axis}" y2="{axis}"/>'
    return (f'<figure><figcaption>{escape(name)}{" (log scale)" if log else ""}</figcaption>'
            f'<svg id="chart-{escape(name)}" class="chart" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}">{zero}{"".join(lines)}{"".join(points)}</svg></figure>')


def change_mark(folder: Path) -> tuple[int, float]:
    """(games stored, latest finish time): changes whenever a game is stored; read without locking the writer."""
    try:
        conn = sqlite3.connect(f"file:{folder / DATABASE}?mode=ro", uri=True)
        try:
            count, latest = conn.execute("SELECT COUNT(*), COALESCE(MAX(finished_at), 0) FROM games").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return (-1, 0.0)
    return int(count), float(latest)


def live_fragment(folder: Path) -> str:
    """The live page's changing part: games stored, standings and the last finished games."""
    try:
        results = Results(folder)
    except PlygroundError as exc:
        return f'<p class="muted">{escape(str(exc))}</p>'
    planned = results.config.get("participants")
    standings = results.seat_standings() if results.multiplayer else _standings(results)
    return (f'<p id="count">{len(results.games)} games finished</p>'
            f'{pages.table(standings, "standings", _csv(folder, "standings"))}<h2>Last finished games</h2>'
            f'{_game_list(folder.name, results.games, RECENT, results.seats)}'
            f'<script type="application/json" id="live-data">'
            f'{json.dumps({"games": len(results.games), "participants": len(planned or [])})}</script>')


def live_mark(folder: Path) -> tuple[int, int] | None:
    """Changes whenever the run rewrites its live file (None: no file)."""
    try:
        info = (folder / LIVE).stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


def playing_fragment(folder: Path, games: dict[str, Any]) -> str:
    """The games in progress: players, plies, last move and board. `games` caches the game objects by name."""
    items = []
    for g in read_live(folder):
        try:
            if g["game"] not in games:
                games[g["game"]] = game_for(Results(folder), g["game"])
            board = pages.board(games[g["game"]], games[g["game"]].from_text(g["position"]))
        except PlygroundError:
            board = f'<pre class="board-text">{escape(str(g["position"]))}</pre>'
        last = f' · last move <span class="move">{escape(str(g["last_move"]))}</span>' if g["last_move"] else ""
        items.append(f'<li class="in-progress" data-key="{escape(g["key"])}"><p><b>'
                     f'{escape(" – ".join(g["players"]))}</b> ({escape(g["game"])}): {g["plies"]} plies{last}; '
                     f'{escape(g["to_move"])} to move</p>{board}</li>')
    if not items:
        return '<p id="playing-count" class="muted">No game in progress.</p>'
    return f'<p id="playing-count">{len(items)} in progress</p><ul class="playing">{"".join(items)}</ul>'


def live_body(folder: Path) -> str:
    return (f'<h1>Live: {escape(folder.name)}</h1><p class="muted">Updates as games are played (server-sent '
            f'events).</p><div id="live" data-events="/results/{escape(folder.name)}/events">{live_fragment(folder)}'
            f'</div><h2>In progress</h2><div id="playing">{playing_fragment(folder, {})}</div>')
