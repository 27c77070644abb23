"""Monte-Carlo tree search: UCT (Kocsis & Szepesvári 2006) with the MCTS-Solver (Winands, Björnsson & Saito 2008).

UCT: L. Kocsis and C. Szepesvári, "Bandit based Monte-Carlo Planning", ECML 2006. Each
iteration descends from the root choosing the child maximising Q + C * sqrt(ln N / n) (Q
the child's mean reward for the player choosing, N and n the visit counts), adds one child
(the next untried move in the game's move order), plays the game out from it, and backs the
result up the path. Playouts are uniformly random, or heuristic-guided (epsilon-greedy: with
probability `epsilon` a random move, else the move whose resulting state the heuristic scores
best for the mover). A playout longer than `playout_depth` plies stops and scores the sign of
the heuristic (a draw without one). Rewards are the game's returns, one per seat, so the
same search plays n-player games (max^n-style UCT: each node's mean is the reward of the seat
that moved into it). A chance node is sampled: each descent draws an outcome with the game's
probabilities and follows (or adds) that child, as do playouts (open-loop over the outcomes
seen, Cowling, Powley & Whitehouse 2012, "Information Set MCTS", sect. on chance).

MCTS-Solver: M. H. M. Winands, Y. Björnsson and J.-T. Saito, "Monte-Carlo Tree Search
Solver", Computers and Games 2008. Terminal wins and losses are proven values; a node whose
mover has a move to a node it has proven won is won, and a fully expanded node all of whose
moves lead to nodes won by the opponent is lost. Selection skips proven losing moves and the
final move is a proven win when there is one. Draws stay unproven (as in the paper, which
proves only wins and losses), so `solve` reports win, loss or unknown. Proofs need two players
and no dice: in other games the solver switch proves nothing (terminal states still score).

The search is written once in `search.py` over `framework.kernel.api` and bound once per agent by
`framework.kernel.binding.bind` (the `kernel` option: compiled over a game's kernel, its rules
interpreted, or through a `PassThroughAdapter` over the game's own methods; recorded in
`extra["binding"]`). Every binding makes the same tree, draws the same random numbers (an
explicit xorshift32 generator seeded from `seed`), counts the same nodes and plays the same move.

Nodes: every state an iteration visits counts one, the root each time, the states on the
selection path, the new child and every state of the playout (and, in heuristic playouts,
every successor scored); a chance node is a state like any other: entering it counts one, and
entering the state its drawn outcome leads to counts one more (on the path and in playouts).
Every binding counts the same nodes for a seed (tests/plugins/agents/test_mcts_every_game.py,
on every built-in game). A node budget is checked before each visit; an iteration that
would exceed it is abandoned without backing up, so the budget is never exceeded. The move
played is a proven win, else the most visited move not proven lost (the "robust child"),
the first in move order on ties. The seed fixes the random generator: same seed, same moves.

Memory: each iteration adds at most one node, so the tree holds at most `iterations` + 1
nodes, kept in flat arrays (`search.py`: 48 bytes a node compiled, so 10 million iterations take
under 0.5 GB) grown by doubling; `peak_entries` reports the nodes it held. Playouts keep only
their current state, and no states are kept in the tree (a descent replays the moves).
"""

from __future__ import annotations

import math
import multiprocessing
from typing import Any, NamedTuple

import numpy as np

from framework.capabilities import has_chance, player_count
from framework.errors import ConfigError
from framework.kernel.binding import KERNEL_PARAM, Bound, bind, decision_state, record_binding
from framework.kernel.root import Run
from framework.params import HeuristicRef, Param
from framework.protocols import Budget, Decision, Game, Heuristic, Proof, SearchStats, SolveResult, State
from framework.search import SearchLimits, Stopwatch
from plugins.agents.mcts import search
from plugins.agents.mcts.search import NODE, NODE_SIZE, WORK

