"""The solver's compiled path: `AlphaBetaSearch` whose root searches run in `compiled.negamax`.

Iterative deepening, the stopping rules and the node conventions stay in the interpreted
`AlphaBetaSearch.deepen` (and `solver.solve`); each root search is one call into compiled
code, which keeps the table, killers and history in numpy arrays across the iterations of
one decision, as the interpreted search keeps its containers. Results are identical (value,
best move, principal variation, nodes per ply, heuristic leaves), tested position by position.

Used automatically by the solver when `supported` says so: compiled kernels on, a game
whose kernel this search knows (Lines of Action: its table hash and capture-first hints are
the ones `compiled` restates), and only the exact enhancements (iterative deepening, the
table, TT move, hints, killers, history) — PVS, aspiration windows, quiescence, late-move
reductions and singular extensions run interpreted.
"""

from __future__ import annotations

import numpy as np

from framework import jit
from framework.protocols import Budget, Game, State
from framework.search import SearchAborted, SearchLimits
from plugins.agents.alphabeta import compiled
from plugins.agents.alphabeta.ordering import MoveOrderer
from plugins.agents.alphabeta.search import AlphaBetaSearch
from plugins.agents.alphabeta.settings import Settings
from plugins.agents.alphabeta.solver import WinLossEvaluation
from plugins.agents.alphabeta.table import TranspositionTable

#: Games whose hash and move hints `compiled` restates (by kernel tag).
GAMES = ("loa",)
#: Largest table for which `compiled.table_slot` cannot overflow 64 bits.
MAX_TT_SIZE = (1 << 31) - 1
#: Moves are ints below this in the supported games (LOA: from * 64 + to, PASS = 4096).
MOVE_SPACE = 64 * 64 + 1
#: The compiled search of each game, by kernel tag (compiled on first use, then cached on disk).
_COMPILED: dict[str, jit.Kernel] = {}


def compiled_game(game: Game) -> bool:
    """Whether compiled kernels are on and `compiled` knows the game's kernel."""
    kernel = getattr(game, "kernel", None)
    return jit.enabled() and kernel is not None and kernel.tag in GAMES


def supported(game: Game, settings: Settings, depth: int | None) -> bool:
    """Whether the solver of these settings runs compiled (see the module docstring)."""
    return (compiled_game(game)
            and not (settings.pvs or settings.aspiration or settings.quiescence or settings.lmr or settings.singular)
            and settings.tt_size <= MAX_TT_SIZE and (settings.iterative_deepening or depth is not None))


def kernel_of(game: Game) -> jit.Kernel:
    kernel = game.kernel
    search = _COMPILED.get(kernel.tag)
    if search is None:
        search = _COMPILED[kernel.tag] = jit.Kernel(compiled, rules=kernel.rules, tag=kernel.tag)
    return search


class CompiledSolverSearch(AlphaBetaSearch):
    """`AlphaBetaSearch` in solver mode (proof score 1, win/loss evaluation) with compiled root searches."""

    def __init__(self, game: Game, settings: Settings, limits: SearchLimits, table: TranspositionTable | None,
                 orderer: MoveOrderer) -> None:
        super().__init__(game, WinLossEvaluation(game), settings, limits, table, orderer, proof_score=1.0)
        self.limits = limits
        self.kernel = kernel_of(game)
        size = settings.tt_size if settings.transposition_table else 1
        self.tables = (np.zeros(size, np.uint64), np.zeros(size, np.uint64), np.full(size, -1, np.int64),
                       np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64),
                       np.zeros(size, np.float64), np.zeros(size, np.int64))
        self.hashing = np.array([size, (1 << 64) % size, (1 << 128) % size], np.uint64)
        self.switches = np.array([table is not None, settings.tt_move, settings.move_hints, settings.killers,
                                  settings.history, self.ordering], np.int64)
        self.killers = np.full((64, 2), -1, np.int64)
        self.history = np.zeros((2, MOVE_SPACE), np.int64)

    def negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """One root search (the only call `deepen` makes), compiled; raises SearchAborted on a spent budget."""
        plies = depth + 2
        if len(self.killers) < plies:
            grown = np.full((2 * plies, 2), -1, np.int64)
            grown[:len(self.killers)] = self.killers
            self.killers = grown
        counters = np.array([self.nodes, self.horizon, int(min(self.limits.node_limit, 1 << 62)), 0, -1], np.int64)
        ply_nodes = np.zeros(plies, np.int64)
        pv = np.zeros((plies, plies), np.int64)
        pv_len = np.zeros(plies, np.int64)
        kernel = self.game.kernel
        score = self.kernel.negamax(kernel.to_kernel(state), depth, alpha, beta, ply, kernel.option, self.tables,
                                    self.hashing, counters, ply_nodes, pv, pv_len, self.killers, self.history,
                                    self.switches, self.limits.deadline)
        self.nodes, self.horizon = int(counters[compiled.NODES]), int(counters[compiled.LEAVES])
        self._grow(plies)
        for p, count in enumerate(ply_nodes.tolist()):
            self.ply_nodes[p] += count
        if counters[compiled.ABORTED]:
            raise SearchAborted
        self.pv[0] = tuple(pv[0, :pv_len[0]].tolist())
        self.root_move = int(counters[compiled.ROOT_MOVE])
        return float(score)


def warmup(game: Game) -> None:
    """Compile (or load) the compiled search of `game` now (once per process), so no timed solve pays for it."""
    if game.kernel.tag in _COMPILED:
        return
    settings = Settings.resolve({"quiescence": False})
    search = CompiledSolverSearch(game, settings, SearchLimits.start(Budget(nodes=2)), None, MoveOrderer(True, True))
    search.deepen(game.initial_state(), 1, True)
