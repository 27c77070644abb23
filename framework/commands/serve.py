"""`plyground serve`: the browser workbench on http://127.0.0.1:8000 (framework/web)."""

from __future__ import annotations

import argparse
import contextlib
from types import FrameType

from framework.commands import options
from framework.errors import ConfigError

#: Seconds open connections get to finish after Ctrl-C before the server closes them.
SHUTDOWN = 1


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from framework.web.app import create_app
    except ImportError as exc:
        raise ConfigError(f"plyground serve needs the web packages ({exc.name} is missing): "
                          "pip install 'plyground'") from None
    app = create_app(args.results, tuple(args.plugin or ()), hosts=(args.host,), engines=args.engines,
                     programs=args.programs)
    print(f"Plyground workbench on http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    # Ctrl-C: open pages (a live feed, a search in progress) get a second, then their connections are closed
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            timeout_graceful_shutdown=SHUTDOWN)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            app.state.stopping.set()   # live feeds end at their next look (POLL)
            app.state.pool.close()   # searches in progress end now (their pages are told), not after the grace

    with contextlib.suppress(KeyboardInterrupt):   # uvicorn raises the Ctrl-C again once it has stopped
        Server(config).run()
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="the browser workbench: play, coach, replay and watch tournaments")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=options.port, default=8000, help="port (default 8000)")
    p.add_argument("--results", metavar="DIR", help="a results folder, or a folder of them, to browse and replay")
    p.add_argument("--plugin", action="append", metavar="FILE", help="a plugin file to load (repeatable)")
    p.add_argument("--programs", action="store_true", help="let the new-game form seat programs ('cmd:PROGRAM "
                   "ARGS', paths relative to the folder serve runs in), as 'plyground play --seat' does; off by "
                   "default, since it lets the page start any program on this machine (confined as every engine)")
    p.add_argument("--engines", type=int, default=2, metavar="N",
                   help="searches run at once, for every tab together (default 2); more wait, or get 429")
    p.set_defaults(func=run)
