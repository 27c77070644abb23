"""Perft: the number of move paths of exactly `depth` plies from a state.

Perft ("performance test") counts the leaves of the full-width game tree at exactly
`depth` plies, one per distinct move sequence. A state with no legal moves (a terminal
state, by the Game contract) ends its paths there: it counts as a leaf only when it lies
at exactly `depth` plies, and adds nothing to deeper counts. This is the convention of
the published figures (chess perft, Edwards 1995; checkers perft 7, 49, 302, ...;
tic-tac-toe 9, 72, 504, ..., where 15,120 games at ply 5 include the 1,440 won by X and
ply 6 counts only the children of the others: 54,720).

In a game with dice, a chance node's outcomes are its legal moves: perft counts move and chance
paths alike (each roll of a die is a ply), not probabilities.

`perft` uses a game's optional fast capability `game.perft(state, depth) -> int` when
present (see the Game protocol) and the generic `generic_perft` otherwise; both count the
same leaves, which the conformance suite checks.
"""

from __future__ import annotations

from framework.capabilities import capabilities
from framework.errors import ConfigError
from framework.protocols import Game, State


def _check_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ConfigError(f"perft depth must be a non-negative integer, got {depth!r}")


def generic_perft(game: Game, state: State, depth: int) -> int:
    """Perft over the Game protocol alone, counting the last ply in bulk (`len(legal_moves)`)."""
    _check_depth(depth)
    if depth == 0:
        return 1
    return _perft(game.legal_moves, game.apply, state, depth)


def _perft(legal_moves, apply, state: State, depth: int) -> int:
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        total += _perft(legal_moves, apply, apply(state, move), depth - 1)
    return total


def perft(game: Game, state: State, depth: int) -> int:
    """Perft with the game's own `perft` capability if it has one, else `generic_perft`."""
    _check_depth(depth)
    fast = capabilities(game).perft
    if fast is not None:
        return fast(state, depth)
    return generic_perft(game, state, depth)


def divide(game: Game, state: State, depth: int) -> list[tuple[str, int]]:
    """Perft split by root move: `(notation, perft of the child at depth - 1)` in legal-move order.

    The counts sum to `perft(game, state, depth)`; comparing two implementations' divides
    finds the first root move where they disagree.
    """
    _check_depth(depth)
    if depth == 0:
        raise ConfigError("perft divide needs a depth of at least 1, got 0")
    return [(game.format_move(state, move), perft(game, game.apply(state, move), depth - 1))
            for move in game.legal_moves(state)]
