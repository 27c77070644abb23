"""The game conformance suite: every rule of the Game protocol, checked on real play.

A game author runs it with one import and a subclass whose name starts with `Test`::

    from framework.conformance import GameConformance

    class TestMyGame(GameConformance):
        game_factory = MyGame                  # any callable returning the game
        perft = {1: 9, 2: 72}                  # known counts from the initial state
        positions = ["XXO/.X./O.. o"]          # sample position texts to play out from
        bad_positions = ["XXO/.X. o"]          # texts from_text must reject (PositionError)
        bad_moves = [(None, "d4")]             # (position text or None for the start, move text)

pytest collects the inherited `test_*` methods. Each check is also a plain function
(`check_state`, `check_playouts`, ...) for use outside pytest. A failed check raises
`ConformanceFailure` (an AssertionError) saying which state and move broke which rule.

What is checked, after OpenSpiel's random-simulation and serialization tests and
python-chess's perft files:
- seeded random playouts from the initial state and from every sample position, where at
  every state: the state is hashable and `to_text`/`from_text` round-trips to an equal state
  with an equal hash (and `hash_key`, if present) and the same side to move; a terminal state
  has no legal moves and well-formed returns (one per seat; for two players zero-sum, each -1, 0 or 1;
  for more, each in [-1, 1]); the mover is a seat, or CHANCE in a game with `chance_outcomes`, whose
  outcomes are the legal moves, each with a probability > 0, summing to 1; a non-terminal one
  has at least one legal move; legal moves are hashable and distinct, each one's notation is
  distinct and parses back to it, and `apply` returns a new state without mutating its input;
  `ordered_moves` (if present) is a permutation of the legal moves;
- known perft counts (`framework.perft.perft`), and the game's own `perft` capability agrees
  with the generic count wherever the known count is small;
- malformed position and move texts raise PositionError / MoveParseError quoting the input.
"""

from __future__ import annotations

import copy
import inspect
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from framework.capabilities import capabilities, player_count
from framework.errors import MoveParseError, PositionError
from framework.perft import generic_perft, perft
from framework.protocols import CHANCE, Game, State
from framework.registry import GAME_MEMBERS

#: How far the chance probabilities of a state may sum from 1 (floats of exact fractions like 1/6).
PROBABILITY_TOLERANCE = 1e-12


class ConformanceFailure(AssertionError):
    """A game broke a rule of the Game protocol; the message names the state and the rule."""


def _fail(game: Game, state: State | None, rule: str) -> None:
    where = ""
    if state is not None:
        try:
            where = f" at '{game.to_text(state)}'"
        except Exception:  # the state may be what is broken; fall back to its repr
            where = f" at {state!r}"
    raise ConformanceFailure(f"{getattr(game, 'name', type(game).__name__)}{where}: {rule}")


def check_game_object(game: Game) -> None:
    """The game has the required attributes and methods of the Game protocol."""
    if not isinstance(game, Game):
        missing = [n for n in GAME_MEMBERS if not hasattr(game, n)]
        _fail(game, None, f"does not implement the Game protocol; missing: {', '.join(missing)}")
    if not isinstance(game.name, str) or not game.name:
        _fail(game, None, f"name must be a non-empty string, got {game.name!r}")
    seats = player_count(game)
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 2:
        _fail(game, None, f"num_players must be an integer of at least 2, got {seats!r}")
    names = game.player_names
    if not isinstance(names, tuple) or len(names) != seats or not all(isinstance(n, str) for n in names):
        _fail(game, None, f"player_names must be a tuple of {seats} strings (one per seat), got {names!r}")


def check_text_round_trip(game: Game, state: State) -> None:
    """`from_text(to_text(state))` is an equal state with the same hash, hash_key and side to move."""
    text = game.to_text(state)
    if not isinstance(text, str):
        _fail(game, state, f"to_text returned {type(text).__name__}, not str")
    again = game.from_text(text)
    if again != state:
        _fail(game, state, f"from_text(to_text(state)) gives a different state: {again!r} != {state!r}")
    if hash(again) != hash(state):
        _fail(game, state, "equal states have different hashes")
    if game.to_move(again) != game.to_move(state):
        _fail(game, state, "the text round trip changed the side to move")
    if game.to_text(again) != text:
        _fail(game, state, f"to_text is not stable: '{text}' then '{game.to_text(again)}'")
    hash_key = capabilities(game).hash_key
    if hash_key is not None and hash_key(again) != hash_key(state):
        _fail(game, state, "hash_key differs between equal states")


