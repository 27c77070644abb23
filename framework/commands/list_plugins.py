"""`plyground list` and `plyground plugins`: what is installed and who provided it."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from framework.errors import ConfigError
from framework.params import Param
from framework.registry import Registered, Registry
from framework.specs import AgentSpec, GameFileSpec, GameSpec, HeuristicSpec


def _params(params: tuple[Param, ...]) -> list[str]:
    return [f"      {p.name}: {p.describe()}, default {p.default!r} — {p.help}" for p in params]


def _details(spec: GameSpec | AgentSpec | HeuristicSpec | GameFileSpec) -> list[str]:
    """Declared parameters of a game, agent or heuristic; the file of a game file."""
    if isinstance(spec, GameFileSpec):
        return [f"      file: {spec.path}"]
    return _params(spec.params)


def run_list(args: argparse.Namespace) -> int:
    registry = Registry()
    if args.family is not None:
        return _list_family(registry, args.family)
    sections: tuple[tuple[str, Iterable[tuple[str, Registered[Any]]]], ...] = (
        ("games", registry.games.items()), ("agents", registry.agents.items()),
        ("heuristics", ((f"{g}/{n}", r) for (g, n), r in registry.heuristics.items())),
        ("game files (for 'plyground nash NAME')", registry.game_files.items()))
    for title, items in sections:
        print(f"{title}:")
        for name, registered in sorted(items, key=lambda kv: kv[0]):
            defaults = getattr(registered.spec, "default_for", ())
            marks = f" (default of {', '.join(defaults)})" if defaults else ""
            print(f"  {name:<24} {registered.spec.help}{marks}  [{registered.provenance}]")
            if args.verbose:
                for line in _details(registered.spec):
                    print(line)
    if registry.families:
        print("game families (games named FAMILY:NAME; 'plyground list --family FAMILY' lists them):")
        for name, registered in sorted(registry.families.items()):
            print(f"  {name:<24} {registered.spec.help}  [{registered.provenance}]")
    for name, reason in sorted(registry.failed.items()):
        print(f"not loaded: plugin '{name}': {reason}")
    return 0


def _list_family(registry: Registry, family: str) -> int:
    """The games of one family: the playable ones first, then each refused one with the reason."""
    if family not in registry.families:
        known = ", ".join(sorted(registry.families)) or "none"
        raise ConfigError(f"--family: no game family '{family}'; families: {known}")
    members = registry.families[family].spec.members()
    playable = [name for name, reason in members if not reason]
    print(f"playable ({len(playable)}):")
    for name in playable:
        print(f"  {family}:{name}")
    print(f"refused ({len(members) - len(playable)}):")
    for name, reason in members:
        if reason:
            print(f"  {family}:{name}: {reason}")
    return 0


def run_plugins(args: argparse.Namespace) -> int:
    registry = Registry()
    for name, provenance in sorted(registry.plugins.items()):
        print(f"{name:<16} {provenance.distribution or '-'} {provenance.version or ''}")
    for name, reason in sorted(registry.failed.items()):
        print(f"{name:<16} FAILED: {reason}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("list", help="list games, agents and heuristics with the plugin that provided each")
    p.add_argument("--verbose", "-v", action="store_true", help="also document every parameter")
    p.add_argument("--family", metavar="FAMILY", help="list the games of a game family (FAMILY:NAME), "
                                                      "the refused ones with the reason")
    # The family of the bundled OpenSpiel bridge, by the flag its issue asked for.
    p.add_argument("--openspiel", dest="family", action="store_const", const="openspiel",
                   help="the same as --family openspiel: OpenSpiel's games Plyground plays, and why not the rest")
    p.set_defaults(func=run_list)
    p = subparsers.add_parser("plugins", help="list loaded plugins with their distribution and version")
    p.set_defaults(func=run_plugins)
