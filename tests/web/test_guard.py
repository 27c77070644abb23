"""The workbench on a shared machine: foreign Host 400, cross-site POST 403, huge bodies 413 before they are read,
a bounded number of searches at once (429 past the waiting room), Ctrl-C stops it with a live page open."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import anyio
import pytest
from starlette.testclient import TestClient

from framework.errors import ConfigError
from framework.tournament.engine import EnginePool
from framework.web import app as web
from framework.web.app import MAX_BODY, Guard, create_app
from tests.web.conftest import FIXTURE_AGENTS, INTERPRETED, LOCAL, ROOT

NEW_GAME = {"game": "tictactoe", "first": "human", "second": "human"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(None, hosts=("board.lan",)), base_url=LOCAL) as c:
        yield c


@pytest.mark.parametrize("base", ["http://127.0.0.1", "http://127.0.0.1:8000", "http://localhost:8000",
                                  "http://[::1]:8000", "http://LOCALHOST", "http://board.lan:8000"])
def test_the_served_address_and_this_machines_names_are_answered(client, base):
    assert client.get(base + "/").status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "testserver", "",
                                  "[::1"])
def test_a_foreign_host_is_400_naming_the_addresses_answered(client, host):
    response = client.get("/", headers={"host": host})
    assert response.status_code == 400
    assert "this workbench answers requests for 127.0.0.1, ::1, board.lan, localhost, not for" in response.text


def test_the_host_is_checked_before_any_route_even_for_a_post(client):
    response = client.post("/play", data=NEW_GAME, headers={"host": "evil.example"}, follow_redirects=False)
    assert response.status_code == 400


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "null", "file://",
                                    "https://localhost"])
def test_a_post_from_another_sites_page_is_403(client, origin):
    response = client.post("/play", data=NEW_GAME, headers={"origin": origin}, follow_redirects=False)
    assert response.status_code == 403
    assert f"a page of &#x27;{origin}&#x27; may not post to this workbench" in response.text


def test_a_post_from_its_own_page_or_without_origin_is_served(client):
    for headers in ({"origin": LOCAL}, {}):
        response = client.post("/play", data=NEW_GAME, headers=headers, follow_redirects=False)
        assert response.status_code == 303
    # a GET may come from anywhere (a link): it changes nothing
    assert client.get("/", headers={"origin": "http://evil.example"}).status_code == 200


def test_a_body_over_64_kib_is_413(client):
    response = client.post("/play", data={**NEW_GAME, "position": "x" * MAX_BODY})
    assert response.status_code == 413
    assert f"the workbench reads at most {MAX_BODY:,}" in response.text
    assert client.post("/play", content=b"game=tictactoe", headers={"content-length": "lots"}).status_code == 413


def test_a_body_with_a_length_over_the_bound_is_refused_without_reading_it():
    """Guard answers from the headers: the application's receive is never called."""
    sent: list[dict] = []

    async def receive():
        raise AssertionError("the body was read")

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send):
        raise AssertionError("a route saw the request")

    scope = {"type": "http", "method": "POST", "path": "/play", "headers": [
        (b"host", b"127.0.0.1:8000"), (b"content-length", str(MAX_BODY + 1).encode())]}
    # in a thread of its own: Playwright's sync API may hold an event loop in this one
    runner = threading.Thread(target=anyio.run, args=(Guard(app, ()), scope, receive, send))
    runner.start()
    runner.join(timeout=30)
    assert sent[0]["status"] == 413


def test_a_body_sent_without_its_length_is_413_once_past_the_bound(client):
    def chunks():
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024

    response = client.post("/play", content=chunks())
    assert response.status_code == 413
    assert f"over {MAX_BODY:,} bytes" in response.text


def test_engines_must_be_at_least_one():
    with pytest.raises(ConfigError, match="--engines must be at least 1, got 0"):
        create_app(None, engines=0)


class CountingPool(EnginePool):
    """An engine pool that records the most searches (`go`) its engines ran at once."""

    def __init__(self) -> None:
        super().__init__(keep=1)
        self.running = self.most = 0
        self.count = threading.Lock()

    def take(self, spec):
        engine = super().take(spec)
        if not getattr(engine, "counted", False):
            engine.counted = True
            engine.request = self.counting(engine.request)
        return engine

    def counting(self, request):
        def counted(message, *args, **kwargs):
            if message.get("type") != "go":
                return request(message, *args, **kwargs)
            with self.count:
                self.running += 1
                self.most = max(self.most, self.running)
            try:
                return request(message, *args, **kwargs)
            finally:
                with self.count:
                    self.running -= 1
        return counted


