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

A set chosen that way favours its solver (a position enters only if it proves it cheaply). With
`referees` the set is made without reference to any compared solver, as Winands et al.'s was:

1. Games are played as above. For each distance band (plies from the game's end, e.g. 1-12, 13-24,
   25-36) whose quota is still open, one position is sampled: a distance in the band where the
   eventual winner is to move, drawn from a seed derived from (seed, game, band).
2. The first referee (a solver with a budget far above any comparison's) labels it; only a proven
   win is passed to the second, and a position is kept only when both prove it a win. A referee
   proving another value than the first is a bug in a solver or the game: SolveDisagreementError.
3. Each band keeps an equal share of `count`, by label and band only: never by how cheaply any
   solver proved it. The header counts what happened to every sampled position (kept, proven not a
   win, unresolved within the referee budget, a repeat), since what the referees could not label
   within their budget is what the set leaves out.

With `min_win_plies` N a sampled position is first searched exhaustively (`wins_within`: every line of
N - 1 plies over the game's own rules, no heuristic, no budget, no solver) and dropped, before any referee
is asked, when the side to move can force a win within N - 1 plies: every kept position's shortest forced
win needs at least N plies, established independently of the referees.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shlex
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from framework.agentspec import parse_agent_spec
from framework.errors import ConfigError, SolveDisagreementError
from framework.protocols import Budget, Game, Proof, Solver, State
from framework.registry import Registry
from framework.specs import solve_refusal
from framework.tournament.tasks import derive_seed

DEPTHS = (1, 2)
RANDOM_SHARES = (0.0, 0.1, 0.25)
MAX_PLIES = 160
MAX_BACK = 15
BUCKET_SHARES = (1, 2, 2)
#: Sampled positions by what became of them, in the order the header names them ("shorter win" only with
#: `min_win_plies`: the side to move forces a win in fewer plies, so no referee was asked).
OUTCOMES = ("kept", "shorter win", "not a win", "unresolved", "repeat")


@dataclass(frozen=True)
class Proved:
    """A position proved a win for the side to move, with where it came from.

    `facts` are the note's fields after `result=win` (the proof's length and nodes, or the distance from
    the end and each referee's nodes); `order` is what the set is sorted by (proof nodes, or distance)."""

    position: str
    facts: str
    order: int
    game_index: int
    ply: int
    players: tuple[str, str]

    def line(self, seed: int) -> str:
        return (f"{self.position} | result=win; {self.facts}; "
                f"source=seed {seed} game {self.game_index} ply {self.ply} ({self.players[0]} vs {self.players[1]})")


@dataclass(frozen=True)
class Sampled:
    """A candidate position of one game: its difficulty bucket and what became of it (an OUTCOMES entry)."""

    bucket: int
    outcome: str
    proved: Proved | None = None


def parse_bands(text: str) -> tuple[tuple[int, int], ...]:
    """'1-12,13-24,25-36' -> ((1, 12), (13, 24), (25, 36)): distance bands, in plies from the game's end."""
    try:
        bands = tuple((int(lo), int(hi)) for lo, hi in (part.split("-") for part in text.split(",")))
    except ValueError:
        raise ConfigError(f"distance bands {text!r}: expected FROM-TO,... in plies from the game's end, "
                          f"e.g. 1-12,13-24,25-36") from None
    if any(not 1 <= lo <= hi for lo, hi in bands) or any(a[1] >= b[0] for a, b in zip(bands, bands[1:])):
        raise ConfigError(f"distance bands {text!r}: each band needs 1 <= FROM <= TO and must start after the "
                          f"one before it ends, e.g. 1-12,13-24,25-36")
    return bands


@dataclass(frozen=True)
class Settings:
    """Everything that determines the generated file. `solver` is NAME or NAME:key=value,... (agent parameters).

    The game and the agents have no defaults here: `plyground make-endgames` takes the ones plugins
    declare for its options (`Registry.default_for`), and the file's header names all three.
    With `referees` (two or more solver specs) the set is labelled by them within `referee_budget`
    nodes and split evenly over the distance `bands`; `solver`, `budget`, `easy` and `medium` are unused.
    `min_win_plies` (referees only; 0 is off) drops a sample whose side to move forces a win in fewer plies.
    """

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
    referees: tuple[str, ...] = ()
    referee_budget: int = 10_000_000
    bands: tuple[tuple[int, int], ...] = ((1, 12), (13, 24), (25, 36))
    min_win_plies: int = 0

    def outcomes(self) -> tuple[str, ...]:
        """The OUTCOMES a sampled position can have under these settings."""
        return tuple(o for o in OUTCOMES if o != "shorter win" or self.min_win_plies)

    def quotas(self) -> tuple[int, ...]:
        if self.referees:
            share, extra = divmod(self.count, len(self.bands))
            return tuple(share + (band < extra) for band in range(len(self.bands)))
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

    def bucket_names(self) -> tuple[str, ...]:
        if self.referees:
            return tuple(f"{lo}-{hi} plies" for lo, hi in self.bands)
        return ("easy", "medium", "hard") if self.quotas_on else ("any",)


def create_solver(registry: Registry, game: Game, spec: str, seed: int = 0) -> Solver:
    """The agent named by `spec` (NAME or NAME:key=value,...), refused unless it can solve positions."""
    name, params = parse_agent_spec(spec, "solver")
    refusal = solve_refusal(registry.agent_spec(name), params)
    if refusal is not None:
        raise ConfigError(f"solver '{spec}': {refusal}")
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


def wins_within(game: Game, state: State, plies: int, player: int | None = None) -> bool:
    """True when `player` (default: the side to move) can force a win within `plies` plies of both sides.

    Why: the hard set must say how "no shorter win" is known without trusting a solver. This is the
    plain AND/OR search over the game's own rules (`legal_moves`, `apply`, `is_terminal`, `returns`):
    `player`'s moves are OR nodes, every other mover's (opponents, chance) AND nodes, a finished game is
    a win when `player`'s return is positive. No heuristic, no table, no node budget: every line is
    followed to its end or to `plies`, stopping only where the answer is already decided. A win that the
    opponent's own move completes (in LOA a capture can connect the other side) counts at its ply.
    """
    if player is None:
        player = game.to_move(state)
    if game.is_terminal(state):
        return game.returns(state)[player] > 0
    if plies == 0:
        return False
    children = (game.apply(state, move) for move in game.legal_moves(state))
    if game.to_move(state) == player:
        return any(wins_within(game, child, plies - 1, player) for child in children)
    return all(wins_within(game, child, plies - 1, player) for child in children)


def label(referees: Sequence[tuple[str, Solver]], game: Game, state: State, budget: int) -> tuple[str, tuple[int, ...]]:
    """What the referees make of `state`: ("kept", each referee's nodes) when every one proves the side to
    move wins within `budget` nodes; ("not a win", ()) when the first proves another value; ("unresolved", ())
    when one finds no value. Referees are asked in order, the next only after a proven win.

    Raises SolveDisagreementError when a referee proves another value than the first (a bug in one of them).
    """
    nodes: list[int] = []
    for name, referee in referees:
        result = referee.solve(game, state, Budget(nodes=budget))
        if result.value is Proof.UNKNOWN:
            return "unresolved", ()
        if result.value is not Proof.WIN:
            if not nodes:
                return "not a win", ()
            raise SolveDisagreementError(
                f"referees disagree on {game.to_text(state)!r}: {referees[0][0]} proved a win, {name} a "
                f"{result.value.value} (a bug in a solver or the game: check both on this position)")
        nodes.append(result.stats.nodes)
    return "kept", tuple(nodes)


def _check_plugins(settings: Settings) -> None:
    """Build the game, a player and the solvers once, so a bad name fails here and not in every worker."""
    registry = Registry()
    game = registry.create_game(settings.game)
    heuristics = sorted(spec.name for spec in registry.heuristics_for(settings.game))
    if not heuristics:
        raise ConfigError(f"game '{settings.game}' has no heuristic for the self-play agents to use; "
                          f"the endgame set needs a game with at least one")
    registry.create_agent(settings.player, game, {"depth": DEPTHS[0], "heuristic": heuristics[0]}, where="player")
    for spec in settings.referees or (settings.solver,):
        create_solver(registry, game, spec)


def _agent_choice(rng: random.Random, heuristics: Sequence[str]) -> tuple[int, str, float]:
    return rng.choice(DEPTHS), rng.choice(list(heuristics)), rng.choice(RANDOM_SHARES)


@dataclass(frozen=True)
class Played:
    """One self-play game of the set: the states before each ply, its winner, and the two agents' names."""

    game: Game
    history: list[State]
    winner: int | None
    players: tuple[str, str]


def play(settings: Settings, index: int, registry: Registry) -> Played:
    """Game `index` of the set, a function of (seed, index) only."""
    game = registry.create_game(settings.game)
    heuristics = sorted(spec.name for spec in registry.heuristics_for(settings.game))
    rng = random.Random(derive_seed(settings.seed, "game", index))
    choices = [_agent_choice(rng, heuristics) for _ in range(2)]
    agents = [registry.create_agent(settings.player, game, {"depth": d, "heuristic": h},
                                    seed=derive_seed(settings.seed, index, side), where="player")
              for side, (d, h, _) in enumerate(choices)]
    first, second = (f"{settings.player} depth {d} {h} random {r:g}" for d, h, r in choices)
    names = (first, second)
    state, history = game.initial_state(), list[State]()
    while not game.is_terminal(state) and len(history) < MAX_PLIES:
        history.append(state)
        mover = game.to_move(state)
        if rng.random() < choices[mover][2]:
            move = rng.choice(list(game.legal_moves(state)))
        else:
            move = agents[mover].select_move(game, state, Budget()).move
        state = game.apply(state, move)
    decisive = game.is_terminal(state) and max(game.returns(state)) > 0
    winner = max((0, 1), key=lambda p: game.returns(state)[p]) if decisive else None
    return Played(game, history, winner, names)


def play_and_prove(settings: Settings, index: int, open_buckets: tuple[bool, ...] = ()) -> list[Sampled]:
    """Play game `index` of the set and return its candidates with what became of them.

    `open_buckets`: the buckets whose quota was open when the game was handed out; a closed one is not
    sampled (its quota cannot reopen, so the file does not depend on when that was)."""
    registry = Registry()
    played = play(settings, index, registry)
    if played.winner is None:
        return []
    if settings.referees:
        return _refereed(settings, index, played, registry, open_buckets)
    game, history = played.game, played.history
    solver = create_solver(registry, game, settings.solver, derive_seed(settings.seed, "solver", index))
    out = []
    for back in range(1, min(MAX_BACK, len(history)) + 1):
        position = history[-back]
        if game.to_move(position) != played.winner:
            continue
        proof = prove_win(solver, game, position, settings.budget)
        if proof is None:
            break
        length, nodes = proof
        out.append(Sampled(settings.bucket(nodes), "kept",
                           Proved(game.to_text(position), f"length={length}; nodes={nodes}", nodes, index,
                                  len(history) - back, played.players)))
    return out


def _refereed(settings: Settings, index: int, played: Played, registry: Registry,
              open_buckets: tuple[bool, ...]) -> list[Sampled]:
    """One position per open distance band, at a seeded distance where the winner is to move, labelled."""
    game, history = played.game, played.history
    referees = [(parse_agent_spec(spec, "referee")[0],
                 create_solver(registry, game, spec, derive_seed(settings.seed, "referee", index)))
                for spec in settings.referees]
    out = []
    for band, (lo, hi) in enumerate(settings.bands):
        distances = [d for d in range(lo, min(hi, len(history)) + 1) if game.to_move(history[-d]) == played.winner]
        if not distances or (open_buckets and not open_buckets[band]):
            continue
        back = random.Random(derive_seed(settings.seed, "distance", index, band)).choice(distances)
        position = history[-back]
        if settings.min_win_plies and wins_within(game, position, settings.min_win_plies - 1):
            out.append(Sampled(band, "shorter win"))
            continue
        outcome, nodes = label(referees, game, position, settings.referee_budget)
        named = ", ".join(f"{name} {n}" for (name, _), n in zip(referees, nodes))
        bound = f"min_win_plies={settings.min_win_plies}; " if settings.min_win_plies else ""
        proved = (Proved(game.to_text(position), f"distance={back}; {bound}referees={named}", back, index,
                         len(history) - back, played.players) if outcome == "kept" else None)
        out.append(Sampled(band, outcome, proved))
    return out


class Journal:
    """What became of every game consumed so far, one JSON line each, so an interrupted `generate` resumes
    where it stopped instead of replaying hours of referee work.

    Why it is exact: a game's candidates are a function of (settings, index, open buckets) only, and a
    closed bucket never reopens; an entry made when a bucket was open still holds for the buckets open
    now (the loop skips the closed ones), and it does not depend on `count` (a larger set of the same
    settings goes on from a smaller one's journal) or `patience`. The first line is the other settings: a
    journal of other settings is refused, naming the file and the setting, rather than mixed into this set.
    """

    def __init__(self, path: Path, settings: Settings) -> None:
        self.path = path
        self.done: dict[int, tuple[tuple[bool, ...], list[Sampled]]] = {}
        fingerprint = {key: value for key, value in json.loads(json.dumps(dataclasses.asdict(settings))).items()
                       if key not in ("count", "patience")}
        if path.exists():
            lines = path.read_text(encoding="utf-8").splitlines()
            # a journal from before `min_win_plies` existed was made without it
            recorded = {"min_win_plies": 0, **json.loads(lines[0])} if lines else fingerprint
            differ = [key for key in fingerprint if recorded.get(key) != fingerprint[key]]
            if differ:
                raise ConfigError(f"journal {path}: it was made with other settings ({differ[0]}: "
                                  f"{recorded.get(differ[0])!r}, now {fingerprint[differ[0]]!r}); delete it to start "
                                  f"afresh, or run with the settings it names")
            for line in lines[1:]:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    break  # the line being written when the run was killed
                sampled = [Sampled(bucket, outcome, None if p is None else
                                   Proved(p[0], p[1], p[2], p[3], p[4], tuple(p[5])))
                           for bucket, outcome, p in entry["sampled"]]
                self.done[entry["index"]] = (tuple(entry["open"]), sampled)
        else:
            self._append(fingerprint)

    def get(self, index: int, open_buckets: tuple[bool, ...]) -> list[Sampled] | None:
        """The recorded candidates of game `index`, if it was played with every bucket open now open then."""
        entry = self.done.get(index)
        if entry is None or any(now and not then for now, then in zip(open_buckets, entry[0])):
            return None
        return entry[1]

    def record(self, index: int, open_buckets: tuple[bool, ...], sampled: list[Sampled]) -> None:
        if index in self.done:
            return
        self.done[index] = (open_buckets, sampled)
        self._append({"index": index, "open": open_buckets,
                      "sampled": [(s.bucket, s.outcome, None if s.proved is None else dataclasses.astuple(s.proved))
                                  for s in sampled]})

    def _append(self, record: object) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
            f.flush()
            os.fsync(f.fileno())


def _batch(settings: Settings, indices: range, open_buckets: tuple[bool, ...],
           pool: ProcessPoolExecutor | None, journal: Journal | None) -> Iterator[list[Sampled]]:
    """Each game's candidates in index order; the journal's games are not played again."""
    known = {i: journal.get(i, open_buckets) for i in indices} if journal is not None else {}
    todo = [i for i in indices if known.get(i) is None]
    if pool is None:
        played: Iterator[list[Sampled]] = (play_and_prove(settings, i, open_buckets) for i in todo)
    else:
        n = len(todo)
        played = pool.map(play_and_prove, [settings] * n, todo, [open_buckets] * n)
    for i in indices:
        recorded = known.get(i)
        yield recorded if recorded is not None else next(played)


def _validate(settings: Settings) -> None:
    if settings.count < 1:
        raise ConfigError(f"the number of positions must be at least 1, got {settings.count}")
    if settings.patience < 1:
        raise ConfigError(f"patience must be at least 1 game, got {settings.patience}")
    if settings.min_win_plies < 0:
        raise ConfigError(f"--min-win-plies must be 0 (off) or a number of plies, got {settings.min_win_plies}")
    if settings.min_win_plies and not settings.referees:
        raise ConfigError(f"--min-win-plies {settings.min_win_plies} needs --referee: it filters the positions "
                          f"sampled for the referees (a --solver set keeps what its solver proves)")
    if settings.referees:
        if len(settings.referees) < 2:
            raise ConfigError(f"referees {list(settings.referees)}: name at least two (--referee twice), "
                              f"so every label is agreed by two solvers")
        if settings.referee_budget < 1:
            raise ConfigError(f"the referee budget must be at least 1 node, got {settings.referee_budget}")
    elif not 0 < settings.easy < settings.medium <= settings.budget:
        raise ConfigError(f"expected 0 < easy < medium <= budget nodes, got easy={settings.easy}, "
                          f"medium={settings.medium}, budget={settings.budget}")


def generate(settings: Settings, workers: int = 1, progress: Callable[[int, int], None] | None = None,
             journal: Path | None = None) -> tuple[list[Proved], dict[str, int]]:
    """The set: proven wins from games 0, 1, 2, ... in order until every quota is full, and how many
    sampled positions ended each way (OUTCOMES; only the ones that counted: those of an open bucket).

    `progress(kept, games)` is called after every game. Raises ConfigError when `patience` games in a
    row added nothing (the quotas cannot fill for this game), saying how full each bucket is.
    `journal`: a file recording every game as it is consumed (Journal); a run given the journal of an
    interrupted one resumes it and writes the same set.
    """
    _validate(settings)
    _check_plugins(settings)
    record = Journal(journal, settings) if journal is not None else None
    quotas = list(settings.quotas())
    kept: list[Proved] = []
    tally = dict.fromkeys(settings.outcomes(), 0)
    seen: set[str] = set()
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        start, last_kept = 0, -1
        while any(quotas):
            indices = range(start, start + 4 * workers)
            open_buckets = tuple(q > 0 for q in quotas)
            for index, candidates in zip(indices, _batch(settings, indices, open_buckets, pool, record)):
                if record is not None:
                    record.record(index, open_buckets, candidates)
                for sampled in candidates:
                    if not quotas[sampled.bucket]:
                        continue
                    proved = sampled.proved
                    outcome = "repeat" if proved is not None and proved.position in seen else sampled.outcome
                    tally[outcome] += 1
                    if outcome != "kept" or proved is None:
                        continue
                    seen.add(proved.position)
                    quotas[sampled.bucket] -= 1
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
    kept.sort(key=lambda p: (p.order, p.game_index, p.ply))
    tally["games"] = max((p.game_index for p in kept), default=-1) + 1
    return kept, tally


def _stalled(settings: Settings, left: list[int], games: int) -> str:
    full = ", ".join(f"{name} {quota - rest}/{quota}" for name, quota, rest in
                     zip(settings.bucket_names(), settings.quotas(), left))
    remedy = ("raise --referee-budget, move --bands nearer the end, lower --count" if settings.referees else
              "turn them off (--no-quotas), lower --count, move --easy/--medium")
    return (f"stopped after {games} games of {settings.game}: the last {settings.patience} kept no new position "
            f"(kept so far: {full}); the difficulty quotas may never fill for this game: {remedy}, "
            f"or allow more games without progress (--patience)")


def header(settings: Settings, tally: dict[str, int] | None = None) -> list[str]:
    """Comment lines: the command that makes the file and what a line holds; with referees, what became of
    every sampled position (`tally`, from `generate`)."""
    if settings.referees:
        named = "".join(f" --{option} {shlex.quote(getattr(settings, option))}" for option in ("game", "player"))
        named += "".join(f" --referee {shlex.quote(spec)}" for spec in settings.referees)
        bands = ",".join(f"{lo}-{hi}" for lo, hi in settings.bands)
        shortest = settings.min_win_plies
        lines = [f"# {settings.count} {settings.game} positions, each a win for the side to move agreed by "
                 f"{len(settings.referees)} referees (plyground make-endgames{named} --referee-budget "
                 f"{settings.referee_budget} --bands {bands}" + (f" --min-win-plies {shortest}" if shortest else "")
                 + f" --seed {settings.seed} --count {settings.count})",
                 "# POSITION | note: result (for the side to move, agreed by the referees); distance (plies "
                 "before the self-play game ended); "
                 + ("min_win_plies (no forced win in fewer plies: an exhaustive search found none); " if shortest
                    else "") + "referees (each one's nodes to prove it); source"]
        if tally is not None:
            outcomes = settings.outcomes()
            lines.append(f"# sampled {sum(tally[o] for o in outcomes)} positions from {tally['games']} games: "
                         + ", ".join(f"{tally[o]} {o}" for o in outcomes) + " ("
                         + (f"shorter win: the side to move forces a win within {shortest - 1} plies, found by an "
                            f"exhaustive search before any referee was asked; " if shortest else "")
                         + f"unresolved: a referee found no value within {settings.referee_budget} nodes)")
        return lines
    named = "".join(f" --{option} {shlex.quote(getattr(settings, option))}" for option in ("game", "player", "solver"))
    named += "" if settings.quotas_on else " --no-quotas"
    solver = parse_agent_spec(settings.solver, "solver")[0]
    return [f"# {settings.count} {settings.game} positions, each a proven win for the side to move "
            f"(plyground make-endgames{named} --seed {settings.seed} --count {settings.count} "
            f"--budget {settings.budget} --easy {settings.easy} --medium {settings.medium})",
            "# POSITION | note: result (for the side to move); length (plies, upper bound of the forced win); "
            f"nodes ({solver} proof); source"]


def render(settings: Settings, kept: Sequence[Proved], tally: dict[str, int] | None = None) -> str:
    return "\n".join([*header(settings, tally), *(p.line(settings.seed) for p in kept)]) + "\n"
