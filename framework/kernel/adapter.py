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
`chance_probability` from its `chance_outcomes` (as floats), `player_return` from its `returns`, and
`pass_to` from the game's `pass_to` capability. So a search through the
adapter visits the same nodes and finds the same values as one written over the Game protocol.

The interned states live as long as the adapter: make one per decision (a search of N distinct states
keeps N states, as a transposition table over them would).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from framework.capabilities import capabilities
from framework.kernel.api import DRAW, LOSS, ONGOING, WIN
from framework.protocols import Game, Heuristic, State


class KernelAdapter:
    """`game` (and optionally the `heuristic` a search evaluates with) behind `framework.kernel.api`.

    What the game answers of a state is asked once and kept by the state's id: its mover and whether and
    how it ended when it is interned (a search visits every state it makes), its key, legal moves, hints
    and each move's child when first asked. A search meets the same states again (iterative deepening,
    transpositions), and a list read costs less than a call into the game (and, for a child, hashing it)."""

    def __init__(self, game: Game, heuristic: Heuristic | None = None) -> None:
        self.game = game
        self.heuristic = heuristic
        #: Interned states and moves, indexed by id, and the ids by state and by move.
        self.states: list[State] = []
        self.moves: list[Hashable] = []
        self.state_ids: dict[State, int] = {}
        self.move_ids: dict[Hashable, int] = {}
        self._functions = self._bind()

    def to_kernel(self, state: State) -> tuple[int]:
        """The kernel state of a game state (interned on first sight)."""
        kernel_state: tuple[int] = self._functions["to_kernel"](state)
        return kernel_state

    def state(self, kernel_state: Sequence[int]) -> State:
        """The game state of a kernel state."""
        return self.states[kernel_state[0]]

    def move_id(self, move: Hashable) -> int:
        """The int of a game move (interned on first sight)."""
        ids = self.move_ids
        found = ids.get(move)
        if found is None:
            found = ids[move] = len(self.moves)
            self.moves.append(move)
        return found

    def move(self, move_id: int) -> Hashable:
        """The game move of an int."""
        return self.moves[move_id]

    def functions(self) -> dict[str, Callable[..., Any]]:
        """Every name of `framework.kernel.api` (its PRIMITIVES and DERIVED), over this game and heuristic."""
        return {name: f for name, f in self._functions.items() if name != "to_kernel"}

    def _bind(self) -> dict[str, Callable[..., Any]]:
        """The kernel functions (and `to_kernel`), closures over the interned states and what is kept of them."""
        game, heuristic = self.game, self.heuristic
        states, moves, state_ids, move_ids = self.states, self.moves, self.state_ids, self.move_ids
        game_moves, game_apply, game_to_move = game.legal_moves, game.apply, game.to_move
        is_terminal, returns = game.is_terminal, game.returns
        offered = capabilities(game)
        hints = offered.ordered_moves or game_moves
        noisy = offered.is_noisy
        hash_key: Callable[[State], int] = offered.hash_key or hash
        intern_move = self.move_id
        outcomes_of, game_pass = offered.chance_outcomes, offered.pass_to
        probabilities: dict[int, dict[int, float]] = {}
        # Per state id: its mover, returns (None while the game goes on), then, None until first asked
        # (grown by doubling), its search key, legal moves, hints and children by move id (the kernel
        # states applied so far).
        movers: list[int] = []
        results: list[Sequence[float] | None] = []
        children: list[dict[int, tuple[int]] | None] = []
        keys: list[tuple[int] | None] = []
        legal: list[list[int] | None] = []
        hinted: list[list[int] | None] = []

        def intern(state: State) -> tuple[int]:
            at = state_ids[state] = len(states)
            states.append(state)
            movers.append(game_to_move(state))
            results.append(returns(state) if is_terminal(state) else None)
            if at == len(keys):
                grow = [None] * (at + 64)
                keys.extend(grow)
                legal.extend(grow)
                hinted.extend(grow)
                children.extend(grow)
            return (at,)

        def to_kernel(state: State) -> tuple[int]:
            found = state_ids.get(state)
            return intern(state) if found is None else (found,)

        def ids_of(game_moves_list: Sequence[Hashable]) -> list[int]:
            try:
                return list(map(move_ids.__getitem__, game_moves_list))
            except KeyError:           # a move not seen before: intern them in order
                return [intern_move(m) for m in game_moves_list]

        def kept_moves(state: tuple[int]) -> list[int]:
            found = legal[state[0]]
            if found is None:
                found = legal[state[0]] = ids_of(game_moves(states[state[0]]))
            return found

        def legal_moves(state: tuple[int]) -> list[int]:
            return kept_moves(state)[:]     # the search reorders its list

        def ordered_moves(state: tuple[int]) -> list[int]:
            found = hinted[state[0]]
            if found is None:
                found = hinted[state[0]] = ids_of(hints(states[state[0]]))
            return found[:]

        def move_count(state: tuple[int]) -> int:
            found = legal[state[0]]
            return len(game_moves(states[state[0]])) if found is None else len(found)

        def random_move(state: tuple[int], draw: int) -> int:
            found = kept_moves(state)       # not a copy: only read
            return found[(draw * len(found)) >> 32]

        def apply_move(state: tuple[int], move: int) -> tuple[int]:
            known = children[state[0]]
            if known is None:
                known = children[state[0]] = {}
            kernel_child = known.get(move)
            if kernel_child is None:
                child = game_apply(states[state[0]], moves[move])
                found = state_ids.get(child)
                kernel_child = known[move] = intern(child) if found is None else (found,)
            return kernel_child

        def to_move(state: tuple[int]) -> int:
            return movers[state[0]]

        def outcome(state: tuple[int], player: int, option: int) -> int:
            found = results[state[0]]
            if found is None:
                return ONGOING
            r = found[player]
            return WIN if r > 0 else LOSS if r < 0 else DRAW

        def search_key(state: tuple[int]) -> tuple[int]:
            found = keys[state[0]]
            if found is None:
                found = keys[state[0]] = (hash_key(states[state[0]]),)
            return found

        def is_capture(state: tuple[int], move: int) -> bool:
            return noisy is not None and noisy(states[state[0]], moves[move])

        def move_rank(state: tuple[int], move: int) -> int:
            return ordered_moves(state).index(move)

        def evaluate(state: tuple[int], player: int, weights: Any) -> float:
            return heuristic.evaluate(states[state[0]], player)  # type: ignore[union-attr]

        def score(state: tuple[int], weights: Any) -> float:
            return evaluate(state, 0, weights)

        def terminal_score(state: tuple[int], player: int, ply: int, result: int) -> float:
            s = states[state[0]]
            if heuristic is None:
                return float(returns(s)[player])
            return heuristic.terminal(s, player, ply)

        def chance_probability(state: tuple[int], move: int) -> float:
            table = probabilities.get(state[0])
            if table is None:
                table = probabilities[state[0]] = {intern_move(o): float(p)
                                                   for o, p in outcomes_of(states[state[0]])}  # type: ignore[misc]
            return table[move]

        def player_return(state: tuple[int], player: int) -> float:
            return float(results[state[0]][player])  # type: ignore[index]  # asked only of a state that is over

        def pass_to(state: tuple[int], seat: int) -> tuple[int]:
            child = game_pass(states[state[0]], seat)  # type: ignore[misc]
            found = state_ids.get(child)
            return intern(child) if found is None else (found,)

        return {"legal_moves": legal_moves, "apply_move": apply_move, "to_move": to_move, "outcome": outcome,
                "search_key": search_key, "is_capture": is_capture, "move_rank": move_rank, "score": score,
                "ordered_moves": ordered_moves, "move_count": move_count, "random_move": random_move,
                "evaluate": evaluate,
                "terminal_score": terminal_score, "chance_probability": chance_probability,
                "player_return": player_return, "pass_to": pass_to, "to_kernel": to_kernel}


