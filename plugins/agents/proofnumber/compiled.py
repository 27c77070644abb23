"""Proof-number search and PN² compiled, node for node the `pns` and `pn2` agents' searches.

The interpreted `pns.pn_search` and `pns.pn2_search` keep their trees in Python lists and
their table in a dict, calling the Game protocol; these are the same algorithms (Allis 1994,
with the current-node enhancement and the mobility initialisation; Breuker 1998; see `pns`),
function by function (`ProofTree.select`, `expand`, `update`, `run`), over a game's compiled rules, for
games that provide a kernel (`game.kernel`, see `framework.jit`). It is compiled per game
by `framework.jit.Kernel` with the game's compiled `legal_moves`, `apply_move`, `to_move`,
`outcome` and `search_key` bound as its globals, so it never calls back into Python.

Same definitions, so the same answers: the same most-proving node (first child of least
number), the same node count (every generated state, the root included), the same
repetition rule (a child equal to a state on its path is a draw, `ghi`), the same table of
proved and path-independently disproved states, the same tree limit (checked before an
expansion) and node budget (checked before an expansion, never exceeded). A parametrised
test compares answer, move, node count and tree size with `pns.pn_search` on hundreds of
positions. One difference: the clock is read every 64 expansions instead of before each,
so a time budget may be overshot by up to 64 expansions (well under a millisecond).

Memory (`pns` explains the bounds): the tree holds at most `tree_limit` nodes (typed lists of at
most that length); the table is bounded at `tree_limit` entries by `bounded_store` (PN search's
never fills: it holds only states of its tree), and the searches return their `peak_entries`
as the interpreted ones count it (`spend[2]` tracks the table's largest size).

df-pn (`dfpn_search`) is `dfpn.interpreted_dfpn_search` the same way (Nagai 2002, see `dfpn`),
with MID run on an explicit stack of frames instead of recursion (numba's disk cache crashed
loading the recursive version), its frames' children on one shared arena. Its table holds at
most `tt_size` entries, dropping the older half in insertion order as `common.BoundedTable` does
(numba's dict keeps insertion order as Python's does). An entry resting on a repetition is keyed in
`dfpn` by (state, set of states above it); here by (search key, 1, h1, h2) with h1, h2 two sums
of `member_hash` over that set — an order-free set hash, exact unless two different sets on one
search collide in 128 bits (the test compares every count on 240 positions). Plain entries are
(search key, 0, 0, 0).
"""

from __future__ import annotations

import numpy as np

from framework.jit import DRAW, ONGOING, WIN, clock

INF = 1 << 48

#: Status codes of `pn_search`.
SOLVED, BUDGET, TREE_FULL, ROOT_OVER_BUDGET = 0, 1, 2, 3
#: Expansions between two readings of the clock.
CLOCK_EVERY = 64


def leaf(state, prover: int, option: int) -> tuple[int, int, bool]:
    """(proof, disproof, drawn) of a new state: `common.leaf_numbers` over the compiled rules."""
    result = outcome(state, prover, option)
    if result == WIN:
        return 0, INF, False
    if result != ONGOING:
        return INF, 0, result == DRAW
    mobility = len(legal_moves(state))
    if to_move(state) == prover:
        return 1, mobility, False
    return mobility, 1, False


def on_path(states, parent, node: int, key) -> bool:
    """True when `node` or one of its ancestors has the search key `key` (a repetition)."""
    while node >= 0:
        if search_key(states[node]) == key:
            return True
        node = parent[node]
    return False


def empty_table(root):
    """The table of proved (True) and disproved (False) search keys, empty; one insertion types it."""
    table = {search_key(root): True}
    table.pop(search_key(root))
    return table


