"""The workbench's routes (Starlette): the start page, play sessions, results, replay and the live feed.

Every request parameter is checked; a bad one is a 4xx page (or fragment) naming it, never a
500 with a traceback. Searches run in guarded workers from a thread (framework/tournament/engine.py),
so the event loop only renders pages.

It is a local server that runs engines, so `Guard` screens every request before a route sees it: a
`Host` that is not the address served is refused (400: DNS rebinding), so is a POST from another
site's page (`Origin`, 403: cross-site request forgery) and a body over MAX_BODY (413, before it is
read). At most `engines` searches run at once (a bounded thread limiter in front of the engine pool);
a few more wait, past them a request is refused with 429. Each search may map at most `memory_limit_mb`
beyond its worker, a tournament game's limit (an engine past it forfeits: crashed, MemoryError).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
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
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from framework.capabilities import capabilities
from framework.errors import ConfigError, PlygroundError
from framework.records import write_json, write_pgn
from framework.registry import Registry
from framework.tournament.config import DEFAULT_MEMORY_LIMIT_MB
from framework.tournament.engine import EnginePool
from framework.tournament.guard import Cancelled
from framework.web import pages, results
from framework.web.play import PlaySession, make_registry, new_session, seat_count

STATIC = Path(__file__).with_name("static")
#: Most sessions kept; the oldest is dropped past it (a session is a few positions, but tabs accumulate).
MAX_SESSIONS = 200
#: Seconds between two looks at a results store by the live feed.
POLL = 0.5
#: The actions that change a game: a page posts them with the version of the game it shows (stale: 409).
CHANGES = ("move", "engine", "undo", "resign")
#: The largest request body read: the pages send forms of a few hundred bytes.
MAX_BODY = 64 * 1024
#: Seconds a request's body may take to arrive, all of it (the pages' forms take milliseconds): a client that
#: trickles one in holds a connection no longer than this (408).
BODY_SECONDS = 10.0
#: The names of this machine a request may give as its Host, besides the address served (`--host`).
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: Searches run at once unless told otherwise (`plyground serve --engines`).
DEFAULT_ENGINES = 2
#: Requests that may wait for a search slot, per slot; past them a request is refused (429).
WAITING_PER_ENGINE = 4


def host_name(netloc: str) -> str | None:
    """The host of `host[:port]` (brackets of an IPv6 address dropped, lower case); None when it is no address."""
    try:
        return urlsplit(f"//{netloc}").hostname
    except ValueError:
        return None


class Guard:
    """ASGI middleware refusing what a local server must not answer: a foreign Host, a cross-site POST, a huge body.

    A foreign Host is 400 (a page of another site whose name was made to resolve to 127.0.0.1), a POST whose
    Origin is another site is 403 (a page elsewhere posting a move or a game), a body larger than MAX_BODY is
    413: at once when its Content-Length says so, else as soon as the bytes read pass it.
    """

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...]) -> None:
        self.app = app
        named = (f"[{h}]" if ":" in h and not h.startswith("[") else h for h in (*LOCAL_HOSTS, *hosts))  # --host ::1
        self.hosts = frozenset(filter(None, map(host_name, named)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        refusal = self.refusal(scope["method"], host, headers)
        if refusal is not None:
            status, message = refusal
            await HTMLResponse(pages.error_page(status, message), status_code=status)(scope, receive, send)
            return
        await self.app(scope, limited(receive), send)

    def refusal(self, method: str, host: str, headers: Headers) -> tuple[int, str] | None:
        """(status, message) when the request is refused before any route sees it."""
        if host_name(host) not in self.hosts:
            return 400, (f"this workbench answers requests for {', '.join(sorted(self.hosts))}, not for "
                         f"'{host}' (plyground serve --host names another address)")
        origin = headers.get("origin")
        if method not in ("GET", "HEAD", "OPTIONS") and origin is not None:
            parts = urlsplit(origin)
            if parts.netloc.lower() != host.lower() or parts.scheme not in ("http", "https"):
                return 403, f"a page of '{origin}' may not post to this workbench; use its own pages at {host}"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return 413, f"the request body is {length} bytes; the workbench reads at most {MAX_BODY:,}"
        return None


def limited(receive: Receive) -> Receive:
    """`receive`, raising 413 once the body read passes MAX_BODY (a body sent without its length), and 408 when
    the body is not all there BODY_SECONDS after its first read (afterwards `receive` only waits for the client
    to leave, as a live feed does: no deadline then)."""
    seen = 0
    deadline: float | None = None
    complete = False

    async def guarded() -> Message:
        nonlocal seen, deadline, complete
        if complete:
            return await receive()
        if deadline is None:
            deadline = anyio.current_time() + BODY_SECONDS
        with anyio.move_on_after(max(0.0, deadline - anyio.current_time())) as waiting:
            message = await receive()
        if waiting.cancelled_caught:
            raise HTTPException(408, f"the request body did not arrive within {BODY_SECONDS:g} s; send the "
                                     "form again")
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise HTTPException(413, f"the request body is over {MAX_BODY:,} bytes, the most the workbench reads")
            complete = not message.get("more_body", False)
        else:
            complete = True
        return message

    return guarded


class Busy(Exception):
    """Every search slot is taken and enough requests wait for one: refused with 429."""


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


def game_names(registry: Registry) -> list[str]:
    """The games the new-game form suggests: every registered game, then every playable member of each game
    family as FAMILY:MEMBER (a family that cannot list its members, e.g. its library is missing, adds none)."""
    names = sorted(registry.games)
    for family, entry in sorted(registry.families.items()):
        try:
            members = entry.spec.members()
        except PlygroundError:
            continue
        names += sorted(f"{family}:{member}" for member, reason in members if not reason)
    return list(dict.fromkeys(names))


def create_app(results_dir: str | Path | None = None, plugins: tuple[str, ...] = (),
               pool: EnginePool | None = None, *, hosts: tuple[str, ...] = (),
               engines: int = DEFAULT_ENGINES, memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
               programs: bool = False) -> Starlette:
    """The ASGI application; `results_dir` is a results folder or a folder of them (None: no results pages).

    `hosts`: the address served besides this machine's own names; `engines`: searches that run at once;
    `memory_limit_mb`: what an engine's build or search may map beyond its worker (a tournament game's default);
    `programs`: whether a seat may be a program (`cmd:PROGRAM ARGS`), as `plyground play` allows."""
    if engines < 1:
        raise ConfigError(f"--engines must be at least 1, got {engines}")
    registry = make_registry(plugins)
    pool = pool or EnginePool(keep=engines)
    slots = anyio.CapacityLimiter(engines)
    sessions: dict[str, PlaySession] = {}
    locks: dict[str, asyncio.Lock] = {}
    library = results.Library(results_dir)
    stopping = threading.Event()   # set on Ctrl-C: live feeds end, so the server need not wait for them
    suggested: list[str] = []   # game_names, listed on the first start page (a family may load a library for it)

    admitted = [0]   # requests running or waiting for a search slot, counted in the event loop's own thread

    async def in_engine(work: Any, *args: Any) -> Any:
        """Run `work` (which asks engines) in a thread once a search slot is free; Busy when too many wait. The
        count is taken and raised before the first await, so a burst cannot pass the check together."""
        if admitted[0] >= engines * (1 + WAITING_PER_ENGINE):
            raise Busy(f"the server is running {engines} searches and {admitted[0] - engines} more wait; try again "
                       "in a moment (plyground serve --engines N allows more at once)")
        admitted[0] += 1
        try:
            return await anyio.to_thread.run_sync(work, *args, limiter=slots)
        finally:
            admitted[0] -= 1

    def session_of(request: Request) -> PlaySession:
        sid = request.path_params["sid"]
        if sid not in sessions:
            raise HTTPException(404, f"no game '{sid}' on this server (it may have restarted); start a new game")
        return sessions[sid]

    def start_page(form: dict[str, str], seats: list[str], message: str = "") -> str:
        """The start page with one seat selector per player of the form's game and options."""
        if not suggested:
            suggested.extend(game_names(registry))
        return pages.index(suggested, sorted(registry.agents), form, message, library.names(), seats,
                           seat_count(registry, form), sorted(registry.families))

    async def index(request: Request) -> HTMLResponse:
        return HTMLResponse(start_page(dict(request.query_params), request.query_params.getlist("seat")))

    async def create(request: Request) -> Response:
        fields = await fields_of(request)
        form = dict(fields)
        seats = [value for name, value in fields if name == "seat"]
        try:
            session = new_session(registry, form, seats, plugins, programs)
            await in_engine(session.build, pool, memory_limit_mb)
        except (PlygroundError, Busy) as exc:
            return HTMLResponse(start_page(form, seats, str(exc)), status_code=429 if isinstance(exc, Busy) else 400)
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
        if action == "engine" and lock.locked():
            async with lock:   # a search for this game runs (a reloaded page asks again): its move is the answer
                return HTMLResponse(pages.panel(session))
        if lock.locked() and action in CHANGES:
            return HTMLResponse(pages.panel(session, "the engine is still thinking; wait for its move"), 409)
        seen = form.get("version")
        if action in CHANGES and seen is not None and seen != str(session.version):
            return HTMLResponse(pages.panel(session, "the game changed since this page showed it (another tab?); "
                                                     "this is the board now"), 409)
        async with lock:
            try:
                if action == "move":
                    text = str(form.get("move", "")).strip()
                    if not text:
                        raise ConfigError("type a move, or click the board")
                    if "coach" in session.engines:
                        await in_engine(session.human_move, text)
                    else:
                        await anyio.to_thread.run_sync(session.human_move, text)
                elif action == "engine":
                    await in_engine(session.engine_move)
                elif action == "undo":
                    session.undo()
                elif action == "flip":
                    session.flipped = not session.flipped
                elif action == "resign":
                    session.resign()
                else:
                    raise HTTPException(404, f"unknown action '{action}'; use move, engine, undo, flip or resign")
            except (PlygroundError, Busy) as exc:
                return HTMLResponse(pages.panel(session, str(exc)), 429 if isinstance(exc, Busy) else 400)
            except Cancelled:   # the server stops (Ctrl-C): the search was interrupted, the game is as it was
                return HTMLResponse(pages.panel(session, "the server is stopping; the search was interrupted"), 503)
            if action in CHANGES:
                session.version += 1
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
            while not stopping.is_set() and not await request.is_disconnected():
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

    async def gone(request: Request, exc: Exception) -> Response:
        """A client that left mid-body: nobody to answer and nothing to log (it was a full traceback each)."""
        return Response(status_code=400)

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
    handlers: dict[Any, Any] = {HTTPException: http_error, PlygroundError: http_error, ClientDisconnect: gone,
                                Exception: server_error}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        pool.close()

    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan,
                    middleware=[Middleware(Guard, hosts=hosts)])
    app.state.pool = pool   # plyground serve stops the searches as soon as Ctrl-C is pressed
    app.state.stopping = stopping
    return app
