"""The alpha-beta search of one decision: negamax, fail-soft, with the switchable enhancements.

Sources: alpha-beta and its negamax form, Knuth & Moore (1975, "An analysis of alpha-beta
pruning"); fail-soft, Fishburn (1983); iterative deepening and aspiration windows, Slate &
Atkin (1977, Chess 4.5) and Marsland (1986, "A review of game-tree pruning");
principal-variation search, Marsland & Campbell (1982) / Reinefeld (1983, NegaScout);
quiescence search, Shannon (1950) and Beal (1990); late-move reductions, Heinz (2000)
and Romstad (2007); singular extensions, Anantharaman, Campbell & Hsu (1990, "Singular
extensions: adding selectivity to brute-force searching").

The negamax itself is written once, in `search.py`, and run compiled or interpreted (`binding.py`); this
module drives it: iterative deepening, aspiration windows, and reading its counters back.

What a node is (the counting contract, the same in every binding):
a node is one call of `negamax` on a state, counted on entry, before the
terminal test, the depth test or the transposition-table probe. So the root counts once
per root search; every child search counts, including PVS null-window probes and their
re-searches, late-move-reduced searches and their re-searches, singularity probes,
aspiration re-searches and every iteration of iterative deepening; a state answered from
the transposition table still counts (it was visited and probed); a horizon state whose
quiescence search looks at noisy moves counts once, and each noisy child counts once
(quiescence nodes are `negamax` calls with depth <= 0).
Moves are never counted, and neither are states only generated (`apply`) but not searched.

Values are from the point of view of the player to move at each node. Heuristics must be
zero-sum (`evaluate(s, p) == -evaluate(s, 1 - p)`), which is what makes negamax equal minimax.
Ties go to the move searched first (strictly better values replace the best move).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from framework.capabilities import capabilities, capability
from framework.kernel import api
from framework.kernel.api import line
from framework.kernel.binding import Bound
from framework.protocols import Budget, Game, Heuristic, State
from framework.search import SearchAborted, SearchLimits, deepen
from plugins.agents.alphabeta import search as nm
from plugins.agents.alphabeta.binding import (
    ADAPTER_KEY_SHIFTS,
    ADAPTER_SPACE,
    MAX_DEPTH,
    CompiledTable,
    bind_negamax,
    key_shifts,
    move_space,
    python_plies,
)
from plugins.agents.alphabeta.settings import Settings
from plugins.agents.alphabeta.table import slot_count

INF = float("inf")
#: Remaining depth meaning "to the end of the game".
UNBOUNDED = 1 << 30
WORK, PLY = nm.WORK, nm.PLY


@dataclass(frozen=True)
class Iteration:
    """One completed root search: its depth, score, best move, principal variation and cost."""

    depth: int
    score: float
    move: Hashable
    pv: tuple
    nodes: int
    exhausted: bool   # no heuristic leaf was evaluated: the score is the value of the whole game tree


class AlphaBetaSearch:
    """The state of one decision: counters, killers and history, the transposition table; each root search
    runs `negamax.negamax` through a binding (`binding.py`, as `kernel` says: one of
    `framework.kernel.binding.BINDINGS`). `proof_score`, when set (solver mode, 1.0), lets a table entry
    answer at any depth if it is proven (`negamax.PROVEN_VALUE`, `PROVEN_TREE`).
    """

    def __init__(self, game: Game, heuristic: Heuristic | None, settings: Settings, limits: SearchLimits,
                 proof_score: float | None = None, compiled_table: CompiledTable | None = None,
                 kernel: str = "auto") -> None:
        self.game, self.heuristic, self.settings, self.limits = game, heuristic, settings, limits
        self.proof_score = proof_score
        offered = capabilities(game)
        hints = offered.ordered_moves if settings.move_hints else None
        self.moves_of: Callable[[State], Sequence] = hints or game.legal_moves
        self.quiescence = settings.quiescence and offered.is_noisy is not None
        self.ordering = settings.killers or settings.history or (settings.tt_move and settings.transposition_table)
        self._clear()
        self._fixed: dict[str, dict[int, int]] = {}
        self.size = slot_count(settings.tt_size) if settings.transposition_table else 1
        self.binding = bind_negamax(game, heuristic, settings, proof_score, kernel, lambda: (
            self._switches | self._table_slots(ADAPTER_KEY_SHIFTS, True) | self._python_layout(ADAPTER_SPACE)))
        self.kernel = self.binding.binding != "adapter"
        self.compiled = self.binding.binding == "compiled"
        self._negamax = self.binding.functions.negamax   # looked up once: a compiled kernel's attributes are lazy
        self._python: Bound | None = None if self.compiled else self.binding
        self.compiled_table = compiled_table
        if self.compiled:
            if compiled_table is None or len(compiled_table.values) != self.size:
                compiled_table = CompiledTable(self.size)
            self.compiled_table = compiled_table
            self.work: np.ndarray = np.zeros(nm.CONTROL_SIZE + 2 * move_space(self.binding), np.int64)
            self._fill(self.work, self.binding, compiled_table.renew())
            self.killers: np.ndarray = np.full((64, 2), -1, np.int64)

    def _clear(self) -> None:
        """The counters and results of a decision, empty."""
        self.nodes = 0
        self.horizon = 0           # heuristic leaves evaluated (and TT answers that stood on some)
        self.ply_nodes: list[int] = []
        self.pv: list[tuple] = [()]
        self.root_depth = 0
        self.root_move: Hashable | None = None
        self._dict_work: defaultdict | None = None

    def renew(self, limits: SearchLimits) -> None:
        """Ready for the next decision of the same game, heuristic and settings, as a new search would be (empty
        counters, killers, history and table: the table stamped anew), keeping what the set-up worked out."""
        self.limits = limits
        self._clear()
        if self.compiled:
            assert self.compiled_table is not None   # made with the compiled binding
            self.work[:] = 0
            self._fill(self.work, self.binding, self.compiled_table.renew())
            self.killers.fill(-1)

    @functools.cached_property
    def _switches(self) -> dict[int, int]:
        """The slots of `negamax.WORK` the settings fix for the whole decision (an adapter's binding reads
        them as constants: `framework.kernel.python_backend.interpret`)."""
        settings = self.settings
        return {getattr(WORK, name): int(value) for name, value in (
            ("use_table", settings.transposition_table), ("use_tt_move", settings.tt_move),
            ("use_hints", settings.move_hints), ("use_killers", settings.killers),
            ("use_history", settings.history), ("use_ordering", self.ordering),
            ("solver", self.proof_score is not None), ("quiescence", self.quiescence),
            ("quiescence_depth", settings.quiescence_depth), ("use_pvs", settings.pvs), ("use_lmr", settings.lmr),
            ("lmr_min_depth", settings.lmr_min_depth), ("lmr_moves", settings.lmr_moves),
            ("use_singular", settings.singular), ("singular_min_depth", settings.singular_min_depth),
            ("singular_margin", int(np.float64(settings.singular_margin).view(np.int64))))}

    @staticmethod
    def _python_layout(space: int) -> dict[int, int]:
        """Where an interpreted search's per-ply rows (as many plies as Python's recursion reaches) and PV
        lines start, and how far apart the lines lie (one slot each: a tuple, `framework.kernel.api.prepend`)."""
        head, plies = nm.CONTROL_SIZE + 2 * space, python_plies()
        return {WORK.plies_at: head, WORK.pv_at: head + plies * nm.PLY_COLUMNS, WORK.pv_stride: 1}

    def _fill(self, work, binding: Bound, stamp: int) -> None:
        """The counters and switches of `negamax.WORK`, for one decision."""
        work[WORK.limit] = self.limits.nodes_left()
        work[WORK.stamp], work[WORK.space], work[WORK.entries] = stamp, move_space(binding), 0
        for slot, value in self._fixed_slots(binding).items():
            work[slot] = value

    def _fixed_slots(self, binding: Bound) -> dict[int, int]:
        """The slots of `negamax.WORK` that stay for every decision of this search with `binding`."""
        slots = self._fixed.get(binding.binding)
        if slots is None:
            slots = self._fixed[binding.binding] = self._switches | self._table_slots(key_shifts(binding),
                                                                                       not self.kernel)
        return slots

    def _table_slots(self, key_shifts: tuple[int, ...], one_word: bool) -> dict[int, int]:
        """The table's hashing in `negamax.WORK`: its size, 2**shift % size per key word, whether an entry is one
        word (an adapter's states and keys, `binding.ADAPTER_KEY_SHIFTS`)."""
        size = self.size
        slots = {WORK.size: size, WORK.one_word: int(one_word)}
        for i in range(nm.KEY_WORDS):
            slots[WORK.shifts + i] = (1 << key_shifts[i]) % size if i < len(key_shifts) else 0
        return slots

    # -- iterative deepening ---------------------------------------------------------------

    def deepen(self, state: State, max_depth: int, iterate: bool, proven: Callable[[float], bool] | None = None,
               on_iteration: Callable[[Iteration | None, list[int]], None] | None = None) -> list[Iteration]:
        """Search depth 1, 2, ... max_depth when `iterate` (else max_depth directly).

        Stops early when an iteration is exhausted (it evaluated no heuristic leaf, so deeper
        iterations would search the same tree) or when `proven(score)` says the value is proven.
        Returns the completed iterations; raises nothing when the budget runs out — the
        iterations completed so far are returned and `self.nodes` includes the partial one. An
        iteration whose line runs deeper than Python's recursion limit (a search to the end of a
        very long game) is abandoned the same way, so the answer is unknown rather than a crash.
        `on_iteration(iteration, nodes_per_ply_of_that_iteration)` is called after each one.
        """
        def iteration(depth: int, previous: Iteration | None) -> Iteration | None:
            before_nodes, before_horizon, before_plies = self.nodes, self.horizon, self.ply_nodes[:]
            try:
                score = self._aspirated(state, depth, previous.score if previous else None)
            except (SearchAborted, RecursionError):
                if on_iteration is not None:
                    on_iteration(None, self._delta(before_plies))
                return None
            per_ply = self._delta(before_plies)
            if depth == UNBOUNDED:   # report how deep the search to the end actually went
                depth = max(ply for ply, count in enumerate(per_ply) if count)
            done = Iteration(depth, score, self.root_move, self.pv[0], self.nodes - before_nodes,
                             self.horizon == before_horizon)
            if on_iteration is not None:
                on_iteration(done, per_ply)
            return done

        return deepen(iteration, range(1, max_depth + 1) if iterate else (max_depth,),
                      lambda done: done.exhausted or (proven is not None and proven(done.score)))

    def table_entries(self) -> int:
        """Transposition-table entries this decision wrote (the table's peak: entries are replaced, never freed)."""
        if not self.settings.transposition_table:
            return 0
        entries = int(self.work[WORK.entries]) if self.compiled else 0
        if self._dict_work is not None:
            entries += self._dict_work[WORK.entries]
        return entries

    def _delta(self, before: list[int]) -> list[int]:
        return [n - (before[i] if i < len(before) else 0) for i, n in enumerate(self.ply_nodes)]

    def _aspirated(self, state: State, depth: int, previous: float | None) -> float:
        """One root search, in an aspiration window around `previous` when that is on.

        A fail-soft result v <= low proves the true value is <= low < high, so the re-search
        window (-inf, high) contains it strictly; symmetrically for a fail-high. So the
        returned score is exact whatever the window.
        """
        self.root_depth = depth
        width = self.settings.aspiration_width
        if not self.settings.aspiration or previous is None or depth == 1 or previous in (INF, -INF):
            return self.root(state, depth, -INF, INF)
        low, high = previous - width, previous + width
        score = self.root(state, depth, low, high)
        if score <= low:
            score = self.root(state, depth, -INF, high)
        elif score >= high:
            score = self.root(state, depth, low, INF)
        return score

    # -- one root search ------------------------------------------------------------------

    def root(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """One root search through the binding; raises SearchAborted on a spent budget. A compiled search
        deeper than MAX_DEPTH (a search to the end) runs the same code interpreted over the rules."""
        if self.compiled and depth <= MAX_DEPTH:
            return self._compiled_root(state, depth, alpha, beta)
        if self._python is None:
            self._python = bind_negamax(self.game, self.heuristic, self.settings, self.proof_score, "interpreted", {})
        return self._python_root(self._python, state, depth, alpha, beta)

    def _python_root(self, binding: Bound, state: State, depth: int, alpha: float, beta: float) -> float:
        """A root search interpreted: `work` a dict of ints (only the slots touched exist), the table dicts."""
        work = self._dict_work
        plies = python_plies()
        if work is None:
            work = self._dict_work = defaultdict(int)
            self._fill(work, binding, 1)
            work.update(self._python_layout(move_space(binding)))
            self._killer_plies = 0
            self._rows: defaultdict = defaultdict(lambda: [0] * nm.ROW_SIZE)
            self._values: defaultdict = defaultdict(float)
        work[WORK.nodes], work[WORK.leaves], work[WORK.aborted], work[WORK.root_move] = self.nodes, self.horizon, 0, -1
        work[WORK.root_depth] = self.root_depth
        # Killers (-1: none) on every ply this root search may reach (as `_compiled_root` sizes its rows).
        reach = min(plies, (2 * depth if self.settings.singular else depth) + 2
                    + (self.settings.quiescence_depth if self.quiescence else 0))
        if self.settings.killers and self._killer_plies < reach:
            head = work[WORK.plies_at] + PLY.killer
            for ply in range(self._killer_plies, reach):
                work[head + ply * nm.PLY_COLUMNS] = work[head + ply * nm.PLY_COLUMNS + 1] = -1
            self._killer_plies = reach
        try:
            score = binding.functions.negamax(binding.to_kernel(state), depth, alpha, beta, 0, binding.option,
                                              self._rows, self._values, work, binding.weights, self.limits.deadline)
        finally:
            head = work[WORK.plies_at]
            counts = []
            for ply in range(plies):
                at = head + ply * nm.PLY_COLUMNS + PLY.nodes
                count = work.get(at, 0)
                if not count:
                    break
                counts.append(count)
                work[at] = 0
            self._finish(work, counts)
        return self._result(work, binding, score, work[WORK.pv_at])

    def _compiled_root(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """A root search compiled: per-ply rows and PV rows sized for this depth, killers carried over."""
        # Plies below the root: at most the depth, twice it with singular extensions (an extension is only
        # granted while ply + depth < 2 * root depth), then the quiescence plies; one row more for the PV
        # (a line at ply p: its length, then at most size - p moves: `framework.kernel.api.prepend`).
        binding = self.binding
        reach = 2 * depth if self.settings.singular else depth
        size = reach + 2 + (self.settings.quiescence_depth if self.quiescence else 0)
        if len(self.killers) < size:        # killers outlive iterations; the other per-ply columns do not
            killers = np.full((2 * size, 2), -1, np.int64)
            killers[:len(self.killers)] = self.killers
            self.killers = killers
        head = nm.CONTROL_SIZE + 2 * move_space(binding)
        pv_at = head + size * nm.PLY_COLUMNS
        end = pv_at + size * (size + 1)
        if len(self.work) < end:
            grown = np.zeros(end, np.int64)
            grown[:head] = self.work[:head]
            self.work = grown
        work = self.work
        work[head:end] = 0
        plies = work[head:pv_at].reshape(size, nm.PLY_COLUMNS)
        plies[:, PLY.killer:] = self.killers[:size]
        work[WORK.plies_at], work[WORK.pv_at], work[WORK.pv_stride] = head, pv_at, size + 1
        work[WORK.nodes], work[WORK.leaves], work[WORK.aborted], work[WORK.root_move] = self.nodes, self.horizon, 0, -1
        work[WORK.root_depth] = self.root_depth
        table = self.compiled_table
        assert table is not None      # made with the compiled binding
        score = self._negamax(binding.to_kernel(state), depth, alpha, beta, 0, binding.option, table.rows,
                              table.values, work, binding.weights, self.limits.deadline)
        self.killers[:size] = plies[:, PLY.killer:]
        self._finish(work, plies[:, PLY.nodes].tolist())
        return self._result(work, binding, score, pv_at)

    def _finish(self, work, counts: list[int]) -> None:
        """Read the counters back: nodes, heuristic leaves, nodes per ply."""
        self.nodes, self.horizon = int(work[WORK.nodes]), int(work[WORK.leaves])
        if len(self.ply_nodes) < len(counts):
            self.ply_nodes.extend([0] * (len(counts) - len(self.ply_nodes)))
        for p, count in enumerate(counts):
            self.ply_nodes[p] += int(count)

    def _result(self, work, binding: Bound, score: float, pv_at: int) -> float:
        """The root's score, best move and principal variation, in the game's moves (SearchAborted if spent)."""
        if work[WORK.aborted]:
            raise SearchAborted
        move_of = binding.move
        self.pv[0] = tuple(move_of(move) for move in line(work, pv_at))
        move = int(work[WORK.root_move])
        self.root_move = move_of(move) if move >= 0 else None       # -1: a terminal root has no move
        return float(score)


def warmup(game: Game, heuristic: Heuristic | None) -> None:
    """Compile (or load) the compiled search of `game` that `heuristic` runs now (once per process), so no timed
    move pays for it: the one of its function, else the first function's, which a solve runs. Only that one:
    each heuristic's search compiles apart, and a run uses the ones of its agents."""
    kernel: api.GameKernel = capability(game, "kernel")
    heuristic_class: Any = type(heuristic) if type(heuristic) in kernel.scores else next(iter(kernel.scores))
    if heuristic_class not in _WARM.setdefault(kernel.tag, set()):
        _WARM[kernel.tag].add(heuristic_class)
        settings = Settings.resolve({"transposition_table": False})     # a table of one row: compiles the same
        search = AlphaBetaSearch(game, heuristic_class(game), settings, SearchLimits.start(Budget(nodes=2)))
        search.deepen(game.initial_state(), 1, True)


#: The heuristic classes whose compiled search `warmup` loaded, by game kernel tag.
_WARM: dict[str, set[type]] = {}
