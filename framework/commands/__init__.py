"""One module per `plyground` sub-command; each exposes `add_parser(subparsers)`.

A command's parser sets `func(args) -> int` as its default; `framework.cli` dispatches.
"""
