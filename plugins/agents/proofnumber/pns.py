"""Proof-number search (Allis 1994) and its two-level form PN² (Breuker 1998).

PN search: L. V. Allis, "Searching for Solutions in Games and Artificial Intelligence",
PhD thesis, Maastricht 1994, ch. 3 (also Allis, van der Meulen & van den Herik, "Proof-Number
Search", Artificial Intelligence 66, 1994). The tree is kept in memory; each iteration walks
from the *current node* to the most-proving node (at OR nodes the child of least proof number,
at AND nodes the child of least disproof number, the first in move order on ties), expands it,
evaluates every child (`common.leaf_numbers`: mobility initialisation) and updates the
ancestors until a node's numbers do not change; that node becomes the current node, which is
Allis' enhancement and selects exactly the same most-proving nodes as restarting at the root.

PN²: D. M. Breuker, "Memory versus Search in Games", PhD thesis, Maastricht 1998, ch. 4
(Breuker, Uiterwijk & van den Herik, "The PN²-search algorithm", Advances in Computer Games 9,
2001). The first-level tree expands its most-proving node by running a second PN search from
it, limited to as many nodes as the first-level tree holds; the children of the second-level
root, with their numbers, join the first-level tree and the rest is discarded.

The tree is stored as parallel lists indexed by node id (children of a node are contiguous),
plain ints so the same layout can move to numba later. Proved and path-independently disproved
nodes go into a transposition table (key -> proved?) shared by both levels of PN², so a state
reached again by another path is evaluated as solved.

A proof found by PN search reports its length in `extra["proof_length"]` (`ProofTree.proof_length`):
the prover wins within that many plies, an upper bound read off the proof tree (None in the rare
proof that rests on itself through transpositions). PN² does not: its first-level tree keeps only
the root children of each second-level search, not a whole proof.

Memory is bounded by `tree_limit`. A tree never holds more than `tree_limit` nodes: an
expansion that would pass it stops the search with the answer unknown (`stopped_by:
tree_limit`). PN search's table holds only states of its tree, so at most as many entries.
PN²'s second-level tree is limited to as many nodes as the first-level tree holds (plus the
last expansion's children) and is freed after each search, as Breuker's PN² does; the table
they share outlives the second-level trees, so it is a `BoundedTable` of `tree_limit` entries
(a full table drops its older half). So PN² holds at most about 3 x `tree_limit` entries.
`peak_entries` is the tree's nodes plus, for PN², the largest second-level tree, plus the
table's largest size.
"""

from __future__ import annotations

from framework import jit
from framework.errors import ConfigError
from framework.protocols import Budget, Game, State
from framework.search import SearchAborted, SearchLimits
from plugins.agents.proofnumber import search as pn_family
from plugins.agents.proofnumber.common import (INF, BinaryResult, BoundedTable, ProofNumberAgent, Spend,
                                               leaf_numbers, state_key)


class TreeFull(Exception):
    """Internal control flow: the tree reached its node limit."""