#: Most iterations per move: each adds at most one tree node (48 bytes compiled), so well under 2 GB.
MAX_ITERATIONS = 10_000_000
#: The tree's first capacity in nodes (it doubles when full, up to what the iterations and budget allow).
FIRST_CAPACITY = 4096

PARAMS = (
    Param("exploration", float, 1.0, "UCT exploration constant C in Q + C*sqrt(ln N / n)", minimum=0,
          maximum=100),
    Param("playout", str, "random", "playout policy", choices=("random", "heuristic")),
    Param("epsilon", float, 0.1, "heuristic playouts: chance of a random move instead of the best-scoring one",
          minimum=0, maximum=1),
    Param("playout_depth", int, 200, "plies before a playout is cut and scored by the heuristic's sign "
          "(a draw without one); null plays to the end", minimum=1, maximum=100_000, nullable=True),
    Param("heuristic", HeuristicRef, None, "heuristic for guided playouts and cut playouts (default: the game's)"),
    Param("solver", bool, True, "MCTS-Solver: back up proven wins and losses"),
    Param("iterations", int, 100_000, "most iterations per move (the budget may stop it sooner)", minimum=1,
          maximum=MAX_ITERATIONS),
    KERNEL_PARAM,
    Param("parallel", int, 1, "root-parallel MCTS: independent searches in this many processes (forked), each "
          "with its share of the iterations and node budget, their root visit counts merged to choose",
          minimum=1, maximum=64),
)


def seeded(seed: int) -> int:
    """The generator's first state for `seed`: a nonzero 32-bit value (a multiplicative hash of the seed)."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & ((1 << 64) - 1)
    return ((x >> 32) ^ x) & search.MASK32 or 1


class Tree:
    """The searched tree as `search.run` left it, read in the game's moves."""

    def __init__(self, tree: Any, totals: Any, size: int, bound: Bound) -> None:
        self.tree, self.totals, self.size, self.bound = tree, totals, size, bound

    def slot(self, node: int, name: int) -> int:
        return int(self.tree[node * NODE_SIZE + name])

    def children(self, node: int) -> list[int]:
        found, child = [], self.slot(node, NODE.first)
        while child >= 0:
            found.append(child)
            child = self.slot(child, NODE.next)
        return found

    def winner(self, node: int) -> int | None:
        winner = self.slot(node, NODE.winner)
        return None if winner < 0 else winner

    def best_child(self, node: int) -> int | None:
        """A proven win, else the most visited child not proven lost (all when every one is), first on ties."""
        me, children = self.slot(node, NODE.mover), self.children(node)
        if self.winner(node) == me:
            return next(c for c in children if self.winner(c) == me)
        candidates = [c for c in children if self.winner(c) in (None, me)] or children
        return max(candidates, key=lambda c: self.slot(c, NODE.visits), default=None)

    def move(self, node: int) -> Any:
        """The game's move into `node` (from a compiled tree's int32 as a Python int, as the other bindings
        give it: a numpy int must not leak into a game's move or a record)."""
        move = self.tree[node * NODE_SIZE + NODE.move]
        return self.bound.move(move.item() if isinstance(move, np.generic) else move)

    def principal_variation(self) -> tuple[Any, ...]:
        pv, node = [], 0
        while self.slot(node, NODE.first) >= 0:
            child = self.best_child(node)
            if child is None or not self.slot(child, NODE.visits):
                break
            pv.append(self.move(child))
            node = child
        return tuple(pv)


class Searched(NamedTuple):
    """What one search learnt at the root, in the game's moves (picklable: a worker process sends it back)."""

    children: tuple[tuple[Any, int, float, int | None], ...]    # (move, visits, total, proven winner) each
    winner: int | None          # the seat proven to win from the root
    root_visits: int
    pv: tuple[Any, ...]
    nodes: int
    iterations: int
    tree_nodes: int
    binding: str
    binding_reason: str     # why not compiled ("" when it is: `Bound.reason`)


def _share(total: float, n: int, i: int) -> Any:
    """The i-th of `n` near-equal shares of `total` (an int, or infinity)."""
    return total if total == math.inf else int(total) // n + (i < int(total) % n)


