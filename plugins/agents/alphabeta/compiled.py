"""Alpha-beta compiled, node for node `search.AlphaBetaSearch.negamax` (solver mode and heuristic mode).

The interpreted search keeps its transposition table in lists, its killers and history in
Python containers and calls the Game protocol; this is the same negamax (fail-soft, Knuth &
Moore 1975; the table of Greenblatt et al. 1967 with the "Deep" replacement of Breuker et al.
1994; killers, Akl & Newborn 1977; history, Schaeffer 1989 — see `search`, `table`,
`ordering`), statement for statement, over numpy arrays and a game's compiled rules. It is
compiled per game by `framework.jit.Kernel` with the game's compiled `legal_moves`,
`apply_move`, `to_move`, `outcome`, `search_key` and `is_capture` bound as its globals, so a
whole iteration runs without calling back into Python (`compiled_search` drives the
iterations, reusing `AlphaBetaSearch.deepen`).

Same definitions, so the same answers: a node is one `negamax` call, counted on entry after
the budget test (the clock read every 256 nodes, as `SearchLimits.exceeded`); in solver mode
the win/loss evaluation of `solver.WinLossEvaluation` (+1 / -1 / 0 at the end of the game, 0
at the horizon), otherwise the heuristic's compiled twin (`score`, bound by the Kernel) and
`BaseHeuristic.terminal`'s scores; the table probed at `hash_key(state) % size` with LOA's packing
`black | white << 64 | mover << 128`, entries answering at any depth when proven
(`AlphaBetaSearch._proof`); the game's move hints (captures first); the TT move, then the
two killers, then the rest by history score in a stable sort; a capture never becomes a
killer or gains history (it is the game's noisy move); quiescence searches the captures
(`AlphaBetaSearch._leaf`). Supported switches are listed in `compiled_search.supported`; the
others (PVS, aspiration, LMR, singular extensions) run interpreted.
"""

from __future__ import annotations

import numpy as np

from framework.jit import ONGOING, clock
from framework.protocols import WIN_SCORE

INF = np.inf
#: Bound kinds and the horizon bit of a table flag (`table.py`).
EXACT, LOWER, UPPER, BOUND, HORIZON = 0, 1, 2, 3, 4
#: Columns of a table row (`rows[slot]`, int64; the bitboards keep their 64 bits). KEY2 holds
#: key[2] (0 or 1, the side to move) + 2 * the decision's stamp: rows of older decisions (smaller
#: stamps) read as empty, so each decision starts from an empty table without rewriting it.
KEY0, KEY1, KEY2, DEPTH, PLY, FLAG, MOVE = 0, 1, 2, 3, 4, 5, 6
#: Slots of the `control` array: counters (nodes, heuristic leaves, aborted, root move), the node
#: limit, the table's hashing (size, 2**64 % size, 2**128 % size) and the switches.
NODES, LEAVES, ABORTED, ROOT_MOVE, LIMIT, SIZE, R64, R128 = 0, 1, 2, 3, 4, 5, 6, 7
USE_TABLE, USE_TT_MOVE, USE_HINTS, USE_KILLERS, USE_HISTORY, USE_ORDERING = 8, 9, 10, 11, 12, 13
#: Solver mode (win/loss evaluation, proven entries answer at any depth) or the heuristic `score`.
SOLVER = 14
#: Quiescence search on, and its most plies below the depth limit.
QUIESCENCE, QUIESCENCE_DEPTH = 15, 16
#: The decision's table stamp (>= 1).
STAMP = 17
CONTROL_SIZE = 18
#: Columns of the per-ply array: nodes visited at that ply, PV length, the two killers.
PLY_NODES, PV_LEN, KILLER = 0, 1, 2
PLY_COLUMNS = 4


def table_slot(key, control) -> int:
    """`hash_key(state) % size` of LOA's hash `key[0] | key[1] << 64 | key[2] << 128`, in 64-bit
    arithmetic from size, 2**64 % size and 2**128 % size (size < 2**31: no overflow)."""
    size, r64, r128 = np.uint64(control[SIZE]), np.uint64(control[R64]), np.uint64(control[R128])
    return np.int64((key[0] % size + (key[1] % size) * r64 % size + np.uint64(key[2]) * r128) % size)


def hinted(state):
    """The game's `ordered_moves`: the legal moves with captures first, each group in generation order."""
    moves = legal_moves(state)
    front = 0
    for i in range(len(moves)):          # a stable partition in place
        m = moves[i]
        if is_capture(state, m):
            for j in range(i, front, -1):
                moves[j] = moves[j - 1]
            moves[front] = m
            front += 1
    return moves


def to_front(moves, move, front: int) -> int:
    """Move `move`, if among moves[front:], to index `front` (the others keep their order); the new front."""
    for i in range(front, len(moves)):
        if moves[i] == move:
            for j in range(i, front, -1):
                moves[j] = moves[j - 1]
            moves[front] = move
            return front + 1
    return front


def order(moves, first: int, ply: int, mover: int, plies, history, control) -> None:
    """`MoveOrderer.order`, in place: history-sorted (stable), then `first` (if legal) and the killers in front."""
    if control[USE_HISTORY]:
        scores = history[mover]
        for i in range(1, len(moves)):           # insertion sort, descending and stable
            m = moves[i]
            j = i
            while j > 0 and scores[moves[j - 1]] < scores[m]:
                moves[j] = moves[j - 1]
                j -= 1
            moves[j] = m
    front = 0
    if first >= 0:
        front = to_front(moves, first, front)
    if control[USE_KILLERS]:
        for k in range(2):
            killer = plies[ply, KILLER + k]
            if killer >= 0 and killer != first:
                front = to_front(moves, killer, front)


