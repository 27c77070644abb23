"""Alpha-beta compiled, node for node `search.AlphaBetaSearch.negamax` (solver mode and heuristic mode).

The interpreted search keeps its transposition table in lists, its killers and history in
Python containers and calls the Game protocol; this is the same negamax (fail-soft, Knuth &
Moore 1975; the table of Greenblatt et al. 1967 with the "Deep" replacement of Breuker et al.
1994; killers, Akl & Newborn 1977; history, Schaeffer 1989 — see `search`, `table`,
`ordering`), statement for statement, over numpy arrays and a game's compiled rules. It is
compiled per game by `framework.jit.Kernel` with the game's compiled `legal_moves`,
`apply_move`, `to_move`, `outcome`, `search_key`, `is_capture` and `move_rank` bound as its
globals, so a whole iteration runs without calling back into Python (`compiled_search` drives the
iterations, reusing `AlphaBetaSearch.deepen`).

Same definitions, so the same answers: a node is one `negamax` call, counted on entry after
the budget test (the clock read every 256 nodes, as `SearchLimits.exceeded`); in solver mode
the win/loss evaluation of `solver.WinLossEvaluation` (+1 / -1 / 0 at the end of the game, 0
at the horizon), otherwise the heuristic's compiled twin (`score(state, weights)`, bound by
the Kernel, with the heuristic's parameters) and `BaseHeuristic.terminal`'s scores; the table
probed at `hash_key(state) % size`, computed from the words of `search_key(state)` and the
shifts at which `hash_key` packs them (`GameKernel.key_shifts`), a hit when the stored state is
the same state (all its words, as the interpreted table compares states), entries answering at
any depth when proven (`AlphaBetaSearch._proof`); the game's move hints (`ordered_moves`: a
stable sort by the rules' `move_rank`); the TT move, then the two killers, then the rest by
history score in a stable sort; a capture never becomes a killer or gains history (it is the
game's noisy move); quiescence
searches the captures (`AlphaBetaSearch._leaf`). Supported switches are listed in `compiled_search.supported`; the
others (PVS, aspiration, LMR, singular extensions) run interpreted.
"""

from __future__ import annotations

import numpy as np

from framework.jit import ONGOING, clock
from framework.protocols import WIN_SCORE

INF = np.inf
#: Bound kinds and the horizon bit of a table flag (`table.py`).
EXACT, LOWER, UPPER, BOUND, HORIZON = 0, 1, 2, 3, 4
#: Columns of a table row (`rows[slot]`, int64; the bitboards keep their 64 bits): the words of the
#: state (STATE_WORDS of them, zero-padded), the decision's stamp (rows of older decisions, with smaller
#: stamps, read as empty, so each decision starts from an empty table without rewriting it), the
#: remaining depth, the ply, the bound flag and the best move.
STATE_WORDS = 5
ROW_STAMP, DEPTH, PLY, FLAG, MOVE = 5, 6, 7, 8, 9
ROW_SIZE = 10
#: Words of `search_key` hashed (zero-padded).
KEY_WORDS = 4
#: Slots of the `control` array: counters (nodes, heuristic leaves, aborted, root move), the node
#: limit, the table's hashing (size, then 2**shift % size for each key word from R) and the switches.
NODES, LEAVES, ABORTED, ROOT_MOVE, LIMIT, SIZE, R = 0, 1, 2, 3, 4, 5, 6
USE_TABLE, USE_TT_MOVE, USE_HINTS, USE_KILLERS, USE_HISTORY, USE_ORDERING = 10, 11, 12, 13, 14, 15
#: Solver mode (win/loss evaluation, proven entries answer at any depth) or the heuristic `score`.
SOLVER = 16
#: Quiescence search on, and its most plies below the depth limit.
QUIESCENCE, QUIESCENCE_DEPTH = 17, 18
#: The decision's table stamp (>= 1).
STAMP = 19
CONTROL_SIZE = 20
#: Columns of the per-ply array: nodes visited at that ply, PV length, the two killers.
PLY_NODES, PV_LEN, KILLER = 0, 1, 2
PLY_COLUMNS = 4


