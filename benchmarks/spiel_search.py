"""OpenSpiel's Python alpha-beta on our positions, evaluating with our heuristic, its nodes counted our way.

Shared by `speed.py` and `alphabeta_peers.py`. The peer search is OpenSpiel's own
`open_spiel.python.algorithms.minimax.alpha_beta_search` (plain alpha-beta in
OpenSpiel's action order: no transposition table, no move ordering), run unchanged on
OpenSpiel's C++ states (`pyspiel`); pyspiel exposes no C++ alpha-beta for general games
(only MCTS bots), so this Python search is the OpenSpiel search reachable from Python.

- Leaves: the value function reads OpenSpiel's board (`str(state)`), builds our state from it
  and calls our heuristic for the root's mover, so both sides evaluate the same leaves
  identically and a fixed-depth search of the same tree has the same value. That costs OpenSpiel
  time ours does not spend: timed once from the start (checkers depth 8, LOA `groups` depth 5),
  reading the board took about a fifth of its time, our heuristic a tenth (checkers) and a third
  (LOA; the same Python heuristic our interpreted path calls).
- Terminal states: OpenSpiel scores them +-1 (`player_return`), ours +-WIN_SCORE, and with
  heuristic values beyond 1 that can change which line minimax prefers. So the values agree
  only while no terminal state decides the value within the depth. The positions benchmarked
  (the start, and 16 random plies from it) are far from any end at these depths; a terminal
  that did decide would show as "MISMATCH of values" in `speed.py`, never pass unnoticed.
- Checkers: OpenSpiel plays a multi-jump as one action per jump (the same player moves
  again), so its depth would count jumps. `FullMoveState` shows OpenSpiel's state one full
  move per action (a whole jump sequence), so a depth is the same number of our plies.
- Nodes: every call of `minimax._alpha_beta` (wrapped by `Counted` for the run), i.e. every
  state the search visits — root, interior, depth-limit leaves and terminal states — which is
  our definition of a node (framework/protocols.py). Its tree differs from ours (no TT or
  ordering), so node counts differ; nodes/s and time to the depth compare.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any

from framework.capabilities import capabilities
from framework.protocols import Game, Heuristic, State
from plugins.games.checkers.rules import SQUARE_BIT


def key_of(game: Game) -> Callable[[State], Any]:
    """The game's `hash_key` (the position a state stands for), or the state itself."""
    return capabilities(game).hash_key or (lambda state: state)


