"""Alpha-beta's negamax, written once: compiled over a game's kernel, or run as Python over any game.

Fail-soft negamax (Knuth & Moore 1975) with the switchable enhancements of `settings.py`: the
transposition table of Greenblatt et al. (1967) with the "Deep" replacement of Breuker et al. (1994,
`table.py`); the game's move hints; killers (Akl & Newborn 1977) and history (Schaeffer 1989,
`order`); quiescence (Beal 1990); principal-variation search (Reinefeld 1983); late-move reductions
(Heinz 2000); singular extensions (Anantharaman et al. 1990). `driver.AlphaBetaSearch` drives it
(iterative deepening, aspiration windows) one root search at a time. See framework/SEARCH_DESIGN.md.

It calls the game through `framework.kernel.api` only, by name: `framework.kernel.numba_backend.Kernel`
compiles it with those names bound to a game's compiled rules, its `interpreted` binding runs the same code
as Python over the plain rules, and `framework.kernel.python_backend.interpret` over a `KernelAdapter` runs
it on any plain-Python game. Its
state: `work`, one int64 array compiled (a list of ints interpreted, `driver.Frame`), its
slots named by WORK below, then the history scores (2 x `work[WORK.space]`, one row per seat), the
per-ply rows (PLY_COLUMNS each, from `work[WORK.plies_at]`) and the principal variations (a line of
`framework.kernel.api.prepend` per ply, `work[WORK.pv_stride]` slots apart, from `work[WORK.pv_at]`); the table's
`rows` (ROW columns) and `values`. Measured, every array argument of the compiled recursion costs a large share
of a node (one more took checkers from 3.6 to 2.4 M nodes/s): hence one `work`; the heuristic's weights are a
tuple. Most of that cost was numba's atomic reference counting of each array, and of each row view, per call
(perf: ~45% of a checkers node): `negamax` borrows its arrays (`api.borrowed`), so below the root no count
is touched (checkers depth 11: ~0.85x the time).

The node contract: a node is one `negamax` call, counted on entry after the budget test (`api.counted`: the
clock read every 256 nodes), root and leaves, probes, re-searches and quiescence nodes
included; a state answered from the table still counts. In solver mode the evaluation is
`solver.WinLossEvaluation` (+1 / -1 / 0 at the end of the game, 0 at the horizon), otherwise the kernel's
`evaluate` and `terminal_score`. The table is probed at `hash_key(state) % size`, computed from the words
of `search_key(state)` and 2**shift % size of each (`GameKernel.key_shifts`; an adapter's one word is the
game's hash), a hit when the stored state is the same state (all its words), entries answering at any
depth when proven (PROVEN_VALUE, PROVEN_TREE). Values are for the side to move; ties go to the move
searched first.
"""

from __future__ import annotations

from framework.kernel.api import (
    ONGOING,
    add_score,
    apply_move,
    as_int64,
    as_uint64,
    borrowed,
    counted,
    evaluate,
    float_of_bits,
    is_capture,
    legal_moves,
    next_after,
    ordered_moves,
    outcome,
    prepend,
    search_key,
    sort_by_scores,
    terminal_score,
    to_front,
    to_move,
)
from framework.layout import layout
from plugins.agents.alphabeta.table import BOUND, EXACT, HORIZON, LOWER, UPPER

