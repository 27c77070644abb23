"""A reproducible test set of proven endgame positions, made by seeded self-play and a solver.

Why: the thesis' LOA comparison (Winands, Uiterwijk & van den Herik, "PDS-PN: A New Proof-Number
Search Algorithm", CG 2002) used 488 endgame positions that are not public, so we build our own
set the same way in spirit and never call it theirs:

1. Game `i` is played from the initial state between two agents (`player`: any registered agent
   with `depth` and `heuristic` parameters) whose depth, heuristic (any
   heuristic registered for the game) and share of random moves are drawn from a seed derived
   from (seed, i); the random moves come from the same seed, so the game is a function of (seed, i).
2. Going back from the end of a decisive game, the positions where the eventual winner is to move
   (1, 3, 5, ... plies before the end) are candidates; each is given to the `solver` (any registered
   agent with the Solver capability that reports `proof_length`, e.g. Allis' proof-number search)
   with a node budget only (no clock, so the answer is deterministic). Candidates are tried nearest
   the end first, and a game's first candidate not proven a win ends its list (deeper ones would
   mostly fail too and cost a full budget each).
3. A proven win is kept unless its position was kept before, and unless its difficulty bucket (the
   proof's node count: below `easy`, below `medium`, up to the budget) already holds its quota; the
   quotas split `count` 1 : 2 : 2, so most positions need real search. On a small game the harder
   buckets may never fill (every tic-tac-toe proof is easy): `quotas=False` keeps any proven win, and
   generation stops with an error when `patience` games in a row kept nothing.

Games are consumed strictly in index order, so the set depends only on the seed and the budget,
never on the number of worker processes. Each kept line records the position, the proven result,
the proof length the solver reports (for proof-number search the deepest line of its proof tree, the
winner choosing the shortest proved move and the defender the longest: a forced win in at most that
many plies), the proof's nodes and the provenance (seed, game, ply, the two agents).
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from framework.agentspec import parse_agent_spec
from framework.errors import ConfigError
from framework.protocols import Budget, Game, Proof, Solver, State
from framework.registry import Registry
from framework.tournament.tasks import derive_seed

DEPTHS = (1, 2)
RANDOM_SHARES = (0.0, 0.1, 0.25)
MAX_PLIES = 160
MAX_BACK = 15
BUCKET_SHARES = (1, 2, 2)


@dataclass(frozen=True)
class Proved:
    """A position the prover proved a win for the side to move, with where it came from."""

    position: str
    length: int
    nodes: int
    game_index: int
    ply: int
    players: tuple[str, str]

    def line(self, seed: int) -> str:
        return (f"{self.position} | result=win; length={self.length}; nodes={self.nodes}; "
                f"source=seed {seed} game {self.game_index} ply {self.ply} ({self.players[0]} vs {self.players[1]})")


@dataclass(frozen=True)
class Settings:
    """Everything that determines the generated file. `solver` is NAME or NAME:key=value,... (agent parameters).

    The game and the agents have no defaults here: `plyground make-endgames` takes the ones plugins
    declare for its options (`Registry.default_for`), and the file's header names all three."""

    game: str
    player: str
    solver: str
    count: int = 488
    seed: int = 2002
    budget: int = 50_000
    easy: int = 1_000
    medium: int = 5_000
    quotas_on: bool = True
    patience: int = 200

    def quotas(self) -> tuple[int, int, int]:
        if not self.quotas_on:
            return self.count, 0, 0  # one bucket holding everything
        total = sum(BUCKET_SHARES)
        first = self.count * BUCKET_SHARES[0] // total
        second = self.count * BUCKET_SHARES[1] // total
        return first, second, self.count - first - second

    def bucket(self, nodes: int) -> int:
        if not self.quotas_on:
            return 0
        return 0 if nodes < self.easy else 1 if nodes < self.medium else 2


def create_solver(registry: Registry, game: Game, spec: str, seed: int = 0) -> Solver:
    """The agent named by `spec` (NAME or NAME:key=value,...), refused unless it can solve positions."""
    name, params = parse_agent_spec(spec, "solver")
    agent = registry.create_agent(name, game, params, seed=seed, where="solver")
    if not isinstance(agent, Solver):
        raise ConfigError(f"solver '{spec}': agent '{name}' cannot solve positions (it has no solve method); "
                          f"name an agent that can ('plyground list' shows the agents)")
    return agent


def prove_win(solver: Solver, game: Game, state: State, budget: int) -> tuple[int, int] | None:
    """(proof length, nodes) when `solver` proves the side to move wins within `budget` nodes, else None.

    A proof whose length the solver could not tell (`proof_length` None) counts as no proof; a
    solver that reports no length at all cannot make the set and is refused.
    """
    result = solver.solve(game, state, Budget(nodes=budget))
    if result.value is not Proof.WIN:
        return None
    if "proof_length" not in result.stats.extra:
        raise ConfigError(f"solver {solver!r} proved a win but reports no proof length "
                          f"(stats.extra['proof_length']); the endgame set records one for every position: "
                          f"use a solver that reports it")
    length = result.stats.extra["proof_length"]
    return None if length is None else (length, result.stats.nodes)


def _check_plugins(settings: Settings) -> None:
    """Build the game, a player and the solver once, so a bad name fails here and not in every worker."""
    registry = Registry()
    game = registry.create_game(settings.game)
    heuristics = sorted(spec.name for spec in registry.heuristics_for(settings.game))
    if not heuristics:
        raise ConfigError(f"game '{settings.game}' has no heuristic for the self-play agents to use; "
                          f"the endgame set needs a game with at least one")
    registry.create_agent(settings.player, game, {"depth": DEPTHS[0], "heuristic": heuristics[0]}, where="player")
    create_solver(registry, game, settings.solver)


