"""Clients that leave mid-body or trickle a body in: a quiet end, not a traceback; a deadline, not a held
connection. Driven through the ASGI interface, where a test can be the slow client."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

import framework.web.app as web
from framework.web.app import create_app


def in_own_loop(test: Callable[..., Awaitable[Any]]) -> Callable[..., None]:
    """Run an async test in an event loop of its own thread: a loop another test left running in this thread
    (a browser test's) cannot stop it."""
    @functools.wraps(test)   # pytest reads the test's own fixtures through __wrapped__
    def run(*args: Any, **kwargs: Any) -> None:
        failure: list[BaseException] = []

        def body() -> None:
            try:
                asyncio.run(test(*args, **kwargs))
            except BaseException as exc:
                failure.append(exc)
        thread = threading.Thread(target=body)
        thread.start()
        thread.join()
        if failure:
            raise failure[0]
    return run


def post(path: str, length: int) -> dict:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "path": path,
            "raw_path": path.encode(), "query_string": b"", "root_path": "", "scheme": "http",
            "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000),
            "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/x-www-form-urlencoded"),
                        (b"content-length", str(length).encode())]}


async def call(app, scope, receive) -> list[dict]:
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent


@in_own_loop
async def test_a_client_that_leaves_mid_body_ends_quietly():
    """It raised ClientDisconnect through the server's error middleware: a full traceback per client."""
    messages = iter([{"type": "http.request", "body": b"game=pig", "more_body": True}, {"type": "http.disconnect"}])

    async def receive():
        return next(messages)

    sent = await call(create_app(None), post("/play", 100), receive)   # raised ClientDisconnect before
    assert sent[0]["status"] == 400


@in_own_loop
async def test_a_body_that_trickles_in_is_cut_off_with_408(monkeypatch):
    """A body sent a byte now and then was held for minutes (400 such connections at once)."""
    monkeypatch.setattr(web, "BODY_SECONDS", 0.3)

    async def receive():
        await anyio.sleep(0.2)
        return {"type": "http.request", "body": b"g", "more_body": True}

    with anyio.fail_after(5):
        sent = await call(create_app(None), post("/play", 1000), receive)
    assert sent[0]["status"] == 408
    assert b"did not arrive within 0.3 s" in b"".join(m.get("body", b"") for m in sent[1:])


@in_own_loop
async def test_a_whole_body_on_time_is_read_as_before():
    messages = iter([{"type": "http.request", "body": b"game=nope&seat=human", "more_body": False}])

    async def receive():
        return next(messages)

    sent = await call(create_app(None), post("/play", 20), receive)
    assert sent[0]["status"] == 400 and b"nope" in b"".join(m.get("body", b"") for m in sent[1:])
