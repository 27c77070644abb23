"""Game theory: normal form, Nash equilibria, dominance, maxmin, extensive form with chance, SPE, n players.

One concept per module: `normal_form` (games, mixed profiles, best responses, pure equilibria),
`support_enumeration` (all equilibria of nondegenerate games, exact), `degeneracy` (when that list
may be incomplete), `dominance`, `maxmin` (security values by LP), `extensive_form` (trees with
chance nodes, induced normal form, subgame-perfect equilibria), `n_player` (pure equilibria of
n-player games), `from_game` (a Game plugin position as a tree), `files` (YAML/CSV input), `report`
(the text `plyground nash` and `plyground spe` print).
"""

from framework.gametheory.dominance import Dominance, dominant_strategy_equilibrium, iterated_elimination
from framework.gametheory.extensive_form import ExtensiveFormGame, Node, backward_induction, count_subgame_perfect
from framework.gametheory.files import load_game
from framework.gametheory.from_game import tree_from_game
from framework.gametheory.maxmin import security
from framework.gametheory.n_player import NPlayerEquilibrium, NPlayerGame
from framework.gametheory.normal_form import MixedEquilibrium, NormalFormGame, PureEquilibrium
from framework.gametheory.support_enumeration import mixed_equilibria

__all__ = ["Dominance", "ExtensiveFormGame", "MixedEquilibrium", "NPlayerEquilibrium", "NPlayerGame", "Node",
           "NormalFormGame", "PureEquilibrium", "backward_induction", "count_subgame_perfect",
           "dominant_strategy_equilibrium", "iterated_elimination", "load_game", "mixed_equilibria", "security",
           "tree_from_game"]
