"""Searches for n players, written once against `framework.kernel.api`: max^n (with shallow pruning),
paranoid and best-reply search.

- max^n (C. A. Luckhardt and K. B. Irani, "An algorithmic solution of N-person games", AAAI 1986): every
  node has a vector of values, one per seat; the seat to move picks the child whose vector is best for it
  (the first on ties). A chance node averages its outcomes' vectors. Shallow pruning (R. E. Korf,
  "Multi-player alpha-beta pruning", Artificial Intelligence 48, 1991): when every value is >= `floor` and
  a vector sums to at most `max_sum`, a node whose mover i already has b_i leaves its parent's mover j at
  most max_sum - b_i - (n-2) floor; once that is no better than what j has, the node's other children
  cannot matter. Leaf vectors breaking either bound are counted (work[over_sum]): pruning on them is
  unsound. Deep pruning is unsound for max^n (Korf) and not done. With two players and a zero-sum
  heuristic it is alpha-beta one level deep; with more it seldom fires (Sturtevant & Korf 2000).
- paranoid (N. R. Sturtevant and R. E. Korf, "On pruning techniques for multi-player games", AAAI 2000):
  the root's seat against a coalition of all the others minimising its value: alpha-beta (fail-soft) on the
  root seat's value, chance nodes averaged.
- best-reply search (M. P. D. Schadd and M. H. M. Winands, "Best Reply Search for Multiplayer Games",
  IEEE TCIAIG 3(1), 2011): the root's seat moves at max layers; at a min layer only one opponent moves, the
  one whose move is worst for the root's seat (every opponent's every move is tried, the others passing:
  `pass_to`), and then the root's seat moves again. Alpha-beta on the root seat's value. Two players: it is
  alpha-beta.

Values: an end scores each seat's return times `hi` (`player_return`; two seats without it, `outcome`'s WIN,
LOSS, DRAW as 1, -1, 0); a heuristic leaf each seat's `evaluate`, clamped into [lo, hi]. Node convention: a
node is one call (root, chance nodes and leaves included), counted on entry after the budget test (the clock
read every 256 nodes). Depth counts plies (a best-reply min layer is one ply; so is an outcome of the dice).
Every recursive call passes arguments of the types the root call gets, never a literal (`not max_layer`, not
`False`; `mover`, not `-1`): numba compiles a call with a literal argument as a function of its own, and a
recursion between two such functions is one it cannot load from its disk cache (numba issues 6061 and 6713:
the process that loads it dies with SIGSEGV; tests/framework/test_search_reload.py). State: `work`, a list of
ints with the slots WORK names (an int64 array compiled); max^n's vectors in `values`, floats, a vector per
level.
"""

from __future__ import annotations

from framework.kernel.api import (
    CHANCE,
    ONGOING,
    apply_move,
    chance_probability,
    counted,
    evaluate,
    legal_moves,
    outcome,
    pass_to,
    player_return,
    to_move,
)
from framework.layout import layout

#: Called only on games that call for them (`framework.kernel.binding.needed_here`): a kernel without dice
#: (checkers) compiles without `chance_probability`, which this code calls only at a chance node; a two-seat
#: kernel without `player_return` (LOA, whose result depends on its option) without it, an end then scored by
#: `outcome`.
OPTIONAL = ("chance_probability", "player_return")
#: What `framework.kernel.binding.bind` reads besides (`declared`): the name in a refusal.
NAME = "n-seat search"
INF = float("inf")
#: The slots of `work`: nodes, shallow cutoffs, heuristic vectors that broke max_sum, the node limit, the
#: aborted flag, the shallow-pruning switch, the game's one int option and `returns` (1 when `player_return`
#: is bound: `Bound.returns`).
WORK, WORK_SIZE = layout("Work", "nodes limit aborted cutoffs over_sum shallow option returns")



def is_over(state, work) -> bool:
    return outcome(state, 0, work[WORK.option]) != ONGOING


def seat_value(state, seat: int, over: bool, work, lo: float, hi: float, weights) -> float:
    """Seat's value of a leaf: its return times hi at an end (`player_return`, or without it `outcome`'s WIN,
    LOSS, DRAW as 1, -1, 0: two seats), else its heuristic value clamped into [lo, hi]."""
    if over:
        if work[WORK.returns]:
            return player_return(state, seat) * hi
        return outcome(state, seat, work[WORK.option]) * hi
    return min(max(evaluate(state, seat, weights), lo), hi)


# -- max^n ---------------------------------------------------------------------------------------------------


