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
from framework.kernel.root import Run, drive
from framework.protocols import Budget, Game, Heuristic, State
from framework.search import SearchAborted, SearchLimits
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


@dataclass
class Frame:
    """A decision's search state in one binding: `work` (an int64 array compiled, a list interpreted: the
    counters and switches, the history rows, then the per-ply rows and PV lines of the root search being run),
    the table (`CompiledTable`'s arrays compiled; interpreted, dicts holding only the rows probed) and the
    killers (two columns, per ply), which outlive a root search while the other per-ply columns do not."""

    binding: Bound
    work: Any
    rows: Any
    values: Any
    killers: Any

    @property
    def compiled(self) -> bool:
        return self.binding.binding == "compiled"

    def plies(self, reach: int) -> tuple[int, int]:
        """The per-ply rows of a root search that may reach `reach` plies below the root, and how far apart its
        PV lines lie. Compiled: the rows it may reach, a line's length then its moves (`api.prepend`).
        Interpreted: as many as Python's recursion allows, a line one slot (a tuple), for every root search (an
        adapter's binding reads this layout as constants: `AlphaBetaSearch._python_layout`)."""
        if self.compiled:
            return reach, reach + 1
        return python_plies(), 1

    def clear(self, start: int, end: int) -> None:
        """Zero work[start:end], growing a compiled `work` that ends before `end`."""
        if not self.compiled:
            self.work[start:end] = [0] * (end - start)
        elif len(self.work) < end:
            grown = np.zeros(end, np.int64)
            grown[:start] = self.work[:start]
            self.work = grown
        else:
            self.work[start:end] = 0

    def carry_killers(self, size: int) -> None:
        """The killers of `size` plies, at least, kept (-1: none) for the next root search."""
        have = len(self.killers[0])
        if have < size:
            more = 2 * size - have
            self.killers = ([np.concatenate((column, np.full(more, -1, np.int64))) for column in self.killers]
                            if self.compiled else [column + [-1] * more for column in self.killers])


