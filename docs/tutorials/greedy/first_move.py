"""Step 1 of the agent tutorial: the smallest agent, played against the built-in random agent."""

from framework import Decision, SearchStats
from framework.match import play_game
from framework.registry import Registry


class FirstMove:
    def select_move(self, game, state, budget):
        return Decision(game.legal_moves(state)[0], SearchStats(nodes=1))


registry = Registry()
game = registry.create_game("tictactoe")
record = play_game(game, [FirstMove(), registry.create_agent("random", game, seed=3)])
print(record.termination.value, record.reason)