def test_searches_beyond_the_engines_wait_and_past_the_waiting_room_get_429(monkeypatch):
    monkeypatch.setattr(web, "WAITING_PER_ENGINE", 1)   # one search runs, one waits, the rest are refused
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    pool = CountingPool()
    app = create_app(None, (FIXTURE_AGENTS,), pool, engines=1)
    with TestClient(app, base_url=LOCAL) as client:
        urls = []
        for _ in range(4):   # the sleepy engine is to move first in each game
            response = client.post("/play", data={"game": "tictactoe", "first": "sleepy:delay=3", "second": "human",
                                                  "time": "10"}, follow_redirects=False)
            assert response.status_code == 303
            urls.append(response.headers["location"])
        pool.most = 0
        statuses: dict[int, int] = {}
        texts: dict[int, str] = {}

        def engine(i: int) -> None:
            response = client.post(urls[i] + "/engine")
            statuses[i], texts[i] = response.status_code, response.text

        threads = [threading.Thread(target=engine, args=(i,)) for i in range(4)]
        threads[0].start()
        deadline = time.monotonic() + 60
        while not pool.running:   # the first search runs (3 s)
            assert time.monotonic() < deadline
            time.sleep(0.01)
        threads[1].start()        # waits for the slot
        time.sleep(0.5)
        for thread in threads[2:]:   # refused at once, while the first still searches
            thread.start()
            thread.join(timeout=60)
        assert pool.running == 1
        for thread in threads[:2]:
            thread.join(timeout=120)
    assert statuses == {0: 200, 1: 200, 2: 429, 3: 429}
    assert pool.most == 1
    busy = [texts[2], texts[3]]
    assert all("the server is running 1 searches and 1 more wait; try again in a moment" in t for t in busy)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(*args: str) -> tuple[subprocess.Popen, int]:
    """`plyground serve ARGS` on a free port, once it listens."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), **INTERPRETED}
    proc = subprocess.Popen([sys.executable, "-m", "framework.cli", "serve", "--port", str(port), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert "Plyground workbench on http://127.0.0.1:" in proc.stdout.readline()
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=10).close()
            return proc, port
        except OSError:
            assert time.monotonic() < deadline, "the server did not listen"
            time.sleep(0.1)


def request(port: int, method: str, path: str, body: str = "") -> str:
    """The whole HTTP/1.0 answer (status line, headers, body) to one request."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"{method} {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/x-www-form-"
                  f"urlencoded\r\nContent-Length: {len(body)}\r\n\r\n{body}".encode())
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer.decode()


def stop(proc: subprocess.Popen) -> tuple[int, str]:
    """Ctrl-C, then the exit status and what it wrote on stderr."""
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=10)   # a generous bound: the point is that it exits at all
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return code, proc.stderr.read()


def test_ctrl_c_stops_the_server_with_a_live_page_open(workspace):
    """A live feed (server-sent events) streams forever; Ctrl-C still ends the process, with status 0."""
    proc, port = serve("--results", str(workspace / "results"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as live:
        live.sendall(f"GET /results/replay/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        head = live.recv(65536).decode()
        while "event: standings" not in head:
            head += live.recv(65536).decode()
        assert head.startswith("HTTP/1.1 200")
        code, errors = stop(proc)
    assert code == 0, errors


def test_ctrl_c_during_a_search_interrupts_it_and_tells_the_page():
    proc, port = serve("--plugin", FIXTURE_AGENTS)
    created = request(port, "POST", "/play", "game=tictactoe&first=hanger&second=human&time=5")
    url = re.search(r"location: (\S+)", created, re.IGNORECASE)[1]
    answers: list[str] = []
    searching = threading.Thread(target=lambda: answers.append(request(port, "POST", url + "/engine")))
    searching.start()
    time.sleep(3)   # the hanger is searching (it never answers by itself; its hard limit is 11 s)
    code, errors = stop(proc)
    searching.join(timeout=30)
    assert code == 0 and "Traceback" not in errors, errors
    assert answers[0].startswith("HTTP/1.1 503")
    assert "the server is stopping; the search was interrupted" in answers[0]