class ProofTree:
    """One PN search tree for the binary question "does `prover` win from `root`?"."""

    def __init__(self, game: Game, root: State, prover: int, spend: Spend, table: BoundedTable,
                 tree_limit: int, path: frozenset = frozenset(), count_root: bool = True,
                 numbers: tuple[int, int] | None = None) -> None:
        """`numbers`: the root's proof and disproof numbers when already known (PN²'s first-level leaf)."""
        self.game, self.prover, self.spend, self.table = game, prover, spend, table
        self.tree_limit = tree_limit
        self.key = state_key(game)
        self.cyclic = hasattr(game, "repetition_limit")  # only then can a state repeat on a path
        self.path = path          # keys of the states above the root (PN²'s first-level path)
        self.drawn = False
        rk = self.key(root)
        if count_root:
            spend.charge(1)
        if numbers is not None:
            pn, dn = numbers
        elif rk in table:
            pn, dn = (0, INF) if table[rk] else (INF, 0)
        else:
            pn, dn, self.drawn = leaf_numbers(game, root, prover)
        self.states, self.keys, self.moves = [root], [rk], [None]
        self.parent, self.first, self.count = [-1], [0], [0]      # count 0: not expanded
        self.pn, self.dn, self.ghi = [pn], [dn], [False]
        self.is_or = [game.to_move(root) == prover]

    # -- the PN loop -------------------------------------------------------------

    def run(self, expand=None) -> bool | None:
        """Search until the root is solved (True/False); budget or tree limit raise SearchAborted/TreeFull."""
        expand = expand or self.expand
        current = 0
        while self.pn[0] and self.dn[0]:
            node = self.select(current)
            expand(node)
            current = self.update(node)
        return self.pn[0] == 0

    def select(self, node: int) -> int:
        pn, dn, first, count, is_or = self.pn, self.dn, self.first, self.count, self.is_or
        while count[node]:
            lo, hi = first[node], first[node] + count[node]
            numbers = pn if is_or[node] else dn
            best = lo
            for child in range(lo + 1, hi):
                if numbers[child] < numbers[best]:
                    best = child
            node = best
        return node

    def path_keys(self, node: int) -> set:
        keys, parent = set(self.path), self.parent
        while node >= 0:
            keys.add(self.keys[node])
            node = parent[node]
        return keys

    def expand(self, node: int) -> None:
        """Generate and evaluate every child of `node` (one node each)."""
        game, state, prover, table = self.game, self.states[node], self.prover, self.table
        moves = game.legal_moves(state)
        if len(self.states) + len(moves) > self.tree_limit:
            raise TreeFull
        self.spend.charge(len(moves))
        above = self.path_keys(node) if self.cyclic else ()
        states = [game.apply(state, move) for move in moves]
        keys = [self.key(child) for child in states]
        pns, dns, ghis = [], [], []
        for child, key in zip(states, keys):
            if key in above:                       # a repetition: a draw, never a proof for the prover
                pn, dn, ghi = INF, 0, True
                self.drawn = True
            elif key in table:
                pn, dn, ghi = (0, INF, False) if table[key] else (INF, 0, False)
            else:
                pn, dn, drawn = leaf_numbers(game, child, prover)
                self.drawn |= drawn
                ghi = False
            pns.append(pn)
            dns.append(dn)
            ghis.append(ghi)
        self.attach(node, moves, states, keys, pns, dns, ghis)

    def attach(self, node: int, moves, states, keys, pns, dns, ghis) -> None:
        """Append children (parallel lists: move, state, key, pn, dn, repetition flag) under `node`."""
        n = len(moves)
        self.first[node], self.count[node] = len(self.states), n
        self.states.extend(states)
        self.keys.extend(keys)
        self.moves.extend(moves)
        self.parent.extend([node] * n)
        self.first.extend([0] * n)
        self.count.extend([0] * n)
        self.pn.extend(pns)
        self.dn.extend(dns)
        self.ghi.extend(ghis)
        prover, to_move = self.prover, self.game.to_move
        self.is_or.extend([to_move(child) == prover for child in states])

    def update(self, node: int) -> int:
        """Recompute ancestors of an expanded node; return the first one whose numbers did not change."""
        pn, dn, ghi = self.pn, self.dn, self.ghi
        while True:
            lo, hi = self.first[node], self.first[node] + self.count[node]
            if self.is_or[node]:
                new_pn, new_dn = min(pn[lo:hi]), min(INF, sum(dn[lo:hi]))
            else:
                new_pn, new_dn = min(INF, sum(pn[lo:hi])), min(dn[lo:hi])
            if new_pn == pn[node] and new_dn == dn[node]:
                return node
            pn[node], dn[node] = new_pn, new_dn
            if new_pn == 0:
                self.table.store(self.keys[node], True)
            elif new_dn == 0:
                ghi[node] = any(ghi[lo:hi])
                if not ghi[node]:
                    self.table.store(self.keys[node], False)
            if node == 0:
                return 0
            node = self.parent[node]

    def proof_length(self) -> int:
        """Plies of the deepest line of this proved tree, the prover taking its shortest proved move and
        the defender its longest reply (`compiled.proof_length`: one definition for both paths); -1
        when the proof rests on itself through transpositions."""
        return pn_family.proof_length(self.first, self.count, self.pn, self.is_or, self.keys)

    def best_root_move(self):
        """The proving (OR root) or disproving (AND root) move; unsolved, the most promising one."""
        if not self.count[0]:
            return None
        return self.moves[self.select_child(0)]

    def select_child(self, node: int) -> int:
        lo, hi = self.first[node], self.first[node] + self.count[node]
        solved = self.pn if self.pn[node] == 0 else self.dn if self.dn[node] == 0 else None
        if solved is not None:
            return next(c for c in range(lo, hi) if solved[c] == 0)
        numbers = self.pn if self.is_or[node] else self.dn
        return min(range(lo, hi), key=numbers.__getitem__)


