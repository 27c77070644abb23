"""The proof-number agents: solvers that play proven moves and otherwise defer to a fallback agent.

`ProofNumberAgent` answers through `common.solve_three_valued`; `PNSAgent` and `PN2Agent` search with
`pns.pn_search` (Allis' PN search, Breuker's PN²), `DFPNAgent`, `PDSAgent` and `PDSPNAgent` with
`dfpn.dfpn_search` (df-pn, PDS, PDS-PN): the searches themselves are `search`'s, written once.
"""

from __future__ import annotations

from typing import Any

from framework.errors import ConfigError
from framework.protocols import Budget, Decision, Game, Proof, SearchStats, SolveResult, State
from framework.search import SearchLimits, Stopwatch
from plugins.agents.proofnumber import common
from plugins.agents.proofnumber.common import (
    BinaryResult,
    BinarySearch,
    Spend,
    bind,
    checked_growth,
    remaining_budget,
    solve_three_valued,
    split_budget,
)
from plugins.agents.proofnumber.dfpn import dfpn_search
from plugins.agents.proofnumber.pns import pn_search


class ProofNumberAgent:
    """Plays a proven winning (or, in a proven draw, drawing) move; otherwise asks the fallback agent.

    The solver gets `solve_share` of each decision's budget; the fallback agent (any registered
    agent, named by the `fallback` parameter and built by the registry) gets what is left. With
    no fallback the solver's most promising root move is played.
    """

    search: BinarySearch

    def __init__(self, game: Game, seed: int = 0, fallback: Any = None, solve_share: float = 0.5,
                 kernel: str = "auto") -> None:
        if not 0 < solve_share <= 1:
            raise ConfigError(f"solve_share must be in (0, 1], got {solve_share!r}")
        self.fallback = fallback
        self.solve_share = solve_share
        self.kernel = kernel
        #: Whether the searches run compiled (a kernel that does not fit `kernel` is refused here).
        self.compiled = bind(game, kernel)[0].binding == "compiled"

    def solve(self, game: Game, state: State, budget: Budget) -> SolveResult:
        return solve_three_valued(self.search, game, state, budget)

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        solved = self.solve(game, state, split_budget(budget, self.solve_share))
        extra = {**solved.stats.extra, **bind(game, self.kernel)[0].recorded()}
        if solved.value in (Proof.WIN, Proof.DRAW) or self.fallback is None:
            move = solved.move if solved.move is not None else game.legal_moves(state)[0]
            score = {Proof.WIN: 1.0, Proof.DRAW: 0.0, Proof.LOSS: -1.0}.get(solved.value)
            return Decision(move, SearchStats(nodes=solved.stats.nodes, score=score, pv=(move,),
                                              wall_time=watch.wall(), cpu_time=watch.cpu(), extra=extra,
                                              peak_entries=solved.stats.peak_entries))
        rest = remaining_budget(budget, solved.stats.nodes, watch.wall())
        decision = self.fallback.select_move(game, state, rest)
        fb = decision.stats
        extra.update(solver_nodes=solved.stats.nodes, fallback_nodes=fb.nodes, fallback_extra=dict(fb.extra))
        peaks = [p for p in (solved.stats.peak_entries, fb.peak_entries) if p is not None]
        return Decision(decision.move, SearchStats(nodes=solved.stats.nodes + fb.nodes, depth=fb.depth,
                                                   score=fb.score, pv=fb.pv, wall_time=watch.wall(),
                                                   cpu_time=watch.cpu(), extra=extra,
                                                   peak_entries=max(peaks) if peaks else None))


