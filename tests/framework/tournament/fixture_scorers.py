"""A test plugin: an agent that plays the first legal move and reports a fixed score for it."""

from framework import AgentSpec, Decision, Param, SearchStats, hookimpl


class Scorer:
    def __init__(self, game, seed=0, score=0.0):
        self.score = score

    def select_move(self, game, state, budget):
        return Decision(game.legal_moves(state)[0], SearchStats(nodes=1, score=self.score))


@hookimpl
def plyground_agents():
    return [AgentSpec("scorer", Scorer, "first legal move, always the same score",
                      (Param("score", float, 0.0, "the score it reports", minimum=-1e9, maximum=1e9),))]
