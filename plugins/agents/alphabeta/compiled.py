"""Alpha-beta's solver search compiled, node for node `search.AlphaBetaSearch.negamax` in solver mode.

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
the budget test (the clock read every 256 nodes, as `SearchLimits.exceeded`); the win/loss
evaluation of `solver.WinLossEvaluation` (+1 / -1 / 0 at the end of the game, 0 at the
horizon); the table probed at `hash_key(state) % size` with LOA's packing
`black | white << 64 | mover << 128`, entries answering at any depth when proven
(`AlphaBetaSearch._proof`); the game's move hints (captures first); the TT move, then the
two killers, then the rest by history score in a stable sort; a capture never becomes a
killer or gains history (it is the game's noisy move). Supported switches are listed in
`compiled_search.supported`; the others (PVS, aspiration, quiescence, LMR, singular
extensions) run interpreted.
"""

from __future__ import annotations

import numpy as np

from framework.jit import ONGOING, clock

INF = np.inf
#: Bound kinds and the horizon bit of a table flag (`table.py`).
EXACT, LOWER, UPPER, BOUND, HORIZON = 0, 1, 2, 3, 4
#: Slots of the `counters` array: nodes, heuristic leaves, node limit, aborted, root move.
NODES, LEAVES, LIMIT, ABORTED, ROOT_MOVE = 0, 1, 2, 3, 4
#: Slots of the `switches` array.
USE_TABLE, USE_TT_MOVE, USE_HINTS, USE_KILLERS, USE_HISTORY, USE_ORDERING = 0, 1, 2, 3, 4, 5


def table_slot(key, hashing) -> int:
    """`hash_key(state) % size` of LOA's hash `key[0] | key[1] << 64 | key[2] << 128`, in 64-bit
    arithmetic: `hashing` holds size, 2**64 % size and 2**128 % size (size < 2**31, no overflow)."""
    size, r64, r128 = hashing[0], hashing[1], hashing[2]
    return np.int64((key[0] % size + (key[1] % size) * r64 % size + np.uint64(key[2]) * r128) % size)


def hinted(state):
    """The game's `ordered_moves`: the legal moves with captures first, each group in generation order."""
    moves = legal_moves(state)
    captures = [moves[0] for _ in range(0)]
    quiet = [moves[0] for _ in range(0)]
    for m in moves:
        if is_capture(state, m):
            captures.append(m)
        else:
            quiet.append(m)
    if not captures:
        return moves
    for m in quiet:
        captures.append(m)
    return captures


def contains(moves, move) -> bool:
    for m in moves:
        if m == move:
            return True
    return False


def ordered(moves, first: int, ply: int, mover: int, killers, history, switches):
    """`MoveOrderer.order`: history-sorted (stable), then `first` (if legal) and the killers in front."""
    if switches[USE_HISTORY]:
        scores = history[mover]
        for i in range(1, len(moves)):           # insertion sort, descending and stable
            m = moves[i]
            j = i
            while j > 0 and scores[moves[j - 1]] < scores[m]:
                moves[j] = moves[j - 1]
                j -= 1
            moves[j] = m
    front = [moves[0] for _ in range(0)]
    if first >= 0 and contains(moves, first):
        front.append(first)
    if switches[USE_KILLERS]:
        for k in range(2):
            killer = killers[ply, k]
            if killer >= 0 and killer != first and contains(moves, killer):
                front.append(killer)
    if not front:
        return moves
    for m in moves:
        if not contains(front, m):
            front.append(m)
    return front


def negamax(state, depth: int, alpha: float, beta: float, ply: int, option: int, table, hashing, counters,
            ply_nodes, pv, pv_len, killers, history, switches, deadline: float) -> float:
    """`AlphaBetaSearch.negamax` in solver mode; on a spent budget sets counters[ABORTED] and returns 0."""
    nodes = counters[NODES]
    if nodes >= counters[LIMIT] or (not nodes & 255 and clock() >= deadline):
        counters[ABORTED] = 1
        return 0.0
    counters[NODES] = nodes + 1
    ply_nodes[ply] += 1
    pv_len[ply] = 0
    mover = to_move(state)
    result = outcome(state, mover, option)
    if result != ONGOING:
        return float(result)
    if depth <= 0:
        counters[LEAVES] += 1
        return 0.0

    keys0, keys1, keys2, tdepth, tply, tflag, tvalue, tmove = table
    tt_move = -1
    slot = 0
    key = search_key(state)
    if switches[USE_TABLE]:
        slot = table_slot(key, hashing)
        if keys2[slot] >= 0 and keys0[slot] == key[0] and keys1[slot] == key[1] and keys2[slot] == key[2]:
            flag = tflag[slot]
            value = tvalue[slot]
            bound = flag & BOUND
            if (value >= 1.0 and bound != UPPER) or (value <= -1.0 and bound != LOWER):
                proof = 1
            else:
                proof = 0 if flag & HORIZON else 2
            if ply and (proof or (tdepth[slot] == depth and tply[slot] == ply)):
                if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                    if flag & HORIZON and proof != 1:
                        counters[LEAVES] += 1
                    return value
            if switches[USE_TT_MOVE]:
                tt_move = tmove[slot]

    moves = hinted(state) if switches[USE_HINTS] else legal_moves(state)
    if switches[USE_ORDERING]:
        moves = ordered(moves, tt_move, ply, mover, killers, history, switches)

    alpha0, leaves0 = alpha, counters[LEAVES]
    best, best_move = -INF, -1
    for move in moves:
        value = -negamax(apply_move(state, move), depth - 1, -beta, -alpha, ply + 1, option, table, hashing,
                         counters, ply_nodes, pv, pv_len, killers, history, switches, deadline)
        if counters[ABORTED]:
            return 0.0
        if value > best:
            best, best_move = value, move
            if value > alpha:
                alpha = value
                pv[ply, 0] = move
                n = pv_len[ply + 1]
                for i in range(n):
                    pv[ply, i + 1] = pv[ply + 1, i]
                pv_len[ply] = n + 1
                if value >= beta:
                    if not is_capture(state, move):
                        if switches[USE_KILLERS] and killers[ply, 0] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        if switches[USE_HISTORY]:
                            history[mover, move] += depth * depth
                    break
    if switches[USE_TABLE]:
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if counters[LEAVES] != leaves0:
            flag |= HORIZON
        old = keys2[slot] >= 0
        if not (old and tdepth[slot] > depth
                and not (keys0[slot] == key[0] and keys1[slot] == key[1] and keys2[slot] == key[2])):
            keys0[slot], keys1[slot], keys2[slot] = key[0], key[1], key[2]
            tdepth[slot], tply[slot], tflag[slot], tvalue[slot], tmove[slot] = depth, ply, flag, best, best_move
    if not ply:
        counters[ROOT_MOVE] = best_move
    return best
