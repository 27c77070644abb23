"""The proof-number family written once: PN search (Allis 1994), PN² (Breuker 1998), df-pn (Nagai 2002), PDS
(Nagai 1999) and PDS-PN (Winands et al. 2002).

Plain functions over a game kernel's states and int moves, calling the game only through the kernel
interface (`framework.kernel.api`: `legal_moves`, `apply_move`, `to_move`, `outcome`, `search_key`). The same
code objects run compiled by numba (`framework.kernel.numba_backend.Kernel`, for a game with a kernel) and as
Python (over
the kernel's interpreted rules, or over `framework.kernel.adapter` for a plain-Python game, or everything
with `PLYGROUND_JIT=0`), so both give the same answers, moves and node counts by construction. `pns` and
`dfpn` bind them to a game and wrap them as solvers and agents.

A proof-number search answers a *binary* question: "can the `prover` force a win from this state?"
(Allis 1994, "Searching for Solutions in Games and Artificial Intelligence", ch. 3). A draw counts as a
failure for the prover; `common.solve_three_valued` builds win / loss / draw from one or two searches.

Node convention (the DESIGN definition "a state visited by a search", applied to searches that generate
all children at once): every state a search *generates* counts one node, the root included, each time it
is generated. Tree searches (pns, pn2) generate each state of their tree once, so their count is the
number of tree nodes they created; depth-first searches (dfpn) count again each time they re-expand a
state, and PN² counts its second-level trees too. A node budget is checked *before* an expansion against
the number of children it would create, so it is never exceeded; the clock is read as every search reads it
(`framework.kernel.api.over_budget`: every 256th expansion compiled, every one in Python), so a time budget is
overshot by at most that many expansions. Leaves get the mobility
initialisation (`leaf`).

Repetitions: a state that repeats one on the current path is scored a draw (so never a proof for the
prover); they are looked for only in a `cyclic` game (one that declares a repetition limit). A proof for
the prover never rests on such a leaf, so proofs are path-independent and safe to share through a
transposition table; a disproof that rests on one (`ghi`, the graph-history-interaction problem, Palay
1983) is path-dependent and is never stored as final.

PN search: Allis' thesis ch. 3 (also Allis, van der Meulen & van den Herik, "Proof-Number Search",
Artificial Intelligence 66, 1994). The tree (`Tree`: parallel lists indexed by node id, the children of a
node contiguous) is kept in memory; each iteration walks from the *current node* to the most-proving node
(at OR nodes the first child of least proof number, at AND nodes of least disproof number), expands it,
evaluates every child and updates the ancestors until a node's numbers do not change; that node becomes
the current node (Allis' enhancement: the same most-proving nodes as restarting at the root). Proved and
path-independently disproved states go into a table (search key -> proved?), so a state reached again by
another path is evaluated as solved. A proof reports its length (`proof_length`).

PN²: D. M. Breuker, "Memory versus Search in Games", PhD thesis, Maastricht 1998, ch. 4. The first-level
tree expands its most-proving node by running a second PN search from it, limited by Breuker's growth
function of the first-level tree's size (`second_level_size`; or, `GROWTH_TREE_SIZE`, to as many nodes as
the first-level tree holds); the children of the second-level root, with their numbers, join the
first-level tree and the rest is discarded. Both levels share the table.

df-pn: A. Nagai, "Df-pn Algorithm for Searching AND/OR Trees and Its Applications", PhD thesis, Tokyo
2002 (pseudo-code as in Kishimoto, Winands, Müller & Saito, "Game-Tree Search Using Proof Numbers: The
First Twenty Years", ICGA Journal 35(3), 2012, Fig. 3). Numbers are kept from the side to move at each
node: phi = its proof number, delta = its disproof number, so phi(n) = min delta(c) and delta(n) = sum
phi(c). MID(n) expands n and keeps searching its child of least delta with thresholds

    child phi threshold   = delta threshold(n) + phi(c1) - sum phi(c)
    child delta threshold = min(phi threshold(n), delta(c2) + 1)

(c1 the best child, c2 the second best) until n's numbers reach its thresholds; the root starts with
infinite thresholds. MID runs on an explicit stack of `Frame`s (no recursion limit; numba's cache cannot
load recursive functions), its frames' children on one shared arena. Cycles: in a cyclic game, entries
whose numbers rest on a repetition are keyed by (state, set of states above it), which makes the searched
space acyclic (without it df-pn's numbers can feed on each other round a cycle and grow forever); the set
is kept as two order-free sums of member hashes (`member_hash`), exact unless two sets of one search
collide in both. Solved values resting on no repetition are keyed by the state alone.

PDS: A. Nagai, "A new depth-first-search algorithm for AND/OR trees", M.Sc. thesis, Tokyo 1999 (as
described by Winands, Uiterwijk & van den Herik, "PDS-PN: A New Proof-Number Search Algorithm", CG 2002,
§2.3: proof-number and disproof-number search, depth-first with a table and *multiple iterative
deepening*). It is df-pn's MID with two differences (`pds` true): a node is searched until *both* its
numbers reach their thresholds (df-pn stops at either), and a child's thresholds are its own current
numbers with one raised by one. Which one is Nagai's proof-like rule (as Winands et al. restate it, and
H. J. van den Herik & M. H. M. Winands, "Proof-Number Search and its Variants", 2008, eqs. 8-9; Nagai's own
theses were not at hand): it reads the parent's thresholds and the *child's* numbers. The child c (of least
delta, as in df-pn) is proof-like when the parent's delta is under its threshold and either phi(c) <= delta(c)
(a tie is proof-like) or the parent's phi has reached its threshold; it then gets (phi(c) + 1, delta(c)),
searched until proving it for its mover is one step harder (the parent's delta, the sum of its children's
phi, grows). Otherwise, disproof-like, it gets (phi(c), delta(c) + 1) (the parent's phi, the least delta,
grows). (Until issue 29 the rule read the parent's own phi <= delta, a tie going to the parent's mover.)
So every node deepens its own search one step at a time, re-searching its children each time (hence the
paper's "relatively slow"). The root starts with infinite thresholds (searched until solved), where
Nagai's driver raises the smaller of the root's thresholds by one per iteration.

PDS-PN: M. H. M. Winands, J. W. H. M. Uiterwijk & H. J. van den Herik, "PDS-PN: A New Proof-Number Search
Algorithm", CG 2002: PDS at the first level, a best-first PN search at the second. Each first-level
expansion runs a PN search from the node (`second_level`, Allis' search above on a fresh table, the
first level's path a chain above its root so repetitions of it are draws) and takes its root's children,
with their numbers, as the node's children; the second-level tree is then discarded. The second level is
limited by the growth function with PDS-PN's own (a, b) (`second_level_size`), x the entries of the first
level's table (the paper's first level has no tree; its table is what grows) and the memory `tt_size`. So
PDS-PN's memory is the first level's bounded table plus one second-level tree, together about `tt_size`:
unlike PN², no tree that must grow with the proof.

Memory: a PN tree holds at most `tree_limit` nodes (an expansion past it stops with status `TREE_FULL`);
tables are bounded by `bounded_store` (full, a table drops its older half in insertion order:
deterministic, and solved entries are as likely to go as any, which costs re-search, never correctness).
`peak_entries` of a result is what the search held at most: tree nodes (and PN²'s largest second-level
tree) plus the table's largest size; for df-pn the table's plus the most children held on the path.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from framework.kernel.api import (
    DRAW,
    ONGOING,
    WIN,
    apply_move,
    clock,
    legal_moves,
    move_count,
    outcome,
    over_budget,
    search_key,
    to_move,
)
from framework.layout import layout

#: What `framework.kernel.binding.bind` reads (`declared`): the name in a refusal; through an adapter the
#: game's own states and moves pass through uninterned (the searches keep states only in Python lists and
#: dicts, so a bounded table bounds the memory); compiled, each helper compiles once rather than once per int or
#: bool constant passed to it (a third less compile time, the same nodes/s; df-pn, PDS and PDS-PN share one
#: compiled `depth_first`).
NAME = "proof-number search"
ADAPTER = "pass-through"
FOLD_CONSTANT_ARGUMENTS = False
#: An "infinite" proof or disproof number: larger than any sum of real ones, still an int.
INF = 1 << 48

#: How a search ended (`PNResult.status`, `DFPNResult.status`).
SOLVED, BUDGET, TREE_FULL, ROOT_OVER_BUDGET = 0, 1, 2, 3

#: How large a second-level tree (PN²'s, PDS-PN's) may grow (`second_level_size`): by the published growth
#: function, or as large as the first level (f = 1, this project's first PN², kept to compare against).
GROWTH_PUBLISHED, GROWTH_TREE_SIZE = 0, 1
#: The growth function's (a, b) for PN² and for PDS-PN, as Winands, Uiterwijk & van den Herik give them for LOA
#: (PN²'s from Breuker 1998); see `second_level_size`.
PN2_GROWTH = (1_800_000.0, 240_000.0)
PDSPN_GROWTH = (450_000.0, 300_000.0)

#: The counters of one search, named slots of one int list (mutable in compiled and interpreted code
#: alike): nodes generated, expansions, the table's largest size, a drawn end seen (0/1), the budget ran
#: out (0/1), the most children held on df-pn's path, PDS-PN's largest second-level tree.
COUNTER, COUNTER_SLOTS = layout("Counter", "nodes expansions table_peak drawn aborted arena_peak second_peak")


class Tree(NamedTuple):
    """A PN tree as parallel lists indexed by node id (node 0 the root; the children of a node are the
    `children[n]` nodes from `first[n]`, `children` 0 while unexpanded)."""

    states: list[Any]
    keys: list[Any]          # search_key of each state
    moves: list[Any]         # the move from the parent (-1 at the root)
    parent: list[int]
    first: list[int]
    children: list[int]      # how many children (0: unexpanded)
    pn: list[int]
    dn: list[int]
    ghi: list[bool]          # its numbers rest on a repetition (never stored as final)
    is_or: list[bool]        # the prover moves there


class PNResult(NamedTuple):
    """What `pn_search` and `pn2_search` return."""

    status: int              # SOLVED, BUDGET, TREE_FULL or ROOT_OVER_BUDGET (nothing searched)
    proved: bool             # the root is proved (meaningful when SOLVED)
    nodes: int               # nodes generated, the root included
    tree_nodes: int          # the (first-level) tree's size at the end
    drawn: bool              # a drawn end or a repetition was seen
    move: Any                # the (dis)proving root move, unsolved the most promising; -1 unexpanded (tree_nodes 1)
    second_level_nodes: int  # PN²: nodes generated by second-level searches (0 for PN search)
    second_level_searches: int
    proof_length: int        # PN search, proved: plies of the proof's deepest line; -1 otherwise
    peak_entries: int


class Frame(NamedTuple):
    """One df-pn MID call on the explicit stack: a state being searched until its numbers reach the
    thresholds, the set hashes of the states above it (`above`) and with it (`below`), and where its
    children lie on the arena."""

    state: Any
    key: Any
    phi_th: int
    delta_th: int
    above1: int
    above2: int
    below1: int
    below2: int
    base: int                # its first child's slot on the arena
    children: int


class Arena(NamedTuple):
    """The children of the frames on df-pn's path, frame after frame (parallel lists)."""

    states: list[Any]
    keys: list[Any]
    phis: list[int]
    deltas: list[int]
    ghis: list[bool]


