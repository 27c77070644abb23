"""`plyground serve`: the browser workbench on http://127.0.0.1:8000 (framework/web)."""

from __future__ import annotations

import argparse

from framework.commands import options
from framework.errors import ConfigError


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from framework.web.app import create_app
    except ImportError as exc:
        raise ConfigError(f"plyground serve needs the web packages ({exc.name} is missing): "
                          "pip install 'plyground'") from None
    app = create_app(args.results, tuple(args.plugin or ()))
    print(f"Plyground workbench on http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="the browser workbench: play, coach, replay and watch tournaments")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=options.port, default=8000, help="port (default 8000)")
    p.add_argument("--results", metavar="DIR", help="a results folder, or a folder of them, to browse and replay")
    p.add_argument("--plugin", action="append", metavar="FILE", help="a plugin file to load (repeatable)")
    p.set_defaults(func=run)
