"""A game's optional capabilities: declared once here, read through `capabilities(game)`, kept by rule in wrappers.

A capability is an optional attribute of a game (see the `Game` protocol) that the core or a
search uses when present and does without otherwise. Every capability is a field of
`Capabilities`, declared once with what it must agree with: the required Game methods its
answers derive from (`depends_on`). Code reads them only through `capabilities(game)`, so a
misspelt name is an AttributeError (and a mypy error), never a silent "absent".

A `GameWrapper` changes some rules of a game (say its move order) and forwards the rest. Which
capabilities survive follows from the declarations, not from a list in each wrapper: a capability
is hidden when the wrapper overrides a method it depends on (a game's `ordered_moves` would undo
a shuffled `legal_moves`; its compiled `kernel` would bypass it), and forwarded otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from framework.errors import PluginError
from framework.protocols import Game, Move, State

#: The methods that define a state and its successors: a capability over states depends on them.
STATES = frozenset({"initial_state", "apply", "to_move", "from_text"})
#: The rules a compiled kernel re-implements: a wrapper overriding any of them hides the kernel.
RULES = frozenset({"initial_state", "to_move", "legal_moves", "apply", "is_terminal", "returns"})


def _declare(depends_on: frozenset[str], help: str) -> Any:
    return field(default=None, metadata={"depends_on": depends_on, "help": help})


@dataclass(frozen=True)
class Capabilities:
    """The optional capabilities of one game; a field is None when the game does not offer it.

    `offered` names the capabilities the game has as attributes, even one set to None (a
    checkers game with `repetition_limit=None` still declares that positions can repeat).
    """

    hash_key: Callable[[State], int] | None = _declare(
        STATES, "hash_key(state) -> int: a fast exact hash for transposition tables and repetitions")
    repetition_limit: int | None = _declare(
        STATES, "occurrences of a state that draw the game (the match runner enforces it); declared at all "
                "(even None): positions can repeat, so solvers must treat cycles")
    repetition_key: Callable[[State], Hashable] | None = _declare(
        STATES, "repetition_key(state): what the repetition rule compares (default: the whole state, by "
                "hash_key); a rule that compares less says so (OpenSpiel's LOA: the board, whoever is to move)")
    is_noisy: Callable[[State, Move], bool] | None = _declare(
        STATES, "is_noisy(state, move) -> bool: moves a quiescence search extends (captures)")
    ordered_moves: Callable[[State], Sequence[Move]] | None = _declare(
        frozenset({"legal_moves"}), "ordered_moves(state): the legal moves, most promising first")
    perft: Callable[[State, int], int] | None = _declare(
        frozenset({"legal_moves", "apply", "is_terminal"}),
        "perft(state, depth) -> int: a fast count of the move paths of exactly depth plies, counting what "
        "framework.perft.generic_perft counts")
    # Typed Any: the kernel package sits above this module (it reads a game's capabilities), so naming its class
    # here would be an import that runs back up; `framework.kernel.binding` reads it as a GameKernel.
    kernel: Any = _declare(
        RULES, "the compiled rules (framework.kernel.api.GameKernel) compiled searches run on")
    warmup: Callable[[], None] | None = _declare(
        frozenset(), "warmup(): compile or load the game's kernels now, so no timed run pays for it")
    end_reason: Callable[[State], str] | None = _declare(
        frozenset({"is_terminal", "returns"}), "end_reason(state) -> str: why a terminal state ended the game")
    default_heuristic: str | None = _declare(
        frozenset(), "the name of the heuristic an agent uses when its parameters name none")
    render_svg: Callable[..., str] | None = _declare(
        STATES, "render_svg(state, flipped=False) -> str: the board as SVG (framework/boardsvg.py helps); each "
                "place a player clicks carries data-square=NAME. plyground serve draws it, else the text render; "
                "a game with dice may also take rolled=NOTATION, the roll that led to the state (which its state "
                "may not keep)")
    move_clicks: Callable[[State, Move], tuple[str, ...]] | None = _declare(
        STATES, "move_clicks(state, move) -> the data-square names a player clicks, in order, to make the move "
                "(a multi-jump names every landing square); () for a move made by typing or a button (a pass)")
    pdn_game_type: int | None = _declare(
        frozenset(), "the PDN GameType number of a draughts game whose to_text is PDN FEN and whose notation is "
                     "PDN's: plyground export --format pdn writes its games as PDN")
    num_players: int | None = _declare(
        frozenset(), "the number of seats, 2 when absent; player_names and returns have one entry per seat")
    chance_outcomes: Callable[[State], Sequence[tuple[Move, Any]]] | None = _declare(
        frozenset(), "chance_outcomes(state) -> [(outcome, exact probability)] at a state whose to_move is CHANCE; "
                "probabilities sum to 1, outcomes are the state's legal_moves with notation")
    pass_to: Callable[[State, int], State] | None = _declare(
        STATES, "pass_to(state, seat) -> the same position with seat to move (best-reply search lets the "
                "opponents it skips pass this way)")
    exact_values: Callable[[State], tuple[float, ...]] | None = _declare(
        RULES, "exact_values(state) -> each seat's game-theoretic value under optimal play, computed exactly "
               "(Pig: the optimal win probabilities); plyground solve prints it")
    offered: frozenset[str] = frozenset()

    def offers(self, name: str) -> bool:
        """Whether the game has capability `name` as an attribute (even set to None)."""
        declared(name)
        return name in self.offered


@dataclass(frozen=True)
class Capability:
    """One declared capability: its name, the Game methods its answers derive from, and what it is."""

    name: str
    depends_on: frozenset[str]
    help: str


#: Every capability, by name, in declaration order.
CAPABILITIES: dict[str, Capability] = {
    f.name: Capability(f.name, f.metadata["depends_on"], f.metadata["help"])
    for f in fields(Capabilities) if f.name != "offered"}

_ABSENT = object()


def declared(name: str) -> Capability:
    """The declaration of capability `name`; an unknown name is a PluginError listing the known ones."""
    try:
        return CAPABILITIES[name]
    except KeyError:
        raise PluginError(f"'{name}' is not a declared game capability; declared: {', '.join(CAPABILITIES)} "
                          f"(framework/capabilities.py)") from None


def capabilities(game: Game) -> Capabilities:
    """The capabilities `game` offers (None for each it does not).

    Searches ask at every decision, so the record is filled directly: a frozen dataclass's `__init__`
    sets each of its fields through `object.__setattr__`, three quarters of the cost."""
    values: dict[str, Any] = {name: getattr(game, name, _ABSENT) for name in CAPABILITIES}
    offered = frozenset(name for name, value in values.items() if value is not _ABSENT)
    record = object.__new__(Capabilities)
    record.__dict__.update({name: None if value is _ABSENT else value for name, value in values.items()},
                           offered=offered)
    return record


def capability(game: Game, name: str) -> Any:
    """One declared capability of `game` (None when it does not offer it): what a search's per-decision set-up
    asks for when it needs no other (the whole record, `capabilities`, costs a getattr per capability)."""
    return getattr(game, declared(name).name, None)


def repetition_key(game: Game) -> Callable[[State], Hashable]:
    """What the game's repetition rule compares of a state: its `repetition_key`, else its `hash_key`, else the
    state itself."""
    offered = capabilities(game)
    return offered.repetition_key or offered.hash_key or (lambda state: state)


def player_count(game: Game) -> int:
    """The number of seats of `game`: its `num_players`, 2 when it declares none."""
    n = capabilities(game).num_players
    return 2 if n is None else n


def has_chance(game: Game) -> bool:
    """Whether `game` has chance nodes (declares `chance_outcomes`)."""
    return capabilities(game).chance_outcomes is not None


class GameWrapper:
    """A game that overrides some Game methods of `game` and forwards everything else.

    A subclass defines the methods it changes. Capabilities depending on one of them are hidden
    (AttributeError), the others forwarded: the rule is each capability's `depends_on`, so a
    capability declared later is kept or hidden correctly without touching the wrapper.
    """

    def __init__(self, game: Game) -> None:
        self._game = game

    def _overridden(self) -> frozenset[str]:
        own: set[str] = set()
        for cls in type(self).__mro__:
            if cls in (GameWrapper, object):
                break
            own.update(vars(cls))
        return frozenset(own)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_game":
            raise AttributeError(name)
        capability = CAPABILITIES.get(name)
        if capability is not None and capability.depends_on & self._overridden():
            raise AttributeError(f"{type(self).__name__} hides the capability '{name}': it overrides "
                                 f"{', '.join(sorted(capability.depends_on & self._overridden()))}")
        return getattr(self._game, name)