class DFPNResult(NamedTuple):
    """What `dfpn_search` returns."""

    status: int              # SOLVED, BUDGET or ROOT_OVER_BUDGET
    proved: bool
    nodes: int
    expansions: int
    tt_entries: int          # the table's entries at the end
    drawn: bool
    move: Any                # the (dis)proving root move, unsolved the most promising; -1 unexpanded (no expansions)
    peak_entries: int


def leaf(state: Any, or_node: bool, prover: int, option: int) -> tuple[int, int, bool]:
    """(proof, disproof, drawn) of a newly generated state, from the prover's side; `or_node`: the prover
    is to move there (the caller knows it already).

    Terminal states are proved (the prover won) or disproved (lost or drawn: `drawn`). Other states get
    the mobility initialisation of Winands, Uiterwijk & van den Herik ("PDS-PN: A New Proof-Number Search
    Algorithm", CG 2002, §2, after Allis 1994): at an OR node (the prover to move) proof 1 and disproof
    the number of legal moves; at an AND node the converse.
    """
    result = outcome(state, prover, option)
    if result == WIN:
        return 0, INF, False
    if result != ONGOING:
        return INF, 0, result == DRAW
    mobility = move_count(state)
    if or_node:
        return 1, mobility, False
    return mobility, 1, False


