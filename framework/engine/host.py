"""The engine host: a Python agent plugin as an engine (`python -m framework.engine.host SPEC_JSON`).

It speaks the engine protocol (protocol.py) on its standard input and output for the plugin's author, whose
agent API stays as it is: `select_move`, `solve`, a coach's verdict. SPEC_JSON names the agent, its parameters,
and the plugins to load (entry points, plugin files). Anything the agent prints goes to standard error, never
into the protocol.

Each `new` builds a fresh agent with that game's seed (a per-game reset: the same seed plays the same moves as
in a clean process) on a game object of the host's own; the game, its compiled kernels and the agent's compiled
search are loaded once per process. The first `isready` for a game also runs one small throwaway search, so no
move of a game pays for loading or compiling inside its clock.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Mapping
from typing import IO, Any, cast

from framework.capabilities import capabilities
from framework.coach import coach_move
from framework.engine import protocol
from framework.engine.protocol import PROTOCOL_VERSION
from framework.engine.sandbox import limit_memory
from framework.errors import cap_text
from framework.match import Forfeit, checked, crash_reason, pv_notation
from framework.protocols import CHANCE, Budget, Game, Move, Proof, SearchStats, Solver, SolveResult, State
from framework.registry import Registry, WorkerRegistry, load_plugin_file

#: The distribution whose agents get a throwaway search before their first game (this project's own).
WARMED = "plyground"
#: The budget of the throwaway search that loads an agent's search before its first clock runs.
WARMUP_BUDGET = Budget(nodes=64)


#: Moves a clock without `movestogo` is shared over (what is left is spread as if this many moves remained).
MOVES_HORIZON = 30
#: Of the share computed, what a search is given: the rest covers its overrun and the host's own work.
SAFETY = 0.8


def managed(budget: Budget, clock: Mapping[str, Any]) -> Budget:
    """The budget of one move on a clock: a share of the time left (spread over `movestogo` moves, or over
    MOVES_HORIZON) plus most of the increment, never more than half of what is left, and never more than the
    move's own time budget; the search stops at that deadline, so the clock never runs out from a search that
    keeps its budget. No clock (no `time`): the budget as given."""
    if not isinstance(clock.get("time"), (int, float)):
        return budget
    left = max(float(clock["time"]), 0.0)
    increment = float(clock.get("inc", 0.0) or 0.0)
    moves = clock.get("movestogo")
    share = left / (moves if isinstance(moves, int) and moves > 0 else MOVES_HORIZON) + 0.75 * increment
    seconds = max(SAFETY * min(share, left / 2), 0.001)
    return Budget(time=seconds if budget.time is None else min(budget.time, seconds), nodes=budget.nodes)


def stats_message(game: Game, state: State, stats: Any,
                  played: tuple[Move, str, State] | None = None) -> dict[str, Any]:
    """A search's statistics as the protocol carries them (what cannot be carried is left out). `played`: the
    move chosen at `state` (checked legal), its notation and the state after it, which the PV usually starts
    with: not checked or formatted again."""
    if not isinstance(stats, SearchStats):
        return {}
    extra = {k: v for k, v in dict(stats.extra).items()
             if isinstance(k, str) and isinstance(v, (int, float, str, bool, type(None)))}
    try:
        if played is not None and stats.pv and stats.pv[0] == played[0]:
            pv = [played[1], *pv_notation(game, played[2], stats.pv[1:])]
        else:
            pv = list(pv_notation(game, state, stats.pv))
    except Exception:
        pv = []
    return {"nodes": stats.nodes, "depth": stats.depth, "score": stats.score, "pv": pv,
            "wall_time": stats.wall_time, "cpu_time": stats.cpu_time, "peak_entries": stats.peak_entries,
            "extra": extra}


class Host:
    """One agent's engine: the registry, the games built so far, the agent of the game being played."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec
        entry_points = spec.get("entry_points")
        self.registry: Registry = Registry() if entry_points is None else WorkerRegistry(tuple(entry_points))
        for file in spec.get("plugins", ()):
            load_plugin_file(self.registry, file)
        self.games: dict[str, Game] = {}
        self.warm: set[str] = set()
        self.game: Game | None = None
        self.key = ""
        self.agent: Any = None
        self.start: State = None
        self.state: State = None
        self.played: list[str] = []
        self.capped = False
        self.params: dict[str, Any] = {}

    def hello(self) -> dict[str, Any]:
        import importlib.metadata

        try:
            version = importlib.metadata.version("plyground")
        except importlib.metadata.PackageNotFoundError:
            version = "unknown"
        return {"type": "hello", "protocol": PROTOCOL_VERSION, "engine": f"plyground-host {self.spec['agent']}",
                "version": version, "params": self.spec.get("params", {})}

    def new(self, message: Mapping[str, Any]) -> dict[str, Any] | None:
        options = message.get("options") or {}
        self.key = json.dumps([message["game"], options], sort_keys=True)
        if self.key not in self.games:
            game = self.registry.create_game(message["game"], options)
            warmup = capabilities(game).warmup
            if warmup is not None:
                warmup()
            self.games[self.key] = game
        self.game = self.games[self.key]
        params = message.get("params")
        self.params = dict(params) if isinstance(params, dict) else dict(self.spec.get("params", {}))
        self.agent = self.registry.create_agent(self.spec["agent"], self.game, self.params,
                                                seed=int(message.get("seed", 0)),
                                                where=str(self.spec.get("where", "agent")))
        start = message.get("start")
        self.start = self.game.initial_state() if start is None else self.game.from_text(start)
        self.state, self.played = self.start, []
        return None

    def ready(self) -> dict[str, Any]:
        if self.game is not None and self.key not in self.warm:
            self.warm.add(self.key)
            self._warm_up()
        limit = self.spec.get("memory_limit_mb")
        if limit is not None and not self.capped:
            self.capped = True
            limit_memory(int(limit) << 20)   # what the loaded host maps, plus the limit
        return {"type": "readyok"}

    def _warm_up(self) -> None:
        """One throwaway search with a copy of the agent, from the first position where a player moves: for the
        built-in agents (WARMED), whose searches load compiled code on their first call. Another plugin's agent
        warms up in its constructor if it needs to (a throwaway search of an unknown agent may never end)."""
        if self.registry.agents[self.spec["agent"]].provenance.distribution != WARMED:
            return
        game = cast(Game, self.game)
        state = self.start
        while not game.is_terminal(state) and game.to_move(state) == CHANCE:
            state = game.apply(state, game.chance_outcomes(state)[0][0])  # type: ignore[attr-defined]
        if game.is_terminal(state):
            return
        try:
            agent = self.registry.create_agent(self.spec["agent"], game, dict(self.params), seed=0)
            if self.spec.get("solver") and isinstance(agent, Solver):
                agent.solve(game, state, WARMUP_BUDGET)
            else:
                agent.select_move(game, state, WARMUP_BUDGET)
        except Exception:
            pass   # the game itself shows what fails

    def _position(self, message: Mapping[str, Any]) -> State:
        """The position `message` names: its `moves` played from the game's start, or from its own `start` when it
        gives one (a door that keeps positions, not move lists: the agent is kept, its start is moved)."""
        game = cast(Game, self.game)
        moves = [str(m) for m in message.get("moves", [])]
        if message.get("start") is not None:
            self.start = game.from_text(str(message["start"]))
            self.state, self.played = self.start, []
        if moves[:len(self.played)] != self.played:
            self.state, self.played = self.start, []
        for text in moves[len(self.played):]:
            self.state = game.apply(self.state, game.parse_move(self.state, text))
            self.played.append(text)
        return self.state

    def go(self, message: Mapping[str, Any]) -> dict[str, Any]:
        game = cast(Game, self.game)
        state = self._position(message)
        budget = managed(Budget(**(message.get("budget") or {})), message.get("clock") or {})
        decision = self.agent.select_move(game, state, budget)
        try:   # the checks the referee makes, here too, so the agent's author reads the same reasons
            move, stats = checked(game.legal_moves(state), decision)
        except Forfeit as forfeit:
            return {"type": "error", "message": forfeit.reason, "termination": forfeit.termination.value}
        notation = game.format_move(state, move)
        after = game.apply(state, move)
        answer = {"type": "move", "move": notation, "stats": stats_message(game, state, stats, (move, notation, after))}
        self.state = after   # the next `go` names this move first: it need not be parsed again
        self.played.append(notation)
        return answer

    def solve(self, message: Mapping[str, Any]) -> dict[str, Any]:
        game = cast(Game, self.game)
        state = self._position(message)
        if not isinstance(self.agent, Solver):
            return {"type": "error", "message": f"agent '{self.spec['agent']}' cannot solve positions"}
        budget = Budget(**(message.get("budget") or {}))
        result = self.agent.solve(game, state, budget)
        if not isinstance(result, SolveResult) or not isinstance(result.value, Proof):
            return {"type": "error", "message": f"solve returned {type(result).__name__}, not a SolveResult"}
        move = None if result.move is None else game.format_move(state, result.move)
        return {"type": "solved", "value": result.value.value, "move": move,
                "stats": stats_message(game, state, result.stats)}

    def judge(self, message: Mapping[str, Any]) -> dict[str, Any]:
        game = cast(Game, self.game)
        state = self._position(message)
        budget = Budget(**(message.get("budget") or {}))
        verdict = coach_move(game, state, game.parse_move(state, str(message["move"])), self.agent, budget)
        return {"type": "verdict", "text": verdict.describe(game, state)}

    def answer(self, message: Mapping[str, Any]) -> dict[str, Any] | None:
        kind = message["type"]
        if kind == "hello":
            return self.hello()
        if kind == "isready":
            return self.ready()
        if kind == "new":
            return self.new(message)
        if self.game is None:
            return {"type": "error", "message": f"'{kind}' before any 'new'"}
        return {"go": self.go, "solve": self.solve, "judge": self.judge}[kind](message)


def serve(inbox: IO[bytes], outbox: IO[bytes], spec: Mapping[str, Any]) -> int:
    """Answer the referee's messages until `quit` or the end of the input (the host is built at the first one)."""
    hosts: list[Host] = []

    def answer(message: dict[str, Any]) -> dict[str, Any] | None:
        try:
            if not hosts:
                hosts.append(Host(spec))
            return hosts[0].answer(message)
        except (Exception, SystemExit) as exc:
            traceback.print_exc()
            return {"type": "error", "message": crash_reason(exc), "traceback": cap_text(traceback.format_exc())}

    return protocol.serve(inbox, outbox, answer)


def main(argv: list[str]) -> int:
    return serve(sys.stdin.buffer, protocol.protocol_output(), json.loads(argv[1]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
