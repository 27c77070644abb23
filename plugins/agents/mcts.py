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

Nodes: every state an iteration visits counts one, the root each time, the states on the
selection path, the new child and every state of the playout (and, in heuristic playouts,
every successor scored). A node budget is checked before each visit; an iteration that
would exceed it is abandoned without backing up, so the budget is never exceeded. The move
played is a proven win, else the most visited move not proven lost (the "robust child"),
the first in move order on ties. The seed fixes the random generator: same seed, same moves.

Memory: each iteration adds at most one node, so the tree holds at most `iterations` + 1
nodes (each with its untried moves); `peak_entries` reports the nodes it held. Playouts keep
only their current state.
"""

from __future__ import annotations

import math
import random
from typing import cast

from framework.capabilities import has_chance, player_count
from framework.errors import ConfigError
from framework.hookspecs import hookimpl
from framework.match import draw_outcome
from framework.params import HeuristicRef, Param
from framework.protocols import CHANCE, Budget, Decision, Game, Heuristic, Proof, SearchStats, SolveResult, State
from framework.search import SearchAborted, SearchLimits, Stopwatch
from framework.specs import AgentSpec, MemoryBound

#: Most iterations per move: each adds at most one tree node (a few hundred bytes), so about 2 GB at most.
MAX_ITERATIONS = 10_000_000

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
)


class Node:
    """One tree node. `by` is the seat whose move led here (None below a chance node and at the root);
    `total` sums rewards for `by`. A chance node's children are the outcomes drawn so far."""

    __slots__ = ("state", "move", "parent", "by", "mover", "children", "untried", "visits", "total",
                 "winner", "result")

    def __init__(self, game: Game, state: State, move, parent: Node | None, by: int | None) -> None:
        self.state, self.move, self.parent, self.by = state, move, parent, by
        self.mover = game.to_move(state)
        self.children: list[Node] = []
        self.visits, self.total = 0, 0.0
        self.winner: int | None = None        # the player proven to win from here
        self.result: tuple[float, ...] | None = None
        if game.is_terminal(state):
            self.result = result = game.returns(state)
            self.untried: list = []
            leaders = [seat for seat, r in enumerate(result) if r == max(result)]
            self.winner = leaders[0] if len(leaders) == 1 else None
        elif self.mover == CHANCE:
            self.untried = []
        else:
            self.untried = list(reversed(game.legal_moves(state)))


