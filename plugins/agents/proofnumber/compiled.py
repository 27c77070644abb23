"""Allis' proof-number search as one compiled function, node for node the `pns` agent's search.

The interpreted `pns.pn_search` keeps its tree in Python lists and its table in a dict,
calling the Game protocol; this is the same algorithm (Allis 1994, with the current-node
enhancement and the mobility initialisation, see `pns`) over a game's compiled rules, for
games that provide a kernel (`game.kernel`, see `framework.jit`). It is compiled per game
by `framework.jit.Kernel` with the game's compiled `legal_moves`, `apply_move`, `to_move`
and `outcome` bound as its globals, so it never calls back into Python.

Same definitions, so the same answers: the same most-proving node (first child of least
number), the same node count (every generated state, the root included), the same
repetition rule (a child equal to a state on its path is a draw, `ghi`), the same table of
proved and path-independently disproved states, the same tree limit (checked before an
expansion) and node budget (checked before an expansion, never exceeded). A parametrised
test compares answer, move, node count and tree size with `pns.pn_search` on hundreds of
positions. One difference: the clock is read every 64 expansions instead of before each,
so a time budget may be overshot by up to 64 expansions (well under a millisecond).

Memory: the tree holds at most `tree_limit` nodes (typed lists of at most that length) and
the table at most one entry per tree node.
"""

from __future__ import annotations

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


def on_path(states, parent, node: int, child) -> bool:
    """True when `child` equals `node` or one of its ancestors (a repetition)."""
    while node >= 0:
        if states[node] == child:
            return True
        node = parent[node]
    return False


def pn_search(root, prover: int, option: int, tree_limit: int, node_limit: int, deadline: float):
    """Does `prover` win from `root`? Returns (status, proved, nodes, tree size, drawn, root move or -1)."""
    if node_limit < 1 or clock() >= deadline:
        return ROOT_OVER_BUDGET, False, 0, 0, False, -1
    nodes = 1
    pn0, dn0, drawn = leaf(root, prover, option)
    states = [root]
    moves = [-1]
    parent = [-1]
    first = [0]
    count = [0]
    pn = [pn0]
    dn = [dn0]
    ghi = [False]
    is_or = [to_move(root) == prover]
    table = {root: True}
    table.pop(root)
    status = SOLVED
    current = 0
    expansions = 0
    while pn[0] and dn[0]:
        node = current                                  # select the most-proving node
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
        state = states[node]                            # expand it
        children = legal_moves(state)
        if len(states) + len(children) > tree_limit:
            status = TREE_FULL
            break
        if nodes + len(children) > node_limit:
            status = BUDGET
            break
        expansions += 1
        if expansions % CLOCK_EVERY == 0 and clock() >= deadline:
            status = BUDGET
            break
        nodes += len(children)
        first[node] = len(states)
        count[node] = len(children)
        for move in children:
            child = apply_move(state, move)
            if on_path(states, parent, node, child):
                cpn, cdn, cghi = INF, 0, True
                drawn = True
            elif child in table:
                cpn, cdn, cghi = (0, INF, False) if table[child] else (INF, 0, False)
            else:
                cpn, cdn, new_drawn = leaf(child, prover, option)
                drawn = drawn or new_drawn
                cghi = False
            states.append(child)
            moves.append(move)
            parent.append(node)
            first.append(0)
            count.append(0)
            pn.append(cpn)
            dn.append(cdn)
            ghi.append(cghi)
            is_or.append(to_move(child) == prover)
        while True:                                     # update the ancestors
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
                break
            pn[node], dn[node] = new_pn, new_dn
            if new_pn == 0:
                table[states[node]] = True
            elif new_dn == 0:
                any_ghi = False
                for c in range(lo, hi):
                    any_ghi = any_ghi or ghi[c]
                ghi[node] = any_ghi
                if not any_ghi:
                    table[states[node]] = False
            if node == 0:
                break
            node = parent[node]
        current = node
    return status, pn[0] == 0, nodes, len(states), drawn, best_root_move(moves, first, count, pn, dn, is_or)


def best_root_move(moves, first, count, pn, dn, is_or) -> int:
    """`ProofTree.best_root_move`: the (dis)proving root move, else the most promising; -1 unexpanded."""
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