def check_returns(game: Game, state: State) -> None:
    """Returns of a terminal state: one number per seat; two players: zero-sum, each -1, 0 or 1; more: in [-1, 1]."""
    returns = game.returns(state)
    seats = player_count(game)
    if not isinstance(returns, tuple) or len(returns) != seats:
        _fail(game, state, f"returns must be a tuple of {seats} numbers (one per seat), got {returns!r}")
    if seats == 2 and (any(r not in (-1, 0, 1) for r in returns) or returns[0] + returns[1] != 0):
        _fail(game, state, f"terminal returns must be zero-sum and each -1, 0 or 1, got {returns!r}")
    if seats > 2 and not all(isinstance(r, (int, float)) and -1 <= r <= 1 for r in returns):
        _fail(game, state, f"terminal returns must each be a number from -1 to 1, got {returns!r}")


def check_chance_node(game: Game, state: State, moves: Sequence) -> None:
    """The outcomes of a chance node are its legal moves, each once, with probabilities > 0 summing to 1."""
    outcomes = capabilities(game).chance_outcomes
    if outcomes is None:
        _fail(game, state, "to_move is CHANCE but the game declares no chance_outcomes")
        return
    pairs = list(outcomes(state))
    if sorted(map(repr, (o for o, _ in pairs))) != sorted(map(repr, moves)):
        _fail(game, state, f"chance_outcomes {[o for o, _ in pairs]!r} are not the legal moves {list(moves)!r}")
    if any(not p > 0 for _, p in pairs):
        _fail(game, state, f"every chance outcome needs a probability > 0, got {pairs!r}")
    total = math.fsum(float(p) for _, p in pairs)
    if abs(total - 1) > PROBABILITY_TOLERANCE:
        _fail(game, state, f"chance probabilities sum to {total!r}, not 1")


def check_state(game: Game, state: State) -> list:
    """Every per-state rule (see the module docstring); returns the legal moves."""
    try:
        hash(state)
    except TypeError as exc:
        _fail(game, state, f"state is not hashable: {exc}")
    mover = game.to_move(state)
    seats = player_count(game)
    if mover not in range(seats) and not (mover == CHANCE and not game.is_terminal(state)):
        _fail(game, state, f"to_move must be a seat from 0 to {seats - 1} (or CHANCE at a chance node), got {mover!r}")
    check_text_round_trip(game, state)
    if not isinstance(game.render(state), str):
        _fail(game, state, "render must return a string")
    moves = list(game.legal_moves(state))
    terminal = game.is_terminal(state)
    if terminal and moves:
        _fail(game, state, f"a terminal state has {len(moves)} legal moves; it must have none")
    if not terminal and not moves:
        _fail(game, state, "a non-terminal state has no legal moves (a game with passes must offer the pass)")
    if terminal:
        check_returns(game, state)
        return moves
    if len(set(moves)) != len(moves):
        _fail(game, state, "legal_moves contains duplicates")
    if mover == CHANCE:
        check_chance_node(game, state, moves)
    ordered = capabilities(game).ordered_moves
    if ordered is not None and sorted(map(repr, ordered(state))) != sorted(map(repr, moves)):
        _fail(game, state, "ordered_moves is not a permutation of legal_moves")
    snapshot, snapshot_hash, snapshot_text = copy.deepcopy(state), hash(state), game.to_text(state)
    notations: dict[str, Any] = {}
    for move in moves:
        notation = game.format_move(state, move)
        if not isinstance(notation, str) or not notation:
            _fail(game, state, f"format_move({move!r}) must be a non-empty string, got {notation!r}")
        if notation in notations:
            _fail(game, state, f"moves {notations[notation]!r} and {move!r} have the same notation '{notation}'")
        notations[notation] = move
        try:
            parsed = game.parse_move(state, notation)
        except MoveParseError as exc:
            _fail(game, state, f"parse_move rejects '{notation}', the notation format_move gave for {move!r}: {exc}")
        if parsed != move:
            _fail(game, state, f"parse_move('{notation}') gives {parsed!r}, not the move {move!r}")
        child = game.apply(state, move)
        hash(child)
        if state != snapshot or hash(state) != snapshot_hash or game.to_text(state) != snapshot_text:
            _fail(game, snapshot, f"apply of '{notation}' mutated its input state")
    return moves


