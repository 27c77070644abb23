"""The workbench's routes (Starlette): the start page, play sessions, results, replay and the live feed.

Every request parameter is checked; a bad one is a 4xx page (or fragment) naming it, never a
500 with a traceback. Searches run in guarded workers from a thread (framework/tournament/engine.py),
so the event loop only renders pages.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from framework.capabilities import capabilities
from framework.errors import ConfigError, PlygroundError
from framework.records import write_json, write_pgn
from framework.tournament.engine import EnginePool
from framework.web import pages, results
from framework.web.play import PlaySession, make_registry, new_session, seat_count

STATIC = Path(__file__).with_name("static")
#: Most sessions kept; the oldest is dropped past it (a session is a few positions, but tabs accumulate).
MAX_SESSIONS = 200
#: Seconds between two looks at a results store by the live feed.
POLL = 0.5


async def fields_of(request: Request) -> list[tuple[str, str]]:
    """The fields of a url-encoded form (the only kind the pages send), in order, repeated ones included."""
    body = await request.body()
    try:
        return parse_qsl(body.decode("utf-8"), keep_blank_values=True)
    except UnicodeDecodeError:
        raise ConfigError("the form is not UTF-8 text") from None


async def form_of(request: Request) -> dict[str, str]:
    """The fields of a url-encoded form; the last value of a repeated field wins."""
    return dict(await fields_of(request))


def event(name: str, data: str) -> str:
    """A server-sent event; a line of `data` per line of text (the browser joins them with newlines again)."""
    return f"event: {name}\n" + "".join(f"data: {line}\n" for line in data.split("\n")) + "\n"


def create_app(results_dir: str | Path | None = None, plugins: tuple[str, ...] = (),
               pool: EnginePool | None = None) -> Starlette:
    """The ASGI application; `results_dir` is a results folder or a folder of them (None: no results pages)."""
    registry = make_registry(plugins)
    pool = pool or EnginePool()
    sessions: dict[str, PlaySession] = {}
    locks: dict[str, asyncio.Lock] = {}
    library = results.Library(results_dir)

    def session_of(request: Request) -> PlaySession:
        sid = request.path_params["sid"]
        if sid not in sessions:
            raise HTTPException(404, f"no game '{sid}' on this server (it may have restarted); start a new game")
        return sessions[sid]

    def start_page(form: dict[str, str], seats: list[str], message: str = "") -> str:
        """The start page with one seat selector per player of the form's game and options."""
        return pages.index(sorted(registry.games), sorted(registry.agents), form, message, library.names(),
                           seats, seat_count(registry, form))

    async def index(request: Request) -> HTMLResponse:
        return HTMLResponse(start_page(dict(request.query_params), request.query_params.getlist("seat")))

    async def create(request: Request) -> Response:
        fields = await fields_of(request)
        form = dict(fields)
        seats = [value for name, value in fields if name == "seat"]
        try:
            session = new_session(registry, form, seats, plugins)
            await anyio.to_thread.run_sync(session.build, pool)
        except PlygroundError as exc:
            return HTMLResponse(start_page(form, seats, str(exc)), status_code=400)
        while len(sessions) >= MAX_SESSIONS:
            oldest = next(iter(sessions))
            sessions.pop(oldest).close()
            locks.pop(oldest, None)
        sessions[session.id] = session
        locks[session.id] = asyncio.Lock()
        return RedirectResponse(f"/play/{session.id}", status_code=303)

    async def play(request: Request) -> HTMLResponse:
        return HTMLResponse(pages.play_page(session_of(request)))

    async def act(request: Request) -> HTMLResponse:
        """One action on a session; answers the re-rendered panel (4xx with the message when refused)."""
        session = session_of(request)
        action = request.path_params["action"]
        form = await form_of(request)
        lock = locks[session.id]
        if lock.locked() and action in ("move", "engine", "undo", "resign"):
            return HTMLResponse(pages.panel(session, "the engine is still thinking; wait for its move"), 409)
        async with lock:
            try:
                if action == "move":
                    text = str(form.get("move", "")).strip()
                    if not text:
                        raise ConfigError("type a move, or click the board")
                    await anyio.to_thread.run_sync(session.human_move, text)
                elif action == "engine":
                    await anyio.to_thread.run_sync(session.engine_move)
                elif action == "undo":
                    session.undo()
                elif action == "flip":
                    session.flipped = not session.flipped
                elif action == "resign":
                    session.resign()
                else:
                    raise HTTPException(404, f"unknown action '{action}'; use move, engine, undo, flip or resign")
            except PlygroundError as exc:
                return HTMLResponse(pages.panel(session, str(exc)), 400)
        return HTMLResponse(pages.panel(session))

    async def record(request: Request) -> Response:
        """The session's game as the record `plyground export` writes: record.jsonl, or record.pgn (PDN for a
        draughts game)."""
        session = session_of(request)
        fmt = request.path_params["fmt"]
        if fmt == "pgn":
            kind = "pdn" if capabilities(session.game).pdn_game_type is not None else "pgn"
            text = write_pgn(session.record(kind))
        elif fmt == "jsonl":
            text = write_json(session.record("jsonl"))
        else:
            raise HTTPException(404, f"no record format '{fmt}'; download record.jsonl or record.pgn")
        kind = "application/x-ndjson" if fmt == "jsonl" else "application/x-chess-pgn"
        disposition = f'attachment; filename="{session.game_name}-{session.id}.{fmt}"'
        return PlainTextResponse(text, media_type=kind, headers={"Content-Disposition": disposition})

    async def results_index(request: Request) -> HTMLResponse:
        return HTMLResponse(pages.layout("Results", results.index_body(library)))

    async def results_page(request: Request) -> HTMLResponse:
        folder = library.open(request.path_params["run"])
        body = await anyio.to_thread.run_sync(results.results_body, folder)
        return HTMLResponse(pages.layout(folder.name, body, "results.js"))

    async def table_csv(request: Request) -> Response:
        folder = library.open(request.path_params["run"])
        text = await anyio.to_thread.run_sync(results.table_csv, folder, request.path_params["table"])
        return PlainTextResponse(text, media_type="text/csv")

    async def plot(request: Request) -> FileResponse:
        folder = library.open(request.path_params["run"])
        return FileResponse(results.plot_file(folder, request.path_params["name"]), media_type="image/png")

    async def replay(request: Request) -> HTMLResponse:
        folder = library.open(request.path_params["run"])
        body = await anyio.to_thread.run_sync(results.replay_body, folder, request.path_params["key"])
        return HTMLResponse(pages.layout(f"Replay · {folder.name}", body, "replay.js"))

    async def live(request: Request) -> HTMLResponse:
        folder = library.open(request.path_params["run"])
        body = await anyio.to_thread.run_sync(results.live_body, folder)
        return HTMLResponse(pages.layout(f"Live · {folder.name}", body, "live.js"))

    async def events(request: Request) -> StreamingResponse:
        folder = library.open(request.path_params["run"])

        async def stream() -> AsyncIterator[str]:
            seen: Any = None
            seen_live: Any = ()
            games: dict[str, Any] = {}   # the game objects of the games in progress, by name
            while not await request.is_disconnected():
                mark = await anyio.to_thread.run_sync(results.change_mark, folder)
                if mark != seen:
                    seen = mark
                    fragment = await anyio.to_thread.run_sync(results.live_fragment, folder)
                    yield event("standings", fragment)
                live_mark = results.live_mark(folder)
                if live_mark != seen_live:
                    seen_live = live_mark
                    fragment = await anyio.to_thread.run_sync(results.playing_fragment, folder, games)
                    yield event("playing", fragment)
                await asyncio.sleep(POLL)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    async def http_error(request: Request, exc: Exception) -> HTMLResponse:
        status = exc.status_code if isinstance(exc, HTTPException) else 400
        detail = exc.detail if isinstance(exc, HTTPException) else str(exc)
        return HTMLResponse(pages.error_page(status, str(detail)), status_code=status)

    async def server_error(request: Request, exc: Exception) -> HTMLResponse:
        return HTMLResponse(pages.error_page(500, f"{type(exc).__name__}: {exc}"), status_code=500)

    routes = [
        Route("/", index), Route("/play", create, methods=["POST"]),
        Route("/play/{sid}", play), Route("/play/{sid}/record.{fmt}", record),
        Route("/play/{sid}/{action}", act, methods=["POST"]),
        Route("/results", results_index), Route("/results/{run}", results_page),
        Route("/results/{run}/tables/{table}.csv", table_csv), Route("/results/{run}/plots/{name}", plot),
        Route("/results/{run}/games/{key:path}", replay),
        Route("/results/{run}/live", live), Route("/results/{run}/events", events),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Any] = {HTTPException: http_error, PlygroundError: http_error, Exception: server_error}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        pool.close()

    return Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
