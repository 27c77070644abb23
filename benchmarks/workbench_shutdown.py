"""How long `plyground serve` takes to exit after Ctrl-C with a page open: a live feed, and a search in progress.

Run: `PLYGROUND_JIT=0 python benchmarks/workbench_shutdown.py [--repeat 3]`.

Each round starts `plyground serve` in a subprocess, opens (a) the live feed of a results folder (server-sent
events, a stream that never ends by itself) or (b) an engine move of an agent that never answers (the test
fixtures' `hanger`), sends SIGINT and times the exit; prints the seconds and the exit status per round. The
issue asks for under 2 s; tests/web/test_guard.py checks only that it exits (a generous bound).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANGER = str(ROOT / "tests" / "framework" / "tournament" / "fixture_agents.py")


def serve(*args: str) -> tuple[subprocess.Popen, int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "framework.cli", "serve", "--port", str(port), *args],
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            return proc, port
        except OSError:
            time.sleep(0.05)


def send(port: int, text: str) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port), timeout=60)
    conn.sendall(text.replace("\n", "\r\n").encode())
    return conn


def stop(proc: subprocess.Popen) -> tuple[float, int]:
    start = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=60)
    return time.perf_counter() - start, code


def live_feed(results: Path) -> tuple[float, int]:
    proc, port = serve("--results", str(results))
    conn = send(port, f"GET /results/demo/events HTTP/1.1\nHost: 127.0.0.1:{port}\n\n")
    conn.recv(65536)   # the first event: the stream is open
    try:
        return stop(proc)
    finally:
        conn.close()


def search(_: Path) -> tuple[float, int]:
    proc, port = serve("--plugin", HANGER)
    body = "game=tictactoe&first=hanger&second=human&time=30"
    conn = send(port, f"POST /play HTTP/1.0\nHost: 127.0.0.1:{port}\nContent-Type: application/x-www-form-urlencoded"
                      f"\nContent-Length: {len(body)}\n\n{body}")
    answer = b""
    while chunk := conn.recv(65536):
        answer += chunk
    url = next(line.split(b" ", 1)[1].strip().decode() for line in answer.split(b"\r\n")
               if line.lower().startswith(b"location:"))
    engine = send(port, f"POST {url}/engine HTTP/1.0\nHost: 127.0.0.1:{port}\nContent-Length: 0\n\n")
    threading.Event().wait(1.0)   # the search is under way
    try:
        return stop(proc)
    finally:
        engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "demo.yaml"
        config.write_text("name: demo\ngame: tictactoe\ngames_per_pairing: 2\nseed: 1\nworkers: 1\nresults: "
                          f"{folder}/results/demo\nparticipants:\n  - {{id: a, agent: random}}\n"
                          "  - {id: b, agent: random}\n")
        subprocess.run([sys.executable, "-m", "framework.cli", "run", str(config)], check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
        for name, case in (("live feed open", live_feed), ("search in progress", search)):
            for _ in range(args.repeat):
                seconds, code = case(Path(folder) / "results")
                print(f"{name:20s} exit {code} after {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