def table_slot(state, control) -> int:
    """`hash_key(state) % size`: the sum of search_key's words shifted, `sum(key[i] << shift[i])`, reduced
    in 64-bit arithmetic from size and each 2**shift[i] % size (size < 2**31: no overflow)."""
    key = search_key(state) + (0, 0, 0, 0)       # zero-padded to KEY_WORDS, indexed statically
    size = np.uint64(control[SIZE])
    total = np.uint64(key[0]) % size * np.uint64(control[R]) % size
    total += np.uint64(key[1]) % size * np.uint64(control[R + 1]) % size
    total += np.uint64(key[2]) % size * np.uint64(control[R + 2]) % size
    total += np.uint64(key[3]) % size * np.uint64(control[R + 3]) % size
    return np.int64(total % size)


def hinted(state):
    """The game's `ordered_moves`: the legal moves stably sorted by `move_rank` (an insertion sort in place)."""
    moves = legal_moves(state)
    for i in range(1, len(moves)):
        m = moves[i]
        rank = move_rank(state, m)
        j = i
        while j > 0 and move_rank(state, moves[j - 1]) > rank:
            moves[j] = moves[j - 1]
            j -= 1
        moves[j] = m
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


def history_score(scores, move: int) -> int:
    """A move's history score, as the interpreted defaultdict reads it: 0 beyond the array, where only moves
    that are never quiet lie (`GameKernel.move_space`), and which so never gain any. A move that captures
    here but is quiet elsewhere (LOA's from-to moves) reads its score."""
    return scores[move] if move < len(scores) else 0


def order(moves, first: int, ply: int, mover: int, plies, history, control) -> None:
    """`MoveOrderer.order`, in place: history-sorted (stable), then `first` (if legal) and the killers in front."""
    if control[USE_HISTORY]:
        scores = history[mover]
        for i in range(1, len(moves)):           # insertion sort, descending and stable
            m = moves[i]
            score_m = history_score(scores, m)
            j = i
            while j > 0 and history_score(scores, moves[j - 1]) < score_m:
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


def evaluate(state, mover: int, control, weights) -> float:
    """The heuristic value of a non-terminal state for `mover`, counted as a heuristic leaf."""
    control[LEAVES] += 1
    if control[SOLVER]:
        return 0.0
    value = score(state, weights)
    return -value if mover else value


def set_pv(pv, plies, ply: int, move: int) -> None:
    """pv[ply] = (move, *pv[ply + 1])."""
    pv[ply, 0] = move
    n = plies[ply + 1, PV_LEN]
    for i in range(n):
        pv[ply, i + 1] = pv[ply + 1, i]
    plies[ply, PV_LEN] = n + 1


def negamax(state, depth: int, alpha: float, beta: float, ply: int, option: int, rows, values, control,
            plies, pv, history, weights, deadline: float) -> float:
    """`AlphaBetaSearch.negamax`; on a spent budget sets control[ABORTED] and returns 0.

    Solver mode: `solver.WinLossEvaluation`. Otherwise the heuristic is `score(state, weights)`
    (bound by the Kernel to the game's compiled function, scored for the first player) and a terminal state
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
            return evaluate(state, mover, control, weights)
        moves = legal_moves(state)
        noisy = [moves[0] for _ in range(0)]
        for m in moves:
            if is_capture(state, m):
                noisy.append(m)
        if not noisy:
            return evaluate(state, mover, control, weights)
        best = -INF
        if len(noisy) < len(moves):
            best = evaluate(state, mover, control, weights)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        for move in noisy:
            value = -negamax(apply_move(state, move), depth - 1, -beta, -alpha, ply + 1, option, rows, values,
                             control, plies, pv, history, weights, deadline)
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
    words = state + (0, 0, 0, 0, 0)               # zero-padded to STATE_WORDS, indexed statically
    w0, w1, w2, w3, w4 = (np.int64(words[0]), np.int64(words[1]), np.int64(words[2]), np.int64(words[3]),
                          np.int64(words[4]))
    stamp = control[STAMP]
    if control[USE_TABLE]:
        slot = table_slot(state, control)
        row = rows[slot]
        if (row[ROW_STAMP] == stamp and row[0] == w0 and row[1] == w1 and row[2] == w2 and row[3] == w3
                and row[4] == w4):
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
                         control, plies, pv, history, weights, deadline)
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
        if not (row[ROW_STAMP] == stamp and row[DEPTH] > depth
                and not (row[0] == w0 and row[1] == w1 and row[2] == w2 and row[3] == w3 and row[4] == w4)):
            row[0], row[1], row[2], row[3], row[4] = w0, w1, w2, w3, w4
            row[ROW_STAMP], row[DEPTH], row[PLY], row[FLAG], row[MOVE] = stamp, depth, ply, flag, best_move
            values[slot] = best
    if not ply:
        control[ROOT_MOVE] = best_move
    return best
