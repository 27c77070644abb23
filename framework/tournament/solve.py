"""Solve runs: every position of a file against every solver, as independent tasks on the game executors.

A YAML file with `mode: solve` names a game, a positions file (framework/endgames.py format),
the solvers (agents with a `solve` method, with their parameters) and one per-position budget.
Each (position, solver) pair is a `SolveTask` run in a guarded worker like a game, stored in
the `solves` table of the same SQLite store (one transaction per task) and skipped when a run
is resumed. Solvers that both prove a position must agree on its value, and must not contradict
the result the positions file claims: a disagreement is stored, then raised as a
SolveDisagreementError, and raised again by every later run or report over that folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import yaml
from tqdm import tqdm

from framework.endgames import read_positions
from framework.errors import ConfigError, PluginError, PositionError, SolveDisagreementError
from framework.protocols import Budget
from framework.registry import Registry
from framework.tournament.config import ExecutorConfig, _budget, _executor, _Reader, agent_entry
from framework.tournament.executors import Executor, make_executor
from framework.tournament.store import Store
from framework.tournament.tasks import Beat, WorkerContext, derive_seed

KEYS = {"name": True, "mode": True, "game": True, "positions": True, "solvers": True, "budget": True,
        "seed": True, "workers": False, "results": False, "executor": False}
PROVEN = ("win", "loss", "draw")
DEFAULT_BUDGET = Budget(time=10.0, nodes=20_000)


@dataclass(frozen=True)
class SolverEntry:
    """A solver under an id: an agent name and its parameters."""

    id: str
    agent: str
    params: Mapping[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "agent": self.agent, "params": dict(self.params)}


@dataclass(frozen=True)
class SolveConfig:
    """A validated solve run."""

    path: Path
    name: str
    game: str
    positions_file: str
    positions: tuple[str, ...]
    claims: tuple[str, ...]
    solvers: tuple[SolverEntry, ...]
    budget: Budget
    seed: int
    workers: int
    results: Path
    executor: ExecutorConfig = field(default_factory=ExecutorConfig)
    plugins: tuple[str, ...] = ()

    def resolved(self) -> dict[str, Any]:
        return {"name": self.name, "mode": "solve", "game": self.game, "positions_file": self.positions_file,
                "positions": list(self.positions), "claims": list(self.claims),
                "solvers": [s.as_dict() for s in self.solvers],
                "budget": {"time": self.budget.time, "nodes": self.budget.nodes}, "seed": self.seed}

    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(self.resolved(), sort_keys=True).encode()).hexdigest()[:16]


def is_solve_file(path: str | Path) -> bool:
    """Whether a run file asks for a solve run (`mode: solve`); unreadable files are left to the loaders."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("mode") == "solve"


