"""Pig, the dice game (2 to 6 players), as a Plyground game plugin with chance nodes.

Rules (Neller & Presser 2004; OpenSpiel's `pig`, which the tests cross-check move by move): on a turn
the player rolls a die as often as they like. A 1 loses the turn total and ends the turn; any other face
adds to the turn total. Holding banks the turn total and ends the turn. The first to bank `goal` points
(option, default 100) wins. Holding with a turn total of 0 passes.

State: `(scores, turn_total, player, rolling)`; `rolling` marks the chance node after "roll", where
`to_move` is CHANCE and the outcomes are the faces 1-6, each with probability 1/6. Moves: "roll" and
"hold"; outcomes: the face rolled, 1 to 6. Notation: `roll`, `hold` and the face's digit. Text: the
scores separated by commas, `t=` the turn total, `p` and the seat to move from 1, `rolling` at a chance
node, and `goal=`, e.g. `31,12 t=8 p2 goal=100` or `31,12 t=8 p2 rolling goal=100`. The goal is a rule of
the game: a text with another goal is refused, naming the option that would accept it. A turn total that
reaches the goal can only be held (as OpenSpiel's rules have it; optimal play holds there anyway).

Returns: +1 to the winner, -1/(n-1) to each other player (zero-sum, as OpenSpiel's). The optimal win
probability of two players is `exact_values` (plugins/games/pig/solver.py, Neller & Presser's value
iteration); `plyground solve pig` prints it.
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction

from framework.boardsvg import die, document
from framework.errors import ConfigError, MoveParseError, PositionError, quoted
from framework.hookspecs import hookimpl
from framework.kernel import api, numba_backend
from framework.params import Param
from framework.protocols import CHANCE
from framework.specs import AgentSpec, GameSpec, HeuristicSpec, doc_help
from plugins.games.pig import heuristics, solver
from plugins.games.pig import kernel as pig_kernel

State = tuple[tuple[int, ...], int, int, bool]

FACES = 6
ROLL, HOLD = "roll", "hold"
MAX_PLAYERS = 6
MAX_GOAL = 1000
#: The exact chance of each face.
FACE_PROBABILITY = Fraction(1, FACES)
_OUTCOMES = tuple((face, FACE_PROBABILITY) for face in range(1, FACES + 1))
#: The rules and the race heuristic as a kernel (kernel.py), for compiled searches.
KERNEL = numba_backend.Kernel(pig_kernel)
_TEXT = re.compile(r"([0-9]{1,7}(?:,[0-9]{1,7})*) t=([0-9]{1,7}) p([0-9]) (rolling )?goal=([0-9]{1,7})")


class Pig:
    """Roll to add to the turn total (a 1 loses it) or hold to bank it; the first to `goal` wins."""

    name = "pig"
    default_heuristic = "race"

    def __init__(self, players: int = 2, goal: int = 100) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
            raise ConfigError(f"game 'pig': 'players' must be an integer from 2 to {MAX_PLAYERS}, "
                              f"got {quoted(players)}")
        if isinstance(goal, bool) or not isinstance(goal, int) or not 1 <= goal <= MAX_GOAL:
            raise ConfigError(f"game 'pig': 'goal' must be an integer from 1 to {MAX_GOAL}, got {quoted(goal)}")
        self.num_players = players
        self.goal = goal
        self.player_names = tuple(f"P{seat + 1}" for seat in range(players))
        #: The compiled rules, for compiled searches (see framework.kernel.api.GameKernel).
        self.kernel = api.GameKernel("pig", KERNEL, functools.partial(pig_kernel.kernel_state, goal=goal),
                                     heuristics=KERNEL, seat_scores={heuristics.RaceHeuristic: "race"},
                                     move_id=pig_kernel.move_id, move=pig_kernel.move_of)

    def initial_state(self) -> State:
        return ((0,) * self.num_players, 0, 0, False)

    def to_move(self, state: State) -> int:
        return CHANCE if state[3] else state[2]

    def is_terminal(self, state: State) -> bool:
        return max(state[0]) >= self.goal

    def legal_moves(self, state: State) -> list:
        if state[3]:
            return list(range(1, FACES + 1))
        scores, total, player, _ = state
        if max(scores) >= self.goal:
            return []
        return [HOLD] if scores[player] + total >= self.goal else [ROLL, HOLD]

    def chance_outcomes(self, state: State) -> tuple[tuple[int, Fraction], ...]:
        return _OUTCOMES

    def apply(self, state: State, move) -> State:
        scores, total, player, rolling = state
        if rolling:
            if move == 1:
                return (scores, 0, (player + 1) % self.num_players, False)
            return (scores, total + move, player, False)
        if move == ROLL:
            return (scores, total, player, True)
        banked = scores[:player] + (scores[player] + total,) + scores[player + 1:]
        if banked[player] >= self.goal:
            return (banked, 0, player, False)
        return (banked, 0, (player + 1) % self.num_players, False)

    def returns(self, state: State) -> tuple[float, ...]:
        scores, n = state[0], self.num_players
        if max(scores) < self.goal:
            return (0.0,) * n
        winner = state[2]
        return tuple(1.0 if seat == winner else -1.0 / (n - 1) for seat in range(n))

    def format_move(self, state: State, move) -> str:
        return str(move)

    def parse_move(self, state: State, text: str):
        word = text.strip().lower()
        if state[3]:
            if word.isascii() and word.isdigit() and 1 <= int(word) <= FACES:
                return int(word)
            raise MoveParseError(f"'{text}' is not a face of the die; the die is rolling: give 1 to {FACES}")
        if word in self.legal_moves(state):
            return word
        raise MoveParseError(f"'{text}' is not a Pig move here; legal moves: "
                             f"{' '.join(self.legal_moves(state)) or 'none (the game is over)'}")

    def render(self, state: State) -> str:
        scores, total, player, rolling = state
        rows = [f"{self.player_names[seat]}: {score}" + (f"  (+{total} this turn)" if seat == player else "")
                for seat, score in enumerate(scores)]
        if self.is_terminal(state):
            rows.append(f"{self.player_names[player]} wins (goal {self.goal})")
        else:
            rows.append(f"{self.player_names[player]} {'rolls the die' if rolling else 'to roll or hold'}"
                        f" (goal {self.goal})")
        return "\n".join(rows)

    def to_text(self, state: State) -> str:
        scores, total, player, rolling = state
        return f"{','.join(map(str, scores))} t={total} p{player + 1} {'rolling ' if rolling else ''}goal={self.goal}"

    def from_text(self, text: str) -> State:
        found = _TEXT.fullmatch(text.strip())
        if found is None:
            raise PositionError(f"'{text}' is not a Pig position; expected the scores separated by commas, t= the "
                                "turn total, p and the seat to move from 1, 'rolling' while the die is in the "
                                "air, and goal=, e.g. '31,12 t=8 p2 goal=100'")
        scores = tuple(int(n) for n in found[1].split(","))
        total, player, rolling, goal = int(found[2]), int(found[3]) - 1, bool(found[4]), int(found[5])
        if goal != self.goal:
            raise PositionError(f"'{text}' is a position with goal={goal}, but this game has goal={self.goal}; "
                                f"start the game with the option goal={goal}")
        if len(scores) != self.num_players or not 0 <= player < self.num_players:
            raise PositionError(f"'{text}' has {len(scores)} scores and seat p{player + 1}; this game has "
                                f"{self.num_players} players (option players)")
        if max(scores) >= goal and (sorted(scores)[-2] >= goal or scores[player] < goal or total or rolling):
            raise PositionError(f"'{text}' is not a reachable end: the one player at the goal ({goal}) wins, "
                                "is the seat written, with t=0 and no die rolling")
        if total > FACES * goal:
            raise PositionError(f"'{text}' has a turn total over {FACES * goal}, more than any turn can gather")
        return (scores, total, player, rolling)

    def exact_values(self, state: State) -> tuple[float, ...]:
        """Each seat's optimal win probability (two players: Neller & Presser's solution, solver.py)."""
        if self.num_players != 2:
            raise ConfigError(f"Pig is solved exactly for two players; this game has {self.num_players} "
                              "(option players=2)")
        scores, total, player, rolling = state
        if self.is_terminal(state):
            return tuple(1.0 if seat == player else 0.0 for seat in range(2))
        solution = solver.solve(self.goal)
        i, j = scores[player], scores[1 - player]
        p = solution.roll_probability(i, j, total) if rolling else solution.win_probability(i, j, total)
        return (p, 1.0 - p) if player == 0 else (1.0 - p, p)

    def render_svg(self, state: State, flipped: bool = False, rolled: str | None = None) -> str:
        """Each seat's banked score as a bar towards the goal (the mover's turn total after it), the die (clicked
        to roll; "?" while it is in the air; the face that led here when `rolled` says it) and the hold button;
        `flipped` changes nothing."""
        scores, total, player, rolling = state
        over = self.is_terminal(state)
        width, row, bar = 420, 44, 250
        out = [f'<text class="label" x="{width - 8}" y="18" text-anchor="end">goal {self.goal}</text>']
        for seat, score in enumerate(scores):
            y = 28 + seat * row
            mover = seat == player
            banked = bar * min(score, self.goal) / self.goal
            turn = bar * min(total, self.goal - min(score, self.goal)) / self.goal if mover else 0
            out.append(f'<g class="seat{" mover" if mover else ""}">'
                       f'<text class="name" x="8" y="{y + 17}">{"▶ " if mover else ""}'
                       f'{self.player_names[seat]}</text>'
                       f'<rect class="track" x="64" y="{y}" width="{bar}" height="24" rx="4"/>'
                       f'<rect class="bar piece-{seat}" x="64" y="{y}" width="{banked:.1f}" height="24" rx="4"/>'
                       + (f'<rect class="turn" x="{64 + banked:.1f}" y="{y}" width="{turn:.1f}" height="24"/>'
                          if turn else "")
                       + f'<text class="score" x="{72 + bar}" y="{y + 17}">{score}'
                       f'{f" +{total}" if mover and total else ""}</text></g>')
        y = 40 + len(scores) * row
        if over:
            out.append(f'<text class="name" x="64" y="{y + 30}">{self.player_names[player]} reached the goal</text>')
        else:
            moves = self.legal_moves(state)
            face = int(rolled) if rolled is not None and rolled.isdigit() and 1 <= int(rolled) <= FACES else None
            caption = ("rolling…" if rolling else f"rolled {face}: turn over" if face == 1
                       else f"rolled {face}, turn total {total}" if face else f"turn total {total}")
            out.append(die(64, y, None if rolling else face, name=None if rolling or ROLL not in moves else ROLL,
                           text="?" if rolling else "roll", caption=caption))
            if HOLD in moves:
                out.append(f'<g class="button" data-square="{HOLD}"><rect x="160" y="{y + 10}" width="120" height="40" '
                           f'rx="6"/><text x="220" y="{y + 36}" text-anchor="middle">hold (+{total})</text></g>')
        return document(width, y + 84, "".join(out), "pig", "pig")

    def move_clicks(self, state: State, move) -> tuple[str, ...]:
        """Roll by clicking the die, hold by its button; a face of the die is never clicked (chance rolls it)."""
        return () if state[3] else (str(move),)


@hookimpl
def plyground_games() -> list[GameSpec]:
    return [GameSpec("pig", Pig, "Dice: roll to add to your turn total (a 1 loses it) or hold; first to the goal "
                                 "wins", (
        Param("players", int, 2, "the number of players", minimum=2, maximum=MAX_PLAYERS),
        Param("goal", int, 100, "the score that wins", minimum=1, maximum=MAX_GOAL),
    ))]


@hookimpl
def plyground_heuristics() -> list[HeuristicSpec]:
    return [HeuristicSpec(h.name, "pig", h, doc_help(h))
            for h in (heuristics.RaceHeuristic, heuristics.OptimalHeuristic)]


@hookimpl
def plyground_agents() -> list[AgentSpec]:
    from plugins.games.pig.policies import SPEC
    return [SPEC]