def evaluate(state, mover: int, control) -> float:
    """The heuristic value of a non-terminal state for `mover`, counted as a heuristic leaf."""
    control[LEAVES] += 1
    if control[SOLVER]:
        return 0.0
    value = score(state[0], state[1], state[2])
    return -value if mover else value


def set_pv(pv, plies, ply: int, move: int) -> None:
    """pv[ply] = (move, *pv[ply + 1])."""
    pv[ply, 0] = move
    n = plies[ply + 1, PV_LEN]
    for i in range(n):
        pv[ply, i + 1] = pv[ply + 1, i]
    plies[ply, PV_LEN] = n + 1


def negamax(state, depth: int, alpha: float, beta: float, ply: int, option: int, rows, values, control,
            plies, pv, history, deadline: float) -> float:
    """`AlphaBetaSearch.negamax`; on a spent budget sets control[ABORTED] and returns 0.

    Solver mode: `solver.WinLossEvaluation`. Otherwise the heuristic is `score` (bound by the
    Kernel to the game's compiled function, scored for the first player) and a terminal state
    scores `BaseHeuristic.terminal`'s returns times WIN_SCORE."""
    nodes = control[NODES]
    if nodes >= control[LIMIT] or (not nodes & 255 and clock() >= deadline):
        control[ABORTED] = 1
        return 0.0
    control[NODES] = nodes + 1
    plies[ply, PLY_NODES] += 1
    plies[ply, PV_LEN] = 0
    mover = to_move(state)
    result = outcome(state, mover, option)
    solver = control[SOLVER]
    if result != ONGOING:
        return float(result) if solver else result * WIN_SCORE
    if depth <= 0:
        # `AlphaBetaSearch._leaf`, inlined (numba cannot load mutually recursive functions from its cache):
        # the evaluation, or with quiescence on the captures searched further (standing pat only
        # when a quiet move exists), down to QUIESCENCE_DEPTH plies below the limit.
        if not control[QUIESCENCE] or depth <= -control[QUIESCENCE_DEPTH]:
            return evaluate(state, mover, control)
        moves = legal_moves(state)
        noisy = [moves[0] for _ in range(0)]
        for m in moves:
            if is_capture(state, m):
                noisy.append(m)
        if not noisy:
            return evaluate(state, mover, control)
        best = -INF
        if len(noisy) < len(moves):
            best = evaluate(state, mover, control)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        for move in noisy:
            value = -negamax(apply_move(state, move), depth - 1, -beta, -alpha, ply + 1, option, rows, values,
                             control, plies, pv, history, deadline)
            if control[ABORTED]:
                return 0.0
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    set_pv(pv, plies, ply, move)
                    if value >= beta:
                        break
        return best

    tt_move = -1
    slot = 0
    key = search_key(state)
    k0, k1, k2 = np.int64(key[0]), np.int64(key[1]), np.int64(key[2]) + 2 * control[STAMP]
    if control[USE_TABLE]:
        slot = table_slot(key, control)
        row = rows[slot]
        if row[KEY2] == k2 and row[KEY0] == k0 and row[KEY1] == k1:
            flag = row[FLAG]
            value = values[slot]
            bound = flag & BOUND
            proof = 0
            if not solver:
                pass
            elif (value >= 1.0 and bound != UPPER) or (value <= -1.0 and bound != LOWER):
                proof = 1
            elif not flag & HORIZON:
                proof = 2
            if ply and (proof or (row[DEPTH] == depth and row[PLY] == ply)):
                if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                    if flag & HORIZON and proof != 1:
                        control[LEAVES] += 1
                    return value
            if control[USE_TT_MOVE]:
                tt_move = row[MOVE]

    moves = hinted(state) if control[USE_HINTS] else legal_moves(state)
    if control[USE_ORDERING]:
        order(moves, tt_move, ply, mover, plies, history, control)

    alpha0, leaves0 = alpha, control[LEAVES]
    best, best_move = -INF, -1
    for move in moves:
        value = -negamax(apply_move(state, move), depth - 1, -beta, -alpha, ply + 1, option, rows, values,
                         control, plies, pv, history, deadline)
        if control[ABORTED]:
            return 0.0
        if value > best:
            best, best_move = value, move
            if value > alpha:
                alpha = value
                set_pv(pv, plies, ply, move)
                if value >= beta:
                    if not is_capture(state, move):
                        if control[USE_KILLERS] and plies[ply, KILLER] != move:
                            plies[ply, KILLER + 1] = plies[ply, KILLER]
                            plies[ply, KILLER] = move
                        if control[USE_HISTORY]:
                            history[mover, move] += depth * depth
                    break
    if control[USE_TABLE]:
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if control[LEAVES] != leaves0:
            flag |= HORIZON
        row = rows[slot]
        if not (row[KEY2] >= 2 * control[STAMP] and row[DEPTH] > depth
                and not (row[KEY2] == k2 and row[KEY0] == k0 and row[KEY1] == k1)):
            row[KEY0], row[KEY1], row[KEY2], row[DEPTH], row[PLY], row[FLAG], row[MOVE] = \
                k0, k1, k2, depth, ply, flag, best_move
            values[slot] = best
    if not ply:
        control[ROOT_MOVE] = best_move
    return best
