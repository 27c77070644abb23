"""`plyground warmup`: compile (or load from numba's cache) every compiled kernel ahead of time.

Compiled kernels (`framework.jit`) are compiled on first use and cached on disk; running
this once after installing means no perft, search or timed move pays the compile cost.
Games warm their rules (`game.warmup()`); agents with a compiled search warm it when they
are built for a game with a kernel, so every registered agent is built once per such game.
"""

from __future__ import annotations

import argparse
import time

from framework import jit
from framework.capabilities import capabilities
from framework.registry import Registry


def run(args: argparse.Namespace) -> int:
    if not jit.enabled():
        print("compiled kernels are off (PLYGROUND_JIT=0): nothing to warm up")
        return 0
    registry = Registry()
    for name in sorted(registry.games):
        game = registry.create_game(name)
        warmup = capabilities(game).warmup
        if warmup is None:
            print(f"{name:<16} no compiled kernels (runs interpreted)")
            continue
        start = time.perf_counter()
        warmup()
        for agent in sorted(registry.agents):
            registry.create_agent(agent, game)
        print(f"{name:<16} kernels ready in {time.perf_counter() - start:.1f} s")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("warmup", help="compile and cache the compiled kernels of every game and agent now")
    p.set_defaults(func=run)
