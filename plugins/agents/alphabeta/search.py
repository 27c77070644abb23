"""The alpha-beta search of one decision: negamax, fail-soft, with the switchable enhancements.

Sources: alpha-beta and its negamax form, Knuth & Moore (1975, "An analysis of alpha-beta
pruning"); fail-soft, Fishburn (1983); iterative deepening and aspiration windows, Slate &
Atkin (1977, Chess 4.5) and Marsland (1986, "A review of game-tree pruning");
principal-variation search, Marsland & Campbell (1982) / Reinefeld (1983, NegaScout);
quiescence search, Shannon (1950) and Beal (1990); late-move reductions, Heinz (2000)
and Romstad (2007); singular extensions, Anantharaman, Campbell & Hsu (1990, "Singular
extensions: adding selectivity to brute-force searching").

What a node is (the counting contract, identical in a future compiled path):
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

from dataclasses import dataclass
from math import nextafter
from typing import Callable, Hashable, Sequence

from framework.capabilities import capabilities
from framework.protocols import Game, Heuristic, State
from framework.search import SearchAborted, SearchLimits, terminal_value
from plugins.agents.alphabeta.ordering import MoveOrderer
from plugins.agents.alphabeta.settings import Settings
from plugins.agents.alphabeta.table import BOUND, EXACT, HORIZON, LOWER, UPPER, TranspositionTable

INF = float("inf")
#: Remaining depth meaning "to the end of the game".
UNBOUNDED = 1 << 30
PROVEN_VALUE, PROVEN_TREE = 1, 2


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
    """The state of one decision: counters, killer/history tables, the transposition table.

    `proof_score`, when set (solver mode), lets a transposition-table entry answer at any
    depth and ply if its value is a proven win (>= proof_score) or loss (<= -proof_score) or its
    subtree had no heuristic leaf: such values hold for the whole game, not just one depth.
    """

    def __init__(self, game: Game, heuristic: Heuristic | None, settings: Settings, limits: SearchLimits,
                 table: TranspositionTable | None, orderer: MoveOrderer, proof_score: float | None = None) -> None:
        self.game = game
        self.heuristic = heuristic
        self.settings = settings
        self.exceeded = limits.exceeded
        self.table = table
        self.orderer = orderer
        self.proof_score = proof_score
        offered = capabilities(game)
        self.hash_key: Callable[[State], int] | None = offered.hash_key
        hints = offered.ordered_moves if settings.move_hints else None
        self.moves_of: Callable[[State], Sequence] = hints or game.legal_moves
        self.noisy: Callable[[State, Hashable], bool] | None = offered.is_noisy
        self.quiescence = settings.quiescence and self.noisy is not None
        self.use_tt_move = settings.tt_move
        self.ordering = settings.killers or settings.history or (settings.tt_move and settings.transposition_table)
        self.nodes = 0
        self.horizon = 0           # heuristic leaves evaluated (and TT answers that stood on some)
        self.ply_nodes: list[int] = []
        self.pv: list[tuple] = []
        self.root_depth = 0
        self.root_move: Hashable | None = None
        self._grow(64)

    def _grow(self, plies: int) -> None:
        """Make the per-ply arrays (node counts, PV lines, killers) at least `plies` long."""
        extra = plies - len(self.ply_nodes)
        if extra > 0:
            self.ply_nodes.extend([0] * extra)
            self.pv.extend([()] * extra)
        self.orderer.grow(plies)

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
        depths: Sequence[int] = range(1, max_depth + 1) if iterate else (max_depth,)
        done: list[Iteration] = []
        for depth in depths:
            before_nodes, before_horizon, before_plies = self.nodes, self.horizon, self.ply_nodes[:]
            try:
                score = self._aspirated(state, depth, done[-1].score if done else None)
            except (SearchAborted, RecursionError):
                if on_iteration is not None:
                    on_iteration(None, self._delta(before_plies))
                break
            per_ply = self._delta(before_plies)
            if depth == UNBOUNDED:   # report how deep the search to the end actually went
                depth = max(ply for ply, count in enumerate(per_ply) if count)
            iteration = Iteration(depth, score, self.root_move, self.pv[0], self.nodes - before_nodes,
                                  self.horizon == before_horizon)
            done.append(iteration)
            if on_iteration is not None:
                on_iteration(iteration, per_ply)
            if iteration.exhausted or (proven is not None and proven(score)):
                break
        return done

    def table_entries(self) -> int:
        """Transposition-table entries this decision wrote (the table's peak: entries are replaced, never freed)."""
        return self.table.filled() if self.table is not None else 0

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
            return self.negamax(state, depth, -INF, INF, 0)
        low, high = previous - width, previous + width
        score = self.negamax(state, depth, low, high, 0)
        if score <= low:
            score = self.negamax(state, depth, -INF, high, 0)
        elif score >= high:
            score = self.negamax(state, depth, low, INF, 0)
        return score

    # -- the search ----------------------------------------------------------------------

    def negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Fail-soft negamax value of `state` for its mover within (alpha, beta); `ply` from the root.

        Result v: v <= alpha means the true value is <= v; v >= beta means it is >= v;
        otherwise v is exact. At ply 0 the best move is left in `self.root_move`.
        """
        if self.exceeded(self.nodes):
            raise SearchAborted
        self.nodes += 1
        try:
            self.ply_nodes[ply] += 1
        except IndexError:
            self._grow(2 * ply + 2)
            self.ply_nodes[ply] += 1
        pv = self.pv
        pv[ply] = ()
        game = self.game
        mover = game.to_move(state)
        if game.is_terminal(state):
            return terminal_value(game, self.heuristic, state, mover, ply)
        if depth <= 0:
            return self._leaf(state, mover, alpha, beta, ply, depth)

        table = self.table
        tt_move = None
        if table is not None:
            hash_key = self.hash_key
            h = hash_key(state) if hash_key is not None else hash(state)
            slot = h % table.size   # the probe, inlined: this is the hottest line of the search
            if table.keys[slot] == state:
                flag = table.flag[slot]
                value = table.value[slot]
                bound = flag & BOUND
                proof = self._proof(flag, value) if self.proof_score is not None else 0
                if ply and (proof or (table.depth[slot] == depth and table.ply[slot] == ply)):
                    if (bound == EXACT or (bound == LOWER and value >= beta)
                            or (bound == UPPER and value <= alpha)):
                        if flag & HORIZON and proof != PROVEN_VALUE:
                            self.horizon += 1
                        return value
                if self.use_tt_move:
                    tt_move = table.move[slot]

        settings = self.settings
        moves = self.moves_of(state)
        if self.ordering:
            moves = self.orderer.order(moves, tt_move, ply, mover)
        extend_move = None
        if (settings.singular and tt_move is not None and ply and depth >= settings.singular_min_depth
                and ply + depth < 2 * self.root_depth and self._singular(state, moves, tt_move, slot, depth, ply)):
            extend_move = tt_move

        apply, negamax, noisy = game.apply, self.negamax, self.noisy
        pvs = settings.pvs
        reduce_from = settings.lmr_moves if settings.lmr and ply and depth >= settings.lmr_min_depth else len(moves)
        alpha0, horizon0 = alpha, self.horizon
        best, best_move = -INF, None
        for index, move in enumerate(moves):
            child = apply(state, move)
            child_depth = depth if move == extend_move else depth - 1
            if index == 0 or child_depth <= 0:
                value = -negamax(child, child_depth, -beta, -alpha, ply + 1)
            else:
                low = -nextafter(alpha, INF) if pvs else -beta   # the child's alpha: null window or full
                if index >= reduce_from and (noisy is None or not noisy(state, move)):
                    value = -negamax(child, child_depth - 1, low, -alpha, ply + 1)
                    if value > alpha:
                        value = -negamax(child, child_depth, low, -alpha, ply + 1)
                else:
                    value = -negamax(child, child_depth, low, -alpha, ply + 1)
                if pvs and alpha < value < beta:
                    value = -negamax(child, child_depth, -beta, -alpha, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    pv[ply] = (move, *pv[ply + 1])
                    if value >= beta:
                        if noisy is None or not noisy(state, move):
                            self.orderer.cutoff(move, ply, mover, depth)
                        break
        if table is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if self.horizon != horizon0:
                flag |= HORIZON
            table.store(state, h, depth, ply, flag, best, best_move)
        if not ply:
            self.root_move = best_move
        return best

    def _proof(self, flag: int, value: float) -> int:
        """In solver mode, does this entry hold for the whole game, whatever depth it was searched to?

        PROVEN_VALUE: it is a proven win (a lower bound >= proof_score) or loss (an upper bound
        <= -proof_score), whatever heuristic leaves its subtree met. PROVEN_TREE: its subtree met
        no heuristic leaf. 0: neither. Only called in solver mode (proof_score set).
        """
        proof = self.proof_score
        bound = flag & BOUND
        if (value >= proof and bound != UPPER) or (value <= -proof and bound != LOWER):
            return PROVEN_VALUE
        return 0 if flag & HORIZON else PROVEN_TREE

    def _singular(self, state: State, moves: Sequence, tt_move: Hashable, slot: int, depth: int, ply: int) -> bool:
        """Is the TT move better than every alternative by `singular_margin`, at half depth?

        Needs an entry for this state that is a lower bound or exact and searched at most 3
        plies shallower; each alternative is probed with a null window just below
        `value - margin` and the test fails at the first one that reaches it.
        """
        table = self.table
        if table.flag[slot] & BOUND == UPPER or table.depth[slot] < depth - 3:
            return False
        target = table.value[slot] - self.settings.singular_margin
        if target in (INF, -INF):
            return False
        below = nextafter(target, -INF)
        apply = self.game.apply
        horizon = self.horizon   # the probes decide an extension, not the value: they never stop deepening
        try:
            for move in moves:
                if move != tt_move and -self.negamax(apply(state, move), (depth - 1) // 2, -target, -below,
                                                     ply + 1) >= target:
                    return False
            return True
        finally:
            self.horizon = horizon

    def _leaf(self, state: State, mover: int, alpha: float, beta: float, ply: int, depth: int) -> float:
        """Value of a non-terminal state at or below the depth limit (depth <= 0), already counted.

        With quiescence on and a game that declares noisy moves, keep searching the noisy moves,
        down to `quiescence_depth` plies below the limit (negative depths count them). The mover
        may "stand pat" on the heuristic value only if it has a quiet move to make; when every
        legal move is noisy (a forced capture in checkers) it must play one.
        """
        heuristic = self.heuristic
        if not self.quiescence or depth <= -self.settings.quiescence_depth:
            self.horizon += 1
            return heuristic.evaluate(state, mover)
        game, noisy = self.game, self.noisy
        moves = game.legal_moves(state)
        noisy_moves = [m for m in moves if noisy(state, m)]
        if not noisy_moves:
            self.horizon += 1
            return heuristic.evaluate(state, mover)
        best = -INF
        if len(noisy_moves) < len(moves):
            self.horizon += 1
            best = heuristic.evaluate(state, mover)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        pv, apply = self.pv, game.apply
        for move in noisy_moves:
            value = -self.negamax(apply(state, move), depth - 1, -beta, -alpha, ply + 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    pv[ply] = (move, *pv[ply + 1])
                    if value >= beta:
                        break
        return best