class AlphaBetaSearch:
    """The state of one decision: counters, killers and history, the transposition table; each root search
    runs `search.negamax` through a binding (`binding.py`, as `kernel` says: one of
    `framework.kernel.binding.BINDINGS`) under the one root driver (`framework.kernel.root.drive`). Every
    binding runs the same root search (`root`) over its `Frame`. `proof_score`, when set (solver mode, 1.0),
    lets a table entry answer at any depth if it is proven (`search.PROVEN_VALUE`, `PROVEN_TREE`).
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
        self._fixed: dict[str, dict[int, int]] = {}
        self.size = slot_count(settings.tt_size) if settings.transposition_table else 1
        self.binding = bind_negamax(game, heuristic, settings, proof_score, kernel, lambda: (
            self._switches | self._table_slots(ADAPTER_KEY_SHIFTS, True) | self._python_layout(ADAPTER_SPACE)))
        self.kernel = self.binding.binding != "adapter"
        self.compiled = self.binding.binding == "compiled"
        self._interpreted: Bound | None = None if self.compiled else self.binding
        self.compiled_table = compiled_table
        if self.compiled and (compiled_table is None or len(compiled_table.values) != self.size):
            self.compiled_table = CompiledTable(self.size)
        self._clear()

    def _clear(self) -> None:
        """The counters and results of a decision, empty; its frames made when first searched."""
        self.nodes = 0
        self.horizon = 0           # heuristic leaves evaluated (and TT answers that stood on some)
        self.ply_nodes: list[int] = []
        self.pv: list[tuple] = [()]
        self.root_depth = 0
        self.root_move: Hashable | None = None
        self._frames: dict[str, Frame] = {}

    def renew(self, limits: SearchLimits) -> None:
        """Ready for the next decision of the same game, heuristic and settings, as a new search would be (empty
        counters, killers, history and table: the table stamped anew), keeping what the set-up worked out."""
        self.limits = limits
        self._clear()

    def _frame(self, depth: int) -> Frame:
        """The frame of a root search of `depth`: the compiled one, or interpreted (a compiled search deeper than
        MAX_DEPTH, a search to the end, runs the same code interpreted over the rules, from a fresh frame)."""
        binding = self.binding if self.compiled and depth <= MAX_DEPTH else self._interpreted_binding()
        frame = self._frames.get(binding.binding)
        if frame is None:
            frame = self._frames[binding.binding] = self._new_frame(binding)
        return frame

    def _interpreted_binding(self) -> Bound:
        if self._interpreted is None:
            self._interpreted = bind_negamax(self.game, self.heuristic, self.settings, self.proof_score,
                                             "interpreted", {})
        return self._interpreted

    def _new_frame(self, binding: Bound) -> Frame:
        """A frame of a decision: `work` with its counters and switches, history empty, the table empty (the
        compiled one stamped anew), no killers."""
        head = nm.CONTROL_SIZE + 2 * move_space(binding)
        if binding.binding == "compiled":
            table = self.compiled_table
            assert table is not None      # made with the compiled binding
            frame = Frame(binding, np.zeros(head, np.int64), table.rows, table.values,
                          [np.full(64, -1, np.int64), np.full(64, -1, np.int64)])
            self._fill(frame.work, binding, table.renew())
            return frame
        plies = python_plies()
        frame = Frame(binding, [0] * (head + plies * (nm.PLY_COLUMNS + 1)), defaultdict(lambda: [0] * nm.ROW_SIZE),
                      defaultdict(float), [[-1] * plies, [-1] * plies])
        self._fill(frame.work, binding, 1)
        for slot, value in self._python_layout(move_space(binding)).items():
            frame.work[slot] = value
        return frame

    @functools.cached_property
    def _switches(self) -> dict[int, int]:
        """The slots of `search.WORK` the settings fix for the whole decision (an adapter's binding reads
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
        """Where an interpreted search's per-ply rows (`python_plies`) and PV lines start, and how far apart the
        lines lie (one slot each: a tuple, `framework.kernel.api.prepend`): `Frame.plies`."""
        head, plies = nm.CONTROL_SIZE + 2 * space, python_plies()
        return {WORK.plies_at: head, WORK.pv_at: head + plies * nm.PLY_COLUMNS, WORK.pv_stride: 1}

    def _fill(self, work, binding: Bound, stamp: int) -> None:
        """The counters and switches of `search.WORK`, for one decision."""
        work[WORK.limit] = self.limits.nodes_left()
        work[WORK.stamp], work[WORK.space], work[WORK.entries] = stamp, move_space(binding), 0
        for slot, value in self._fixed_slots(binding).items():
            work[slot] = value

    def _fixed_slots(self, binding: Bound) -> dict[int, int]:
        """The slots of `search.WORK` that stay for every decision of this search with `binding`."""
        slots = self._fixed.get(binding.binding)
        if slots is None:
            slots = self._fixed[binding.binding] = self._switches | self._table_slots(key_shifts(binding),
                                                                                       not self.kernel)
        return slots

    def _table_slots(self, key_shifts: tuple[int, ...], one_word: bool) -> dict[int, int]:
        """The table's hashing in `search.WORK`: its size, 2**shift % size per key word, whether an entry is one
        word (an adapter's states and keys, `binding.ADAPTER_KEY_SHIFTS`)."""
        size = self.size
        slots = {WORK.size: size, WORK.one_word: int(one_word)}
        for i in range(nm.KEY_WORDS):
            slots[WORK.shifts + i] = (1 << key_shifts[i]) % size if i < len(key_shifts) else 0
        return slots

    # -- iterative deepening ---------------------------------------------------------------

    def deepen(self, state: State, max_depth: int, iterate: bool, proven: Callable[[float], bool] | None = None,
               on_iteration: Callable[[Iteration | None, list[int]], None] | None = None) -> list[Iteration]:
        """Search depth 1, 2, ... max_depth when `iterate` (else max_depth directly), under the root driver.

        Stops early when an iteration is exhausted (it evaluated no heuristic leaf, so deeper
        iterations would search the same tree) or when `proven(score)` says the value is proven.
        Returns the completed iterations; raises nothing when the budget runs out — the
        iterations completed so far are returned and `self.nodes` includes the partial one. An
        iteration whose line runs deeper than Python's recursion limit (a search to the end of a
        very long game) is abandoned the same way, so the answer is unknown rather than a crash.
        `on_iteration(iteration, nodes_per_ply_of_that_iteration)` is called after each one.
        """
        def iteration(run: Run[Iteration], depth: int, previous: Iteration | None) -> Iteration | None:
            before_nodes, before_horizon, before_plies = self.nodes, self.horizon, self.ply_nodes[:]
            try:
                score = self._aspirated(state, depth, previous.score if previous else None)
            except (SearchAborted, RecursionError):
                if on_iteration is not None:
                    on_iteration(None, self._delta(before_plies))
                return None
            finally:
                run.work = self._frame(depth).work
            per_ply = self._delta(before_plies)
            if depth == UNBOUNDED:   # report how deep the search to the end actually went
                depth = max(ply for ply, count in enumerate(per_ply) if count)
            done = Iteration(depth, score, self.root_move, self.pv[0], self.nodes - before_nodes,
                             self.horizon == before_horizon)
            if on_iteration is not None:
                on_iteration(done, per_ply)
            return done

        depths = range(1, max_depth + 1) if iterate else range(max_depth, max_depth + 1)
        run: Run[Iteration] = Run(self.limits, self._frame(depths[0]).work, self.binding.recorded())
        return drive(run, iteration, depths,
                     lambda done: done.exhausted or (proven is not None and proven(done.score))).done

    def table_entries(self) -> int:
        """Transposition-table entries this decision wrote (the table's peak: entries are replaced, never freed)."""
        if not self.settings.transposition_table:
            return 0
        return sum(int(frame.work[WORK.entries]) for frame in self._frames.values())

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
        """One root search of `depth` in its frame (`_frame`); raises SearchAborted on a spent budget.

        Plies below the root: at most the depth, twice it with singular extensions (an extension is only granted
        while ply + depth < 2 * root depth), then the quiescence plies; one row more for the PV (a line at ply p:
        its length, then at most size - p moves: `framework.kernel.api.prepend`)."""
        frame = self._frame(depth)
        binding = frame.binding
        reach = 2 * depth if self.settings.singular else depth
        size, stride = frame.plies(reach + 2 + (self.settings.quiescence_depth if self.quiescence else 0))
        head = nm.CONTROL_SIZE + 2 * move_space(binding)
        pv_at = head + size * nm.PLY_COLUMNS
        frame.clear(head, pv_at + size * stride)
        frame.carry_killers(size)
        work, killers = frame.work, frame.killers
        for k in range(2):
            work[head + PLY.killer + k:pv_at:nm.PLY_COLUMNS] = killers[k][:size]
        work[WORK.plies_at], work[WORK.pv_at], work[WORK.pv_stride] = head, pv_at, stride
        work[WORK.nodes], work[WORK.leaves], work[WORK.aborted], work[WORK.root_move] = self.nodes, self.horizon, 0, -1
        work[WORK.root_depth] = self.root_depth
        try:
            score = binding.functions.negamax(binding.to_kernel(state), depth, alpha, beta, 0, binding.option,
                                              frame.rows, frame.values, work, binding.weights, self.limits.deadline)
        finally:
            for k in range(2):
                killers[k][:size] = work[head + PLY.killer + k:pv_at:nm.PLY_COLUMNS]
            self._finish(work, work[head + PLY.nodes:pv_at:nm.PLY_COLUMNS])
        return self._result(work, binding, score, pv_at)

    def _finish(self, work, counts: Sequence[int]) -> None:
        """Read the counters back: nodes, heuristic leaves, nodes per ply (up to the deepest ply visited)."""
        self.nodes, self.horizon = int(work[WORK.nodes]), int(work[WORK.leaves])
        plies = len(counts)
        while plies and not counts[plies - 1]:
            plies -= 1
        if len(self.ply_nodes) < plies:
            self.ply_nodes.extend([0] * (plies - len(self.ply_nodes)))
        for p in range(plies):
            self.ply_nodes[p] += int(counts[p])

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
