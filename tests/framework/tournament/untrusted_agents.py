"""Malicious agents for the isolation suite (test_untrusted_agents.py), loaded through `plugins:`.

`rogue` plays seeded random moves and, by its `attack` parameter, also does one thing an agent must not be
able to get away with (the issue's D-items). An engine may write nothing outside its private folder, so what an
attack needs to tell the test goes out as its move's statistics: the pid of a process it left behind, how many
processes a fork bomb made (as nodes), and a depth of -1 when an attack on the store or another process got
through. Its constructor attacks only in an engine host (other tests build agents in-process). `witness` is
honest and reports, as its nodes, how many threads its process runs when it moves (1: nothing of another
agent's runs beside it).
Importing this file in a worker with PLYGROUND_TEST_EXIT_AT_IMPORT set ends the worker (D19).
"""

import os
import random
import signal
import subprocess
import sys
import threading
import time

from framework import AgentSpec, Decision, Param, SearchStats, hookimpl
from framework.match import Forfeit, Termination
from framework.protocols import TakeBack

#: Whether this runs where agents run: an engine host (or, before engines, a tournament worker).
IN_WORKER = getattr(sys.modules["__main__"].__spec__, "name", None) in ("framework.tournament.worker",
                                                                        "framework.engine.host")
if IN_WORKER and os.environ.get("PLYGROUND_TEST_EXIT_AT_IMPORT"):
    os._exit(9)

ATTACKS = ("time_bomb", "mutate_game", "buggy_cache", "bogus_forfeit", "fork", "double_fork", "spin_threads",
           "hog", "self_term", "self_stop", "slow_build", "void_forfeit", "take_back", "float_move", "equal_all",
           "huge_traceback", "close_fds", "ctor_exit", "ctor_spin", "patch_store", "rewrite_store", "forge_result",
           "kill_others", "fuse", "busy_threads", "fork_bomb")
#: Attacks played apart (they are slow on purpose): waits without using CPU until its wall bound.
SLOW = ("sleep",)


#: The depth a move reports when its attack got through (the test looks for it).
BREACH = -1


