"""The scheduler: a tournament config to the list of independent game tasks.

Pairings: round-robin plays every pair of participants; a gauntlet plays the champion
against each other participant. Each pairing plays `games_per_pairing` games in colour-
swapped pairs: game 2k has the pairing's first-named participant as player 0, game 2k+1
the other, both from the same start (start position k mod P when P positions are given, in file
order or shuffled by the seed, `opening.order`), after the same `opening.random_plies` random
moves (chosen by the seed and k: every pairing's pair k starts alike).
A game of more than two players seats `seats` participants: round-robin plays every group of that
many, a gauntlet the champion with every group of the others; the group's game k seats it rotated by
k mod seats (game 0: the group in config order), so every participant plays every seat equally often
within each `seats` games, all from the same start (the seat-swapped pairs above are the two-seat case).
Seeds come from the tournament seed and the task key alone, so a task's result does not
depend on which worker runs it or when. Tasks are ordered round by round, so partial
results stay balanced across pairings; with several games, game after game (keys then start
with the game's name). A solve run has one task per (position, solver).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import cast

from framework.tournament.config import Opening, TournamentConfig
from framework.tournament.tasks import GameTask, SolveTask, derive_seed


def pairings(config: TournamentConfig) -> list[tuple[str, ...]]:
    """The groups of participant ids that meet (pairs for two-player games), in config order."""
    ids = [p.id for p in config.participants]
    if config.format == "gauntlet":
        others = [pid for pid in ids if pid != config.champion]
        champion = cast(str, config.champion)  # a gauntlet names one (config.py)
        return [(champion, *group) for group in combinations(others, config.seats - 1)]
    return list(combinations(ids, config.seats))


def game_key(pairing: tuple[str, ...], index: int) -> str:
    return f"{' vs '.join(pairing)} #{index}"


def schedule(config: TournamentConfig) -> list[GameTask] | list[SolveTask]:
    """Every game of the tournament, as tasks in round order (solve mode: every solver on every position)."""
    if config.mode == "solve":
        return solve_tasks(config)
    tasks = []
    several = len(config.all_games()) > 1
    opening = config.opening or Opening()
    for game, options in config.all_games():
        positions = list(config.positions_of(game))
        if opening.order == "shuffled":
            random.Random(derive_seed(config.seed, "opening order", *([game] if config.game_positions else []))
                          ).shuffle(positions)
        for index in range(config.games_per_pairing):
            seats = config.seats
            for pairing in pairings(config):
                group = [config.participant(pid) for pid in pairing]
                turn = index % seats
                first, second, *others = group[turn:] + group[:turn]
                start = positions[index // seats % len(positions)] if positions else None
                key = f"{game}: {game_key(pairing, index)}" if several else game_key(pairing, index)
                tasks.append(GameTask(key=key, pairing=pairing, index=index, game=game, first=first,
                                      second=second, others=tuple(others), start=start,
                                      seed=derive_seed(config.seed, key),
                                      max_plies=config.max_plies, move_time_limit=config.move_time_limit,
                                      game_options=dict(options), plugins=config.plugins,
                                      adjudication=config.adjudication, random_plies=opening.random_plies,
                                      opening_seed=derive_seed(config.seed, "opening", game, index // seats),
                                      memory_limit_mb=config.memory_limit_mb))
    return tasks


def solve_tasks(config: TournamentConfig) -> list[SolveTask]:
    """One task per position and solver, position by position, so partial runs compare like with like."""
    tasks = []
    for index, (position, note) in enumerate(zip(config.start_positions, config.position_notes)):
        for solver in config.participants:
            key = f"{solver.id} @ {index}"
            tasks.append(SolveTask(key=key, solver=solver, index=index, position=position, note=note,
                                   game=config.game, seed=derive_seed(config.seed, key),
                                   move_time_limit=config.move_time_limit, game_options=dict(config.game_options),
                                   plugins=config.plugins, memory_limit_mb=config.memory_limit_mb))
    return tasks
