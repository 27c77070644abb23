"""Pig's rules and race heuristic as a kernel (framework/kernel/api.py): plain functions over ints that
`framework.kernel` runs as they are (interpreted) or compiles with numba, so that expectiminimax, max^n and
paranoid run compiled on Pig (the `optimal` heuristic reads the solver's table: it runs through the adapter).

State: `(players, goal, turn_total, player, rolling, score 1, ..., score 6)`, eleven ints (the scores of seats
beyond `players` are 0): `Pig`'s state with the game's options carried along. Moves: a face 1-6 at a chance
node, ROLL and HOLD otherwise (`move_id` / `move_of` turn the game's "roll" and "hold" into them and back).
The tests check every count against `Pig`: perft, random playouts and the searches' nodes and values.
"""

from __future__ import annotations

from typing import Any

from framework.kernel.api import CHANCE, LOSS, ONGOING, WIN, draw_index

FACES = 6
ROLL, HOLD = 7, 8
#: Where the scores start in a state.
SCORES = 5


def best_score(state) -> int:
    best = 0
    for seat in range(state[0]):
        best = max(best, state[SCORES + seat])
    return best


def to_move(state) -> int:
    return CHANCE if state[4] else state[3]


def legal_moves(state):
    moves = [0]
    moves.pop()  # an empty list of ints, typed for the compiled path
    if state[4]:
        for face in range(1, FACES + 1):
            moves.append(face)
    elif best_score(state) < state[1]:
        if state[SCORES + state[3]] + state[2] < state[1]:
            moves.append(ROLL)
        moves.append(HOLD)
    return moves


def random_move(state, draw: int) -> int:
    """`legal_moves(state)[draw_index(draw, n)]` without the list: ROLL or HOLD, HOLD alone at the goal (MCTS's
    random playouts, one in two plies a decision)."""
    if state[SCORES + state[3]] + state[2] < state[1]:
        return ROLL + draw_index(draw, 2)
    return HOLD


def random_outcome(state, draw: int) -> int:
    """The face a uniform 32-bit `draw` rolls: the api's default's for every draw, without its list."""
    return 1 + draw_index(draw, FACES)


def banked(state, seat: int, player: int, total: int) -> int:
    return state[SCORES + seat] + total if seat == player else state[SCORES + seat]


def apply_move(state, move: int):
    players, goal, total, player = state[0], state[1], state[2], state[3]
    rolling, add, nxt = 0, 0, (player + 1) % players
    if state[4]:
        if move == 1:
            total = 0
        else:
            total, nxt = total + move, player
    elif move == ROLL:
        rolling, nxt = 1, player
    else:
        add, total = total, 0
        if state[SCORES + player] + add >= goal:
            nxt = player
    return (players, goal, total, nxt, rolling, banked(state, 0, player, add), banked(state, 1, player, add),
            banked(state, 2, player, add), banked(state, 3, player, add), banked(state, 4, player, add),
            banked(state, 5, player, add))


def outcome(state, player: int, option: int) -> int:
    if best_score(state) < state[1]:
        return ONGOING
    return WIN if state[3] == player else LOSS


def player_return(state, player: int) -> float:
    """`Pig.returns` for one seat of an end: +1 to the winner (the seat to move), -1/(n-1) to the others."""
    return 1.0 if state[3] == player else -1.0 / (state[0] - 1)


def chance_probability(state, outcome: int) -> float:
    return 1.0 / FACES


def pass_to(state, seat: int):
    """The same position with `seat` to move (the searches of seats are compiled with it)."""
    return (state[0], state[1], state[2], seat, state[4], state[5], state[6], state[7], state[8], state[9],
            state[10])


def race(state, player: int, weights) -> float:
    """`heuristics.RaceHeuristic` for any seat: its share of the way to the goal less the best opponent's."""
    goal, mine, best = state[1], 0.0, -1.0
    for seat in range(state[0]):
        progress = min(state[SCORES + seat] + (state[2] if seat == state[3] else 0), goal) / goal
        if seat == player:
            mine = progress
        elif progress > best:
            best = progress
    return 1000.0 * (mine - best)


def kernel_state(state: tuple[tuple[int, ...], int, int, bool], goal: int) -> tuple[int, ...]:
    """A `Pig` state as the kernel takes it."""
    scores, total, player, rolling = state
    return (len(scores), goal, total, player, int(rolling), *scores, *(0,) * (6 - len(scores)))


def move_id(move: Any) -> int:
    """A game move ("roll", "hold" or a face) as the kernel's int."""
    return ROLL if move == "roll" else HOLD if move == "hold" else int(move)


def move_of(move: int) -> Any:
    return "roll" if move == ROLL else "hold" if move == HOLD else move