def bounded_store(table: Any, key: Any, value: Any, limit: int, counters: list[int]) -> None:
    """`table[key] = value` in a table of at most `limit` entries: a full table first drops its older half,
    in insertion order (dicts keep it, compiled too); counters[COUNTER.table_peak] keeps the most it held."""
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
    if len(table) > counters[COUNTER.table_peak]:
        counters[COUNTER.table_peak] = len(table)


def second_level_size(x: int, memory: int, growth: int, a: float, b: float) -> int:
    """y, the nodes a second-level tree may hold beyond its root, for a first level of `x` nodes in a memory of
    `memory` nodes: y = min(x f(x), memory - x) with Breuker's logistic growth f(x) = 1 / (1 + e^((a - x) / b))
    (`GROWTH_PUBLISHED`), or y = x (`GROWTH_TREE_SIZE`: f = 1 and no memory term, as this project's PN² first did).

    The function and y = min(x f(x), N - x), N the nodes memory holds, are Breuker's (D. M. Breuker, "Memory
    versus Search in Games", PhD thesis, Maastricht 1998, ch. 4) as Winands, Uiterwijk & van den Herik restate
    them ("An Effective Two-Level Proof-Number Search Algorithm", Theoretical Computer Science 313(3), 2004, and
    "PDS-PN", CG 2002), with (a, b) = (1,800K, 240K) for PN² and (450K, 300K) for PDS-PN on LOA
    (`PN2_GROWTH`, `PDSPN_GROWTH`). Small first levels get small second levels: f(0) is about 1/1800 for PN²,
    so until x is in the thousands a second-level search only expands its root and PN² expands as PN search does.
    A second-level tree is the states its search generated (its root is the first-level node, counted there);
    the search stops once it holds y or more, so it always expands its root and passes y by at most the children
    of its last expansion."""
    if growth == GROWTH_TREE_SIZE:
        return x
    grown = int(x / (1.0 + math.exp((a - x) / b)))
    return max(0, min(grown, memory - x))


