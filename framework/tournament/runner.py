"""Run a tournament: schedule its games, skip the stored ones, execute the rest, store each as it ends.

Only this (main) thread writes to the store, one transaction per game, so an interruption
at any moment leaves every finished game stored exactly once; running again plays only
the missing games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from tqdm import tqdm

from framework.params import HeuristicRef
from framework.registry import Registry
from framework.tournament.config import TournamentConfig, load_plugin_file
from framework.tournament.executors import Executor, make_executor
from framework.tournament.scheduler import schedule
from framework.tournament.store import Store


@dataclass(frozen=True)
class RunSummary:
    """What a run did: games in the tournament, already stored before, and played now."""

    total: int
    resumed: int
    played: int


def plugin_versions(config: TournamentConfig, registry: Registry) -> dict[str, str]:
    """Which plugin (and distribution version) provided each game, agent and heuristic the config uses."""
    for file in config.plugins:
        load_plugin_file(registry, file)
    game = registry.create_game(config.game, config.game_options)
    out = {f"game {config.game}": str(registry.games[config.game].provenance)}
    for p in config.participants:
        out[f"agent {p.agent}"] = str(registry.agents[p.agent].provenance)
        for param in registry.agent_spec(p.agent).params:
            if param.type is HeuristicRef:
                name = p.params.get(param.name) or getattr(game, "default_heuristic", None)
                if name is not None:
                    out[f"heuristic {name}"] = str(registry.heuristics[(config.game, name)].provenance)
    return out


class Standings:
    """Running points per participant, for the progress bar."""

    def __init__(self, ids: list[str]) -> None:
        self.points = dict.fromkeys(ids, 0.0)
        self.games = dict.fromkeys(ids, 0)

    def add(self, players: tuple[str, str], winner: int | None) -> None:
        for i, pid in enumerate(players):
            self.games[pid] += 1
            self.points[pid] += 0.5 if winner is None else float(winner == i)

    def line(self, limit: int = 6) -> str:
        ranked = sorted(self.points, key=lambda pid: -self.points[pid])[:limit]
        return " ".join(f"{pid} {self.points[pid]:g}/{self.games[pid]}" for pid in ranked)


def run_tournament(config: TournamentConfig, *, quiet: bool = False, registry: Registry | None = None,
                   executor_factory: Callable[[TournamentConfig], Executor] | None = None) -> RunSummary:
    """Play every game of `config` not yet stored in its results folder."""
    store = Store(config.results)
    try:
        store.bind(config.resolved(), config.fingerprint(), plugin_versions(config, registry or Registry()))
        tasks = schedule(config)
        done = store.done()
        standings = Standings([p.id for p in config.participants])
        for players, winner in _stored_outcomes(store):
            standings.add(players, winner)
        pending = [t for t in tasks if t.key not in done]
        if not pending:
            return RunSummary(len(tasks), len(tasks) - len(pending), 0)
        executor = (executor_factory or (lambda c: make_executor(c.executor, c.workers)))(config)
        bar = tqdm(total=len(tasks), initial=len(tasks) - len(pending), desc=config.name, unit="game",
                   disable=quiet, dynamic_ncols=True)
        played = 0
        try:
            for result in executor.results(pending):
                store.save(result)
                played += 1
                standings.add(result.record.players, result.record.winner)
                bar.update(1)
                bar.set_postfix_str(standings.line(), refresh=False)
        finally:
            bar.close()
            executor.close()
        return RunSummary(len(tasks), len(tasks) - len(pending), played)
    finally:
        store.close()


def _stored_outcomes(store: Store) -> list[tuple[tuple[str, str], int | None]]:
    rows = store.conn.execute("SELECT first, second, winner FROM games").fetchall()
    return [((a, b), None if w is None else (a, b).index(w)) for a, b, w in rows]
