"""Depth-first proof-number search, df-pn (Nagai 2002), with a bounded transposition table.

A. Nagai, "Df-pn Algorithm for Searching AND/OR Trees and Its Applications", PhD thesis,
University of Tokyo, 2002 (pseudo-code as in Kishimoto, Winands, Müller & Saito, "Game-Tree
Search Using Proof Numbers: The First Twenty Years", ICGA Journal 35(3), 2012, Fig. 3).
Numbers are kept from the side to move at each node: phi = its proof number, delta = its
disproof number, so phi(n) = min delta(c) and delta(n) = sum phi(c). MID(n) expands n and
keeps searching its child of least delta with thresholds

    child phi threshold   = delta threshold(n) + phi(c1) - sum phi(c)
    child delta threshold = min(phi threshold(n), delta(c2) + 1)

(c1 the best child, c2 the second best) until n's numbers reach its thresholds. The root
starts with infinite thresholds, so MID returns only when the root is solved. df-pn selects
the same most-proving nodes as PN search while storing only a table of (phi, delta) entries.

New leaves get the mobility initialisation (`common.leaf_numbers`); in phi/delta terms every
unsolved leaf is (1, number of moves). Every child generated counts one node, each time its
parent is (re-)expanded. The table holds at most `tt_size` entries (`common.BoundedTable`:
when it is full the older half, in insertion order, is dropped — deterministic, and solved
entries are as likely to go as any, which costs re-search, never correctness). A frame keeps
its children's numbers locally, so an entry dropped does not change what the frame knows.
Besides the table, memory holds the children of the frames on the current path, at most
depth x branching factor; `peak_entries` is the table's largest size plus the most children
held on the path. The interpreted MID recurses, one Python frame per ply of the path, with
Python's recursion limit raised to RECURSION_LIMIT; a path deeper than that stops the search
with the answer unknown (`stopped_by: depth_limit`) instead of crashing. The compiled search
keeps its path on an explicit stack, bounded only by the node budget.

Cycles: in a game that can repeat positions (it declares `repetition_limit`), a repetition
of a state on the path is a draw (see `common`), so unsolved numbers and solved values that
rest on a repetition depend on the path. Such entries are keyed by (state, set of states above
it), which is exact because the repetition rule only asks whether a state is on the path, and
makes the searched space acyclic: without it df-pn's numbers can feed on each other round a
cycle and grow forever (its known non-termination on cyclic graphs; Kishimoto & Müller, "A
General Solution to the Graph History Interaction Problem", AAAI 2004, solve it more
economically). Solved values that rest on no repetition are keyed by the state alone and
shared by every path. Games without repetitions key everything by the state.

A game with a kernel (`game.kernel`, see `framework.jit`) runs `compiled.dfpn_search`, the same
search node for node (answer, move, nodes, expansions, table entries; see there).
"""

from __future__ import annotations

import sys

from framework import jit
from framework.errors import ConfigError
from framework.protocols import Budget, Game, State
from framework.search import SearchAborted, SearchLimits
from plugins.agents.proofnumber import search as pn_family
from plugins.agents.proofnumber.common import (INF, BinaryResult, BoundedTable, ProofNumberAgent, Spend,
                                               leaf_numbers, state_key)
from plugins.agents.proofnumber.pns import compiled_searches

#: Python's recursion limit during an interpreted search (about the deepest path it can follow).
RECURSION_LIMIT = 20_000


class DFPN:
    """One df-pn search for "does `prover` win?"; the tables live as long as the search."""

    def __init__(self, game: Game, prover: int, spend: Spend, tt_size: int) -> None:
        self.game, self.prover, self.spend = game, prover, spend
        self.key = state_key(game)
        self.cyclic = hasattr(game, "repetition_limit")
        self.table = BoundedTable(tt_size)
        self.drawn = False
        self.expansions = 0
        self.held = self.peak_held = 0     # children of the frames on the path, now and at most
        self.root_children: tuple[list, list[int], list[int]] = ([], [], [])

    def leaf(self, state: State) -> tuple[int, int]:
        """(phi, delta) of a newly generated state from its mover's side."""
        pn, dn, drawn = leaf_numbers(self.game, state, self.prover)
        self.drawn |= drawn
        return (pn, dn) if self.game.to_move(state) == self.prover else (dn, pn)

    def mid(self, state: State, key: Hashable, phi_th: int, delta_th: int, path: set,
            root: bool = False) -> tuple[int, int, bool]:
        """Search `state` until its (phi, delta) reach the thresholds; return them and whether they
        rest on a repetition."""
        game, table = self.game, self.table
        moves = game.legal_moves(state)
        self.spend.charge(len(moves))
        self.expansions += 1
        mover_is_prover = game.to_move(state) == self.prover
        # a repetition is a draw: from the child's mover's side a loss if that is the prover, else a win
        repeat = (0, INF) if mover_is_prover else (INF, 0)
        above = frozenset(path) if self.cyclic else None
        below = above | {key} if self.cyclic else None
        children, phis, deltas, ghis = [], [], [], []
        for move in moves:
            child = game.apply(state, move)
            ck = self.key(child)
            ghi = False
            if ck in path or ck == key:
                numbers, ghi = repeat, True
                self.drawn = True
            elif ck in table:
                numbers = table[ck]
            elif self.cyclic and (ck, below) in table:
                numbers, ghi = table[ck, below], True
            else:
                numbers = self.leaf(child)
                table.store(ck if not self.cyclic or 0 in numbers else (ck, below), numbers)
            children.append((child, ck))
            phis.append(numbers[0])
            deltas.append(numbers[1])
            ghis.append(ghi)
        if root:  # the lists change in place, so an aborted search still leaves its best guess
            self.root_children = (moves, phis, deltas)
        path.add(key)
        self.held += len(moves)
        self.peak_held = max(self.peak_held, self.held)
        try:
            while True:
                phi, delta = min(deltas), min(INF, sum(phis))
                if phi >= phi_th or delta >= delta_th:
                    break
                best, best_delta, second = 0, INF + 1, INF
                for i, d in enumerate(deltas):
                    if d < best_delta:
                        best, best_delta, second = i, d, best_delta
                    elif d < second:
                        second = d
                child, ck = children[best]
                child_phi_th = min(INF, delta_th + phis[best] - delta)
                child_delta_th = min(phi_th, second + 1)
                phis[best], deltas[best], ghis[best] = self.mid(child, ck, child_phi_th, child_delta_th, path)
        finally:
            path.discard(key)
            self.held -= len(moves)
        prover_wins = phi == 0 if mover_is_prover else delta == 0
        if phi == 0:    # the mover wins through any child it has beaten; tainted only if all of those are
            ghi = not prover_wins and all(g for g, d in zip(ghis, deltas) if d == 0)
        elif delta == 0:  # the mover loses: every child counts
            ghi = not prover_wins and any(ghis)
        else:
            ghi = self.cyclic
        table.store((key, above) if ghi else key, (phi, delta))
        return phi, delta, ghi

    def best_root_move(self, proved: bool | None):
        moves, phis, deltas = self.root_children
        if not moves:
            return None
        if proved is None:
            return moves[min(range(len(moves)), key=deltas.__getitem__)]
        return moves[deltas.index(0)] if 0 in deltas else moves[0]