def _answer(tree: ProofTree, proved: bool | None, reason: str, extra: dict,
            second_level_peak: int = 0) -> BinaryResult:
    extra = {"tree_nodes": len(tree.states), "stopped_by": reason, **extra}
    return BinaryResult(proved, tree.best_root_move(), tree.drawn, extra,
                        len(tree.states) + second_level_peak + tree.table.peak)


#: The compiled PN search of each game with a kernel, by tag (compiled on first use, then cached).
_COMPILED: dict[str, jit.Kernel] = {}
_REASONS = {pn_family.SOLVED: "solved", pn_family.BUDGET: "budget", pn_family.TREE_FULL: "tree_limit"}


def compiled_searches(kernel: jit.GameKernel) -> jit.Kernel:
    """The `search` module compiled over a game's kernel (built once per game, then cached)."""
    search = _COMPILED.get(kernel.tag)
    if search is None:
        search = _COMPILED[kernel.tag] = jit.Kernel(pn_family, rules=kernel.rules, tag=kernel.tag)
    return search


def compiled_pn_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int,
                       two_level: bool = False) -> BinaryResult:
    """`pn_search` (or `pn2_search` when `two_level`) run by `compiled` over the game's kernel:
    the same answer, move, nodes and tree size."""
    kernel = game.kernel
    search = compiled_searches(kernel)
    node_limit = spend.limits.node_limit - spend.nodes
    run = search.pn2_search if two_level else search.pn_search
    result = run(kernel.to_kernel(state), prover, kernel.option, tree_limit, int(min(node_limit, 1 << 62)),
                 spend.limits.deadline, hasattr(game, "repetition_limit"))
    if result.status == pn_family.ROOT_OVER_BUDGET:
        raise SearchAborted
    spend.nodes += result.nodes
    extra = {"tree_nodes": int(result.tree_nodes), "stopped_by": _REASONS[result.status]}
    if two_level:
        extra.update(second_level_nodes=int(result.second_level_nodes),
                     second_level_searches=int(result.second_level_searches))
    elif result.proved:
        extra["proof_length"] = int(result.proof_length) if result.proof_length >= 0 else None
    return BinaryResult(bool(result.proved) if result.status == pn_family.SOLVED else None,
                        None if result.move < 0 else int(result.move), bool(result.drawn), extra,
                        int(result.peak_entries))


def pn_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int) -> BinaryResult:
    """Allis' PN search for "does `prover` win from `state`?" (compiled when the game has a kernel)."""
    if jit.enabled() and hasattr(game, "kernel"):
        return compiled_pn_search(game, state, prover, spend, tree_limit)
    return interpreted_pn_search(game, state, prover, spend, tree_limit)