INF = float("inf")
#: An entry holds whatever the depth: a proven win or loss, or a subtree with no heuristic leaf.
PROVEN_VALUE, PROVEN_TREE = 1, 2
#: Columns of a table row: the words of the state (STATE_WORDS of them, zero-padded, from `words`), the
#: decision's stamp (rows of older decisions, with smaller stamps, read as empty, so each decision starts
#: from an empty table without rewriting it), the remaining depth, the ply, the bound flag and the best move.
STATE_WORDS = 5
ROW, ROW_SIZE = layout("Row", "words*5 stamp depth ply flag move")
#: Words of `search_key` hashed (zero-padded).
KEY_WORDS = 4
#: What `framework.kernel.binding.bind` reads (`declared`): the name in a refusal; the heuristic functions it
#: binds, a first seat's (`GameKernel.scores`: negamax scores the mover by sign); its size limits: a search key
#: of at most KEY_WORDS words packed at `key_shifts`, a state of at most STATE_WORDS words (more would be
#: compared in part) and a `move_space` (the history rows).
NAME = "alpha-beta"
HEURISTIC_FUNCTIONS = ("scores",)
LIMITS = {"key_words": KEY_WORDS, "state_words": STATE_WORDS, "move_space": 1}
#: The slots of `work`: the budget (`api.BUDGET`: nodes, the node limit, aborted), heuristic leaves, the root
#: move, the table's hashing (its size, then 2**shift % size for each key word, 1 when states and keys are one
#: word each and an entry keeps only its first word: an adapter's, so Python pads and compares nothing more),
#: the switches (solver mode: the win/loss evaluation and proven entries at any depth; quiescence and its most
#: plies below the depth limit), the table stamp (>= 1), the move space (history rows), where per-ply rows and PV lines
#: start and how far apart the lines lie, PVS, late-move reductions (least remaining depth, moves searched in
#: full before), singular extensions (least depth, margin as a float64's bits), the root search's depth, and the
#: table entries the decision wrote (slots it stamped first: its peak, counted as it goes, never by a scan).
WORK, CONTROL_SIZE = layout("Work", "nodes limit aborted leaves root_move size shifts*4 one_word use_table use_tt_move "
                                    "use_hints use_killers use_history use_ordering solver quiescence "
                                    "quiescence_depth stamp space plies_at pv_at pv_stride use_pvs use_lmr "
                                    "lmr_min_depth lmr_moves use_singular singular_min_depth singular_margin "
                                    "root_depth entries")
#: Columns of a per-ply row: nodes visited at that ply, the two killers.
PLY, PLY_COLUMNS = layout("Ply", "nodes killer*2")
#: The stages of a child's search in `negamax`: the last (full window), a null-window probe, a reduced search.
FULL, PROBE, REDUCED = 0, 1, 2


def order(moves, first: int, ply: int, mover: int, work) -> None:
    """Move ordering in place: history-sorted (stable, so equal scores keep the hints' order), then `first`
    (the TT move, if legal) and the killers in front. A quiet cut-off move gains depth^2 of history and
    becomes the ply's first killer (`negamax`).

    A move's history score is 0 beyond the move space, where only moves that are never quiet lie
    (`GameKernel.move_space`), and which so never gain any; a move that captures here but is quiet
    elsewhere (LOA's from-to moves) reads its score."""
    if work[WORK.use_history]:
        sort_by_scores(moves, work, CONTROL_SIZE + mover * work[WORK.space], work[WORK.space])
    front = 0
    if first >= 0:
        front = to_front(moves, first, front)
    if work[WORK.use_killers]:
        row = work[WORK.plies_at] + ply * PLY_COLUMNS
        for k in range(2):
            killer = work[row + PLY.killer + k]
            if killer >= 0 and killer != first:
                front = to_front(moves, killer, front)


def leaf_value(state, mover: int, work, weights) -> float:
    """The heuristic value of a state that is not over, for `mover`, counted as a heuristic leaf (0 in solver
    mode: "unknown")."""
    work[WORK.leaves] += 1
    if work[WORK.solver]:
        return 0.0
    return evaluate(state, mover, weights)


