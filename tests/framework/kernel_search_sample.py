"""A tiny search written once against framework.kernel.api, for tests/framework/test_kernel_adapter.py."""

from framework.kernel.api import ONGOING, apply_move, legal_moves, ordered_moves, outcome, to_move


def perft(state, depth: int, option: int) -> int:
    """Move paths of exactly `depth` plies (none below a finished game), as `framework.perft`."""
    if depth == 0:
        return 1
    if outcome(state, to_move(state), option) != ONGOING:
        return 0
    total = 0
    for move in legal_moves(state):
        total += perft(apply_move(state, move), depth - 1, option)
    return total


def first_hint(state) -> int:
    """The first of the game's move hints (`ordered_moves`: derived from `move_rank` unless bound)."""
    return ordered_moves(state)[0]
