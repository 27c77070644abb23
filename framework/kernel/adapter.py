"""A plain-Python game seen through the kernel interface, so a search written once runs on any game.

A search is written once against `framework.kernel.api` (ints, tuples of ints, arrays: what compiles). A
game with compiled rules binds that interface to its rules; any other game (tic-tac-toe, matches, a
third-party plugin) goes through a `KernelAdapter`, which interns its states and moves as ints: a kernel
state is the 1-tuple `(id,)` of an interned state, a move an interned move's id, ids given in the order
first seen. Interned states are equal exactly when the game's states are, so a table that compares kernel
states compares the game's; moves likewise, so killers and history read the same as over the game's moves.

Every function answers from the Game protocol and the agent's Python heuristic, as an interpreted search
over the game would: the legal moves in the game's order, its `ordered_moves` hints when it has them, its
`is_noisy` as `is_capture`, `search_key` the game's `hash_key` (Python's `hash` without one), the
heuristic's own `evaluate` and `terminal` (the raw returns without a heuristic); in a game with dice
`chance_probability` from its `chance_outcomes` (as floats, `random_outcome` drawing by them),
`player_return` from its `returns`, and `pass_to` from the game's `pass_to` capability. So a search through the
adapter visits the same nodes and finds the same values as one written over the Game protocol. These
functions are written once (`game_functions`), over the adapter's conversions of states and moves: the
`PassThroughAdapter`'s are the identity (the game's own states and moves pass through).

The interned states live until the adapter forgets them (`forget`, at the start of each decision: a search of
N distinct states keeps N states, as a transposition table over them would).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from framework.capabilities import capabilities
from framework.kernel.api import DRAW, LOSS, ONGOING, WIN, draw_index
from framework.protocols import Game, Heuristic, State


class KernelAdapter:
    """`game` (and optionally the `heuristic` a search evaluates with) behind `framework.kernel.api`.

    The functions are `game_functions`' over interned states and moves. What the game answers of a state that
    a search asks again is kept by the state's id, asked once: its legal moves, hints, key and each move's
    child. A search meets the same states again (iterative deepening, transpositions), and a list read costs
    less than a call into the game (and, for a child, hashing it)."""

    def __init__(self, game: Game, heuristic: Heuristic | None = None) -> None:
        self.game = game
        self.heuristic = heuristic
        #: Interned states and moves, indexed by id, and the ids by state and by move.
        self.states: list[State] = []
        self.moves: list[Hashable] = []
        self.state_ids: dict[State, int] = {}
        self.move_ids: dict[Hashable, int] = {}
        self._functions: dict[str, Callable[..., Any]] | None = None
        #: What `functions` keeps of the states it was asked about (`_kept`), emptied with the states by `forget`.
        self._kept: list[dict[Any, Any]] = []

    def forget(self) -> None:
        """Forget every state and move interned, and all kept of them: the adapter of a new decision (ids are
        given afresh in the order first seen, as by a new adapter)."""
        kept: list[list[Any] | dict[Any, Any]] = [self.states, self.moves, self.state_ids, self.move_ids, *self._kept]
        for each in kept:
            each.clear()

    def to_kernel(self, state: State) -> tuple[int]:
        """The kernel state of a game state (interned on first sight)."""
        found = self.state_ids.get(state)
        if found is None:
            found = self.state_ids[state] = len(self.states)
            self.states.append(state)
        return (found,)

    def state(self, kernel_state: Sequence[int]) -> State:
        """The game state of a kernel state."""
        return self.states[kernel_state[0]]

    def move_id(self, move: Hashable) -> int:
        """The int of a game move (interned on first sight)."""
        found = self.move_ids.get(move)
        if found is None:
            found = self.move_ids[move] = len(self.moves)
            self.moves.append(move)
        return found

    def move(self, move_id: int) -> Hashable:
        """The game move of an int."""
        return self.moves[move_id]

    def move_list(self, moves: Sequence[Hashable]) -> Sequence[Any]:
        """The ints of the game's `moves`, in order (interned on first sight)."""
        try:
            return list(map(self.move_ids.__getitem__, moves))
        except KeyError:           # a move not seen before: intern them in order
            return [self.move_id(m) for m in moves]

    def functions(self) -> dict[str, Callable[..., Any]]:
        """Every name of `framework.kernel.api` (its PRIMITIVES and DERIVED), over this game and heuristic."""
        if self._functions is None:
            f = game_functions(self.game, self.heuristic, self.state, self.to_kernel, self.move, self.move_list)
            self._functions = {**f, **_kept(f, self._kept)}
        return self._functions