def check_playouts(game: Game, start: State, playouts: int, seed: int, max_plies: int) -> int:
    """Seeded random playouts from `start`, every state checked; returns the number of states checked."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(playouts):
        state = start
        for _ in range(max_plies + 1):
            moves = check_state(game, state)
            checked += 1
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
    return checked


def check_perft(game: Game, start: State, counts: Mapping[int, int], cross_check_leaves: int) -> None:
    """Known perft counts; the game's own perft capability agrees with the generic one on small counts."""
    for depth, expected in sorted(counts.items()):
        got = perft(game, start, depth)
        if got != expected:
            _fail(game, start, f"perft({depth}) is {got:,}, expected {expected:,}")
        if capabilities(game).perft is not None and expected <= cross_check_leaves:
            generic = generic_perft(game, start, depth)
            if generic != got:
                _fail(game, start, f"the game's perft({depth}) = {got:,} disagrees with generic perft = {generic:,}")


def check_bad_positions(game: Game, texts: Sequence[str]) -> None:
    """Each text is rejected by `from_text` with a PositionError that quotes it."""
    for text in texts:
        try:
            state = game.from_text(text)
        except PositionError as exc:
            if text.strip() not in str(exc):
                _fail(game, None, f"the PositionError for '{text}' does not quote it: {exc}")
            continue
        _fail(game, None, f"from_text accepted the malformed position '{text}' as {state!r}")


def check_bad_moves(game: Game, cases: Sequence[tuple[str | None, str]]) -> None:
    """Each (position text or None for the start, move text) is rejected with a MoveParseError quoting it."""
    for position, text in cases:
        state = game.initial_state() if position is None else game.from_text(position)
        try:
            move = game.parse_move(state, text)
        except MoveParseError as exc:
            if text.strip() not in str(exc):
                _fail(game, state, f"the MoveParseError for '{text}' does not quote it: {exc}")
            continue
        _fail(game, state, f"parse_move accepted the bad move '{text}' as {move!r}")


class GameConformance:
    """Base class of a game's conformance tests: subclass as `TestYourGame` and set the attributes."""

    #: Callable returning the game under test (a class, a function, a lambda).
    game_factory: Callable[[], Game]
    #: Known perft counts from the initial state, {depth: leaves}.
    perft: Mapping[int, int] = {}
    #: Known perft counts from other positions, {position text: {depth: leaves}}.
    position_perft: Mapping[str, Mapping[int, int]] = {}
    #: Sample position texts: each must round-trip and is played out from.
    positions: Sequence[str] = ()
    #: Malformed position texts that from_text must reject.
    bad_positions: Sequence[str] = ()
    #: (position text or None for the initial state, move text) pairs that parse_move must reject.
    bad_moves: Sequence[tuple[str | None, str]] = ()
    #: Random playouts from the initial state, and from each sample position.
    playouts: int = 10
    playouts_per_position: int = 2
    #: A playout stops after this many plies (games with draw rules need no history here).
    max_plies: int = 400
    seed: int = 0
    #: The game's own perft capability is cross-checked against the generic one up to this many leaves.
    cross_check_leaves: int = 100_000

    def make_game(self) -> Game:
        factory = inspect.getattr_static(self, "game_factory", None)
        if factory is None:
            raise TypeError(f"{type(self).__name__} must set game_factory to a callable returning the game")
        if isinstance(factory, (staticmethod, classmethod)):
            factory = factory.__get__(None, type(self))
        return factory()

    def test_game_object(self) -> None:
        check_game_object(self.make_game())

    def test_random_playouts_from_the_initial_state(self) -> None:
        game = self.make_game()
        check_playouts(game, game.initial_state(), self.playouts, self.seed, self.max_plies)

    def test_random_playouts_from_sample_positions(self) -> None:
        game = self.make_game()
        for i, text in enumerate(self.positions):
            state = game.from_text(text)
            if game.to_text(state) != text:
                _fail(game, state, f"the sample position '{text}' is written back as '{game.to_text(state)}'")
            check_playouts(game, state, self.playouts_per_position, self.seed + i, self.max_plies)

    def test_perft_from_the_initial_state(self) -> None:
        game = self.make_game()
        check_perft(game, game.initial_state(), self.perft, self.cross_check_leaves)

    def test_perft_from_sample_positions(self) -> None:
        game = self.make_game()
        for text, counts in self.position_perft.items():
            check_perft(game, game.from_text(text), counts, self.cross_check_leaves)

    def test_bad_positions_are_rejected(self) -> None:
        check_bad_positions(self.make_game(), self.bad_positions)

    def test_bad_moves_are_rejected(self) -> None:
        check_bad_moves(self.make_game(), self.bad_moves)