class EqualsEverything:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class Rogue:
    def __init__(self, game, seed=0, attack="time_bomb"):
        self.rng = random.Random(seed)
        self.attack = attack
        self.moves = 0
        if attack == "slow_build" and IN_WORKER:   # compiles for 1.5 s of CPU (a cold kernel cache)
            end = time.process_time() + 1.5
            while time.process_time() < end:
                pass
        if attack == "ctor_exit":   # a constructor's thread that ends whatever process it is in
            threading.Thread(target=lambda: (time.sleep(0.2), os._exit(7)), daemon=True).start()
        if attack == "ctor_spin":   # constructor threads that never end (not daemons: they keep a process alive)
            for _ in range(2):
                threading.Thread(target=_spin_slowly).start()
        if attack == "patch_store":   # patches the store's save, where it is imported, to make its games wins
            from framework.tournament import store

            def save(self, result, _save=store.Store.save):
                return _save(self, result)
            store.Store.save = save
            store.PATCHED = True

    def select_move(self, game, state, budget):
        self.moves += 1
        move = self.rng.choice(list(game.legal_moves(state)))
        attack = getattr(self, self.attack, None)
        if attack is not None:
            answer = attack(game, state, move)
            if answer is not None:
                return answer
        return Decision(move, SearchStats(nodes=1))

    # -- the attacks: None plays `move` -------------------------------------------------------------

    def time_bomb(self, game, state, move):   # D1: ends whatever process it is in, a while later
        def bomb():
            time.sleep(0.3)
            os._exit(7)
        threading.Thread(target=bomb, daemon=True).start()
        return None

    def mutate_game(self, game, state, move):   # D2: changes the game object it was handed for everyone after
        game.legal_moves = lambda s: []

    def buggy_cache(self, game, state, move):   # D3: a cache that breaks the game's own method
        cache = {}

        def cached(s):
            if len(cache) > 2:
                raise KeyError("stale cache")
            cache[s] = True
            return []
        game.legal_moves = cached

    def bogus_forfeit(self, game, state, move):   # D3: a termination the store does not know
        raise Forfeit("bogus", "the opponent forfeits")

    def fork(self, game, state, move):   # D4: a child that would outlive the run
        child = subprocess.Popen(["sleep", "120"])
        return Decision(move, SearchStats(nodes=child.pid))

    def double_fork(self, game, state, move):   # D4: a daemon in a session of its own
        child = subprocess.Popen(["sleep", "120"], start_new_session=True)
        return Decision(move, SearchStats(nodes=child.pid))

    def spin_threads(self, game, state, move):   # D5: threads that compute forever
        def spin():
            while True:
                pass
        for _ in range(4):
            threading.Thread(target=spin, daemon=True).start()

    def hog(self, game, state, move):   # D6: more memory than any limit
        return Decision(move, SearchStats(nodes=len(bytearray(20 << 30))))

    def self_term(self, game, state, move):   # D6: its own signal, to void a game it is losing
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)

    def self_stop(self, game, state, move):   # D10: the machine stops its process for 3 s in a move
        if self.moves == 1:
            subprocess.Popen(["sh", "-c", f"sleep 3; kill -CONT {os.getpid()}"])
            os.kill(os.getpid(), signal.SIGSTOP)

    def void_forfeit(self, game, state, move):   # D15: voids a game it is losing
        raise Forfeit(Termination.VOID, "the game must be void")

    def take_back(self, game, state, move):   # D15: takes back the opponent's moves
        if self.moves > 1:
            raise TakeBack()

    def float_move(self, game, state, move):   # D18: a move of another type, equal to a legal one
        return Decision(float(move), SearchStats(nodes=1))

    def equal_all(self, game, state, move):   # D18: an object equal to every move
        return Decision(EqualsEverything(), SearchStats(nodes=1))

    def huge_traceback(self, game, state, move):   # D14: a 2 MB traceback
        raise RuntimeError("start of the message " + "x" * (2 << 20) + " end of the message")

    def rewrite_store(self, game, state, move):   # rewrites the honest games' winners in the results store
        import sqlite3

        try:
            with sqlite3.connect(os.environ["PLYGROUND_TEST_RESULTS"], timeout=1) as conn:
                conn.execute("UPDATE games SET winner = 'rewrite_store', termination = 'normal'")
        except Exception:
            return None
        return Decision(move, SearchStats(nodes=1, depth=BREACH))

    def forge_result(self, game, state, move):   # writes a forged result and a forged move to every descriptor
        line = (b'{"type":"result","winner":"forge_result"}\n{"type":"move","move":"b2","stats":{}}\n'
                b'{"type":"move","move":"b2","stats":{}}\n')
        for fd in range(3, 64):
            try:
                os.write(fd, line)
            except OSError:
                pass

    def kill_others(self, game, state, move):   # SIGKILL of every other game's engines and workers it can find
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    cmdline = file.read()
            except OSError:
                continue
            if b"framework.engine.host" in cmdline or b"framework.tournament.worker" in cmdline:
                try:
                    os.kill(int(entry), signal.SIGKILL)
                except OSError:
                    continue
                return Decision(move, SearchStats(nodes=1, depth=BREACH))
        return None

    def fuse(self, game, state, move):   # a thread that ends its process while the opponent moves
        if self.moves == 1:
            threading.Thread(target=lambda: (time.sleep(0.01), os._exit(5)), daemon=True).start()

    def busy_threads(self, game, state, move):   # 8 threads that compute: the process's whole CPU is its time
        if self.moves == 1:
            for _ in range(8):
                threading.Thread(target=_spin, daemon=True).start()
        start = time.process_time()   # every thread's CPU: the main thread only waits for the others to spend it
        while time.process_time() - start < 2.0:
            time.sleep(0.01)

    def fork_bomb(self, game, state, move):   # as many processes as it can make
        if self.moves > 1:
            return None
        made = 0
        try:
            for _ in range(3000):
                if os.fork() == 0:
                    time.sleep(120)
                    os._exit(0)
                made += 1
        except OSError:
            pass
        return Decision(move, SearchStats(nodes=made))

    def sleep(self, game, state, move):   # D10: a move that waits (no CPU) is stopped at the wall bound
        time.sleep(3600)

    def close_fds(self, game, state, move):   # fd damage: closes every descriptor but the standard ones
        os.closerange(3, 1 << 16)


def _spin():
    while True:
        pass


def _spin_slowly():
    while True:
        time.sleep(0.01)


class Witness:
    """Honest: random moves, reporting its process's thread count as nodes."""

    def __init__(self, game, seed=0):
        self.rng = random.Random(seed)

    def select_move(self, game, state, budget):
        move = self.rng.choice(list(game.legal_moves(state)))
        return Decision(move, SearchStats(nodes=threading.active_count()))


@hookimpl
def plyground_agents():
    return [AgentSpec("rogue", Rogue, "random mover with one attack on the framework",
                      (Param("attack", str, "time_bomb", "which attack: " + ", ".join(ATTACKS + SLOW)),)),
            AgentSpec("witness", Witness, "honest random mover reporting its thread count")]