def load_solve_config(path: str | Path, registry: Registry | None = None) -> SolveConfig:
    """Read and validate a solve-run file; ConfigError names the file and key of the first mistake."""
    path = Path(path)
    r = _Reader(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read solve file '{path}': {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    data = r.mapping(data, "", KEYS)
    r.choice(data.get("mode"), "mode", ("solve",))
    registry = registry or Registry()
    game_name = r.string(data.get("game"), "game")
    try:
        game = registry.create_game(game_name)
    except PluginError as exc:
        raise r.fail("game", str(exc)) from None
    positions_file = r.string(data.get("positions"), "positions")
    try:
        entries = read_positions(str(path.parent / positions_file), game)
    except (ConfigError, PositionError) as exc:
        raise r.fail("positions", str(exc)) from None
    solvers = _solvers(r, data.get("solvers"), registry, game)
    budget = _budget(r, data.get("budget"), "budget") if "budget" in data else DEFAULT_BUDGET
    if budget.time is None and budget.nodes is None:
        raise r.fail("budget", "expected a node and/or time limit per position, e.g. {nodes: 20000, time: 10}")
    name = r.string(data.get("name", path.stem), "name")
    return SolveConfig(path=path, name=name, game=game_name, positions_file=positions_file,
                       positions=tuple(e.position for e in entries), claims=tuple(e.result for e in entries),
                       solvers=solvers, budget=budget, seed=r.integer(data.get("seed", 0), "seed", 0),
                       workers=r.integer(data.get("workers", 1), "workers", 1),
                       results=Path(r.string(data.get("results", f"results/{name}"), "results")),
                       executor=_executor(r, data.get("executor")))


def _solvers(r: _Reader, entries: Any, registry: Registry, game: Any) -> tuple[SolverEntry, ...]:
    if not isinstance(entries, list) or not entries:
        raise r.fail("solvers", f"expected a list of solvers, got {entries!r}")
    out: list[SolverEntry] = []
    for i, entry in enumerate(entries):
        key = f"solvers[{i}]"
        entry = r.mapping(entry, key, {"id": 1, "agent": 1, "params": 1})
        sid, agent, _, params = agent_entry(r, entry, key, registry, [s.id for s in out], "solver")
        try:
            built = registry.create_agent(agent, game, params, where=key)
        except ConfigError as exc:
            raise r.fail(key, str(exc)) from None
        if not callable(getattr(built, "solve", None)):
            raise r.fail(f"{key}.agent", f"agent '{agent}' cannot solve positions (it has no solve method)")
        out.append(SolverEntry(sid, agent, params))
    return tuple(out)


@dataclass(frozen=True)
class SolveOutcome:
    """What one solver found on one position: the value, nodes in both conventions, times."""

    task: "SolveTask"
    value: str
    move: str | None
    nodes: int
    nodes_first: int
    depth: int
    wall_time: float
    cpu_time: float
    reason: str
    extra: str = "{}"


@dataclass(frozen=True)
class SolveTask:
    """Solve position `index` with one solver within the run's budget."""

    key: str
    index: int
    position: str
    solver: SolverEntry
    game: str
    budget: Budget
    seed: int
    plugins: tuple[str, ...] = ()

    def hard_limit(self) -> float:
        """Seconds after which the supervisor stops the solver: twice the time budget plus a second."""
        return 2 * self.budget.time + 1.0 if self.budget.time is not None else 3600.0

    def run(self, context: WorkerContext, beat: Beat) -> SolveOutcome:
        beat(self.hard_limit(), None)
        game = context.game(self.plugins, self.game, {})
        agent = context.registry(self.plugins).create_agent(self.solver.agent, game, self.solver.params,
                                                            seed=self.seed)
        state = game.from_text(self.position)
        result = agent.solve(game, state, self.budget)
        stats = result.stats
        move = None if result.move is None else game.format_move(state, result.move)
        first = stats.extra.get("nodes_first_reaching_depth", stats.nodes)
        return SolveOutcome(self, result.value.value, move, stats.nodes, first, stats.depth, stats.wall_time,
                            stats.cpu_time, "solved" if result.value.value in PROVEN else "budget",
                            json.dumps(_plain(stats.extra), sort_keys=True))

    def timed_out(self, progress: list, limit: float) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, 0, limit, limit, f"stopped after {limit:g}s (hard limit)")

    def died(self, progress: list, reason: str) -> SolveOutcome:
        return SolveOutcome(self, "unknown", None, 0, 0, 0, 0.0, 0.0, f"crashed: {reason}")


def _plain(value: Any) -> Any:
    """JSON-safe copy of a stats `extra` mapping (tuples to lists, other objects to text)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value if isinstance(value, (int, float, str, bool, type(None))) else str(value)


def solve_key(index: int, solver: str) -> str:
    return f"position {index} by {solver}"


def schedule_solves(config: SolveConfig) -> list[SolveTask]:
    """Every (position, solver) task, position by position so partial runs compare solvers on the same set."""
    return [SolveTask(key=solve_key(i, s.id), index=i, position=position, solver=s, game=config.game,
                      budget=config.budget, seed=derive_seed(config.seed, solve_key(i, s.id)),
                      plugins=config.plugins)
            for i, position in enumerate(config.positions) for s in config.solvers]


def disagreements(rows: Iterable[tuple[int, str, str]], claims: tuple[str, ...]) -> list[str]:
    """Every position whose proven values differ between solvers or from the file's claimed result.

    `rows` are (position index, solver id, value); unknown values prove nothing and are ignored.
    """
    proven: dict[int, dict[str, str]] = {}
    for index, solver, value in rows:
        if value in PROVEN:
            proven.setdefault(index, {})[solver] = value
    out = []
    for index in sorted(proven):
        values = proven[index]
        claim = claims[index] if index < len(claims) else "unknown"
        if len(set(values.values()) | ({claim} if claim in PROVEN else set())) > 1:
            found = ", ".join(f"{solver} {value}" for solver, value in sorted(values.items()))
            out.append(f"position {index}: {found}" + (f" (the file claims {claim})" if claim in PROVEN else ""))
    return out


def check_agreement(rows: Iterable[tuple[int, str, str]], claims: tuple[str, ...], where: str) -> None:
    """Raise SolveDisagreementError listing every disagreement, if there is any."""
    found = disagreements(rows, claims)
    if found:
        raise SolveDisagreementError(f"{where}: solvers disagree on the value of {len(found)} position(s) — a bug "
                                     f"in a solver or a game: {'; '.join(found[:10])}")


@dataclass(frozen=True)
class SolveSummary:
    total: int
    resumed: int
    solved_now: int


def run_solves(config: SolveConfig, *, quiet: bool = False,
               executor_factory: Callable[[SolveConfig], Executor] | None = None) -> SolveSummary:
    """Run every (position, solver) task not yet stored in the results folder, checking agreement as results come."""
    store = Store(config.results)
    try:
        store.bind(config.resolved(), config.fingerprint(), {})
        if "host" not in store.meta():
            store.note("host", {"cpus": os.cpu_count(), "load": [round(x, 1) for x in os.getloadavg()],
                                "workers": config.workers})
        rows = store.solve_values()
        check_agreement(rows, config.claims, str(config.results))
        tasks = schedule_solves(config)
        done = store.done()
        pending = [t for t in tasks if t.key not in done]
        if not pending:
            return SolveSummary(len(tasks), len(tasks), 0)
        executor = (executor_factory or (lambda c: make_executor(c.executor, c.workers)))(config)
        bar = tqdm(total=len(tasks), initial=len(tasks) - len(pending), desc=config.name, unit="solve",
                   disable=quiet, dynamic_ncols=True)
        count = 0
        try:
            for outcome in executor.results(pending):
                store.save_solve(outcome)
                rows.append((outcome.task.index, outcome.task.solver.id, outcome.value))
                count += 1
                bar.update(1)
                check_agreement([r for r in rows if r[0] == outcome.task.index], config.claims, str(config.results))
        finally:
            bar.close()
            executor.close()
        return SolveSummary(len(tasks), len(tasks) - len(pending), count)
    finally:
        store.close()

