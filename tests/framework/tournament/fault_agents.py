"""One agent per way an agent can go wrong, for the fault-injection suite (loaded through `plugins:`).

`faulty` plays random moves (seeded) except for its `fault`, chosen by parameter:
raise, hang, illegal, non_move, bad_stats, unpicklable_stats, exit_init (os._exit while being built),
sys_exit_init, exit_midgame (os._exit at its second move), sys_exit, segfault, memory (allocates past
an address-space limit it sets itself: RLIMIT_AS), prints (prints to stdout, otherwise honest) and
killed (SIGKILLs its own process: its own signal, so its forfeit, as the OOM killer's would not be).
The constructor faults only in an engine host (where agents are built; tests may build them in-process).
"""

import ctypes
import os
import random
import resource
import signal
import sys
import threading
import time

from framework import AgentSpec, Decision, Param, SearchStats, hookimpl

KINDS = ("raise", "hang", "illegal", "non_move", "bad_stats", "unpicklable_stats", "exit_init", "sys_exit_init",
         "exit_midgame", "sys_exit", "segfault", "memory", "prints", "killed")
IN_WORKER = getattr(sys.modules["__main__"].__spec__, "name", None) == "framework.engine.host"   # in an engine
#: Address space the memory hog may add to what its worker already maps.
HOG_HEADROOM = 256 << 20


class Faulty:
    def __init__(self, game, seed=0, fault="raise"):
        self.rng = random.Random(seed)
        self.fault = fault
        self.moves = 0
        if fault == "exit_init" and IN_WORKER:
            os._exit(3)
        if fault == "sys_exit_init" and IN_WORKER:
            sys.exit(4)
        if fault == "raise_init":   # not in KINDS: `validate` refuses it (config tests)
            raise ZeroDivisionError("the agent divides by zero")

    def select_move(self, game, state, budget):
        self.moves += 1
        move = self.rng.choice(list(game.legal_moves(state)))
        fault = self.fault
        if fault == "raise":
            raise RuntimeError("deliberate crash")
        if fault == "hang":   # a search that never ends (a sleep is stopped at its wall bound: test_untrusted_agents)
            end = time.monotonic() + 3600
            while time.monotonic() < end:
                pass
        if fault == "illegal":
            return Decision(99999)
        if fault == "non_move":
            return game.format_move(state, move)
        if fault == "bad_stats":
            return Decision(move, SearchStats(score="not-a-number", depth=10**30))
        if fault == "unpicklable_stats":
            return Decision(move, SearchStats(extra={"lock": threading.Lock()}))
        if fault == "exit_midgame" and self.moves == 2:
            os._exit(5)
        if fault == "sys_exit":
            sys.exit(3)
        if fault == "segfault":
            ctypes.string_at(0)
        if fault == "memory":
            return self.hog(move)
        if fault == "prints":
            print("thinking hard..." * 1000, flush=True)
        if fault == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        return Decision(move, SearchStats(nodes=1))

    def hog(self, move):
        """Allocate a gigabyte under a limit of HOG_HEADROOM more than the process maps now."""
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as statm:
            mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (mapped + HOG_HEADROOM, hard))
        try:
            hoard = bytearray(1 << 30)
        finally:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        return Decision(move, SearchStats(nodes=len(hoard)))


@hookimpl
def plyground_agents():
    return [AgentSpec("faulty", Faulty, "random mover with one deliberate fault",
                      (Param("fault", str, "raise", "which fault: " + ", ".join(KINDS)),))]
