"""A one-ply greedy agent: plays the move whose resulting state its heuristic likes best."""

import random

from framework import AgentSpec, Decision, HeuristicRef, Param, SearchStats, hookimpl
from framework.protocols import WIN_SCORE


class GreedyAgent:
    """Scores every legal move by the state it leads to and plays the best; ties go to the seeded noise."""

    def __init__(self, game, seed=0, heuristic=None, noise=1.0):
        self.heuristic = heuristic        # a Heuristic object: the registry resolves the name for us
        self.noise = noise
        self.rng = random.Random(seed)    # seeded: same seed, same moves

    def select_move(self, game, state, budget):
        me = game.to_move(state)
        best_move, best_score = None, None
        nodes = 1                                         # the root is a node ...
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            nodes += 1                                    # ... and so is every child we look at
            if game.is_terminal(child):
                score = game.returns(child)[me] * WIN_SCORE
            elif self.heuristic is not None:
                score = self.heuristic.evaluate(child, me)
            else:
                score = 0.0
            score += self.rng.uniform(0, self.noise)
            if best_score is None or score > best_score:
                best_move, best_score = move, score
        return Decision(best_move, SearchStats(nodes=nodes, depth=1, score=best_score))


@hookimpl
def plyground_agents():
    return [AgentSpec("greedy", GreedyAgent, "the best-looking move after one ply", (
        Param("heuristic", HeuristicRef, None, "how to score a state (default: the game's default heuristic)"),
        Param("noise", float, 1.0, "random tie-breaking added to each score", minimum=0.0, maximum=1000.0),
    ))]