def interpreted_pn_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int) -> BinaryResult:
    """Allis' PN search over the Game protocol."""
    tree = ProofTree(game, state, prover, spend, BoundedTable(tree_limit), tree_limit)
    try:
        proved, reason = tree.run(), "solved"
    except SearchAborted:
        proved, reason = None, "budget"
    except TreeFull:
        proved, reason = None, "tree_limit"
    extra = {}
    if proved:
        length = tree.proof_length()
        extra["proof_length"] = length if length >= 0 else None
    return _answer(tree, proved, reason, extra)


def pn2_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int) -> BinaryResult:
    """Breuker's PN² (compiled when the game has a kernel)."""
    if jit.enabled() and hasattr(game, "kernel"):
        return compiled_pn_search(game, state, prover, spend, tree_limit, two_level=True)
    return interpreted_pn2_search(game, state, prover, spend, tree_limit)


def interpreted_pn2_search(game: Game, state: State, prover: int, spend: Spend, tree_limit: int) -> BinaryResult:
    """Breuker's PN²: each first-level expansion is a second-level PN search as large as the first tree."""
    table = BoundedTable(tree_limit)
    tree = ProofTree(game, state, prover, spend, table, tree_limit)
    second_level = {"nodes": 0, "searches": 0, "peak": 0}

    def expand(node: int) -> None:
        if len(tree.states) + len(game.legal_moves(tree.states[node])) > tree_limit:
            raise TreeFull
        before = spend.nodes
        inner = ProofTree(game, tree.states[node], prover, spend, table, INF,
                          path=frozenset(tree.path_keys(tree.parent[node])),
                          count_root=False, numbers=(tree.pn[node], tree.dn[node]))
        inner_limit = len(tree.states)
        try:
            inner.expand(0)
            inner.update(0)
            current = 0
            while inner.pn[0] and inner.dn[0] and spend.nodes - before < inner_limit:
                leaf = inner.select(current)
                inner.expand(leaf)
                current = inner.update(leaf)
        finally:
            tree.drawn |= inner.drawn
            second_level["nodes"] += spend.nodes - before
            second_level["searches"] += 1
            second_level["peak"] = max(second_level["peak"], len(inner.states))
        lo, hi = inner.first[0], inner.first[0] + inner.count[0]
        tree.attach(node, inner.moves[lo:hi], inner.states[lo:hi], inner.keys[lo:hi], inner.pn[lo:hi],
                    inner.dn[lo:hi], inner.ghi[lo:hi])

    try:
        proved, reason = tree.run(expand), "solved"
    except SearchAborted:
        proved, reason = None, "budget"
    except TreeFull:
        proved, reason = None, "tree_limit"
    extra = {"second_level_nodes": second_level["nodes"], "second_level_searches": second_level["searches"]}
    return _answer(tree, proved, reason, extra, second_level["peak"])


class PNSAgent(ProofNumberAgent):
    """Allis' proof-number search as a solver and agent (see the module docstring)."""

    def __init__(self, game: Game, seed: int = 0, fallback=None, solve_share: float = 0.5,
                 tree_limit: int = 1_000_000) -> None:
        super().__init__(game, seed, fallback, solve_share)
        if tree_limit < 2:
            raise ConfigError(f"tree_limit must be at least 2 nodes, got {tree_limit!r}")
        self.tree_limit = tree_limit
        if jit.enabled() and hasattr(game, "kernel"):
            # Compile (or load) the compiled search now, so no timed move pays for it.
            for two_level in (False, True):
                compiled_pn_search(game, game.initial_state(), 0, Spend(SearchLimits.start(Budget(nodes=2))), 2,
                                   two_level)

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return pn_search(game, state, prover, spend, self.tree_limit)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(tree_limit={self.tree_limit}, fallback={self.fallback!r})"


class PN2Agent(PNSAgent):
    """Breuker's PN² as a solver and agent; `tree_limit` bounds the first-level tree."""

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return pn2_search(game, state, prover, spend, self.tree_limit)
