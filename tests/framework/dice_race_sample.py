"""A toy race as a rules kernel (plain functions over a tuple of ints), for test_search_reload.py: 2-3 seats,
with or without dice.

Each seat has a counter; the first to reach GOAL wins. With dice, a turn starts at a chance node that rolls
1, 2 or 3 (probabilities 1/2, 1/3, 1/6); without, the roll is always 2. The mover then advances its counter
by the roll (move 0) or by one less (move 1). State: (info, count 0, count 1, count 2), `info` packing the
seat to move plus one (0 at a chance node), the seat whose turn it is, the roll, the seats and the dice flag.
"""

from __future__ import annotations

from framework.kernel.api import LOSS, ONGOING, WIN

GOAL = 7
PROBABILITY = (0.0, 0.5, 1.0 / 3.0, 1.0 / 6.0)


def info(mover: int, turn: int, roll: int, seats: int, dice: int) -> int:
    return (mover + 1) | turn << 3 | roll << 6 | seats << 9 | dice << 12


def to_move(state) -> int:
    return (state[0] & 7) - 1


def seats_of(state) -> int:
    return state[0] >> 9 & 7


def winner(state) -> int:
    for seat in range(seats_of(state)):
        if state[1 + seat] >= GOAL:
            return seat
    return -1


def legal_moves(state):
    if to_move(state) == -1:
        return [1, 2, 3]
    return [0, 1]


def apply_move(state, move: int):
    turn, seats, dice = state[0] >> 3 & 7, seats_of(state), state[0] >> 12 & 1
    if to_move(state) == -1:
        return (info(turn, turn, move, seats, dice), state[1], state[2], state[3])
    advance = (state[0] >> 6 & 7) - move
    nxt = (turn + 1) % seats
    head = info(-1, nxt, 0, seats, 1) if dice else info(nxt, nxt, 2, seats, 0)
    return (head, state[1] + advance if turn == 0 else state[1], state[2] + advance if turn == 1 else state[2],
            state[3] + advance if turn == 2 else state[3])


def outcome(state, player: int, option: int) -> int:
    won = winner(state)
    if won < 0:
        return ONGOING
    return WIN if won == player else LOSS


def player_return(state, player: int) -> float:
    return 1.0 if winner(state) == player else -1.0


def chance_probability(state, move: int) -> float:
    return PROBABILITY[move]


def pass_to(state, seat: int):
    head = state[0]
    return (info(seat, seat, head >> 6 & 7, head >> 9 & 7, head >> 12 & 1), state[1], state[2], state[3])


def search_key(state):
    return (state[0], state[1] | state[2] << 8 | state[3] << 16)


def is_capture(state, move: int) -> bool:
    return False


def move_rank(state, move: int) -> int:
    return move


def lead(state, weights) -> float:
    """The first seat's lead over the second, weighted, less a quarter of the third's count (a heuristic
    function: `score`)."""
    return weights[0] * (state[1] - state[2]) - 0.25 * state[3]


def start(seats: int, dice: bool) -> tuple[int, int, int, int]:
    return (info(-1, 0, 0, seats, 1) if dice else info(0, 0, 2, seats, 0), 0, 0, 0)
