# --8<-- [start:header]
"""Race to 10: players add 1, 2 or 3 to a running total, and whoever reaches 10 wins."""

from framework import BaseHeuristic, GameSpec, HeuristicSpec, hookimpl
from framework.errors import MoveParseError, PositionError

TARGET = 10


class Race:
    name = "race"
    player_names = ("first", "second")
    # --8<-- [end:header]

    # --8<-- [start:rules]
    def initial_state(self):
        return (0, 0)                                   # (total, player to move)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [] if self.is_terminal(state) else [n for n in (1, 2, 3) if state[0] + n <= TARGET]

    def apply(self, state, move):
        return (state[0] + move, 1 - state[1])

    def is_terminal(self, state):
        return state[0] == TARGET

    def returns(self, state):                           # the player who just moved reached the target
        return (-1.0, 1.0) if state[1] == 0 else (1.0, -1.0)
    # --8<-- [end:rules]

    # --8<-- [start:text]
    def format_move(self, state, move):
        return f"+{move}"

    def parse_move(self, state, text):
        if text not in [self.format_move(state, m) for m in self.legal_moves(state)]:
            raise MoveParseError(f"'{text}' is not a legal move here; expected +1, +2 or +3")
        return int(text[1:])

    def render(self, state):
        return f"total {state[0]} of {TARGET}, {self.player_names[state[1]]} to move"

    def to_text(self, state):
        return f"{state[0]} {state[1]}"

    def from_text(self, text):
        try:
            total, mover = map(int, text.split())
        except ValueError:
            raise PositionError(f"'{text}' is not a race position; expected 'TOTAL MOVER', e.g. '4 1'") from None
        if not (0 <= total <= TARGET and mover in (0, 1)):
            raise PositionError(f"'{text}': the total must be 0..{TARGET} and the mover 0 or 1")
        return (total, mover)
    # --8<-- [end:text]

    # --8<-- [start:capabilities]
    # Optional capabilities (framework/capabilities.py): used when present, done without otherwise.
    default_heuristic = "distance"                      # what an agent evaluates with when told nothing

    def end_reason(self, state):                        # why the game ended, for the match record
        return f"{self.player_names[1 - state[1]]} reached {TARGET}"

    def hash_key(self, state):                          # an exact int hash, for transposition tables
        return state[0] * 2 + state[1]
    # --8<-- [end:capabilities]


# --8<-- [start:heuristic]
class Distance(BaseHeuristic):
    """The theory of the game: the side to move loses exactly when the distance to TARGET is a multiple of 4."""

    name = "distance"

    def evaluate(self, state, player):
        mover_loses = (TARGET - state[0]) % 4 == 0
        mover_score = -100.0 if mover_loses else 100.0
        return mover_score if player == state[1] else -mover_score
# --8<-- [end:heuristic]


# --8<-- [start:hooks]
@hookimpl
def plyground_games():
    return [GameSpec("race", Race, "race to 10, adding 1 to 3 a turn")]


@hookimpl
def plyground_heuristics():
    return [HeuristicSpec("distance", "race", Distance, "exact: multiples of 4 from the target lose")]
# --8<-- [end:hooks]