class PNSAgent(ProofNumberAgent):
    """Allis' proof-number search as a solver and agent (see the module docstring)."""

    def __init__(self, game: Game, seed: int = 0, fallback: Any = None, solve_share: float = 0.5,
                 tree_limit: int = 1_000_000, kernel: str = "auto", tree_share: float | None = None) -> None:
        super().__init__(game, seed, fallback, solve_share, kernel)
        if tree_limit < 2:
            raise ConfigError(f"tree_limit must be at least 2 nodes, got {tree_limit!r}")
        if tree_share is not None and not 0 < tree_share <= 1:
            raise ConfigError(f"tree_share must be in (0, 1] (a share of the node budget), got {tree_share!r}")
        self.tree_limit = tree_limit
        self.tree_share = tree_share
        if self.compiled:
            # Compile (or load) its own compiled search (PN or PN², not both) now, so no timed move pays for it.
            pn_search(game, game.initial_state(), 0, Spend(SearchLimits.start(Budget(nodes=2))), 2,
                      isinstance(self, PN2Agent), kernel)

    def limit(self, spend: Spend) -> int:
        """The tree limit of this decision: `tree_limit`, or `tree_share` of its node budget when smaller."""
        if self.tree_share is None or spend.limits.node_limit == float("inf"):
            return self.tree_limit
        return max(2, min(self.tree_limit, int(self.tree_share * spend.limits.node_limit)))

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return pn_search(game, state, prover, spend, self.limit(spend), kernel=self.kernel)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(tree_limit={self.tree_limit}, fallback={self.fallback!r})"


class PN2Agent(PNSAgent):
    """Breuker's PN² as a solver and agent; `tree_limit` (or `tree_share`) is its memory N in tree nodes,
    `growth` sizes its second-level trees (see the module docstring)."""

    def __init__(self, game: Game, seed: int = 0, fallback: Any = None, solve_share: float = 0.5,
                 tree_limit: int = 1_000_000, kernel: str = "auto", tree_share: float | None = None,
                 growth: str = "published") -> None:
        self.growth = common.checked_growth(growth)
        super().__init__(game, seed, fallback, solve_share, tree_limit, kernel, tree_share)

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return pn_search(game, state, prover, spend, self.limit(spend), True, self.kernel, self.growth)


class DFPNAgent(ProofNumberAgent):
    """df-pn as a solver and agent; `tt_size` bounds its memory in table entries."""

    search_name = "dfpn_search"
    #: How large PDS-PN's second-level trees may grow (`common.GROWTH`); only PDS-PN has them.
    growth = "published"

    def __init__(self, game: Game, seed: int = 0, fallback: Any = None, solve_share: float = 0.5,
                 tt_size: int = 1_000_000, kernel: str = "auto") -> None:
        super().__init__(game, seed, fallback, solve_share, kernel)
        if tt_size < 1:
            raise ConfigError(f"tt_size must be at least 1 entry, got {tt_size!r}")
        self.tt_size = tt_size
        if self.compiled:
            # Compile (or load) the compiled search now, so no timed move pays for it.
            dfpn_search(game, game.initial_state(), 0, Spend(SearchLimits.start(Budget(nodes=2))), 2,
                        self.search_name, kernel)

    def search(self, game: Game, state: State, prover: int, spend: Spend) -> BinaryResult:
        return dfpn_search(game, state, prover, spend, self.tt_size, self.search_name, self.kernel, self.growth)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(tt_size={self.tt_size}, fallback={self.fallback!r})"


class PDSAgent(DFPNAgent):
    """PDS as a solver and agent; `tt_size` bounds its memory in table entries."""

    search_name = "pds_search"


class PDSPNAgent(DFPNAgent):
    """PDS-PN as a solver and agent; `tt_size` bounds its first-level table and, with it, each second-level
    tree (`search.second_level_size`, sized as `growth` says)."""

    search_name = "pdspn_search"

    def __init__(self, game: Game, seed: int = 0, fallback: Any = None, solve_share: float = 0.5,
                 tt_size: int = 1_000_000, kernel: str = "auto", growth: str = "published") -> None:
        self.growth = checked_growth(growth)
        super().__init__(game, seed, fallback, solve_share, tt_size, kernel)