def new_tree(root, prover: int, option: int, table):
    """A one-node tree (`ProofTree`) and whether the root's evaluation met a drawn end."""
    key = search_key(root)
    if key in table:
        pn0, dn0, drawn = (0, INF, False) if table[key] else (INF, 0, False)
    else:
        pn0, dn0, drawn = leaf(root, prover, option)
    return rooted_tree(root, pn0, dn0, prover), drawn


def rooted_tree(root, pn0: int, dn0: int, prover: int):
    """A one-node tree with known root numbers: parallel lists states, moves, parent, first, count,
    pn, dn, ghi (a repetition below), is_or."""
    return ([root], [-1], [-1], [0], [0], [pn0], [dn0], [False], [to_move(root) == prover])


def select(tree, node: int) -> int:
    """From `node` down to the most-proving node: the first child of least (dis)proof number."""
    states, moves, parent, first, count, pn, dn, ghi, is_or = tree
    while count[node]:
        lo = first[node]
        best = lo
        if is_or[node]:
            for c in range(lo + 1, lo + count[node]):
                if pn[c] < pn[best]:
                    best = c
        else:
            for c in range(lo + 1, lo + count[node]):
                if dn[c] < dn[best]:
                    best = c
        node = best
    return node


def add_child(tree, node: int, move: int, child, cpn: int, cdn: int, cghi: bool, prover: int) -> None:
    states, moves, parent, first, count, pn, dn, ghi, is_or = tree
    states.append(child)
    moves.append(move)
    parent.append(node)
    first.append(0)
    count.append(0)
    pn.append(cpn)
    dn.append(cdn)
    ghi.append(cghi)
    is_or.append(to_move(child) == prover)


def expand(tree, node: int, prover: int, option: int, table, outer, outer_node: int, spend, tree_limit: int,
           node_limit: int, deadline: float, cyclic: bool) -> tuple[int, bool]:
    """`ProofTree.expand`: generate and evaluate every child of `node`; returns (status, drawn seen).

    `outer`/`outer_node` continue the path above the root (PN²'s first-level path); `spend`
    holds [nodes generated, expansions, the table's peak] for the whole search; repetitions are looked for only
    in a `cyclic` game (one that declares a repetition limit).
    """
    states, moves, parent, first, count, pn, dn, ghi, is_or = tree
    state = states[node]
    children = legal_moves(state)
    if len(states) + len(children) > tree_limit:
        return TREE_FULL, False
    if spend[0] + len(children) > node_limit:
        return BUDGET, False
    spend[1] += 1
    if spend[1] % CLOCK_EVERY == 0 and clock() >= deadline:
        return BUDGET, False
    spend[0] += len(children)
    first[node] = len(states)
    count[node] = len(children)
    drawn = False
    outer_states, outer_parent = outer[0], outer[2]
    for move in children:
        child = apply_move(state, move)
        key = search_key(child)
        if cyclic and (on_path(states, parent, node, key) or on_path(outer_states, outer_parent, outer_node, key)):
            add_child(tree, node, move, child, INF, 0, True, prover)
            drawn = True
        elif key in table:
            if table[key]:
                add_child(tree, node, move, child, 0, INF, False, prover)
            else:
                add_child(tree, node, move, child, INF, 0, False, prover)
        else:
            cpn, cdn, cdrawn = leaf(child, prover, option)
            drawn = drawn or cdrawn
            add_child(tree, node, move, child, cpn, cdn, False, prover)
    return SOLVED, drawn


