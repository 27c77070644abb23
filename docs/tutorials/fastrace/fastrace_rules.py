# --8<-- [start:header]
"""Race to 10 as a rules kernel: plain functions over a state `(total, mover)` of ints, which numba compiles.

The functions are the primitives of `framework.kernel.api` under their names there; `distance` is the
heuristic's function (the `score` a search calls), for the first player.
"""

from plyground_race import TARGET

from framework.kernel.api import LOSS, ONGOING, WIN

# --8<-- [end:header]


# --8<-- [start:rules]
def legal_moves(state):
    moves = []
    for n in range(1, 4):
        if state[0] + n <= TARGET:
            moves.append(n)
    return moves


def apply_move(state, move):
    return (state[0] + move, 1 - state[1])


def to_move(state):
    return state[1]


def outcome(state, player, option):
    if state[0] < TARGET:
        return ONGOING
    return LOSS if player == state[1] else WIN      # the player who just moved reached the target


def player_return(state, player):
    return -1.0 if player == state[1] else 1.0
# --8<-- [end:rules]


# --8<-- [start:search]
def search_key(state):
    return (state[0] * 2 + state[1],)                  # the game's hash_key, as a 1-tuple


def is_capture(state, move):
    return False


def move_rank(state, move):
    return move                                         # the order legal_moves gives


def chance_probability(state, move):
    return 1.0                                          # no dice: expectiminimax never asks
# --8<-- [end:search]


# --8<-- [start:heuristic]
def distance(state, weights):
    mover_loses = (TARGET - state[0]) % 4 == 0
    mover_score = -weights[0] if mover_loses else weights[0]
    return mover_score if state[1] == 0 else -mover_score
# --8<-- [end:heuristic]
