"""Alpha-beta's compiled path: `AlphaBetaSearch` whose root searches run in `compiled.negamax`.

Iterative deepening, the stopping rules and the node conventions stay in the interpreted
`AlphaBetaSearch.deepen` (and `solver.solve`); each root search is one call into compiled
code, which keeps the table, killers and history in numpy arrays across the iterations of
one decision, as the interpreted search keeps its containers. Results are identical (value,
best move, principal variation, nodes per ply, heuristic leaves), tested position by position.

Used automatically, by the solver and by `select_move`, when `supported` says so: compiled
kernels on; a game whose kernel gives what `compiled` needs (`compiled_game`: any game, asked
through its `GameKernel`, never by name); the solver's win/loss evaluation or a heuristic the game's kernel compiles
(`GameKernel.scores`: LOA's `groups`, `concentration` and `mobility`, checkers' `material`,
`positional` and `mobility`); and every enhancement, each on or off: iterative deepening, the table, TT move, hints, killers,
history, quiescence, PVS, aspiration windows, late-move reductions and singular extensions. A root
search deeper than MAX_DEPTH plies (a search to the end) runs interpreted.
"""

from __future__ import annotations

import weakref
from typing import Callable

import numpy as np

from framework import jit
from framework.capabilities import capabilities
from framework.protocols import Budget, Game, Heuristic, State
from framework.search import SearchAborted, SearchLimits
from plugins.agents.alphabeta import compiled
from plugins.agents.alphabeta.ordering import MoveOrderer
from plugins.agents.alphabeta.search import AlphaBetaSearch
from plugins.agents.alphabeta.settings import MAX_DEPTH, Settings
from plugins.agents.alphabeta.solver import WinLossEvaluation
from plugins.agents.alphabeta.table import TranspositionTable, slot_count

#: The functions `compiled` calls from a game's kernels (the rules, or the heuristics chained on them).
KERNEL_FUNCTIONS = ("legal_moves", "apply_move", "to_move", "outcome", "search_key", "is_capture", "move_rank")
#: Largest table for which `compiled.table_slot` cannot overflow 64 bits.
MAX_TT_SIZE = (1 << 31) - 1
#: The compiled search of each game and heuristic function (compiled on first use, then cached on disk).
_COMPILED: dict[tuple[str, str], jit.Kernel] = {}


#: `fits(game)` per game, computed once (it builds the initial state); keyed by the game's kernel, which
#: is its own and hashes by identity, as a game need not.
_FITS: "weakref.WeakKeyDictionary[jit.GameKernel, bool]" = weakref.WeakKeyDictionary()


def compiled_game(game: Game) -> bool:
    """Whether compiled kernels are on and the game's kernel fits `compiled` (`fits`)."""
    kernel = capabilities(game).kernel
    if not jit.enabled() or kernel is None:
        return False
    fit = _FITS.get(kernel)
    if fit is None:
        fit = _FITS[kernel] = fits(game)
    return fit


def fits(game: Game) -> bool:
    """Whether `game.kernel` gives what `compiled` needs, within its fixed limits: a search key of at most
    KEY_WORDS words packed at `key_shifts` (more would be hashed in part), a kernel state of at most
    STATE_WORDS words (more would be compared in part, so two states could match in the table), a
    `move_space` (the history rows; without it they would overlap the per-ply rows), compiled heuristics,
    and the functions `compiled` calls (KERNEL_FUNCTIONS). Anything else runs interpreted."""
    kernel = game.kernel
    if kernel.heuristics is None or not kernel.scores:
        return False
    modules, chain = set(), kernel.heuristics
    while chain is not None:
        modules |= set(vars(chain.module))
        chain = chain.rules
    return (0 < len(kernel.key_shifts) <= compiled.KEY_WORDS and kernel.move_space > 0
            and len(kernel.to_kernel(game.initial_state())) <= compiled.STATE_WORDS
            and all(name in modules for name in KERNEL_FUNCTIONS))