def _agent_choice(rng: random.Random, heuristics: Sequence[str]) -> tuple[int, str, float]:
    return rng.choice(DEPTHS), rng.choice(list(heuristics)), rng.choice(RANDOM_SHARES)


def play_and_prove(settings: Settings, index: int) -> list[Proved]:
    """Play game `index` of the set and return its proven candidates, nearest the end first."""
    registry = Registry()
    game = registry.create_game(settings.game)
    heuristics = sorted(spec.name for spec in registry.heuristics_for(settings.game))
    rng = random.Random(derive_seed(settings.seed, "game", index))
    choices = [_agent_choice(rng, heuristics) for _ in range(2)]
    agents = [registry.create_agent(settings.player, game, {"depth": d, "heuristic": h},
                                    seed=derive_seed(settings.seed, index, side), where="player")
              for side, (d, h, _) in enumerate(choices)]
    first, second = (f"{settings.player} depth {d} {h} random {r:g}" for d, h, r in choices)
    names = (first, second)
    solver = create_solver(registry, game, settings.solver, derive_seed(settings.seed, "solver", index))
    state, history = game.initial_state(), list[State]()
    while not game.is_terminal(state) and len(history) < MAX_PLIES:
        history.append(state)
        mover = game.to_move(state)
        if rng.random() < choices[mover][2]:
            move = rng.choice(list(game.legal_moves(state)))
        else:
            move = agents[mover].select_move(game, state, Budget()).move
        state = game.apply(state, move)
    if not game.is_terminal(state) or max(game.returns(state)) <= 0:
        return []
    winner = max((0, 1), key=lambda p: game.returns(state)[p])
    out = []
    for back in range(1, min(MAX_BACK, len(history)) + 1):
        position = history[-back]
        if game.to_move(position) != winner:
            continue
        proof = prove_win(solver, game, position, settings.budget)
        if proof is None:
            break
        out.append(Proved(game.to_text(position), proof[0], proof[1], index, len(history) - back, names))
    return out


def _batch(settings: Settings, indices: range, workers: int,
           pool: ProcessPoolExecutor | None) -> Iterator[list[Proved]]:
    if pool is None:
        return (play_and_prove(settings, i) for i in indices)
    return pool.map(play_and_prove, [settings] * len(indices), indices)


def generate(settings: Settings, workers: int = 1,
             progress: Callable[[int, int], None] | None = None) -> list[Proved]:
    """The set: proven wins from games 0, 1, 2, ... in order until every difficulty quota is full.

    `progress(kept, games)` is called after every game. Raises ConfigError when `patience` games in a
    row added nothing (the quotas cannot fill for this game), saying how full each bucket is.
    """
    if settings.count < 1:
        raise ConfigError(f"the number of positions must be at least 1, got {settings.count}")
    if not 0 < settings.easy < settings.medium <= settings.budget:
        raise ConfigError(f"expected 0 < easy < medium <= budget nodes, got easy={settings.easy}, "
                          f"medium={settings.medium}, budget={settings.budget}")
    if settings.patience < 1:
        raise ConfigError(f"patience must be at least 1 game, got {settings.patience}")
    _check_plugins(settings)
    quotas = list(settings.quotas())
    kept: list[Proved] = []
    seen: set[str] = set()
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        start, last_kept = 0, -1
        while any(quotas):
            indices = range(start, start + 4 * workers)
            for index, candidates in zip(indices, _batch(settings, indices, workers, pool)):
                for proved in candidates:
                    bucket = settings.bucket(proved.nodes)
                    if proved.position in seen or not quotas[bucket]:
                        continue
                    seen.add(proved.position)
                    quotas[bucket] -= 1
                    kept.append(proved)
                    last_kept = index
                if progress is not None:
                    progress(len(kept), index + 1)
                if not any(quotas):
                    break
                if index - last_kept >= settings.patience:
                    raise ConfigError(_stalled(settings, quotas, index + 1))
            start = indices.stop
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    kept.sort(key=lambda p: (p.nodes, p.game_index, p.ply))
    return kept


def _stalled(settings: Settings, left: list[int], games: int) -> str:
    full = ", ".join(f"{name} {quota - rest}/{quota}" for name, quota, rest in
                     zip(("easy", "medium", "hard") if settings.quotas_on else ("any",), settings.quotas(), left))
    return (f"stopped after {games} games of {settings.game}: the last {settings.patience} kept no new position "
            f"(kept so far: {full}); the difficulty quotas may never fill for this game: turn them off "
            f"(--no-quotas), lower --count, move --easy/--medium, or allow more games without progress (--patience)")


def header(settings: Settings) -> list[str]:
    """Two comment lines: the command that makes the file and what a line holds."""
    named = "".join(f" --{option} {shlex.quote(getattr(settings, option))}" for option in ("game", "player", "solver"))
    named += "" if settings.quotas_on else " --no-quotas"
    solver = parse_agent_spec(settings.solver, "solver")[0]
    return [f"# {settings.count} {settings.game} positions, each a proven win for the side to move "
            f"(plyground make-endgames{named} --seed {settings.seed} --count {settings.count} "
            f"--budget {settings.budget} --easy {settings.easy} --medium {settings.medium})",
            "# POSITION | note: result (for the side to move); length (plies, upper bound of the forced win); "
            f"nodes ({solver} proof); source"]


def render(settings: Settings, kept: Sequence[Proved]) -> str:
    return "\n".join([*header(settings), *(p.line(settings.seed) for p in kept)]) + "\n"