# -- PN search and PN² ------------------------------------------------------------------------------


def on_path(tree: Tree, node: int, key: Any) -> bool:
    """True when `node` or one of its ancestors has the search key `key` (a repetition)."""
    keys, parent = tree.keys, tree.parent
    while node >= 0:
        if keys[node] == key:
            return True
        node = parent[node]
    return False


def empty_table(root: Any) -> Any:
    """The table of proved (True) and disproved (False) search keys, empty; one insertion types it."""
    table = {search_key(root): True}
    table.pop(search_key(root))
    return table


def rooted_tree(root: Any, key: Any, pn0: int, dn0: int, or_node: bool) -> Tree:
    """A one-node tree with known root numbers."""
    return Tree([root], [key], [-1], [-1], [0], [0], [pn0], [dn0], [False], [or_node])


def select(tree: Tree, node: int) -> int:
    """From `node` down to the most-proving node: the first child of least (dis)proof number."""
    first, count, pn, dn, is_or = tree.first, tree.children, tree.pn, tree.dn, tree.is_or
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


def add_child(tree: Tree, node: int, move: int, child: Any, key: Any, cpn: int, cdn: int, cghi: bool,
              or_node: bool) -> None:
    """Append one child under `node` (PN²'s first level takes a second-level root's children so)."""
    tree.states.append(child)
    tree.keys.append(key)
    tree.moves.append(move)
    tree.parent.append(node)
    tree.first.append(0)
    tree.children.append(0)
    tree.pn.append(cpn)
    tree.dn.append(cdn)
    tree.ghi.append(cghi)
    tree.is_or.append(or_node)


def affordable(counters: list[int], children: int, node_limit: int, deadline: float) -> bool:
    """The budget of every search here, tested before an expansion that generates `children` states: they fit
    under `node_limit`, and the clock is before `deadline` (the shared test, `over_budget`, ticking by
    expansions)."""
    return not over_budget(counters[COUNTER.nodes], children, node_limit, counters[COUNTER.expansions] + 1, deadline)


def expand(tree: Tree, node: int, prover: int, option: int, table: Any, outer: Tree, outer_node: int,
           counters: list[int], tree_limit: int, node_limit: int, deadline: float, cyclic: bool) -> tuple[int, bool]:
    """Generate and evaluate every child of `node`; returns (status, a drawn end seen).

    `outer`/`outer_node` continue the path above the root (PN²'s first-level path; the tree itself and -1
    for PN search).
    """
    states = tree.states
    state = states[node]
    children = legal_moves(state)
    if len(states) + len(children) > tree_limit:
        return TREE_FULL, False
    if not affordable(counters, len(children), node_limit, deadline):
        return BUDGET, False
    counters[COUNTER.expansions] += 1
    counters[COUNTER.nodes] += len(children)
    tree.first[node] = len(states)
    tree.children[node] = len(children)
    keys, moves, parent, first, count = tree.keys, tree.moves, tree.parent, tree.first, tree.children
    pn, dn, ghi, is_or = tree.pn, tree.dn, tree.ghi, tree.is_or
    drawn = False
    for move in children:
        child = apply_move(state, move)
        key = search_key(child)
        repeated = False
        or_node = to_move(child) == prover
        if cyclic and (on_path(tree, node, key) or on_path(outer, outer_node, key)):
            cpn, cdn, repeated = INF, 0, True
            drawn = True
        elif key in table:
            cpn, cdn = (0, INF) if table[key] else (INF, 0)
        else:
            cpn, cdn, cdrawn = leaf(child, or_node, prover, option)
            drawn = drawn or cdrawn
        states.append(child)
        keys.append(key)
        moves.append(move)
        parent.append(node)
        first.append(0)
        count.append(0)
        pn.append(cpn)
        dn.append(cdn)
        ghi.append(repeated)
        is_or.append(or_node)
    return SOLVED, drawn


def update(tree: Tree, node: int, table: Any, counters: list[int], table_limit: int) -> int:
    """Recompute the numbers of `node` and its ancestors; returns the first whose numbers did not change."""
    first, count, pn, dn, ghi, is_or = tree.first, tree.children, tree.pn, tree.dn, tree.ghi, tree.is_or
    while True:
        lo, hi = first[node], first[node] + count[node]
        if is_or[node]:
            new_pn, new_dn = INF + 1, 0
            for c in range(lo, hi):
                if pn[c] < new_pn:
                    new_pn = pn[c]
                new_dn += dn[c]
            new_dn = min(INF, new_dn)
        else:
            new_pn, new_dn = 0, INF + 1
            for c in range(lo, hi):
                new_pn += pn[c]
                if dn[c] < new_dn:
                    new_dn = dn[c]
            new_pn = min(INF, new_pn)
        if new_pn == pn[node] and new_dn == dn[node]:
            return node
        pn[node], dn[node] = new_pn, new_dn
        if new_pn == 0:
            bounded_store(table, tree.keys[node], True, table_limit, counters)
        elif new_dn == 0:
            any_ghi = False
            for c in range(lo, hi):
                any_ghi = any_ghi or ghi[c]
            ghi[node] = any_ghi
            if not any_ghi:
                bounded_store(table, tree.keys[node], False, table_limit, counters)
        if node == 0:
            return 0
        node = tree.parent[node]