def dfpn_search(game: Game, state: State, prover: int, spend: Spend, tt_size: int) -> BinaryResult:
    """Nagai's df-pn for "does `prover` win from `state`?" (compiled when the game has a kernel)."""
    if jit.enabled() and hasattr(game, "kernel"):
        return compiled_dfpn_search(game, state, prover, spend, tt_size)
    return interpreted_dfpn_search(game, state, prover, spend, tt_size)


def compiled_dfpn_search(game: Game, state: State, prover: int, spend: Spend, tt_size: int) -> BinaryResult:
    """`interpreted_dfpn_search` run by `compiled.dfpn_search` over the game's kernel: the same
    answer, move, nodes, expansions and table entries."""
    kernel = game.kernel
    node_limit = spend.limits.node_limit - spend.nodes
    r = compiled_searches(kernel).dfpn_search(
        kernel.to_kernel(state), prover, kernel.option, tt_size, int(min(node_limit, 1 << 62)),
        spend.limits.deadline, hasattr(game, "repetition_limit"))
    if r.status == pn_family.ROOT_OVER_BUDGET:       # the root itself was not paid for: nothing searched
        return BinaryResult(None, None, False, {"stopped_by": "budget", "expansions": 0, "tt_entries": 0})
    spend.nodes += r.nodes
    extra = {"stopped_by": "solved" if r.status == pn_family.SOLVED else "budget", "expansions": int(r.expansions),
             "tt_entries": int(r.tt_entries)}
    return BinaryResult(bool(r.proved) if r.status == pn_family.SOLVED else None, None if r.move < 0 else int(r.move),
                        bool(r.drawn), extra, int(r.peak_entries))


def interpreted_dfpn_search(game: Game, state: State, prover: int, spend: Spend, tt_size: int) -> BinaryResult:
    """Nagai's df-pn over the Game protocol."""
    search = DFPN(game, prover, spend, tt_size)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    proved: bool | None = None
    try:
        spend.charge(1)
        phi, delta = search.leaf(state)
        if phi and delta:
            phi, delta, _ = search.mid(state, search.key(state), INF, INF, set(), root=True)
        mover_is_prover = game.to_move(state) == prover
        proved = (phi == 0) if mover_is_prover else (delta == 0)
        reason = "solved"
    except SearchAborted:
        reason = "budget"
    except RecursionError:      # a path deeper than Python's recursion allows: unknown, not a crash
        reason = "depth_limit"
    finally:
        sys.setrecursionlimit(limit)
    extra = {"stopped_by": reason, "expansions": search.expansions, "tt_entries": len(search.table)}
    return BinaryResult(proved, search.best_root_move(proved), search.drawn, extra,
                        search.table.peak + search.peak_held)


class DFPNAgent(ProofNumberAgent):
    """df-pn as a solver and agent; `tt_size` bounds its memory in table entries."""

    def __init__(self, game: Game, seed: int = 0, fallback=None, solve_share: float = 0.5,
                 tt_size: int = 1_000_000) -> None:
        super().__init__(game, seed, fallback, solve_share)
        if tt_size < 1:
            raise ConfigError(f"tt_size must be at least 1 entry, got {tt_size!r}")
        self.tt_size = tt_size
        if jit.enabled() and hasattr(game, "kernel"):
            # Compile (or load) the compiled search now, so no timed move pays for it.
            dfpn_search(game, game.initial_state(), 0, Spend(SearchLimits.start(Budget(nodes=2))), 2)

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return dfpn_search(game, state, prover, spend, self.tt_size)

    def __repr__(self) -> str:
        return f"DFPNAgent(tt_size={self.tt_size}, fallback={self.fallback!r})"