def bounded_store(table, key, value, limit: int, spend, peak: int) -> None:
    """`common.BoundedTable.store`: a full table first drops its older half, in insertion order;
    spend[peak] keeps the most entries the table held."""
    if len(table) >= limit and key not in table:
        drop = max(len(table) // 2, 1)
        old = [key]
        old.pop()
        for k in table.keys():
            if len(old) == drop:
                break
            old.append(k)
        for k in old:
            table.pop(k)
    table[key] = value
    if len(table) > spend[peak]:
        spend[peak] = len(table)


def update(tree, node: int, table, spend, table_limit: int) -> int:
    """`ProofTree.update`: recompute ancestors; returns the first whose numbers did not change."""
    states, moves, parent, first, count, pn, dn, ghi, is_or = tree
    while True:
        lo, hi = first[node], first[node] + count[node]
        if is_or[node]:
            new_pn, new_dn = INF + 1, 0
            for c in range(lo, hi):
                new_pn = min(new_pn, pn[c])
                new_dn += dn[c]
            new_dn = min(INF, new_dn)
        else:
            new_pn, new_dn = 0, INF + 1
            for c in range(lo, hi):
                new_pn += pn[c]
                new_dn = min(new_dn, dn[c])
            new_pn = min(INF, new_pn)
        if new_pn == pn[node] and new_dn == dn[node]:
            return node
        pn[node], dn[node] = new_pn, new_dn
        if new_pn == 0:
            bounded_store(table, search_key(states[node]), True, table_limit, spend, 2)
        elif new_dn == 0:
            any_ghi = False
            for c in range(lo, hi):
                any_ghi = any_ghi or ghi[c]
            ghi[node] = any_ghi
            if not any_ghi:
                bounded_store(table, search_key(states[node]), False, table_limit, spend, 2)
        if node == 0:
            return 0
        node = parent[node]


def grow(tree, prover: int, option: int, table, outer, outer_node: int, spend, tree_limit: int,
         node_limit: int, deadline: float, cyclic: bool, current: int, stop_at: int,
         table_limit: int) -> tuple[int, bool]:
    """`ProofTree.run` from `current` until the root is solved or `stop_at` nodes were generated."""
    pn, dn = tree[5], tree[6]
    drawn = False
    while pn[0] and dn[0] and spend[0] < stop_at:
        node = select(tree, current)
        status, seen = expand(tree, node, prover, option, table, outer, outer_node, spend, tree_limit,
                              node_limit, deadline, cyclic)
        drawn = drawn or seen
        if status != SOLVED:
            return status, drawn
        current = update(tree, node, table, spend, table_limit)
    return SOLVED, drawn


def pn_search(root, prover: int, option: int, tree_limit: int, node_limit: int, deadline: float, cyclic: bool):
    """Does `prover` win from `root`? Returns (status, proved, nodes, tree size, drawn, root move or -1, 0, 0,
    proof length or -1, peak entries)."""
    if node_limit < 1 or clock() >= deadline:
        return ROOT_OVER_BUDGET, False, 0, 0, False, -1, 0, 0, -1, 0
    spend = [1, 0, 0]
    table = empty_table(root)
    tree, drawn = new_tree(root, prover, option, table)
    status, seen = grow(tree, prover, option, table, tree, -1, spend, tree_limit, node_limit, deadline, cyclic,
                        0, INF, tree_limit)
    length = -1
    if tree[5][0] == 0:
        length = proof_length(tree[3], tree[4], tree[5], tree[8], [search_key(s) for s in tree[0]])
    return (status, tree[5][0] == 0, spend[0], len(tree[0]), drawn or seen, best_root_move(tree), 0, 0, length,
            len(tree[0]) + spend[2])


def proof_length(first, count, pn, is_or, keys) -> int:
    """Plies of the deepest line of a proved tree (parallel lists as `ProofTree`'s): the shortest proved
    move at OR nodes, the longest defence at AND nodes, so the prover forces a win within that many
    plies; -1 when the proof is circular (see below). One definition for both paths: `ProofTree.proof_length`
    calls it on its lists, `pn_search` compiled.

    A proved leaf that is not terminal was proved elsewhere in the tree (a transposition-table hit);
    its length is that of the last-created expanded proved node with the same key. Evaluated
    depth-first on an explicit stack (no recursion limit); should the chain of such references lead
    back into a line being measured, the proof rests on itself and its length is not known (-1).
    """
    proved_at = {keys[0]: 0}
    proved_at.pop(keys[0])
    for node in range(len(keys)):
        if count[node] and pn[node] == 0:
            proved_at[keys[node]] = node
    length = [-1] * len(keys)       # -1 not measured yet, -2 being measured (its children are above it)
    stack = [0]
    while len(stack):
        node = stack[-1]
        if length[node] >= 0:
            stack.pop()
            continue
        if length[node] == -1:       # first visit: measure what it depends on first
            length[node] = -2
            if count[node]:
                for c in range(first[node], first[node] + count[node]):
                    if pn[c] == 0 and length[c] == -2:
                        return -1
                    if pn[c] == 0 and length[c] == -1:
                        stack.append(c)
            else:
                other = proved_at.get(keys[node], node)
                if other != node:
                    if length[other] == -2:
                        return -1
                    if length[other] == -1:
                        stack.append(other)
            continue
        stack.pop()                  # second visit: everything it depends on is measured
        if not count[node]:
            other = proved_at.get(keys[node], node)
            length[node] = 0 if other == node else length[other]
        elif is_or[node]:
            best = INF
            for c in range(first[node], first[node] + count[node]):
                if pn[c] == 0 and length[c] < best:
                    best = length[c]
            length[node] = 1 + best
        else:
            best = 0
            for c in range(first[node], first[node] + count[node]):
                if length[c] > best:
                    best = length[c]
            length[node] = 1 + best
    return length[0]


def pn2_search(root, prover: int, option: int, tree_limit: int, node_limit: int, deadline: float, cyclic: bool):
    """Breuker's PN² (`pns.pn2_search`): each first-level expansion is a second-level PN search
    limited to as many nodes as the first-level tree holds. Returns `pn_search`'s figures with the
    second-level nodes and searches, no proof length (-1: the first-level tree holds no whole proof), and
    the peak entries (counting the largest second-level tree too)."""
    if node_limit < 1 or clock() >= deadline:
        return ROOT_OVER_BUDGET, False, 0, 0, False, -1, 0, 0, -1, 0
    spend = [1, 0, 0]
    table = empty_table(root)
    tree, drawn = new_tree(root, prover, option, table)
    states, moves, parent, first, count, pn, dn, ghi, is_or = tree
    inner_nodes, searches, inner_peak = 0, 0, 0
    status = SOLVED
    current = 0
    while pn[0] and dn[0]:
        node = select(tree, current)
        if len(states) + len(legal_moves(states[node])) > tree_limit:
            status = TREE_FULL
            break
        before = spend[0]
        inner = rooted_tree(states[node], pn[node], dn[node], prover)     # the leaf's numbers, as PN² does
        status, seen = expand(inner, 0, prover, option, table, tree, parent[node], spend, INF, node_limit,
                              deadline, cyclic)
        if status == SOLVED:
            update(inner, 0, table, spend, tree_limit)
            status, more = grow(inner, prover, option, table, tree, parent[node], spend, INF, node_limit,
                                deadline, cyclic, 0, before + len(states), tree_limit)
            seen = seen or more
        drawn = drawn or seen
        inner_nodes += spend[0] - before
        searches += 1
        inner_peak = max(inner_peak, len(inner[0]))
        if status != SOLVED:
            break
        lo, hi = inner[3][0], inner[3][0] + inner[4][0]
        for c in range(lo, hi):
            add_child(tree, node, inner[1][c], inner[0][c], inner[5][c], inner[6][c], inner[7][c], prover)
        first[node], count[node] = len(states) - (hi - lo), hi - lo
        current = update(tree, node, table, spend, tree_limit)
    return (status, pn[0] == 0, spend[0], len(states), drawn, best_root_move(tree), inner_nodes, searches, -1,
            len(states) + inner_peak + spend[2])


def best_root_move(tree) -> int:
    """`ProofTree.best_root_move`: the (dis)proving root move, else the most promising; -1 unexpanded."""
    states, moves, parent, first, count, pn, dn, ghi, is_or = tree
    if not count[0]:
        return -1
    lo, hi = first[0], first[0] + count[0]
    if pn[0] == 0 or dn[0] == 0:
        for c in range(lo, hi):
            if (pn[c] if pn[0] == 0 else dn[c]) == 0:
                return moves[c]
    best = lo
    for c in range(lo + 1, hi):
        if (pn[c] if is_or[0] else dn[c]) < (pn[best] if is_or[0] else dn[best]):
            best = c
    return moves[best]


def member_hash(key, salt: int):
    """A 64-bit hash of one search key (numba's `hash` of it, then mixed: Steele et al.'s
    SplitMix64 finaliser); `salt` picks one of two independent-looking hashes."""
    z = np.uint64(hash(key)) ^ np.uint64(salt)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0x3F58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x14D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def dfpn_expand(stack, arena, state, key, phi_th: int, delta_th: int, above1, above2, prover: int, option: int,
                cyclic: bool, table, path, spend, tt_size: int, node_limit: int, deadline: float) -> bool:
    """The first half of `DFPN.mid`: charge for `state`'s children, push its frame and its children's
    (state, key, phi, delta, ghi) on the arena. False (spend[3] set) when the budget ran out.

    MID runs on this explicit stack rather than by recursion: numba's cache crashed loading the
    recursive version (a segfault in a fresh process)."""
    moves = legal_moves(state)
    if spend[0] + len(moves) > node_limit or ((spend[1] + 1) % CLOCK_EVERY == 0 and clock() >= deadline):
        spend[3] = 1
        return False
    spend[0] += len(moves)
    spend[1] += 1
    states, keys, phis, deltas, ghis = arena
    zero = np.uint64(0)
    below1, below2 = above1 + member_hash(key, 1), above2 + member_hash(key, 2)
    rphi, rdelta = (0, INF) if to_move(state) == prover else (INF, 0)
    base = len(states)
    for move in moves:
        child = apply_move(state, move)
        ck = search_key(child)
        ghi = False
        plain = (ck, 0, zero, zero)
        tainted = (ck, 1, below1, below2)
        if ck in path or ck == key:
            p, d, ghi = rphi, rdelta, True
            spend[2] = 1
        elif plain in table:
            p, d = table[plain]
        elif cyclic and tainted in table:
            p, d = table[tainted]
            ghi = True
        else:
            lp, ld, drawn = leaf(child, prover, option)
            if drawn:
                spend[2] = 1
            p, d = (lp, ld) if to_move(child) == prover else (ld, lp)
            bounded_store(table, plain if not cyclic or p == 0 or d == 0 else tainted, (p, d), tt_size, spend, 4)
        states.append(child)
        keys.append(ck)
        phis.append(p)
        deltas.append(d)
        ghis.append(ghi)
    if len(states) > spend[5]:
        spend[5] = len(states)
    path[key] = True
    stack.append((state, key, phi_th, delta_th, above1, above2, below1, below2, base, len(moves)))
    return True


def dfpn_mid(root, key, prover: int, option: int, cyclic: bool, table, path, spend, tt_size: int,
             node_limit: int, deadline: float, arena):
    """`DFPN.mid` from the root with infinite thresholds, on an explicit stack of frames. Returns the
    root's (phi, delta); the root's children stay at the start of the arena."""
    zero = np.uint64(0)
    stack = [(root, key, INF, INF, zero, zero, zero, zero, 0, 0)]
    stack.pop()
    slots = [0]     # the arena slot of each frame above the root, in its parent's children
    slots.pop()
    if not dfpn_expand(stack, arena, root, key, INF, INF, zero, zero, prover, option, cyclic, table, path, spend,
                       tt_size, node_limit, deadline):
        return -1, -1
    states, keys, phis, deltas, ghis = arena
    while True:
        state, key, phi_th, delta_th, above1, above2, below1, below2, base, count = stack[-1]
        phi, total = deltas[base], 0
        for i in range(base, base + count):
            phi = min(phi, deltas[i])
            total += phis[i]
        delta = min(INF, total)
        if phi < phi_th and delta < delta_th:
            best, best_delta, second = base, INF + 1, INF
            for i in range(base, base + count):
                d = deltas[i]
                if d < best_delta:
                    best, best_delta, second = i, d, best_delta
                elif d < second:
                    second = d
            if not dfpn_expand(stack, arena, states[best], keys[best], min(INF, delta_th + phis[best] - delta),
                               min(phi_th, second + 1), below1, below2, prover, option, cyclic, table, path, spend,
                               tt_size, node_limit, deadline):
                return -1, -1
            slots.append(best)
            continue
        path.pop(key)
        mover_is_prover = to_move(state) == prover
        prover_wins = phi == 0 if mover_is_prover else delta == 0
        ghi = cyclic
        if phi == 0:    # the mover wins through any child it has beaten; tainted only if all of those are
            ghi = not prover_wins
            for i in range(base, base + count):
                if deltas[i] == 0 and not ghis[i]:
                    ghi = False
        elif delta == 0:  # the mover loses: every child counts
            ghi = False
            if not prover_wins:
                for i in range(base, base + count):
                    ghi = ghi or ghis[i]
        bounded_store(table, (key, 1, above1, above2) if ghi else (key, 0, zero, zero), (phi, delta), tt_size, spend,
                      4)
        stack.pop()
        if not stack:
            return phi, delta
        for _ in range(count):
            states.pop()
            keys.pop()
            phis.pop()
            deltas.pop()
            ghis.pop()
        phis[slots[-1]], deltas[slots[-1]], ghis[slots[-1]] = phi, delta, ghi
        slots.pop()


def dfpn_search(root, prover: int, option: int, tt_size: int, node_limit: int, deadline: float, cyclic: bool):
    """`dfpn.dfpn_search`: returns (status, proved, nodes, expansions, table entries, drawn, root move or -1,
    peak entries: the table's largest size plus the most children held on the path)."""
    if node_limit < 1 or clock() >= deadline:
        return ROOT_OVER_BUDGET, False, 0, 0, 0, False, -1, 0
    zero = np.uint64(0)
    key = search_key(root)
    spend = [1, 0, 0, 0, 0, 0]    # nodes, expansions, drawn seen, aborted, the table's peak, the arena's peak
    table = {(key, 0, zero, zero): (0, 0)}
    table.pop((key, 0, zero, zero))
    path = {key: True}
    path.pop(key)
    lp, ld, drawn = leaf(root, prover, option)
    if drawn:
        spend[2] = 1
    mover_is_prover = to_move(root) == prover
    phi, delta = (lp, ld) if mover_is_prover else (ld, lp)
    phis = [0]
    phis.pop()
    deltas = [0]
    deltas.pop()
    ghis = [False]
    ghis.pop()
    states = [root]
    states.pop()
    keys = [key]
    keys.pop()
    arena = (states, keys, phis, deltas, ghis)
    if phi and delta:
        phi, delta = dfpn_mid(root, key, prover, option, cyclic, table, path, spend, tt_size, node_limit, deadline,
                              arena)
    status = BUDGET if spend[3] else SOLVED
    proved = (phi == 0) if mover_is_prover else (delta == 0)
    move = -1
    if len(deltas):     # the root's children head the arena
        moves = legal_moves(root)
        best = 0
        if status == BUDGET:
            for i in range(len(moves)):
                if deltas[i] < deltas[best]:
                    best = i
        else:
            for i in range(len(moves) - 1, -1, -1):
                if deltas[i] == 0:
                    best = i
        move = moves[best]
    return status, proved, spend[0], spend[1], len(table), spend[2] == 1, move, spend[4] + spend[5]