def grow(tree: Tree, prover: int, option: int, table: Any, outer: Tree, outer_node: int, counters: list[int],
         tree_limit: int, node_limit: int, deadline: float, cyclic: bool, current: int, stop_at: int,
         table_limit: int) -> tuple[int, bool]:
    """The PN loop from `current` until the root is solved or `stop_at` nodes were generated; returns
    (status, a drawn end seen)."""
    pn, dn = tree.pn, tree.dn
    drawn = False
    while pn[0] and dn[0] and counters[COUNTER.nodes] < stop_at:
        node = select(tree, current)
        status, seen = expand(tree, node, prover, option, table, outer, outer_node, counters, tree_limit,
                              node_limit, deadline, cyclic)
        drawn = drawn or seen
        if status != SOLVED:
            return status, drawn
        current = update(tree, node, table, counters, table_limit)
    return SOLVED, drawn


def new_counters() -> list[int]:
    """The counters (`COUNTER`) of a search that has paid for its root."""
    counters = [0] * COUNTER_SLOTS
    counters[COUNTER.nodes] = 1
    return counters


def pn_search(root: Any, prover: int, option: int, tree_limit: int, node_limit: int, deadline: float,
              cyclic: bool) -> PNResult:
    """Allis' PN search: does `prover` win from `root`?"""
    if node_limit < 1 or clock() >= deadline:
        return PNResult(ROOT_OVER_BUDGET, False, 0, 0, False, -1, 0, 0, -1, 0)
    counters = new_counters()
    table = empty_table(root)
    key = search_key(root)
    or_root = to_move(root) == prover
    pn0, dn0, drawn = leaf(root, or_root, prover, option)      # the table is empty: the root is a new leaf
    tree = rooted_tree(root, key, pn0, dn0, or_root)
    status, seen = grow(tree, prover, option, table, tree, -1, counters, tree_limit, node_limit, deadline, cyclic,
                        0, INF, tree_limit)
    length = -1
    if tree.pn[0] == 0:
        length = proof_length(tree.first, tree.children, tree.pn, tree.is_or, tree.keys)
    return PNResult(status, tree.pn[0] == 0, counters[COUNTER.nodes], len(tree.states), drawn or seen,
                    best_root_move(tree), 0, 0, length, len(tree.states) + counters[COUNTER.table_peak])


