"""Three checkers evaluations of increasing knowledge, all popcounts over the bitboards.

Each computes a score for Black and negates it for White, so `evaluate(s, 0) ==
-evaluate(s, 1)` holds exactly; values stay within a few thousand, far inside WIN_SCORE.
Terms follow the classic features of Samuel (1959, "Some studies in machine learning
using the game of checkers": piece advantage, back-row guard, centre control,
advancement, mobility); weights are ours, in hundredths of a man, and are parameters.
"""

from __future__ import annotations

from framework.params import Param
from framework.protocols import BaseHeuristic
from plugins.games.checkers.rules import BLACK, ROWS, SQUARE_BIT, VALID, WHITE, State, jumper_count, step_targets

#: The eight central squares: the inner 2x2 diamond (14, 15, 18, 19) and its file neighbours.
CENTRE = sum(SQUARE_BIT[s] for s in (10, 11, 14, 15, 18, 19, 22, 23))
#: Squares on the left and right edge, where a king covers only two diagonals.
EDGE = sum(SQUARE_BIT[s] for s in (4, 5, 12, 13, 20, 21, 28, 29))
BLACK_BACK, WHITE_BACK = ROWS[0], ROWS[7]


def _material(state: State, king_value: float) -> float:
    """Black's material lead: men count 100, kings `king_value`."""
    black, white, kings = state[0], state[1], state[2]
    men = (black & ~kings).bit_count() - (white & ~kings).bit_count()
    crowned = (black & kings).bit_count() - (white & kings).bit_count()
    return 100.0 * men + king_value * crowned


#: ADVANCE_BITS[colour][k]: the squares whose advancement (rows from that side's back row) has bit k set,
#: so the summed advancement is three population counts: sum over k of 2**k * |men & ADVANCE_BITS[k]|.
ADVANCE_BITS = tuple(tuple(sum(ROWS[r] for r in range(8) if (r if colour == BLACK else 7 - r) >> k & 1)
                           for k in range(3)) for colour in (BLACK, WHITE))


def _advancement(men: int, colour: int) -> int:
    """Rows the side's men have advanced from their own back row, summed over the men."""
    bits = ADVANCE_BITS[colour]
    return (men & bits[0]).bit_count() + 2 * (men & bits[1]).bit_count() + 4 * (men & bits[2]).bit_count()


def material_score(state: State, weights) -> float:
    """Material for Black; weights: (king_value,)."""
    return _material(state, weights[0])


def positional_score(state: State, weights) -> float:
    """Material, back-row guard, centre, advancement and kings off the edge, for Black;
    weights: (king_value, guard, centre, advance, edge_king)."""
    black, white, kings = state[0], state[1], state[2]
    black_men, white_men = black & ~kings, white & ~kings
    score = _material(state, weights[0])
    if white_men:
        score += weights[1] * (black_men & BLACK_BACK).bit_count()
    if black_men:
        score -= weights[1] * (white_men & WHITE_BACK).bit_count()
    score += weights[2] * ((black & CENTRE).bit_count() - (white & CENTRE).bit_count())
    score += weights[3] * (_advancement(black_men, BLACK) - _advancement(white_men, WHITE))
    score -= weights[4] * ((black & kings & EDGE).bit_count() - (white & kings & EDGE).bit_count())
    return score


def mobility_score(state: State, weights) -> float:
    """Material, steps and first jumps of both sides, for Black; weights: (king_value, step, jump)."""
    black, white, kings = state[0], state[1], state[2]
    empty = VALID & ~(black | white)
    black_kings, white_kings = black & kings, white & kings
    score = _material(state, weights[0])
    score += weights[1] * (step_targets(black, black_kings, empty, BLACK)
                           - step_targets(white, white_kings, empty, WHITE))
    score += weights[2] * (jumper_count(black, black_kings, white, empty, BLACK)
                           - jumper_count(white, white_kings, black, empty, WHITE))
    return score


class MaterialHeuristic(BaseHeuristic):
    """Material only: men 100, kings king_value (default 130)."""

    name = "material"

    def __init__(self, game, king_value: float = 130.0) -> None:
        super().__init__(game)
        #: The parameters `material_score` takes (compiled searches pass them as this tuple, by value).
        self.weights = (float(king_value),)

    def evaluate(self, state, player: int) -> float:
        score = material_score(state, self.weights)
        return score if player == BLACK else -score


class PositionalHeuristic(BaseHeuristic):
    """Material plus back-row guard, centre control, advancement of men and kings off the edge.

    Once kings appear the men-only terms fade: the back-row guard counts only while the
    opponent still has men (a guard cannot stop a king), and kings are rewarded for the
    centre and penalised on the edge, where they are easily trapped.
    """

    name = "positional"

    def __init__(self, game, king_value: float = 130.0, guard: float = 8.0, centre: float = 5.0,
                 advance: float = 1.5, edge_king: float = 10.0) -> None:
        super().__init__(game)
        self.weights = (float(king_value), float(guard), float(centre), float(advance), float(edge_king))

    def evaluate(self, state, player: int) -> float:
        score = positional_score(state, self.weights)
        return score if player == BLACK else -score


class MobilityHeuristic(BaseHeuristic):
    """Material plus mobility: each side's steps, and its possible first jumps weighted as threats.

    Counted for both sides whoever is to move, so the term is symmetric; cheap with shifts.
    """

    name = "mobility"

    def __init__(self, game, king_value: float = 130.0, step: float = 4.0, jump: float = 12.0) -> None:
        super().__init__(game)
        self.weights = (float(king_value), float(step), float(jump))

    def evaluate(self, state, player: int) -> float:
        score = mobility_score(state, self.weights)
        return score if player == BLACK else -score


#: Bound of every weight, in hundredths of a man: ten men's worth, far past any sensible weight.
WEIGHT_LIMIT = 1000.0
_KING = Param("king_value", float, 130.0, "value of a king, in hundredths of a man", minimum=0,
              maximum=WEIGHT_LIMIT)
HEURISTIC_PARAMS = {
    "material": (_KING,),
    "positional": (_KING,
                   Param("guard", float, 8.0, "bonus per man on its own back row while the opponent has men",
                         minimum=-WEIGHT_LIMIT, maximum=WEIGHT_LIMIT),
                   Param("centre", float, 5.0, "bonus per piece on the eight central squares",
                         minimum=-WEIGHT_LIMIT, maximum=WEIGHT_LIMIT),
                   Param("advance", float, 1.5, "bonus per row a man has advanced",
                         minimum=-WEIGHT_LIMIT, maximum=WEIGHT_LIMIT),
                   Param("edge_king", float, 10.0, "penalty per king on the left or right edge",
                         minimum=-WEIGHT_LIMIT, maximum=WEIGHT_LIMIT)),
    "mobility": (_KING,
                 Param("step", float, 4.0, "bonus per available step", minimum=-WEIGHT_LIMIT, maximum=WEIGHT_LIMIT),
                 Param("jump", float, 12.0, "bonus per available first jump", minimum=-WEIGHT_LIMIT,
                       maximum=WEIGHT_LIMIT)),
}
HEURISTICS = (MaterialHeuristic, PositionalHeuristic, MobilityHeuristic)
