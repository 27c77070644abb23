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

Each call passes only three arrays (the table's rows and values, and one `work` array holding the
counters and switches, the history scores, the per-ply counters and killers, and the principal
variations): measured, every array argument of the recursion costs a large share of a node
(one more array took checkers from 3.6 to 2.4 M nodes/s); the heuristic's weights are a tuple.

Same definitions, so the same answers: a node is one `negamax` call, counted on entry after
the budget test (the clock read every 256 nodes, as `SearchLimits.exceeded`); in solver mode
the win/loss evaluation of `solver.WinLossEvaluation` (+1 / -1 / 0 at the end of the game, 0
at the horizon), otherwise the heuristic's compiled twin (`score(state, weights)`, bound by
the Kernel, with the heuristic's parameters) and `BaseHeuristic.terminal`'s scores; the table
probed at `hash_key(state) % size`, computed from the words of `search_key(state)` and the
shifts at which `hash_key` packs them (`GameKernel.key_shifts`), a hit when the stored state is
the same state (all its words, as the interpreted table compares states), `size` the table's prime
number of slots (`table.slot_count`), entries answering at
any depth when proven (`AlphaBetaSearch._proof`); the game's move hints (`ordered_moves`: a
stable sort by the rules' `move_rank`); the TT move, then the two killers, then the rest by
history score in a stable sort; a capture never becomes a killer or gains history (it is the
game's noisy move); quiescence searches the captures (`AlphaBetaSearch._leaf`); principal-variation
search, late-move reductions and singular extensions as `AlphaBetaSearch.negamax` and `_singular` make
them (Reinefeld 1983; Heinz 2000; Anantharaman et al. 1990), their switches in `work`. Aspiration
windows need nothing here: `AlphaBetaSearch._aspirated` passes the root search its window.
"""

from __future__ import annotations

import numpy as np

from framework.jit import ONGOING, clock, float_of_bits
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
#: The `work` array starts with these slots: counters (nodes, heuristic leaves, aborted, root move), the
#: node limit, the table's hashing (size, then 2**shift % size for each key word from R), the switches,
#: and where its other parts start.
NODES, LEAVES, ABORTED, ROOT_MOVE, LIMIT, SIZE, R = 0, 1, 2, 3, 4, 5, 6
USE_TABLE, USE_TT_MOVE, USE_HINTS, USE_KILLERS, USE_HISTORY, USE_ORDERING = 10, 11, 12, 13, 14, 15
#: Solver mode (win/loss evaluation, proven entries answer at any depth) or the heuristic `score`.
SOLVER = 16
#: Quiescence search on, and its most plies below the depth limit.
QUIESCENCE, QUIESCENCE_DEPTH = 17, 18
#: The decision's table stamp (>= 1).
STAMP = 19
#: `GameKernel.move_space`; the history scores, 2 x SPACE from CONTROL_SIZE (one row per player).
SPACE = 20
#: Where the per-ply rows start (PLY_COLUMNS each), where the PV rows start, and their length.
PLIES_AT, PV_AT, PV_STRIDE = 21, 22, 23
#: Principal-variation search on; late-move reductions on, their least remaining depth and the moves
#: searched in full before them; singular extensions on, their least remaining depth and their margin
#: (the float64's bits); the depth of the current root search (`AlphaBetaSearch.root_depth`).
USE_PVS, USE_LMR, LMR_MIN_DEPTH, LMR_MOVES = 24, 25, 26, 27
USE_SINGULAR, SINGULAR_MIN_DEPTH, SINGULAR_MARGIN, ROOT_DEPTH = 28, 29, 30, 31
CONTROL_SIZE = 32
#: Columns of a per-ply row: nodes visited at that ply, PV length, the two killers.
PLY_NODES, PV_LEN, KILLER = 0, 1, 2
PLY_COLUMNS = 4
#: The stages of a child's search in `negamax`: the last (full window), a null-window probe, a reduced search.
FULL, PROBE, REDUCED = 0, 1, 2


def table_slot(state, work) -> int:
    """`hash_key(state) % size`: the sum of search_key's words shifted, `sum(key[i] << shift[i])`, reduced
    in 64-bit arithmetic from size and each 2**shift[i] % size (size < 2**31: no overflow)."""
    key = search_key(state) + (0, 0, 0, 0)       # zero-padded to KEY_WORDS, indexed statically
    size = np.uint64(work[SIZE])
    total = np.uint64(key[0]) % size * np.uint64(work[R])       # each term < 2**62, the sum < 2**64
    total += np.uint64(key[1]) % size * np.uint64(work[R + 1])
    total += np.uint64(key[2]) % size * np.uint64(work[R + 2])
    total += np.uint64(key[3]) % size * np.uint64(work[R + 3])
    return np.int64(total % size)


def hinted(state):
    """The game's `ordered_moves`: the legal moves stably sorted by `move_rank` (an insertion sort in place).

    `move_rank` runs about twice per move here. Ranking each move once into a local array was measured
    slower (`benchmarks/speed.py`'s alpha-beta rows, compiled, back to back: LOA from the start at depth 5
    5.8 -> 5.2 M nodes/s, its midgames 3.6 -> 3.1, checkers no faster): the array's allocation per node
    costs more than the ranks it saves, which are a few bit operations."""
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


def history_score(work, at: int, move: int) -> int:
    """A move's history score (the player's row starts at `at`), as the interpreted defaultdict reads it:
    0 beyond the move space, where only moves that are never quiet lie (`GameKernel.move_space`), and
    which so never gain any. A move that captures here but is quiet elsewhere (LOA's from-to moves)
    reads its score."""
    return work[at + move] if move < work[SPACE] else 0


def order(moves, first: int, ply: int, mover: int, work) -> None:
    """`MoveOrderer.order`, in place: history-sorted (stable), then `first` (if legal) and the killers in front."""
    if work[USE_HISTORY]:
        at = CONTROL_SIZE + mover * work[SPACE]
        for i in range(1, len(moves)):           # insertion sort, descending and stable
            m = moves[i]
            score_m = history_score(work, at, m)
            j = i
            while j > 0 and history_score(work, at, moves[j - 1]) < score_m:
                moves[j] = moves[j - 1]
                j -= 1
            moves[j] = m
    front = 0
    if first >= 0:
        front = to_front(moves, first, front)
    if work[USE_KILLERS]:
        row = work[PLIES_AT] + ply * PLY_COLUMNS
        for k in range(2):
            killer = work[row + KILLER + k]
            if killer >= 0 and killer != first:
                front = to_front(moves, killer, front)


def evaluate(state, mover: int, work, weights) -> float:
    """The heuristic value of a non-terminal state for `mover`, counted as a heuristic leaf."""
    work[LEAVES] += 1
    if work[SOLVER]:
        return 0.0
    value = score(state, weights)
    return -value if mover else value


def set_pv(work, ply: int, move: int) -> None:
    """pv[ply] = (move, *pv[ply + 1])."""
    stride = work[PV_STRIDE]
    line = work[PV_AT] + ply * stride
    row = work[PLIES_AT] + ply * PLY_COLUMNS
    work[line] = move
    n = work[row + PLY_COLUMNS + PV_LEN]
    for i in range(n):
        work[line + 1 + i] = work[line + stride + i]
    work[row + PV_LEN] = n + 1


def negamax(state, depth: int, alpha: float, beta: float, ply: int, option: int, rows, values, work,
            weights, deadline: float) -> float:
    """`AlphaBetaSearch.negamax`; on a spent budget sets work[ABORTED] and returns 0.

    Solver mode: `solver.WinLossEvaluation`. Otherwise the heuristic is `score(state, weights)`
    (bound by the Kernel to the game's compiled function, scored for the first player) and a terminal state
    scores `BaseHeuristic.terminal`'s returns times WIN_SCORE."""
    nodes = work[NODES]
    if nodes >= work[LIMIT] or (not nodes & 255 and clock() >= deadline):
        work[ABORTED] = 1
        return 0.0
    work[NODES] = nodes + 1
    row = work[PLIES_AT] + ply * PLY_COLUMNS
    work[row + PLY_NODES] += 1
    work[row + PV_LEN] = 0
    mover = to_move(state)
    result = outcome(state, mover, option)
    solver = work[SOLVER]
    if result != ONGOING:
        return float(result) if solver else result * WIN_SCORE
    if depth <= 0:
        # `AlphaBetaSearch._leaf`, inlined (numba cannot load mutually recursive functions from its cache):
        # the evaluation, or with quiescence on the captures searched further (standing pat only
        # when a quiet move exists), down to QUIESCENCE_DEPTH plies below the limit.
        if not work[QUIESCENCE] or depth <= -work[QUIESCENCE_DEPTH]:
            return evaluate(state, mover, work, weights)
        moves = legal_moves(state)
        noisy = 0
        for m in moves:                           # the captures, compacted in order to the front
            if is_capture(state, m):
                moves[noisy] = m
                noisy += 1
        if not noisy:
            return evaluate(state, mover, work, weights)
        best = -INF
        if noisy < len(moves):
            best = evaluate(state, mover, work, weights)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        for i in range(noisy):
            move = moves[i]
            value = -negamax(apply_move(state, move), depth - 1, -beta, -alpha, ply + 1, option, rows, values,
                             work, weights, deadline)
            if work[ABORTED]:
                return 0.0
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    set_pv(work, ply, move)
                    if value >= beta:
                        break
        return best

    tt_move = -1
    slot = 0
    words = state + (0, 0, 0, 0, 0)               # zero-padded to STATE_WORDS, indexed statically
    w0, w1, w2, w3, w4 = (np.int64(words[0]), np.int64(words[1]), np.int64(words[2]), np.int64(words[3]),
                          np.int64(words[4]))
    stamp = work[STAMP]
    if work[USE_TABLE]:
        slot = table_slot(state, work)
        entry = rows[slot]
        if (entry[ROW_STAMP] == stamp and entry[0] == w0 and entry[1] == w1 and entry[2] == w2
                and entry[3] == w3 and entry[4] == w4):
            flag = entry[FLAG]
            value = values[slot]
            bound = flag & BOUND
            proof = 0
            if not solver:
                pass
            elif (value >= 1.0 and bound != UPPER) or (value <= -1.0 and bound != LOWER):
                proof = 1
            elif not flag & HORIZON:
                proof = 2
            if ply and (proof or (entry[DEPTH] == depth and entry[PLY] == ply)):
                if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                    if flag & HORIZON and proof != 1:
                        work[LEAVES] += 1
                    return value
            if work[USE_TT_MOVE]:
                tt_move = entry[MOVE]

    moves = hinted(state) if work[USE_HINTS] else legal_moves(state)
    if work[USE_ORDERING]:
        order(moves, tt_move, ply, mover, work)
    extend_move = -1
    if (work[USE_SINGULAR] and tt_move >= 0 and ply and depth >= work[SINGULAR_MIN_DEPTH]
            and ply + depth < 2 * work[ROOT_DEPTH]):
        # `AlphaBetaSearch._singular`, inlined (as `_leaf` above): the TT move is singular when no alternative
        # reaches the stored value minus the margin in a null-window search at half depth.
        entry = rows[slot]
        if entry[FLAG] & BOUND != UPPER and entry[DEPTH] >= depth - 3:
            target = values[slot] - float_of_bits(work[SINGULAR_MARGIN])
            if target != INF and target != -INF:
                below = np.nextafter(target, -INF)
                leaves = work[LEAVES]   # the probes decide an extension, not the value
                extend_move = tt_move
                for move in moves:
                    if move != tt_move and -negamax(apply_move(state, move), (depth - 1) // 2, -target, -below,
                                                    ply + 1, option, rows, values, work, weights,
                                                    deadline) >= target:
                        extend_move = -1
                        break
                    if work[ABORTED]:
                        break
                work[LEAVES] = leaves
                if work[ABORTED]:
                    return 0.0

    pvs = work[USE_PVS]
    reduce_from = work[LMR_MOVES] if work[USE_LMR] and ply and depth >= work[LMR_MIN_DEPTH] else len(moves)
    plain = not pvs and reduce_from >= len(moves) and extend_move < 0   # every child a full-window search
    alpha0, leaves0 = alpha, work[LEAVES]
    best, best_move = -INF, -1
    index = -1
    for move in moves:
        index += 1
        child = apply_move(state, move)
        child_depth = depth if move == extend_move else depth - 1
        # The searches of one child, as `AlphaBetaSearch.negamax` makes them, through one recursive call
        # (each call site costs the recursion speed): a full window; or a reduced search (LMR), re-searched
        # unreduced if it beats alpha; then with PVS a null window, re-searched in full inside (alpha, beta).
        search_depth, low, stage = child_depth, -beta, FULL
        if not (plain or index == 0 or child_depth <= 0):
            if pvs:
                low = -np.nextafter(alpha, INF)
            stage = PROBE
            if index >= reduce_from and not is_capture(state, move):
                search_depth, stage = child_depth - 1, REDUCED
        while True:
            value = -negamax(child, search_depth, low, -alpha, ply + 1, option, rows, values, work, weights,
                             deadline)
            if work[ABORTED]:
                return 0.0
            if stage == REDUCED and value > alpha:
                search_depth, stage = child_depth, PROBE
            elif stage == PROBE and pvs and alpha < value < beta:
                low, stage = -beta, FULL
            else:
                break
        if value > best:
            best, best_move = value, move
            if value > alpha:
                alpha = value
                set_pv(work, ply, move)
                if value >= beta:
                    if not is_capture(state, move):
                        if work[USE_KILLERS] and work[row + KILLER] != move:
                            work[row + KILLER + 1] = work[row + KILLER]
                            work[row + KILLER] = move
                        if work[USE_HISTORY]:
                            work[CONTROL_SIZE + mover * work[SPACE] + move] += depth * depth
                    break
    if work[USE_TABLE]:
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if work[LEAVES] != leaves0:
            flag |= HORIZON
        entry = rows[slot]
        if not (entry[ROW_STAMP] == stamp and entry[DEPTH] > depth
                and not (entry[0] == w0 and entry[1] == w1 and entry[2] == w2 and entry[3] == w3
                         and entry[4] == w4)):
            entry[0], entry[1], entry[2], entry[3], entry[4] = w0, w1, w2, w3, w4
            entry[ROW_STAMP], entry[DEPTH], entry[PLY], entry[FLAG], entry[MOVE] = stamp, depth, ply, flag, best_move
            values[slot] = best
    if not ply:
        work[ROOT_MOVE] = best_move
    return best
