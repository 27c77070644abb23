"""Expectiminimax with Ballard's Star1 and Star2 pruning, written once against `framework.kernel.api`.

Expectiminimax (Michie 1966): a max node takes its best child, a min node its worst, a chance node the
probability-weighted mean of its outcomes. Values are seat 0's (seat 0 maximises, seat 1 minimises), so
a chance node needs no sign flips whoever moves after it. Alpha-beta (fail-soft) prunes at max and min
nodes; at a chance node the window passes down only with Star1 or Star2.

Star1 (B. W. Ballard, "The *-minimax search procedure for trees containing chance nodes", Artificial
Intelligence 21, 1983; in the form of Hauk, Buro & Schaeffer, "Rediscovering *-Minimax Search", CG 2004):
every value lies in [lo, hi] = [-win_score, win_score]: an end scores seat 0's return times win_score
and the heuristic is clamped into the bounds (the tighter they are, the more Star1 prunes). After the
outcomes searched so far (sum S of p*v), the outcomes not yet searched lie between their lower and upper
bounds, so outcome i needs only the window (alpha_i, beta_i) with

    alpha_i = (alpha - S - sum_{k>i} p_k upper_k) / p_i,   beta_i = (beta - S - sum_{k>i} p_k lower_k) / p_i

and a child failing outside it fails the chance node (returning the bound it proved, clamped as below).
Star2 first probes each outcome: an outcome whose mover is seat 0 (a max node) is at least the value of
its first move, one whose mover is seat 1 at most (the first move searched only as far as the outcome's
Star1 window needs); a leaf outcome is evaluated exactly. Probes tighten lower_k / upper_k and may already
prove the node outside the window; the search phase is Star1 over the probed bounds (so Star2 needs Star1).

A Star1 cut returns its bound clamped to the window edge it crossed: max(bound, beta) failing high,
min(bound, alpha) failing low. In exact arithmetic the bound lies beyond the edge already (Ballard and
Hauk et al. return it as it is, fail-soft), but the cut is decided on the child's window (alpha_i, beta_i)
and the bound recomputed as S + p_i v + the rest, and rounding can leave that sum an ulp or two inside
(alpha, beta): the parent takes a bound for a value, and a root move that failed low for being worse
replaces the best by that ulp (issue 28: 0.4% of EinStein decisions at depth 3). Clamped, every return
keeps alpha-beta's contract (at or beyond an edge a bound, strictly inside the value), so max, min and
root nodes compare as they do without chance nodes; a rounded cut decision can misjudge only a value within
rounding of the edge, so the move chosen is best to rounding. Where rounding kept the bound outside, the
clamp changes nothing (the same nodes are searched): one comparison per cut, where re-searching each new
best root move with an open window would search it twice. Star2's cuts need no clamp: they return the
very sum they compared with the edge.

Node convention: a node is one `expectimax` call (or one Star2 probe of an outcome), counted on entry after
the budget test (the clock read every 256 nodes): root, chance nodes and leaves included. A probe visits
the outcome and its first move's subtree; the search phase visits the outcome again unless the probe
found its exact value (a leaf). Depth counts plies, an outcome of the dice being one ply.

State: `work`, an int array (a dict interpreted) with the slots WORK names. Values in [lo, hi] are floats.
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
    player_return,
    to_move,
)
from framework.layout import layout

#: Called only on games that call for them (`framework.kernel.binding.needed_here`): a kernel without dice
#: (checkers) compiles without `chance_probability`, which this code calls only at a chance node; one without
#: `player_return` (LOA, whose result depends on its option) without it, an end then scored by `outcome`.
OPTIONAL = ("chance_probability", "player_return")
#: What `framework.kernel.binding.bind` reads besides (`declared`): the name in a refusal.
NAME = "expectiminimax"
INF = float("inf")
#: The slots of `work`: counters (nodes, cutoffs at chance nodes by Star1 and by Star2's probes), the budget
#: (node limit, aborted flag), the switches, the game's one int option (for `outcome`) and `returns` (1 when
#: `player_return` is bound: `Bound.returns`).
WORK, WORK_SIZE = layout("Work", "nodes limit aborted star1_cutoffs star2_cutoffs use_star1 use_star2 option "
                                 "returns")



def leaf_value(state, depth: int, work, lo: float, hi: float, weights) -> tuple[bool, float]:
    """(True, value) at a terminal state (seat 0's return times hi: `player_return`, or without it `outcome`'s
    WIN, LOSS, DRAW as 1, -1, 0) or the depth limit (the heuristic, clamped into [lo, hi]: Star1's bounds must
    hold), else (False, 0)."""
    result = outcome(state, 0, work[WORK.option])
    if result != ONGOING:
        return True, (player_return(state, 0) if work[WORK.returns] else 1.0 * result) * hi
    if depth <= 0:
        return True, min(max(evaluate(state, 0, weights), lo), hi)
    return False, 0.0


def expectimax(state, depth: int, alpha: float, beta: float, ply: int, work, lo: float, hi: float, weights,
               deadline: float) -> float:
    """The value of `state` for seat 0, fail-soft in (alpha, beta); 0 with work[aborted] set on a spent budget.

    One function, its chance nodes and Star2's probes written inline and every recursive call passing
    arguments of the root call's types: numba cannot load mutually recursive functions from its disk cache,
    nor a recursion through a second specialisation of one (numba issues 6061 and 6713: the process that
    loads them dies with SIGSEGV; tests/framework/test_search_reload.py)."""
    if not counted(work, deadline):
        return 0.0
    done, value = leaf_value(state, depth, work, lo, hi, weights)
    if done:
        return value
    mover = to_move(state)
    moves = legal_moves(state)
    if mover != CHANCE:
        best = -INF if mover == 0 else INF
        for move in moves:
            v = expectimax(apply_move(state, move), depth - 1, alpha, beta, ply + 1, work, lo, hi, weights,
                           deadline)
            if work[WORK.aborted]:
                return 0.0
            if mover == 0:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best
    # A chance node: the mean over its outcomes, with Star1 / Star2 cutoffs when switched on.
    n = len(moves)
    if not work[WORK.use_star1] and not work[WORK.use_star2]:
        total = 0.0
        for move in moves:
            v = expectimax(apply_move(state, move), depth - 1, lo, hi, ply + 1, work, lo, hi, weights, deadline)
            if work[WORK.aborted]:
                return 0.0
            total += chance_probability(state, move) * v
        return total
    p = [chance_probability(state, move) for move in moves]
    lower = [lo] * n
    upper = [hi] * n
    if work[WORK.use_star2]:
        sum_lower, sum_upper = lo, hi
        for i in range(n):
            a = (alpha - sum_upper + p[i] * upper[i]) / p[i]
            b = (beta - sum_lower + p[i] * lower[i]) / p[i]
            # Star2's probe of the outcome, a node: exact at a leaf, else bounded by its first move's value (a
            # lower bound when seat 0 moves there, searched in (lo, b); an upper bound when seat 1 does, in
            # (a, hi); none below a chance node). (a, b) is the outcome's Star1 window: a first move beyond it
            # fails the chance node.
            child = apply_move(state, moves[i])
            if not counted(work, deadline):
                return 0.0
            low, high = lo, hi
            done, value = leaf_value(child, depth - 1, work, lo, hi, weights)
            if done:
                low, high = value, value
            elif to_move(child) == 0:
                v = expectimax(apply_move(child, legal_moves(child)[0]), depth - 2, lo, b, ply + 2, work, lo, hi,
                               weights, deadline)
                if work[WORK.aborted]:
                    return 0.0
                low = max(v, lo)
            elif to_move(child) != CHANCE:
                v = expectimax(apply_move(child, legal_moves(child)[0]), depth - 2, a, hi, ply + 2, work, lo, hi,
                               weights, deadline)
                if work[WORK.aborted]:
                    return 0.0
                high = min(v, hi)
            sum_lower += p[i] * (low - lower[i])
            sum_upper += p[i] * (high - upper[i])
            lower[i], upper[i] = low, high
            if sum_lower >= beta:
                work[WORK.star2_cutoffs] += 1
                return sum_lower
            if sum_upper <= alpha:
                work[WORK.star2_cutoffs] += 1
                return sum_upper
    rest_lower = 0.0
    rest_upper = 0.0
    for i in range(n):
        rest_lower += p[i] * lower[i]
        rest_upper += p[i] * upper[i]
    total = 0.0
    for i in range(n):
        rest_lower -= p[i] * lower[i]
        rest_upper -= p[i] * upper[i]
        if lower[i] == upper[i]:
            total += p[i] * lower[i]
            continue
        a = (alpha - total - rest_upper) / p[i]
        b = (beta - total - rest_lower) / p[i]
        if lower[i] >= b:
            work[WORK.star1_cutoffs] += 1
            return max(total + p[i] * lower[i] + rest_lower, beta)
        if upper[i] <= a:
            work[WORK.star1_cutoffs] += 1
            return min(total + p[i] * upper[i] + rest_upper, alpha)
        v = expectimax(apply_move(state, moves[i]), depth - 1, max(a, lower[i]), min(b, upper[i]), ply + 1, work,
                       lo, hi, weights, deadline)
        if work[WORK.aborted]:
            return 0.0
        if v >= b:
            work[WORK.star1_cutoffs] += 1
            return max(total + p[i] * v + rest_lower, beta)
        if v <= a:
            work[WORK.star1_cutoffs] += 1
            return min(total + p[i] * v + rest_upper, alpha)
        total += p[i] * v
    return total