def proof_length(first: list[int], count: list[int], pn: list[int], is_or: list[bool], keys: list[Any]) -> int:
    """Plies of the deepest line of a proved tree: the shortest proved move at OR nodes, the longest defence
    at AND nodes, so the prover forces a win within that many plies (an upper bound read off the proof
    tree); -1 when the proof is circular (see below).

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


def pn2_search(root: Any, prover: int, option: int, tree_limit: int, node_limit: int, deadline: float,
               cyclic: bool, growth: int) -> PNResult:
    """Breuker's PN²: each first-level expansion is a second-level PN search (the leaf's numbers as its root's)
    of at most `second_level_size` nodes beyond its root, x the first-level tree's nodes and the memory
    `tree_limit` (`growth` picks the function); no proof length (the first-level tree keeps only the root
    children of each second-level search, not a whole proof)."""
    if node_limit < 1 or clock() >= deadline:
        return PNResult(ROOT_OVER_BUDGET, False, 0, 0, False, -1, 0, 0, -1, 0)
    counters = new_counters()
    table = empty_table(root)
    or_root = to_move(root) == prover
    pn0, dn0, drawn = leaf(root, or_root, prover, option)
    tree = rooted_tree(root, search_key(root), pn0, dn0, or_root)
    states, pn, dn = tree.states, tree.pn, tree.dn
    inner_nodes, searches, inner_peak = 0, 0, 0
    status = SOLVED
    current = 0
    while pn[0] and dn[0]:
        node = select(tree, current)
        if len(states) + len(legal_moves(states[node])) > tree_limit:
            status = TREE_FULL
            break
        before = counters[COUNTER.nodes]
        inner = rooted_tree(states[node], tree.keys[node], pn[node], dn[node], tree.is_or[node])
        status, seen = expand(inner, 0, prover, option, table, tree, tree.parent[node], counters, INF, node_limit,
                              deadline, cyclic)
        if status == SOLVED:
            update(inner, 0, table, counters, tree_limit)
            size = second_level_size(len(states), tree_limit, growth, PN2_GROWTH[0], PN2_GROWTH[1])
            status, more = grow(inner, prover, option, table, tree, tree.parent[node], counters, INF, node_limit,
                                deadline, cyclic, 0, before + size, tree_limit)
            seen = seen or more
        drawn = drawn or seen
        inner_nodes += counters[COUNTER.nodes] - before
        searches += 1
        inner_peak = max(inner_peak, len(inner.states))
        if status != SOLVED:
            break
        lo, hi = inner.first[0], inner.first[0] + inner.children[0]
        for c in range(lo, hi):
            add_child(tree, node, inner.moves[c], inner.states[c], inner.keys[c], inner.pn[c], inner.dn[c],
                      inner.ghi[c], inner.is_or[c])
        tree.first[node], tree.children[node] = len(states) - (hi - lo), hi - lo
        current = update(tree, node, table, counters, tree_limit)
    return PNResult(status, pn[0] == 0, counters[COUNTER.nodes], len(states), drawn, best_root_move(tree), inner_nodes,
                    searches, -1, len(states) + inner_peak + counters[COUNTER.table_peak])


def best_root_move(tree: Tree) -> Any:
    """The (dis)proving root move, else the most promising; -1 when the root is unexpanded."""
    first, count, pn, dn = tree.first, tree.children, tree.pn, tree.dn
    if not count[0]:
        return -1
    lo, hi = first[0], first[0] + count[0]
    if pn[0] == 0 or dn[0] == 0:
        for c in range(lo, hi):
            if (pn[c] if pn[0] == 0 else dn[c]) == 0:
                return tree.moves[c]
    numbers = pn if tree.is_or[0] else dn
    best = lo
    for c in range(lo + 1, hi):
        if numbers[c] < numbers[best]:
            best = c
    return tree.moves[best]


# -- df-pn ------------------------------------------------------------------------------------------


def member_hash(key: Any, salt: int) -> int:
    """A hash of one search key for the order-free set sums of df-pn's tainted entries; `salt` picks one of
    two independent ones. (Compiled, the sums wrap in int64; interpreted they are exact: either way equal
    sets give equal sums.)"""
    return hash((key, salt))


def second_level(state: Any, key: Any, prover: int, option: int, cyclic: bool, path: Any, counters: list[int],
                 node_limit: int, deadline: float, limit: int) -> Tree:
    """PDS-PN's second level: a PN search from `state` of at most `limit` nodes beyond its root
    (`second_level_size`, x the entries of the first level's table), on a fresh table discarded with it; its
    root's children, with their numbers, are what the first level takes. The states on the first level's path
    are a chain above its root, so a repetition of one is a draw there too. Nodes, expansions and a drawn end
    count in `counters`; a budget that runs out sets counters[COUNTER.aborted]."""
    or_root = to_move(state) == prover
    tree = rooted_tree(state, key, 1, 1, or_root)      # the root's numbers are replaced at once by its children's
    above = rooted_tree(state, key, 0, 0, or_root)
    for k in path:
        add_child(above, len(above.states) - 1, -1, state, k, 0, 0, False, or_root)
    own = [0] * COUNTER_SLOTS
    for i in range(COUNTER_SLOTS):
        own[i] = counters[i]
    table = empty_table(state)
    before = own[COUNTER.nodes]
    status, drawn = expand(tree, 0, prover, option, table, above, len(above.states) - 1, own, INF, node_limit,
                           deadline, cyclic)
    if status == SOLVED:
        update(tree, 0, table, own, INF)
        status, more = grow(tree, prover, option, table, above, len(above.states) - 1, own, INF, node_limit,
                            deadline, cyclic, 0, before + limit, INF)
        drawn = drawn or more
    counters[COUNTER.nodes] = own[COUNTER.nodes]
    counters[COUNTER.expansions] = own[COUNTER.expansions]
    if len(tree.states) > counters[COUNTER.second_peak]:
        counters[COUNTER.second_peak] = len(tree.states)
    if drawn:
        counters[COUNTER.drawn] = 1
    if status != SOLVED:
        counters[COUNTER.aborted] = 1
    return tree


def dfpn_expand(stack: list[Frame], arena: Arena, state: Any, key: Any, phi_th: int, delta_th: int, above1: int,
                above2: int, prover: int, option: int, cyclic: bool, table: Any, path: Any, counters: list[int],
                tt_size: int, node_limit: int, deadline: float, two_level: bool, growth: int) -> bool:
    """The first half of MID: charge for `state`'s children, push its frame and its children on the arena.
    False (counters[COUNTER.aborted] set) when the budget ran out. With `two_level` (PDS-PN) the children
    new to the table take their numbers from a second-level PN search (`second_level`), else from `leaf`.

    Table keys are (search key, False, 0, 0) for a plain entry and (search key, True, set hashes of the
    states above it) for one resting on a repetition (tainted)."""
    moves = legal_moves(state)
    if not affordable(counters, len(moves), node_limit, deadline):
        counters[COUNTER.aborted] = 1
        return False
    if two_level:       # the second level charges for the children (and everything below them) itself
        size = second_level_size(len(table), tt_size, growth, PDSPN_GROWTH[0], PDSPN_GROWTH[1])
        inner = second_level(state, key, prover, option, cyclic, path, counters, node_limit, deadline, size)
        if counters[COUNTER.aborted]:
            return False
    else:
        counters[COUNTER.nodes] += len(moves)
        counters[COUNTER.expansions] += 1
    below1, below2 = above1, above2      # the set hashes of the states above a child: only a cyclic game needs them
    if cyclic:
        below1, below2 = above1 + member_hash(key, 1), above2 + member_hash(key, 2)
    # a repetition is a draw: from the child's mover's side a loss if that is the prover, else a win
    rphi, rdelta = (0, INF) if to_move(state) == prover else (INF, 0)
    states, keys, phis, deltas, ghis = arena.states, arena.keys, arena.phis, arena.deltas, arena.ghis
    base = len(states)
    for i in range(len(moves)):
        child = apply_move(state, moves[i])
        ck = search_key(child)
        ghi = False
        if ck in path or ck == key:
            p, d, ghi = rphi, rdelta, True
            counters[COUNTER.drawn] = 1
        else:
            p, d = table.get((ck, False, 0, 0), (-1, -1))     # (-1, -1): absent
            if p < 0 and cyclic:
                p, d = table.get((ck, True, below1, below2), (-1, -1))
                ghi = p >= 0
            if p < 0:
                or_node = to_move(child) == prover
                if two_level:       # the second-level root's children are the children, in move order
                    c = inner.first[0] + i
                    lp, ld, ghi = inner.pn[c], inner.dn[c], inner.ghi[c]
                else:
                    lp, ld, drawn = leaf(child, or_node, prover, option)
                    if drawn:
                        counters[COUNTER.drawn] = 1
                p, d = (lp, ld) if or_node else (ld, lp)
                if not cyclic or ((p == 0 or d == 0) and not ghi):
                    bounded_store(table, (ck, False, 0, 0), (p, d), tt_size, counters)
                else:
                    bounded_store(table, (ck, True, below1, below2), (p, d), tt_size, counters)
        states.append(child)
        keys.append(ck)
        phis.append(p)
        deltas.append(d)
        ghis.append(ghi)
    if len(states) > counters[COUNTER.arena_peak]:
        counters[COUNTER.arena_peak] = len(states)
    path[key] = True
    stack.append(Frame(state, key, phi_th, delta_th, above1, above2, below1, below2, base, len(moves)))
    return True


def pds_child_thresholds(phi: int, delta: int, phi_th: int, delta_th: int, child_phi: int,
                         child_delta: int) -> tuple[int, int]:
    """PDS's thresholds for the child searched next, from the parent's numbers and thresholds and the child's
    numbers (all from each node's mover's side): the child's own numbers with the one Nagai's rule picks raised
    by one. Proof-like (the parent's delta under its threshold, and the child's phi <= its delta, a tie
    proof-like, or the parent's phi at its threshold): its phi; otherwise its delta (see the module docstring)."""
    if delta < delta_th and (child_phi <= child_delta or phi >= phi_th):
        return child_phi + 1, child_delta
    return child_phi, child_delta + 1


def dfpn_mid(root: Any, key: Any, prover: int, option: int, cyclic: bool, table: Any, path: Any,
             counters: list[int], tt_size: int, node_limit: int, deadline: float, arena: Arena,
             pds: bool, two_level: bool, growth: int) -> tuple[int, int]:
    """MID from the root with infinite thresholds, on an explicit stack of frames: df-pn's, or PDS's with
    `pds`. Returns the root's (phi, delta), (-1, -1) when the budget ran out; the root's children stay at
    the start of the arena."""
    stack = [Frame(root, key, INF, INF, 0, 0, 0, 0, 0, 0)]
    stack.pop()
    slots = [0]     # the arena slot of each frame above the root, in its parent's children
    slots.pop()
    if not dfpn_expand(stack, arena, root, key, INF, INF, 0, 0, prover, option, cyclic, table, path, counters,
                       tt_size, node_limit, deadline, two_level, growth):
        return -1, -1
    phis, deltas, ghis = arena.phis, arena.deltas, arena.ghis
    while True:
        frame = stack[-1]
        base, count = frame.base, frame.children
        best, best_delta, second, total = base, INF + 1, INF, 0     # phi is the least delta (best_delta)
        for i in range(base, base + count):
            d = deltas[i]
            total += phis[i]
            if d < best_delta:
                best, best_delta, second = i, d, best_delta
            elif d < second:
                second = d
        phi, delta = best_delta, min(INF, total)
        if pds:
            deeper = phi != 0 and delta != 0 and (phi < frame.phi_th or delta < frame.delta_th)
        else:
            deeper = phi < frame.phi_th and delta < frame.delta_th
        if deeper:
            if not pds:
                child_phi_th, child_delta_th = min(INF, frame.delta_th + phis[best] - delta), min(frame.phi_th,
                                                                                                   second + 1)
            else:
                child_phi_th, child_delta_th = pds_child_thresholds(phi, delta, frame.phi_th, frame.delta_th,
                                                                    phis[best], deltas[best])
            if not dfpn_expand(stack, arena, arena.states[best], arena.keys[best], child_phi_th, child_delta_th,
                               frame.below1, frame.below2, prover, option, cyclic, table, path, counters, tt_size,
                               node_limit, deadline, two_level, growth):
                return -1, -1
            slots.append(best)
            continue
        path.pop(frame.key)
        mover_is_prover = to_move(frame.state) == prover
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
        if ghi:
            bounded_store(table, (frame.key, True, frame.above1, frame.above2), (phi, delta), tt_size, counters)
        else:
            bounded_store(table, (frame.key, False, 0, 0), (phi, delta), tt_size, counters)
        stack.pop()
        if not stack:
            return phi, delta
        del arena.states[base:]
        del arena.keys[base:]
        del phis[base:]
        del deltas[base:]
        del ghis[base:]
        phis[slots[-1]], deltas[slots[-1]], ghis[slots[-1]] = phi, delta, ghi
        slots.pop()


def dfpn_search(root: Any, prover: int, option: int, tt_size: int, node_limit: int, deadline: float,
                cyclic: bool) -> DFPNResult:
    """Nagai's df-pn: does `prover` win from `root`? The table holds at most `tt_size` entries."""
    return depth_first(root, prover, option, tt_size, node_limit, deadline, cyclic, False, False, GROWTH_PUBLISHED)


def pds_search(root: Any, prover: int, option: int, tt_size: int, node_limit: int, deadline: float,
               cyclic: bool) -> DFPNResult:
    """Nagai's PDS: does `prover` win from `root`? The table holds at most `tt_size` entries."""
    return depth_first(root, prover, option, tt_size, node_limit, deadline, cyclic, True, False, GROWTH_PUBLISHED)


def pdspn_search(root: Any, prover: int, option: int, tt_size: int, node_limit: int, deadline: float,
                 cyclic: bool, growth: int) -> DFPNResult:
    """PDS-PN (Winands, Uiterwijk & van den Herik): PDS whose expansions are second-level PN searches of at most
    `second_level_size` nodes (x the first level's table entries, the memory `tt_size`; `growth` picks the
    function). The first level's table holds at most `tt_size` entries."""
    return depth_first(root, prover, option, tt_size, node_limit, deadline, cyclic, True, True, growth)


def depth_first(root: Any, prover: int, option: int, tt_size: int, node_limit: int, deadline: float,
                cyclic: bool, pds: bool, two_level: bool, growth: int) -> DFPNResult:
    """df-pn, or PDS with `pds`, PDS-PN with both (`growth` sizes its second level): they differ in MID's
    thresholds (`dfpn_mid`) and in how an expansion values the children (`dfpn_expand`)."""
    if node_limit < 1 or clock() >= deadline:
        return DFPNResult(ROOT_OVER_BUDGET, False, 0, 0, 0, False, -1, 0)
    key = search_key(root)
    counters = new_counters()
    table = {(key, False, 0, 0): (0, 0)}      # one insertion types the table
    table.pop((key, False, 0, 0))
    path = {key: True}
    path.pop(key)
    mover_is_prover = to_move(root) == prover
    lp, ld, drawn = leaf(root, mover_is_prover, prover, option)
    if drawn:
        counters[COUNTER.drawn] = 1
    phi, delta = (lp, ld) if mover_is_prover else (ld, lp)
    arena = Arena([root], [key], [0], [0], [False])     # one element each types the lists
    arena.states.pop()
    arena.keys.pop()
    arena.phis.pop()
    arena.deltas.pop()
    arena.ghis.pop()
    if phi and delta:
        phi, delta = dfpn_mid(root, key, prover, option, cyclic, table, path, counters, tt_size, node_limit,
                              deadline, arena, pds, two_level, growth)
    status = BUDGET if counters[COUNTER.aborted] else SOLVED
    proved = (phi == 0) if mover_is_prover else (delta == 0)
    move = -1
    if len(arena.deltas):     # the root's children head the arena
        deltas = arena.deltas
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
    return DFPNResult(status, proved, counters[COUNTER.nodes], counters[COUNTER.expansions], len(table),
                      counters[COUNTER.drawn] == 1, move,
                      counters[COUNTER.table_peak] + counters[COUNTER.arena_peak] + counters[COUNTER.second_peak])
