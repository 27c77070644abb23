"""The thesis' game-theory examples as data files, registered so `plyground nash NAME` finds them.

Each file carries a comment saying where the game comes from; `framework.gametheory.files`
documents the formats.
"""

from __future__ import annotations

from pathlib import Path

from framework.hookspecs import hookimpl
from framework.specs import GameFileSpec

HERE = Path(__file__).parent

EXAMPLES = (
    ("prisoners-dilemma", "prisoners_dilemma.yaml",
     "Prisoner's Dilemma: an equilibrium in strictly dominant strategies"),
    ("driving-game", "driving_game.yaml", "a common-payoff coordination game: drive on the same side"),
    ("matching-pennies", "matching_pennies.yaml", "zero-sum; only the (1/2, 1/2) mixed equilibrium"),
    ("battle-of-the-sexes", "battle_of_the_sexes.yaml", "two pure equilibria and a mixed one"),
    ("sharing-game", "sharing_game.yaml", "extensive form: a brother proposes a split, his sister accepts or not"),
    ("thesis-tree", "thesis_tree.yaml", "extensive form with an 8 x 4 normal form and a unique SPE"),
    ("rock-paper-scissors", "rock_paper_scissors.csv", "zero-sum 3 x 3 in CSV; value 0, uniform maxmin"),
)


@hookimpl
def plyground_game_files() -> list[GameFileSpec]:
    return [GameFileSpec(name, str(HERE / filename), help) for name, filename, help in EXAMPLES]
