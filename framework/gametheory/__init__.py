"""Game theory for two players: normal form, Nash equilibria, dominance, maxmin, extensive form, SPE.

One concept per module: `normal_form` (games, mixed profiles, best responses, pure equilibria),
`support_enumeration` (all equilibria of nondegenerate games, exact), `degeneracy` (when that list
may be incomplete), `dominance`, `maxmin` (security values by LP), `extensive_form` (trees, induced
normal form, subgame-perfect equilibria), `from_game` (a Game plugin position as a tree), `files`
(YAML/CSV input), `report` (the text `plyground nash` and `plyground spe` print).
"""

from framework.gametheory.dominance import Dominance, dominant_strategy_equilibrium, iterated_elimination
from framework.gametheory.extensive_form import ExtensiveFormGame, Node, backward_induction, count_subgame_perfect
from framework.gametheory.files import load_game
from framework.gametheory.from_game import tree_from_game
from framework.gametheory.maxmin import security
from framework.gametheory.normal_form import MixedEquilibrium, NormalFormGame, PureEquilibrium
from framework.gametheory.support_enumeration import mixed_equilibria

__all__ = ["Dominance", "ExtensiveFormGame", "MixedEquilibrium", "Node", "NormalFormGame", "PureEquilibrium",
           "backward_induction", "count_subgame_perfect", "dominant_strategy_equilibrium", "iterated_elimination",
           "load_game", "mixed_equilibria", "security", "tree_from_game"]