def maxn(state, depth: int, seats: int, bound: float, parent: int, work, lo: float, hi: float, floor: float,
         max_sum: float, weights, deadline: float, values, at: int) -> float:
    """The max^n vector of `state`, written to values[at:at + seats] (a child's below it, from at + seats: no
    list per node); returns the value of `parent`'s seat in it (0 for none). `bound` is what the parent's mover
    (`parent`, -1 for none) has already, for shallow pruning. On a spent budget: work[aborted] set, the vector
    meaningless."""
    if not counted(work, deadline):
        return 0.0
    over = is_over(state, work)
    if over or depth <= 0:
        total, least = 0.0, INF
        for seat in range(seats):
            v = seat_value(state, seat, over, work, lo, hi, weights)
            values[at + seat] = v
            total += v
            least = min(least, v)
        if work[WORK.shallow] and (total > max_sum + 1e-9 * (1.0 + abs(max_sum)) or least < floor):
            work[WORK.over_sum] += 1
        return values[at + parent] if parent >= 0 else 0.0
    mover = to_move(state)
    moves = legal_moves(state)
    below = at + seats
    if mover == CHANCE:
        for seat in range(seats):
            values[at + seat] = 0.0
        for move in moves:
            maxn(apply_move(state, move), depth - 1, seats, -INF, mover, work, lo, hi, floor, max_sum, weights,
                 deadline, values, below)      # mover is CHANCE (-1): no parent to prune for
            if work[WORK.aborted]:
                return 0.0
            p = chance_probability(state, move)
            for seat in range(seats):
                values[at + seat] += p * values[below + seat]
        return values[at + parent] if parent >= 0 else 0.0
    for seat in range(seats):
        values[at + seat] = -INF
    for move in moves:
        v = maxn(apply_move(state, move), depth - 1, seats, values[at + mover], mover, work, lo, hi, floor, max_sum,
                 weights, deadline, values, below)
        if work[WORK.aborted]:
            return 0.0
        if v > values[at + mover]:
            for seat in range(seats):
                values[at + seat] = values[below + seat]
            if (work[WORK.shallow] and parent >= 0 and parent != mover
                    and max_sum - values[at + mover] - (seats - 2) * floor <= bound):
                work[WORK.cutoffs] += 1
                break
    return values[at + parent] if parent >= 0 else 0.0


# -- paranoid ------------------------------------------------------------------------------------------------


def paranoid(state, depth: int, alpha: float, beta: float, root: int, work, lo: float, hi: float, weights,
             deadline: float) -> float:
    """The root seat's value against the coalition of the others, fail-soft in (alpha, beta)."""
    if not counted(work, deadline):
        return 0.0
    over = is_over(state, work)
    if over or depth <= 0:
        return seat_value(state, root, over, work, lo, hi, weights)
    mover = to_move(state)
    moves = legal_moves(state)
    if mover == CHANCE:
        total = 0.0
        for move in moves:
            v = paranoid(apply_move(state, move), depth - 1, lo, hi, root, work, lo, hi, weights, deadline)
            if work[WORK.aborted]:
                return 0.0
            total += chance_probability(state, move) * v
        return total
    best = -INF if mover == root else INF
    for move in moves:
        v = paranoid(apply_move(state, move), depth - 1, alpha, beta, root, work, lo, hi, weights, deadline)
        if work[WORK.aborted]:
            return 0.0
        if mover == root:
            if v > best:
                best = v
                alpha = max(alpha, v)
        elif v < best:
            best = v
            beta = min(beta, v)
        if alpha >= beta:
            work[WORK.cutoffs] += 1
            break
    return best


# -- best-reply search ---------------------------------------------------------------------------------------


def brs(state, depth: int, alpha: float, beta: float, root: int, seats: int, max_layer: bool, work, lo: float,
        hi: float, weights, deadline: float) -> float:
    """The root seat's best-reply value, fail-soft in (alpha, beta): at a max layer the root seat moves, at a
    min layer the one opponent move worst for it (each opponent in seat order, the others passing)."""
    if not counted(work, deadline):
        return 0.0
    over = is_over(state, work)
    if over or depth <= 0:
        return seat_value(state, root, over, work, lo, hi, weights)
    if max_layer:
        here = pass_to(state, root)
        best = -INF
        for move in legal_moves(here):
            v = brs(apply_move(here, move), depth - 1, alpha, beta, root, seats, not max_layer, work, lo, hi, weights,
                    deadline)
            if work[WORK.aborted]:
                return 0.0
            if v > best:
                best = v
                alpha = max(alpha, v)
                if alpha >= beta:
                    work[WORK.cutoffs] += 1
                    break
        if best == -INF:    # the root seat has no move here: the opponents reply to the position as it is
            return brs(state, depth - 1, alpha, beta, root, seats, not max_layer, work, lo, hi, weights, deadline)
        return best
    best = INF
    for step in range(1, seats):
        here = pass_to(state, (root + step) % seats)
        for move in legal_moves(here):
            v = brs(apply_move(here, move), depth - 1, alpha, beta, root, seats, not max_layer, work, lo, hi, weights,
                    deadline)
            if work[WORK.aborted]:
                return 0.0
            if v < best:
                best = v
                beta = min(beta, v)
                if alpha >= beta:
                    work[WORK.cutoffs] += 1
                    return best
    if best == INF:         # no opponent has a move here: the root seat moves again
        return brs(state, depth - 1, alpha, beta, root, seats, not max_layer, work, lo, hi, weights, deadline)
    return best