#: The job the worker processes of a root-parallel search run, set before they are forked.
_JOBS: list[tuple[Any, ...]] = []


def _worker(i: int) -> Searched:
    agent, game, state, shares = _JOBS[0]
    found: Searched = agent.search(game, state, *shares[i])[0]
    return found


class MCTSAgent:
    """UCT with optional MCTS-Solver; see the module docstring."""

    def __init__(self, game: Game, seed: int = 0, exploration: float = 1.0, playout: str = "random",
                 epsilon: float = 0.1, playout_depth: int | None = 200, heuristic: Heuristic | None = None,
                 solver: bool = True, iterations: int = 100_000, kernel: str = "auto", parallel: int = 1) -> None:
        if playout == "heuristic" and heuristic is None:
            raise ConfigError(f"mcts with playout 'heuristic' needs a heuristic, and {game.name} has none")
        if not 0 <= epsilon <= 1:
            raise ConfigError(f"mcts: 'epsilon' must be between 0 and 1, got {epsilon!r}")
        self.seed = seed
        self.exploration, self.playout, self.epsilon = exploration, playout, epsilon
        self.playout_depth, self.heuristic, self.solver, self.iterations = playout_depth, heuristic, solver, iterations
        self.kernel, self.parallel = kernel, parallel
        self.rng = seeded(seed)
        self.bound = bind(search, game, heuristic, kernel)     # a kernel that does not fit is refused now
        if self.bound.binding == "compiled":
            self.warm_up(game)

    def warm_up(self, game: Game) -> None:
        """Compile (or load) the compiled search now, a one-node search at the first decision, so that no timed
        move pays for it (`binding.warm_up`'s, but in this process whatever `parallel`, and the generator
        untouched)."""
        state = decision_state(game)
        if state is not None:
            self.search(game, state, SearchLimits.start(Budget(nodes=1)), 1, self.rng)

    def bind(self, game: Game) -> Bound:
        """The search bound for `game` (once, when the agent was made for it)."""
        return self.bound

    # -- one search ----------------------------------------------------------------

    def search(self, game: Game, state: State, limits: SearchLimits, iterations: int,
               rng: int) -> tuple[Searched, int]:
        """Run up to `iterations` iterations within `limits` from the generator state `rng`, until a proof at
        the root; return what the root learnt and the generator's state after."""
        bound = self.bound
        seats = player_count(game)
        run = bound.run(limits, lambda run, depth, _: self.grow(bound, state, run), switches={
            "seats": seats, "proving": int(self.solver and seats == 2 and not has_chance(game)),
            "playout": int(self.playout == "heuristic"),
            "playout_depth": -1 if self.playout_depth is None else self.playout_depth,
            "heuristic": int(self.heuristic is not None), "rng": rng, "iterations": iterations})
        work = run.work
        tree, totals = run.done[0]
        size = int(work[WORK.size])
        read = Tree(tree, totals, size, bound)
        children = tuple((read.move(c), read.slot(c, NODE.visits), float(totals[c]), read.winner(c))
                         for c in read.children(0)) if size else ()
        return Searched(children, read.winner(0) if size else None, read.slot(0, NODE.visits) if size else 0,
                        read.principal_variation() if size else (), run.nodes, int(work[WORK.done]),
                        size, bound.binding, bound.reason), int(work[WORK.rng])

    def grow(self, bound: Bound, state: State, run: Run[Any]) -> tuple[Any, Any]:
        """The root call: `search.run` over a tree that doubles (up to what the iterations and the budget allow)
        while the search fills it; the tree and its totals."""
        work, compiled = run.work, bound.binding == "compiled"
        most = min(int(work[WORK.iterations]), int(work[WORK.limit])) + 1
        capacity = min(most, FIRST_CAPACITY)
        tree: Any = np.zeros(capacity * NODE_SIZE, np.int32) if compiled else [0] * (capacity * NODE_SIZE)
        totals: Any = bound.array(capacity, float)
        root = bound.to_kernel(state)
        while True:
            work[WORK.capacity] = capacity
            bound.functions.run(root, tree, totals, work, bound.weights, run.limits.deadline, self.exploration,
                                self.epsilon)
            if work[WORK.size] < capacity or capacity >= most:
                return tree, totals
            grown = min(2 * capacity, most) - capacity
            if compiled:
                tree = np.concatenate((tree, np.zeros(grown * NODE_SIZE, np.int32)))
                totals = np.concatenate((totals, np.zeros(grown)))
            else:
                tree.extend([0] * (grown * NODE_SIZE))
                totals.extend([0.0] * grown)
            capacity += grown

    def searches(self, game: Game, state: State, budget: Budget) -> list[Searched]:
        """One search, or (`parallel` > 1) one per worker process, each with its share of the iterations and node
        budget, the same deadline and its own generator (the first carries this agent's on, the others are seeded
        from it, so each decision draws afresh)."""
        limits = SearchLimits.start(budget)
        n = self.parallel
        if n == 1:
            found, self.rng = self.search(game, state, limits, self.iterations, self.rng)
            return [found]
        shares = [(SearchLimits(_share(limits.node_limit, n, i), limits.deadline), _share(self.iterations, n, i),
                   self.rng if i == 0 else seeded(self.rng * 7919 + i)) for i in range(n)]
        _JOBS[:] = [(self, game, state, shares)]
        try:
            with multiprocessing.get_context("fork").Pool(n - 1) as pool:
                others = pool.map_async(_worker, range(1, n))
                first, self.rng = self.search(game, state, *shares[0])
                return [first, *others.get()]
        finally:
            _JOBS.clear()

    # -- answers -------------------------------------------------------------------

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        found = self.searches(game, state, budget)
        me = game.to_move(state)
        proven = [f for f in found if f.winner is not None]
        winner = proven[0].winner if proven else None
        visits: dict[Any, list[Any]] = {}       # move: [visits, total, proven winner], merged over the searches
        for f in found:
            for move, n, total, child_winner in f.children:
                merged = visits.setdefault(move, [0, 0.0, None])
                merged[0] += n
                merged[1] += total
                if child_winner is not None:
                    merged[2] = child_winner
        if winner == me:
            move = next(m for m, *_, w in proven[0].children if w == me)
        else:
            candidates = [m for m, v in visits.items() if v[2] in (None, me)] or list(visits)
            move = max(candidates, key=lambda m: visits[m][0], default=None)
        if move is None:
            move, score = game.legal_moves(state)[0], None
        else:
            n, total, _ = visits[move]
            score = 1.0 if winner == me else -1.0 if winner is not None else total / n if n else None
        proof = {None: "unknown", me: "win", 1 - me: "loss"}[winner]
        pv = found[0].pv if found[0].pv[:1] == (move,) else (move,)
        stats = SearchStats(nodes=sum(f.nodes for f in found), score=score, pv=pv, wall_time=watch.wall(),
                            cpu_time=watch.cpu(),
                            extra={"iterations": sum(f.iterations for f in found), "proof": proof,
                                   **record_binding(found[0].binding, found[0].binding_reason),
                                   "root_visits": sum(f.root_visits for f in found),
                                   **({"parallel": len(found)} if len(found) > 1 else {})},
                            peak_entries=sum(f.tree_nodes for f in found))
        return Decision(move, stats)

    def solve(self, game: Game, state: State, budget: Budget) -> SolveResult:
        """Win or loss when the MCTS-Solver proves it within the budget, else unknown (draws are never proven)."""
        decision = self.select_move(game, state, budget)
        value = Proof(decision.stats.extra["proof"])
        return SolveResult(value, decision.move if value is Proof.WIN else None, decision.stats)

    def __repr__(self) -> str:
        return (f"MCTSAgent(exploration={self.exploration}, playout={self.playout!r}, solver={self.solver}, "
                f"heuristic={self.heuristic!r})")