class PassThroughAdapter(KernelAdapter):
    """`game` behind `framework.kernel.api` with nothing interned: its own states and moves pass through.

    For a search that only runs as Python here and keeps states in Python containers (the proof-number
    family: trees and tables of states, never int arrays): it pays no interning and holds no state beyond
    what the search itself keeps, so a search bounded in memory stays bounded (an interning adapter keeps
    every state it met). Same answers as `KernelAdapter` (`game_functions`, with conversions that are the
    identity): states compare as the game's do, `search_key` is the same 1-tuple. The move lists are the
    game's own sequences: not for a search that reorders them.
    """

    def to_kernel(self, state: State) -> State:
        return state

    def state(self, kernel_state: Any) -> State:
        return kernel_state

    def move_id(self, move: Hashable) -> Any:
        return move

    def move(self, move_id: Any) -> Hashable:
        move: Hashable = move_id
        return move

    def move_list(self, moves: Sequence[Hashable]) -> Sequence[Any]:
        return moves

    def functions(self) -> dict[str, Callable[..., Any]]:
        return game_functions(self.game, self.heuristic, self.state, self.to_kernel, self.move, self.move_list)


def game_functions(game: Game, heuristic: Heuristic | None, state: Callable[[Any], State],
                   kernel_state: Callable[[State], Any], move: Callable[[Any], Hashable],
                   move_list: Callable[[Sequence[Hashable]], Sequence[Any]]) -> dict[str, Callable[..., Any]]:
    """Every name of `framework.kernel.api` answered by `game` and `heuristic`, the one set of an adapter's
    functions: `state` and `kernel_state` take a kernel state to the game's and back, `move` a kernel move to
    the game's and `move_list` the game's moves to kernel moves (an adapter's conversions)."""
    game_moves, game_apply, game_to_move = game.legal_moves, game.apply, game.to_move
    is_terminal, returns = game.is_terminal, game.returns
    offered = capabilities(game)
    hints = offered.ordered_moves or game_moves
    noisy = offered.is_noisy
    hash_key: Callable[[State], int] = offered.hash_key or hash
    outcomes_of, game_pass = offered.chance_outcomes, offered.pass_to

    def legal_moves(k: Any) -> Sequence[Any]:
        return move_list(game_moves(state(k)))

    def ordered_moves(k: Any) -> Sequence[Any]:
        return move_list(hints(state(k)))

    def move_count(k: Any) -> int:
        return len(game_moves(state(k)))

    def random_move(k: Any, draw: int) -> Any:
        moves = legal_moves(k)
        return moves[draw_index(draw, len(moves))]

    def random_outcome(k: Any, draw: int) -> Any:
        s = state(k)
        chances = dict(outcomes_of(s))  # type: ignore[misc]
        outcomes = game_moves(s)
        r, total = draw / 4294967296.0, 0.0
        for chosen in outcomes:
            total += float(chances[chosen])
            if r < total:
                break
        return move_list([chosen])[0]

    def apply_move(k: Any, m: Any) -> Any:
        return kernel_state(game_apply(state(k), move(m)))

    def to_move(k: Any) -> int:
        return game_to_move(state(k))

    def outcome(k: Any, player: int, option: int) -> int:
        s = state(k)
        if not is_terminal(s):
            return ONGOING
        r = returns(s)[player]
        return WIN if r > 0 else LOSS if r < 0 else DRAW

    def search_key(k: Any) -> tuple[int]:
        return (hash_key(state(k)),)

    def is_capture(k: Any, m: Any) -> bool:
        return noisy is not None and noisy(state(k), move(m))

    def move_rank(k: Any, m: Any) -> int:
        return list(hints(state(k))).index(move(m))

    def evaluate(k: Any, player: int, weights: Any) -> float:
        return heuristic.evaluate(state(k), player)  # type: ignore[union-attr]

    def score(k: Any, weights: Any) -> float:
        return evaluate(k, 0, weights)

    def terminal_score(k: Any, player: int, ply: int, result: int) -> float:
        if heuristic is None:
            return float(returns(state(k))[player])
        return heuristic.terminal(state(k), player, ply)

    def chance_probability(k: Any, m: Any) -> float:
        return float(dict(outcomes_of(state(k)))[move(m)])  # type: ignore[misc]

    def player_return(k: Any, player: int) -> float:
        return float(returns(state(k))[player])

    def pass_to(k: Any, seat: int) -> Any:
        return kernel_state(game_pass(state(k), seat))  # type: ignore[misc]

    return {"legal_moves": legal_moves, "apply_move": apply_move, "to_move": to_move, "outcome": outcome,
            "search_key": search_key, "is_capture": is_capture, "move_rank": move_rank, "score": score,
            "ordered_moves": ordered_moves, "move_count": move_count, "random_move": random_move,
            "random_outcome": random_outcome, "evaluate": evaluate, "terminal_score": terminal_score,
            "chance_probability": chance_probability, "player_return": player_return, "pass_to": pass_to}


