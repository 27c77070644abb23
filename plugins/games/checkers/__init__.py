"""English checkers (8x8 draughts, American/English rules) as a Plyground game plugin.

The rules live in `rules` (bitboard functions), the PDN text in `notation` and the
evaluations in `heuristics`; this module is the thin Game wrapper and its registration.

Draw rules are game options: `repetition_limit` (default 3: the third occurrence of a
position with the same side to move draws; the match runner enforces it) and
`quiet_moves` (default 40: after 40 moves by each side, i.e. 80 plies, without a capture
or a man move the game is drawn — the 40-move rule of the ACF and EDA laws, applied
automatically). Either may be null to switch it off. A side with no legal move loses, even
if the move that blocked it also completed the quiet-move count.
"""

from __future__ import annotations

from functools import partial

from framework.boardsvg import Cell, grid
from framework.errors import PositionError
from framework.hookspecs import hookimpl
from framework.kernel import api, numba_backend
from framework.params import Param
from framework.specs import GameSpec, HeuristicSpec, first_line
from plugins.games.checkers import heuristics, kernel, notation, rules
from plugins.games.checkers.rules import BLACK, INITIAL, SQUARE_BIT, Move, State


class Checkers:
    """English checkers: Black (squares 1-12) moves first; no legal move loses."""

    name = "checkers"
    player_names = ("Black", "White")
    default_heuristic = "positional"
    #: English checkers in PDN 3.0 (its FEN is `to_text`, its notation `format_move`).
    pdn_game_type = 21

    def __init__(self, repetition_limit: int | None = 3, quiet_moves: int | None = 40) -> None:
        self.repetition_limit = repetition_limit
        self.quiet_moves = quiet_moves
        self.quiet_limit = rules.NO_LIMIT if quiet_moves is None else 2 * quiet_moves
        self._last_moves: tuple[State | None, tuple[Move, ...]] = (None, ())   # the last position's moves
        # --8<-- [start:game-kernel]
        #: The compiled rules, for compiled searches (see framework.kernel.api.GameKernel).
        self.kernel = api.GameKernel("checkers", kernel.KERNEL, kernel.kernel_state, self.quiet_limit,
                                     kernel.HEURISTICS_KERNEL, kernel.SCORES, key_shifts=kernel.KEY_SHIFTS,
                                     move_space=kernel.MOVE_SPACE)
        # --8<-- [end:game-kernel]

    # -- rules -----------------------------------------------------------------

    def initial_state(self) -> State:
        return INITIAL

    def to_move(self, state: State) -> int:
        return state[3]

    def legal_moves(self, state: State) -> list[Move]:
        if state[4] >= self.quiet_limit:
            return []
        last = self._last_moves
        if last[0] is not state:   # a referee or an engine asks several times about the state object it holds
            last = self._last_moves = (state, tuple(rules.generate_moves(state[0], state[1], state[2], state[3])))
        return list(last[1])

    apply = staticmethod(rules.apply_move)

    def _blocked(self, state: State) -> bool:
        return not rules.has_moves(state[0], state[1], state[2], state[3])

    def is_terminal(self, state: State) -> bool:
        return state[4] >= self.quiet_limit or self._blocked(state)

    def returns(self, state: State) -> tuple[float, float]:
        if self._blocked(state):
            return (-1.0, 1.0) if state[3] == BLACK else (1.0, -1.0)
        return (0.0, 0.0)

    def end_reason(self, state: State) -> str:
        """Why a terminal state ended the game, for the match record."""
        if self._blocked(state):
            loser = self.player_names[state[3]]
            own = state[0] if state[3] == BLACK else state[1]
            return f"{loser} has no pieces left" if not own else f"{loser} has no legal move"
        return f"{self.quiet_moves} moves each without a capture or a man move"

    # -- capabilities used by search -------------------------------------------

    def hash_key(self, state: State) -> int:
        """The position and side to move packed into one exact int (the draw counter left out,
        so repeated positions share a key)."""
        return state[0] | state[1] << 35 | state[2] << 70 | state[3] << 105

    def is_noisy(self, state: State, move: Move) -> bool:
        """Captures: a quiescence search extends them."""
        return rules.is_capture(state, move)

    def ordered_moves(self, state: State) -> list[Move]:
        """Longest captures first, then steps that crown, then king steps, then man steps (`rules.move_rank`)."""
        return sorted(self.legal_moves(state), key=partial(rules.move_rank, state))

    def perft(self, state: State, depth: int) -> int:
        """Perft with the last ply counted by population counts (see `rules.perft`), compiled
        (`framework.kernel`) unless `PLYGROUND_JIT=0`."""
        if numba_backend.enabled():
            return kernel.perft(state, depth, self.quiet_limit)
        return rules.perft(state, depth, self.quiet_limit)

    def warmup(self) -> None:
        """Compile or load the kernels now, so that no timed perft or search pays for it."""
        if numba_backend.enabled():
            kernel.warmup()

    # -- text ------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def parse_move(self, state: State, text: str) -> Move:
        return notation.parse_move_text(text, self.legal_moves(state))

    def to_text(self, state: State) -> str:
        return notation.format_fen(state)

    def from_text(self, text: str) -> State:
        """`notation.parse_fen`, and a draw counter this game's `quiet_moves` rule could not have reached."""
        state = notation.parse_fen(text)
        if state[4] > self.quiet_limit:
            raise PositionError(f"'{text}': the draw counter H{state[4]} is past this game's limit of "
                                f"{self.quiet_limit} plies (quiet_moves={self.quiet_moves}), where the game "
                                "is drawn; give a smaller count")
        return state

    def render_svg(self, state: State, flipped: bool = False) -> str:
        """The board as `render` draws it (square 1 top left); dark squares show their number and are clicked by it."""
        black, white, kings, _, _ = state
        rows = []
        for row in range(8):
            cells = []
            for col in range(8):
                if (row + col) % 2 == 0:
                    cells.append(Cell(None))
                    continue
                square = 4 * row + col // 2 + 1
                bit = SQUARE_BIT[square]
                piece = 0 if black & bit else 1 if white & bit else None
                cells.append(Cell(str(square), dark=True, piece=piece, crown="K" if kings & bit else "",
                                  note=str(square)))
            rows.append(cells)
        return grid(rows, flipped=flipped, title="checkers")

    def move_clicks(self, state: State, move: Move) -> tuple[str, ...]:
        """The start square, then every landing square of a capture path."""
        return tuple(map(str, notation.move_squares(move)))

    def render(self, state: State) -> str:
        """The board from White's side (square 1 top left), `b`/`w` men, `B`/`W` kings."""
        black, white, kings, mover, quiet = state
        lines = []
        for row in range(8):
            cells = []
            for col in range(8):
                if (row + col) % 2 == 0:
                    cells.append(" ")
                    continue
                bit = SQUARE_BIT[4 * row + col // 2 + 1]
                piece = "b" if black & bit else "w" if white & bit else "."
                cells.append(piece.upper() if kings & bit else piece)
            lines.append(f"{4 * row + 1:>2} " + " ".join(cells))
        if not self.is_terminal(state):
            lines.append(f"{self.player_names[mover]} to move" + (f" ({quiet} quiet plies)" if quiet else ""))
        return "\n".join(lines)


GAME_PARAMS = (
    Param("repetition_limit", int, 3, "draw when a position occurs this often with the same side to move",
          minimum=2, maximum=100, nullable=True),
    Param("quiet_moves", int, 40, "draw after this many moves by each side without a capture or a man move",
          minimum=1, maximum=rules.MAX_QUIET_MOVES, nullable=True),
)


@hookimpl
def plyground_games() -> list[GameSpec]:
    return [GameSpec("checkers", Checkers, "English checkers (8x8 draughts); Black moves first", GAME_PARAMS)]


@hookimpl
def plyground_heuristics() -> list[HeuristicSpec]:
    return [HeuristicSpec(cls.name, "checkers", cls, first_line(cls), heuristics.HEURISTIC_PARAMS[cls.name])
            for cls in heuristics.HEURISTICS]