class MCTSAgent:
    """UCT with optional MCTS-Solver; see the module docstring."""

    def __init__(self, game: Game, seed: int = 0, exploration: float = 1.0, playout: str = "random",
                 epsilon: float = 0.1, playout_depth: int | None = 200, heuristic: Heuristic | None = None,
                 solver: bool = True, iterations: int = 100_000) -> None:
        if playout == "heuristic" and heuristic is None:
            raise ConfigError(f"mcts with playout 'heuristic' needs a heuristic, and {game.name} has none")
        if not 0 <= epsilon <= 1:
            raise ConfigError(f"mcts: 'epsilon' must be between 0 and 1, got {epsilon!r}")
        self.rng = random.Random(seed)
        self.exploration, self.playout, self.epsilon = exploration, playout, epsilon
        self.playout_depth, self.heuristic, self.solver, self.iterations = playout_depth, heuristic, solver, iterations

    # -- one search ----------------------------------------------------------------

    def search(self, game: Game, state: State, budget: Budget) -> tuple[Node | None, int, int]:
        """Run iterations until the budget, the iteration cap or a proof at the root; return (root, nodes, iterations).

        `self.tree_nodes` is left holding the size of the tree."""
        self.game, self.nodes, self.tree_nodes = game, 0, 0
        self.seats = player_count(game)
        self.proving = self.solver and self.seats == 2 and not has_chance(game)
        self.limits = SearchLimits.start(budget)
        root = None
        done = 0
        try:
            self.visit()
            root = Node(game, state, None, None, None)
            self.tree_nodes = 1
            while done < self.iterations and root.winner is None:
                self.iterate(root)
                done += 1
        except SearchAborted:
            pass
        return root, self.nodes, done

    def visit(self) -> None:
        if self.limits.exceeded(self.nodes):
            raise SearchAborted
        self.nodes += 1

    def iterate(self, root: Node) -> None:
        game = self.game
        node = root
        if root.visits:
            self.visit()  # the root, visited again by this iteration
        while node.result is None and node.winner is None:
            if node.mover == CHANCE:
                self.visit()
                outcome = draw_outcome(game, node.state, self.rng)
                child = next((c for c in node.children if c.move == outcome), None)
                if child is None:
                    child = Node(game, game.apply(node.state, outcome), outcome, node, None)
                    node.children.append(child)
                    self.tree_nodes += 1
                    node = child
                    break
                node = child
                continue
            if node.untried:
                self.visit()
                move = node.untried.pop()
                child = Node(game, game.apply(node.state, move), move, node, node.mover)
                node.children.append(child)
                self.tree_nodes += 1
                node = child
                break
            node = self.select(node)
            self.visit()
        if node.result is not None:
            result = node.result
        elif node.winner is not None:
            result = (1.0, -1.0) if node.winner == 0 else (-1.0, 1.0)
        else:
            result = self.play_out(node.state)
        self.back_up(node, result)

    def select(self, node: Node) -> Node:
        log_n = math.log(node.visits) if node.visits else 0.0
        c, me, best, best_value = self.exploration, node.mover, None, -math.inf
        for child in node.children:
            if self.proving and child.winner is not None and child.winner != me:
                continue  # a proven loss for the chooser
            value = child.total / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return cast(Node, best)  # a node still open has a child that is not a proven loss (else it is proven)

    def play_out(self, state: State) -> tuple[float, ...]:
        game, rng = self.game, self.rng
        plies = 0
        while not game.is_terminal(state):
            if self.playout_depth is not None and plies >= self.playout_depth:
                return self.cut(state)
            if game.to_move(state) == CHANCE:
                state = game.apply(state, draw_outcome(game, state, rng))
                self.visit()
                plies += 1
                continue
            moves = game.legal_moves(state)
            if self.playout == "heuristic" and rng.random() >= self.epsilon:
                state = self.best_successor(state, moves)
            else:
                state = game.apply(state, moves[rng.randrange(len(moves))])
                self.visit()
            plies += 1
        return game.returns(state)

    def cut(self, state: State) -> tuple[float, ...]:
        """The reward of a playout cut short: a draw without a heuristic, else a win for the seat the heuristic
        rates highest (its share of a win when several tie; for two players, the sign of the first's score)."""
        seats = self.seats
        if self.heuristic is None:
            return (0.0,) * seats
        scores = [self.heuristic.evaluate(state, seat) for seat in range(seats)]
        leaders = [seat for seat in range(seats) if scores[seat] == max(scores)]
        if len(leaders) == seats:
            return (0.0,) * seats
        share, rest = 1.0 / len(leaders), -1.0 / (seats - len(leaders))
        return tuple(share if seat in leaders else rest for seat in range(seats))

    def best_successor(self, state: State, moves) -> State:
        """The successor the heuristic scores best for the mover (each one scored is a visited node)."""
        game, heuristic = self.game, cast(Heuristic, self.heuristic)  # heuristic playouts come with one
        mover = game.to_move(state)
        best, best_value = None, -math.inf
        for move in moves:
            self.visit()
            child = game.apply(state, move)
            value = heuristic.terminal(child, mover, 1) if game.is_terminal(child) else heuristic.evaluate(child, mover)
            if value > best_value:
                best, best_value = child, value
        return best  # `moves` is not empty: a state

    def back_up(self, node: Node | None, result: tuple[float, ...]) -> None:
        solver = self.proving
        while node is not None:
            node.visits += 1
            if node.by is not None:
                node.total += result[node.by]
            if solver and node.winner is None and node.children:
                me = node.mover
                if any(child.winner == me for child in node.children):
                    node.winner = me
                elif not node.untried and all(child.winner == 1 - me for child in node.children):
                    node.winner = 1 - me
            node = node.parent

    # -- answers -------------------------------------------------------------------

    @staticmethod
    def best_child(node: Node) -> Node | None:
        me = node.mover
        if node.winner == me:
            return next(c for c in node.children if c.winner == me)
        candidates = [c for c in node.children if c.winner is None or c.winner == me] or node.children
        return max(candidates, key=lambda c: c.visits, default=None)

    def principal_variation(self, root: Node) -> tuple:
        pv, node = [], cast(Node | None, root)
        while node is not None and node.children:
            node = self.best_child(node)
            if node is None or not node.visits:
                break
            pv.append(node.move)
        return tuple(pv)

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        watch = Stopwatch()
        root, nodes, done = self.search(game, state, budget)
        best = self.best_child(root) if root is not None else None
        me = game.to_move(state)
        if root is None or best is None:
            move, score = game.legal_moves(state)[0], None
        else:
            move = best.move
            score = (1.0 if root.winner == me else -1.0 if root.winner is not None
                     else best.total / best.visits if best.visits else None)
        proof = {None: "unknown", me: "win", 1 - me: "loss"}[root.winner if root is not None else None]
        stats = SearchStats(nodes=nodes, score=score, pv=self.principal_variation(root) if root else (move,),
                            wall_time=watch.wall(), cpu_time=watch.cpu(),
                            extra={"iterations": done, "proof": proof,
                                   "root_visits": root.visits if root is not None else 0},
                            peak_entries=self.tree_nodes)
        return Decision(move, stats)

    def solve(self, game: Game, state: State, budget: Budget) -> SolveResult:
        """Win or loss when the MCTS-Solver proves it within the budget, else unknown (draws are never proven)."""
        decision = self.select_move(game, state, budget)
        value = Proof(decision.stats.extra["proof"])
        return SolveResult(value, decision.move if value is Proof.WIN else None, decision.stats)

    def __repr__(self) -> str:
        return (f"MCTSAgent(exploration={self.exploration}, playout={self.playout!r}, solver={self.solver}, "
                f"heuristic={self.heuristic!r})")


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    return [AgentSpec("mcts", MCTSAgent, "UCT Monte-Carlo tree search with the MCTS-Solver", PARAMS,
                      algorithm="Monte-Carlo tree search", nodes="a tree node (one per iteration)",
                      memory_bound=MemoryBound("iterations", "tree nodes: one per iteration"),
                      chance=True, multiplayer=True)]