class PassThroughAdapter(KernelAdapter):
    """`game` behind `framework.kernel.api` with nothing interned: its own states and moves pass through.

    For a search that only runs as Python here and keeps states in Python containers (the proof-number
    family: trees and tables of states, never int arrays): it pays no interning and holds no state beyond
    what the search itself keeps, so a search bounded in memory stays bounded (an interning adapter keeps
    every state it met). Same answers as `KernelAdapter`: states compare as the game's do, `search_key`
    is the same 1-tuple. The move lists are the game's own sequences: not for a search that reorders them.
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

    def functions(self) -> dict[str, Callable[..., Any]]:
        game, heuristic = self.game, self.heuristic
        game_moves = game.legal_moves
        is_terminal, returns = game.is_terminal, game.returns
        offered = capabilities(game)
        hints = offered.ordered_moves or game_moves
        noisy = offered.is_noisy
        hash_key: Callable[[State], int] = offered.hash_key or hash

        def move_count(state: State) -> int:
            return len(game_moves(state))

        def random_move(state: State, draw: int) -> Hashable:
            moves: Sequence[Hashable] = game_moves(state)
            return moves[(draw * len(moves)) >> 32]

        def outcome(state: State, player: int, option: int) -> int:
            if not is_terminal(state):
                return ONGOING
            r = returns(state)[player]
            return WIN if r > 0 else LOSS if r < 0 else DRAW

        def search_key(state: State) -> tuple[int]:
            return (hash_key(state),)

        def is_capture(state: State, move: Hashable) -> bool:
            return noisy is not None and noisy(state, move)

        def move_rank(state: State, move: Hashable) -> int:
            return list(hints(state)).index(move)

        def evaluate(state: State, player: int, weights: Any) -> float:
            return heuristic.evaluate(state, player)  # type: ignore[union-attr]

        def score(state: State, weights: Any) -> float:
            return evaluate(state, 0, weights)

        def terminal_score(state: State, player: int, ply: int, result: int) -> float:
            if heuristic is None:
                return float(returns(state)[player])
            return heuristic.terminal(state, player, ply)

        outcomes_of, game_pass = offered.chance_outcomes, offered.pass_to

        def chance_probability(state: State, move: Hashable) -> float:
            return float(dict(outcomes_of(state))[move])  # type: ignore[misc]

        def player_return(state: State, player: int) -> float:
            return float(returns(state)[player])

        def pass_to(state: State, seat: int) -> State:
            return game_pass(state, seat)  # type: ignore[misc]

        return {"legal_moves": game_moves, "apply_move": game.apply, "to_move": game.to_move, "outcome": outcome,
                "search_key": search_key, "is_capture": is_capture, "move_rank": move_rank, "score": score,
                "ordered_moves": hints, "move_count": move_count, "random_move": random_move, "evaluate": evaluate,
                "terminal_score": terminal_score, "chance_probability": chance_probability,
                "player_return": player_return, "pass_to": pass_to}