def supported(game: Game, heuristic: Heuristic | None, settings: Settings, proof_score: float | None) -> bool:
    """Whether this search runs compiled (see the module docstring)."""
    if not compiled_game(game):
        return False
    if proof_score is None:
        evaluation = heuristic is not None and type(heuristic) in game.kernel.scores
    else:
        evaluation = proof_score == 1.0 and type(heuristic) is WinLossEvaluation
    return evaluation and settings.tt_size <= MAX_TT_SIZE


def kernel_of(game: Game, heuristic: Heuristic) -> jit.Kernel:
    """The compiled search of `game` with `score` bound to the heuristic's function (any, in solver mode)."""
    kernel = game.kernel
    scores = kernel.scores
    name = scores[type(heuristic)] if type(heuristic) in scores else next(iter(scores.values()))
    search = _COMPILED.get((kernel.tag, name))
    if search is None:
        search = _COMPILED[kernel.tag, name] = jit.Kernel(compiled, rules=kernel.heuristics, tag=kernel.tag,
                                                          aliases={"score": name})
    return search


class CompiledTable:
    """The compiled search's transposition table, kept by an agent across its decisions.

    Each decision takes a new stamp and rows of older stamps read as empty (`compiled.ROW_STAMP`), so
    a decision starts from an empty table, as the interpreted one does, without rewriting or
    newly mapping its megabytes (measured: that cost a tenth of a 10,000-node solve).
    """

    def __init__(self, size: int) -> None:
        self.rows = np.zeros((size, compiled.ROW_SIZE), np.int64)
        self.values = np.zeros(size, np.float64)
        self.stamp = 0

    def renew(self) -> int:
        """The stamp of a new decision."""
        self.stamp += 1
        return self.stamp