class Counted:
    """Wrap `owner.name` (a recursive search function) so every call counts as a node."""

    def __init__(self, owner: Any, name: str) -> None:
        self.owner, self.name, self.calls = owner, name, 0
        self.original: Callable = getattr(owner, name)

    def __enter__(self) -> Counted:
        def counting(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return self.original(*args, **kwargs)
        setattr(self.owner, self.name, counting)
        return self

    def __exit__(self, *exc: object) -> None:
        setattr(self.owner, self.name, self.original)


def _mover(spiel_state: Any, mover: int | None) -> int:
    return spiel_state.current_player() if mover is None else mover


#: OpenSpiel's Lines of Action pieces (`x` is player 0, our Black) as binary digits of each side's bitboard.
LOA_BLACK_BITS, LOA_WHITE_BITS = str.maketrans("xo.", "100"), str.maketrans("xo.", "010")


def loa_state(spiel_state: Any, mover: int | None = None) -> State:
    """Our Lines of Action state `(black, white, mover)` for OpenSpiel's; `mover` names the side to move
    where OpenSpiel has none (a terminal state). OpenSpiel's text has 8 lines of 10 characters (rank
    digit, files a-h, newline), rank 8 first: read each rank from h to a, they are the binary digits of
    a bitboard from h8 (bit 63) down to a1 (bit 0)."""
    text = str(spiel_state)
    cells = "".join(text[10 * rank + 1:10 * rank + 9][::-1] for rank in range(8))
    return int(cells.translate(LOA_BLACK_BITS), 2), int(cells.translate(LOA_WHITE_BITS), 2), \
        _mover(spiel_state, mover)


def _checkers_cells() -> operator.itemgetter:
    """Picks, from OpenSpiel's board text, one character per bit of our bitboards from bit 34 down to 0:
    the square at that bit, or a newline for a ghost bit (rules.py's layout: square s at bit i + i // 8,
    i = s - 1). OpenSpiel's text has 8 lines of 10 characters (rank digit, files a-h, newline), rank 8
    first; our square s (row r from Black's side, column c) is its file `h - c` on rank `r + 1` (see
    tests/plugins/games/test_checkers_openspiel.py)."""
    index = {}
    for square in range(1, 33):
        row, pos = divmod(square - 1, 4)
        column = 2 * pos + (1 if row % 2 == 0 else 0)
        index[SQUARE_BIT[square].bit_length() - 1] = 10 * (7 - row) + 1 + (7 - column)
    return operator.itemgetter(*(index.get(bit, 9) for bit in range(34, -1, -1)))   # text[9] is a newline


CHECKERS_CELLS = _checkers_cells()
#: OpenSpiel's checkers pieces (player 0, our Black: `o`, king `8`; player 1: `+`, king `*`) as binary digits.
CHECKERS_BLACK, CHECKERS_WHITE, CHECKERS_KINGS = (str.maketrans("o8+*.\n", digits)
                                                  for digits in ("110000", "001100", "010100"))


def checkers_state(spiel_state: Any, mover: int | None = None) -> State:
    """Our checkers state for OpenSpiel's (a `FullMoveState` or a pyspiel state), the draw counter 0;
    `mover` names the side to move where OpenSpiel has none (a terminal state)."""
    spiel_state = getattr(spiel_state, "state", spiel_state)
    cells = "".join(CHECKERS_CELLS(str(spiel_state)))
    return (int(cells.translate(CHECKERS_BLACK), 2), int(cells.translate(CHECKERS_WHITE), 2),
            int(cells.translate(CHECKERS_KINGS), 2), _mover(spiel_state, mover), 0)


def ours_of(game: Game) -> Callable[..., State]:
    """The function (OpenSpiel's state, optional mover) -> our state, for our game `game`."""
    return checkers_state if game.name == "checkers" else loa_state


#: Our game name -> OpenSpiel's.
SPIEL_NAMES = {"loa": "lines_of_action", "checkers": "checkers"}


def full_moves(spiel_state: Any) -> list[tuple[tuple[int, ...], Any]]:
    """OpenSpiel's full moves from a state: each action sequence that ends when the player to move
    changes (or the game ends), with the state after it, in OpenSpiel's action order."""
    player, out = spiel_state.current_player(), []

    def extend(state: Any, path: tuple[int, ...]) -> None:
        for action in state.legal_actions():
            child = state.child(action)
            if not child.is_terminal() and child.current_player() == player:
                extend(child, path + (action,))
            else:
                out.append((path + (action,), child))

    extend(spiel_state, ())
    return out


class FullMoveState:
    """An OpenSpiel state seen one full move per action, for `minimax.alpha_beta_search`.

    An "action" is the tuple of OpenSpiel actions of one full move. Where no capture is
    possible every action is a full move (OpenSpiel's checkers captures are its odd actions);
    otherwise the sequences are worked out by applying them, and the states they reach are
    kept so that the search's `clone()` + `apply_action(path)` does not apply them again.
    """

    def __init__(self, state: Any, after: dict[tuple[int, ...], Any] | None = None) -> None:
        self.state, self.after = state, after

    def legal_actions(self) -> list[tuple[int, ...]]:
        actions = self.state.legal_actions()
        if not any(a & 1 for a in actions):
            self.after = None
            return [(a,) for a in actions]
        self.after = dict(full_moves(self.state))
        return list(self.after)

    def apply_action(self, path: tuple[int, ...]) -> None:
        if self.after is not None:   # a state kept by legal_actions: only ever cloned, never changed
            self.state, self.after = self.after[path], None
            return
        for action in path:
            self.state.apply_action(action)

    def clone(self) -> FullMoveState:
        if self.after is not None:   # the next apply_action replaces the state without changing it
            return FullMoveState(self.state, self.after)
        return FullMoveState(self.state.clone())

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def player_return(self, player: int) -> float:
        return self.state.player_return(player)

    def current_player(self) -> int:
        return self.state.current_player()

    def is_chance_node(self) -> bool:
        return False


def twin(pyspiel: Any, game: Game, moves: list) -> Any:
    """OpenSpiel's state after our `moves` from the start, each matched to the full move that leads to the
    same position. ValueError if none does: the conversion is wrong, or OpenSpiel's game has ended (its
    draw rules differ: checkers after 40 actions without a capture, LOA on a repeated board)."""
    spiel_state, state, ours = pyspiel.load_game(SPIEL_NAMES[game.name]).new_initial_state(), \
        game.initial_state(), ours_of(game)
    for move in moves:
        state = game.apply(state, move)
        key, mover, over = key_of(game)(state), game.to_move(state), spiel_state.is_terminal()
        spiel_state = next((child for _, child in full_moves(spiel_state)
                            if key_of(game)(ours(child, mover)) == key), None)
        if spiel_state is None:
            raise ValueError(f"OpenSpiel has no move to {game.to_text(state)} in the same line of play"
                             + (" (its game is over: its draw rules differ from ours)" if over else ""))
    return spiel_state


def random_line(game: Game, plies: int, seed: int) -> list:
    """The moves of a seeded uniformly random playout of `plies` plies (fewer if the game ends)."""
    rng, state, moves = random.Random(seed), game.initial_state(), []
    for _ in range(plies):
        legal = list(game.legal_moves(state))
        if not legal:
            break
        moves.append(rng.choice(legal))
        state = game.apply(state, moves[-1])
    return moves


def replay(game: Game, moves: list) -> State:
    """The state after `moves` from the start."""
    state = game.initial_state()
    for move in moves:
        state = game.apply(state, move)
    return state


def spiel_alphabeta(pyspiel: Any, game: Game, heuristic: Heuristic, spiel_state: Any,
                    depth: int) -> tuple[int, float, str]:
    """OpenSpiel's `alpha_beta_search` to `depth` full moves from `spiel_state`, our heuristic at the
    leaves for the root's mover: (nodes, value for the root's mover, the chosen move in our notation)."""
    from open_spiel.python.algorithms import minimax

    ours, mover = ours_of(game), spiel_state.current_player()

    def value(leaf: Any) -> float:
        return heuristic.evaluate(ours(leaf), mover)

    root = FullMoveState(spiel_state.clone()) if game.name == "checkers" else spiel_state
    with Counted(minimax, "_alpha_beta") as counter:
        score, action = minimax.alpha_beta_search(pyspiel.load_game(SPIEL_NAMES[game.name]), root, value, depth,
                                                  mover)
    child = root.clone()
    child.apply_action(action)
    state, after = ours(spiel_state), key_of(game)(ours(child, 1 - mover))
    move = next(m for m in game.legal_moves(state) if key_of(game)(game.apply(state, m)) == after)
    return counter.calls, score, game.format_move(state, move)