def negamax(state, depth: int, alpha: float, beta: float, ply: int, option: int, rows, values, work,
            weights, deadline: float) -> float:
    """`AlphaBetaSearch.negamax`; on a spent budget sets work[WORK.aborted] and returns 0.

    Solver mode: `solver.WinLossEvaluation`. Otherwise the heuristic is `score(state, weights)`
    (bound by the Kernel to the game's compiled function, scored for the first player) and a terminal state
    scores `BaseHeuristic.terminal`'s returns times WIN_SCORE."""
    # Borrowed (`api.borrowed`): below the root, the arrays' reference counts are never touched again.
    rows, values, work = borrowed(rows), borrowed(values), borrowed(work)
    if not counted(work, deadline):
        return 0.0
    row = work[WORK.plies_at] + ply * PLY_COLUMNS
    work[row + PLY.nodes] += 1
    line = work[WORK.pv_at] + ply * work[WORK.pv_stride]
    work[line] = 0                                # this node's principal variation, empty (`api.prepend`)
    mover = to_move(state)
    result = outcome(state, mover, option)
    solver = work[WORK.solver]
    if result != ONGOING:
        return float(result) if solver else terminal_score(state, mover, ply, result)
    if depth <= 0:
        # The leaf, inlined (numba cannot load mutually recursive functions from its cache):
        # the evaluation, or with quiescence on the captures searched further (standing pat only
        # when a quiet move exists), down to QUIESCENCE_DEPTH plies below the limit.
        if not work[WORK.quiescence] or depth <= -work[WORK.quiescence_depth]:
            return leaf_value(state, mover, work, weights)
        moves = legal_moves(state)
        noisy = 0
        for m in moves:                           # the captures, compacted in order to the front
            if is_capture(state, m):
                moves[noisy] = m
                noisy += 1
        if not noisy:
            return leaf_value(state, mover, work, weights)
        best = -INF
        if noisy < len(moves):
            best = leaf_value(state, mover, work, weights)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        for i in range(noisy):
            move = moves[i]
            value = -negamax(apply_move(state, move), depth - 1, -beta, -alpha, ply + 1, option, rows, values,
                             work, weights, deadline)
            if work[WORK.aborted]:
                return 0.0
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    prepend(work, line, move, line + work[WORK.pv_stride])
                    if value >= beta:
                        break
        return best

    tt_move = -1
    slot = 0
    w0 = w1 = w2 = w3 = w4 = 0
    stamp = work[WORK.stamp]
    if work[WORK.use_table]:
        # The probe at hash_key(state) % size: the sum of search_key's words shifted, `sum(key[i] << shift[i])`,
        # reduced in 64-bit arithmetic from size and each 2**shift[i] % size (size < 2**31: each term is
        # below 2**62, the sum below 2**64).
        size = as_uint64(work[WORK.size])
        if work[WORK.one_word]:
            # An adapter's state and key are one word each (the state's id, the game's hash): nothing padded.
            slot = as_int64(as_uint64(search_key(state)[0]) % size * as_uint64(work[WORK.shifts]) % size)
            w0 = as_int64(state[0])
        else:
            key = search_key(state) + (0, 0, 0, 0)       # zero-padded to KEY_WORDS, indexed statically
            slot = as_int64((as_uint64(key[0]) % size * as_uint64(work[WORK.shifts])
                             + as_uint64(key[1]) % size * as_uint64(work[WORK.shifts + 1])
                             + as_uint64(key[2]) % size * as_uint64(work[WORK.shifts + 2])
                             + as_uint64(key[3]) % size * as_uint64(work[WORK.shifts + 3])) % size)
            words = state + (0, 0, 0, 0, 0)           # zero-padded to STATE_WORDS, indexed statically
            w0, w1, w2, w3, w4 = (as_int64(words[0]), as_int64(words[1]), as_int64(words[2]), as_int64(words[3]),
                                  as_int64(words[4]))
        entry = rows[slot]
        if (entry[ROW.stamp] == stamp and entry[0] == w0
                and (work[WORK.one_word] or (entry[1] == w1 and entry[2] == w2 and entry[3] == w3
                                             and entry[4] == w4))):
            flag = entry[ROW.flag]
            value = values[slot]
            bound = flag & BOUND
            proof = 0
            if not solver:
                pass
            elif (value >= 1.0 and bound != UPPER) or (value <= -1.0 and bound != LOWER):
                proof = PROVEN_VALUE
            elif not flag & HORIZON:
                proof = PROVEN_TREE
            if ply and (proof or (entry[ROW.depth] == depth and entry[ROW.ply] == ply)):
                if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                    if flag & HORIZON and proof != PROVEN_VALUE:
                        work[WORK.leaves] += 1
                    return value
            if work[WORK.use_tt_move]:
                tt_move = entry[ROW.move]

    moves = ordered_moves(state) if work[WORK.use_hints] else legal_moves(state)
    if work[WORK.use_ordering]:
        order(moves, tt_move, ply, mover, work)
    extend_move = -1
    if (work[WORK.use_singular] and tt_move >= 0 and ply and depth >= work[WORK.singular_min_depth]
            and ply + depth < 2 * work[WORK.root_depth]):
        # The singular test, inlined (as the leaf above): the TT move is singular when no alternative
        # reaches the stored value minus the margin in a null-window search at half depth.
        entry = rows[slot]
        if entry[ROW.flag] & BOUND != UPPER and entry[ROW.depth] >= depth - 3:
            target = values[slot] - float_of_bits(work[WORK.singular_margin])
            if target != INF and target != -INF:
                below = next_after(target, -INF)
                leaves = work[WORK.leaves]   # the probes decide an extension, not the value
                extend_move = tt_move
                for move in moves:
                    if move != tt_move and -negamax(apply_move(state, move), (depth - 1) // 2, -target, -below,
                                                    ply + 1, option, rows, values, work, weights,
                                                    deadline) >= target:
                        extend_move = -1
                        break
                    if work[WORK.aborted]:
                        break
                work[WORK.leaves] = leaves
                if work[WORK.aborted]:
                    return 0.0

    pvs = work[WORK.use_pvs]
    reduce_from = (work[WORK.lmr_moves] if work[WORK.use_lmr] and ply and depth >= work[WORK.lmr_min_depth]
                   else len(moves))
    plain = not pvs and reduce_from >= len(moves) and extend_move < 0   # every child a full-window search
    alpha0, leaves0 = alpha, work[WORK.leaves]
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
                low = -next_after(alpha, INF)
            stage = PROBE
            if index >= reduce_from and not is_capture(state, move):
                search_depth, stage = child_depth - 1, REDUCED
        while True:
            value = -negamax(child, search_depth, low, -alpha, ply + 1, option, rows, values, work, weights,
                             deadline)
            if work[WORK.aborted]:
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
                prepend(work, line, move, line + work[WORK.pv_stride])
                if value >= beta:
                    if (work[WORK.use_killers] or work[WORK.use_history]) and not is_capture(state, move):
                        if work[WORK.use_killers] and work[row + PLY.killer] != move:
                            work[row + PLY.killer + 1] = work[row + PLY.killer]
                            work[row + PLY.killer] = move
                        if work[WORK.use_history]:
                            add_score(work, CONTROL_SIZE + mover * work[WORK.space], move, work[WORK.space],
                                      depth * depth)
                    break
    if work[WORK.use_table]:
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if work[WORK.leaves] != leaves0:
            flag |= HORIZON
        entry = rows[slot]
        if not (entry[ROW.stamp] == stamp and entry[ROW.depth] > depth
                and not (entry[0] == w0 and (work[WORK.one_word] or (entry[1] == w1 and entry[2] == w2
                                                                     and entry[3] == w3 and entry[4] == w4)))):
            if entry[ROW.stamp] != stamp:
                work[WORK.entries] += 1
            entry[0] = w0
            if not work[WORK.one_word]:
                entry[1], entry[2], entry[3], entry[4] = w1, w2, w3, w4
            entry[ROW.stamp], entry[ROW.depth], entry[ROW.ply] = stamp, depth, ply
            entry[ROW.flag], entry[ROW.move] = flag, best_move
            values[slot] = best
    if not ply:
        work[WORK.root_move] = best_move
    return best