class CompiledSearch(AlphaBetaSearch):
    """`AlphaBetaSearch` whose root searches are compiled (solver mode when `proof_score` is set)."""

    def __init__(self, game: Game, heuristic: Heuristic, settings: Settings, limits: SearchLimits,
                 interpreted_table: Callable[[], TranspositionTable | None], orderer: MoveOrderer,
                 proof_score: float | None = None, compiled_table: CompiledTable | None = None) -> None:
        super().__init__(game, heuristic, settings, limits, None, orderer, proof_score)
        #: The interpreted table (None with the table off), asked for by the first root search deeper than
        #: MAX_DEPTH, the only one that runs interpreted: most decisions never allocate it.
        self.interpreted_table = interpreted_table
        use_table = settings.transposition_table
        self.limits = limits
        self.kernel = kernel_of(game, heuristic)
        size = slot_count(settings.tt_size) if use_table else 1   # as TranspositionTable
        if compiled_table is None or len(compiled_table.values) != size:
            compiled_table = CompiledTable(size)
        self.compiled_table = compiled_table
        self.rows, self.values = compiled_table.rows, compiled_table.values
        space = game.kernel.move_space
        #: The counters and switches, then the history scores (kept across iterations), then the per-ply
        #: rows and principal variations of one root search (`compiled`'s layout).
        self.work = work = np.zeros(compiled.CONTROL_SIZE + 2 * space, np.int64)
        work[compiled.LIMIT] = int(min(limits.node_limit, 1 << 62))
        shifts = game.kernel.key_shifts
        work[compiled.SIZE] = size
        work[compiled.R:compiled.R + compiled.KEY_WORDS] = [
            (1 << shifts[i]) % size if i < len(shifts) else 0 for i in range(compiled.KEY_WORDS)]
        work[compiled.USE_TABLE:compiled.SPACE + 1] = (
            use_table, settings.tt_move, settings.move_hints, settings.killers, settings.history,
            self.ordering, proof_score is not None, self.quiescence, settings.quiescence_depth, compiled_table.renew(),
            space)
        work[compiled.USE_PVS:compiled.ROOT_DEPTH] = (
            settings.pvs, settings.lmr, settings.lmr_min_depth, settings.lmr_moves, settings.singular,
            settings.singular_min_depth, np.float64(settings.singular_margin).view(np.int64))
        self.killers = np.full((64, 2), -1, np.int64)
        # The heuristic's parameters, as a tuple (passed by value: no reference counting per node); in solver
        # mode `score` is never called, but compiles for the weights of the function bound.
        scored = heuristic if type(heuristic) in game.kernel.scores else next(iter(game.kernel.scores))(game)
        self.weights = tuple(float(w) for w in scored.weights)

    def negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """A root search (the only call `deepen` makes), compiled; raises SearchAborted on a spent budget.

        Deeper than MAX_DEPTH (a search to the end, made once without deepening) runs interpreted."""
        if ply or depth > MAX_DEPTH:
            if not ply and self.table is None:
                self.table = self.interpreted_table()
            return super().negamax(state, depth, alpha, beta, ply)
        # Plies below the root: at most the depth, twice it with singular extensions (an extension is only
        # granted while ply + depth < 2 * root depth), then the quiescence plies; one row more for `set_pv`.
        reach = 2 * depth if self.settings.singular else depth
        size = reach + 2 + (self.settings.quiescence_depth if self.quiescence else 0)
        if len(self.killers) < size:        # killers outlive iterations; the other per-ply columns do not
            grown = np.full((2 * size, 2), -1, np.int64)
            grown[:len(self.killers)] = self.killers
            self.killers = grown
        head = compiled.CONTROL_SIZE + 2 * self.work[compiled.SPACE]
        pv_at = head + size * compiled.PLY_COLUMNS
        end = pv_at + size * size
        if len(self.work) < end:
            grown = np.zeros(end, np.int64)
            grown[:head] = self.work[:head]
            self.work = grown
        work = self.work
        work[head:end] = 0
        plies = work[head:pv_at].reshape(size, compiled.PLY_COLUMNS)
        plies[:, compiled.KILLER:] = self.killers[:size]
        work[compiled.PLIES_AT], work[compiled.PV_AT], work[compiled.PV_STRIDE] = head, pv_at, size
        work[compiled.NODES:compiled.ROOT_MOVE + 1] = self.nodes, self.horizon, 0, -1
        work[compiled.ROOT_DEPTH] = self.root_depth
        kernel = self.game.kernel
        score = self.kernel.negamax(kernel.to_kernel(state), depth, alpha, beta, ply, kernel.option, self.rows,
                                    self.values, work, self.weights, self.limits.deadline)
        self.killers[:size] = plies[:, compiled.KILLER:]
        self.nodes, self.horizon = int(work[compiled.NODES]), int(work[compiled.LEAVES])
        self._grow(size)
        for p, count in enumerate(plies[:, compiled.PLY_NODES].tolist()):
            self.ply_nodes[p] += count
        if work[compiled.ABORTED]:
            raise SearchAborted
        self.pv[0] = tuple(work[pv_at:pv_at + plies[0, compiled.PV_LEN]].tolist())
        move = int(work[compiled.ROOT_MOVE])
        self.root_move = move if move >= 0 else None       # -1: a terminal root has no move
        return float(score)

    def table_entries(self) -> int:
        """`AlphaBetaSearch.table_entries`: the rows stamped by this decision, plus the entries of the
        interpreted table that root searches deeper than MAX_DEPTH use."""
        if not self.work[compiled.USE_TABLE]:
            return 0
        rows = int(np.count_nonzero(self.rows[:, compiled.ROW_STAMP] == self.work[compiled.STAMP]))
        return rows + super().table_entries()


def warmup(game: Game, heuristic: Heuristic | None) -> None:
    """Compile (or load) the compiled search of `game` that `heuristic` runs now (once per process), so no timed
    move pays for it: the one of its function, else the first function's, which a solve runs (`kernel_of`).
    Only that one: each heuristic's search compiles apart, and a run uses the ones of its agents."""
    kernel = game.kernel
    heuristic_class = type(heuristic) if type(heuristic) in kernel.scores else next(iter(kernel.scores))
    name = kernel.scores[heuristic_class]
    if (kernel.tag, name) not in _COMPILED:
        settings = Settings.resolve({"transposition_table": False})     # a table of one row: compiles the same
        search = CompiledSearch(game, heuristic_class(game), settings, SearchLimits.start(Budget(nodes=2)),
                                lambda: None, MoveOrderer(True, True))
        search.deepen(game.initial_state(), 1, True)