def _kept(functions: dict[str, Callable[..., Any]], stores: list[dict[Any, Any]]) -> dict[str, Callable[..., Any]]:
    """`functions`' answers about an interned state that a search asks again, kept by the state's id (in dicts
    added to `stores`): its mover, legal moves (also drawn from by `random_move`), hints, key, outcome and each
    move's child."""
    f_legal, f_hinted, f_apply, f_key = (functions["legal_moves"], functions["ordered_moves"],
                                         functions["apply_move"], functions["search_key"])
    f_to_move, f_outcome, f_count = functions["to_move"], functions["outcome"], functions["move_count"]
    legal: dict[int, Sequence[int]] = {}
    hinted: dict[int, Sequence[int]] = {}
    keys: dict[int, tuple[int]] = {}
    movers: dict[int, int] = {}
    outcomes: dict[tuple[int, int], int] = {}
    children: dict[int, dict[int, tuple[int]]] = {}
    stores.extend((legal, hinted, keys, movers, outcomes, children))

    def kept_moves(state: tuple[int]) -> Sequence[int]:
        found = legal.get(state[0])
        if found is None:
            found = legal[state[0]] = f_legal(state)
        return found

    def legal_moves(state: tuple[int]) -> list[int]:
        return list(kept_moves(state))     # the search reorders its list

    def ordered_moves(state: tuple[int]) -> list[int]:
        found = hinted.get(state[0])
        if found is None:
            found = hinted[state[0]] = f_hinted(state)
        return list(found)

    def move_count(state: tuple[int]) -> int:
        found = legal.get(state[0])
        return f_count(state) if found is None else len(found)

    def random_move(state: tuple[int], draw: int) -> int:
        found = kept_moves(state)      # only read: no copy
        return found[draw_index(draw, len(found))]

    def apply_move(state: tuple[int], move: int) -> tuple[int]:
        known = children.get(state[0])
        if known is None:
            known = children[state[0]] = {}
        child = known.get(move)
        if child is None:
            child = known[move] = f_apply(state, move)
        return child

    def to_move(state: tuple[int]) -> int:
        found = movers.get(state[0])
        if found is None:
            found = movers[state[0]] = f_to_move(state)
        return found

    def outcome(state: tuple[int], player: int, option: int) -> int:
        key = (state[0], player)
        found = outcomes.get(key)
        if found is None:
            found = outcomes[key] = f_outcome(state, player, option)
        return found

    def search_key(state: tuple[int]) -> tuple[int]:
        found = keys.get(state[0])
        if found is None:
            found = keys[state[0]] = f_key(state)
        return found

    def move_rank(state: tuple[int], move: int) -> int:
        return ordered_moves(state).index(move)

    return {"legal_moves": legal_moves, "ordered_moves": ordered_moves, "move_count": move_count,
            "random_move": random_move, "apply_move": apply_move, "to_move": to_move, "outcome": outcome,
            "search_key": search_key, "move_rank": move_rank}
