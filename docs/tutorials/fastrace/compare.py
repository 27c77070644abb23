"""Alpha-beta and expectiminimax on the race from its start, compiled and through the adapter."""

from framework import Budget
from framework.registry import Registry

registry = Registry()
game = registry.create_game("fastrace")
for agent in ("alphabeta", "expectiminimax"):
    for kernel in ("compiled", "adapter"):
        player = registry.create_agent(agent, game, {"depth": 6, "kernel": kernel})
        decision = player.select_move(game, game.initial_state(), Budget())
        print(agent, decision.stats.extra["binding"], decision.stats.nodes, "nodes, plays",
              game.format_move(game.initial_state(), decision.move))
