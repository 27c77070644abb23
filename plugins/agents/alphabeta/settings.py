"""Alpha-beta's declared parameters: the depth, the heuristic and one switch per enhancement.

Every enhancement can be switched off from configuration so experiments can measure what
each one buys (`benchmarks/alphabeta_enhancements.py`). Two groups:

- *exact* enhancements change only the order and amount of work, never the value: iterative
  deepening, the transposition table, move ordering (TT move, the game's hints, killers,
  history), principal-variation search and aspiration windows. With any of them on, a
  fixed-depth search returns exactly minimax's value at that depth (tested).
- *selective* enhancements change which tree is searched, and so the value: quiescence
  search (only for games with `is_noisy`), late-move reductions and singular extensions.
  Late-move reductions and singular extensions are off by default.

PVS and aspiration windows are off by default too: both re-search on a failed probe, so
unlike plain alpha-beta they can visit more nodes than minimax on small trees (a default
fixed-depth alpha-beta never visits more nodes than minimax — a core test).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from framework.kernel.binding import KERNEL_PARAM
from framework.params import HeuristicRef, Param, resolve_params
from framework.protocols import WIN_SCORE

#: Deepest fixed-depth search (and deepest root search run compiled: its per-ply arrays are allocated per
#: root search); deeper than any game here is searched in a budget, and null searches to the end.
MAX_DEPTH = 256
#: Most transposition-table entries: the table is allocated up front, 88 bytes an entry compiled (1.5 GB here).
MAX_TABLE_ENTRIES = 1 << 24
#: Most plies of the other ply-count options.
MAX_PLIES_OPTION = 256

DEPTH = Param("depth", int, None, "plies to search; null searches to the end of the game", minimum=1,
              maximum=MAX_DEPTH, nullable=True)
HEURISTIC = Param("heuristic", HeuristicRef, None, "evaluation at the depth limit (default: the game's default)")

ENHANCEMENTS = (
    Param("iterative_deepening", bool, True, "under a budget, search depth 1, 2, ... and keep the deepest completed"),
    Param("transposition_table", bool, True, "store bounds of searched states and cut off on a stored exact match"),
    Param("tt_size", int, 1 << 16, "transposition-table entries at most: the table has the largest prime <= tt_size "
          "slots (65,521 by default), 88 bytes each compiled, 48 plus the state an entry keeps interpreted (made only "
          "when a search runs interpreted)",
          minimum=1, maximum=MAX_TABLE_ENTRIES),
    Param("tt_move", bool, True, "search the transposition table's best move first"),
    Param("move_hints", bool, True, "use the game's `ordered_moves` (e.g. captures first) when it has one"),
    Param("killers", bool, True, "try the two latest quiet cut-off moves of the same ply early (killer heuristic)"),
    Param("history", bool, True, "order quiet moves by how often they caused cut-offs (history heuristic)"),
    Param("pvs", bool, False, "principal-variation search: null-window probes after the first move"),
    Param("aspiration", bool, False, "search each iteration in a window around the previous score"),
    Param("aspiration_width", float, 1.0, "half-width of the aspiration window, in heuristic units", minimum=0.0,
          maximum=WIN_SCORE),
    Param("quiescence", bool, True, "at the depth limit, keep searching noisy moves (games with `is_noisy` only)"),
    Param("quiescence_depth", int, 16, "most plies of quiescence search below the depth limit", minimum=0,
          maximum=64),
    Param("lmr", bool, False, "late-move reductions: search late quiet moves one ply shallower first"),
    Param("lmr_min_depth", int, 3, "smallest remaining depth at which moves are reduced", minimum=2,
          maximum=MAX_PLIES_OPTION),
    Param("lmr_moves", int, 3, "moves searched at full depth before reductions start", minimum=1,
          maximum=MAX_PLIES_OPTION),
    Param("singular", bool, False, "singular extensions: extend a TT move much better than every alternative"),
    Param("singular_min_depth", int, 4, "smallest remaining depth for the singularity test", minimum=2,
          maximum=MAX_PLIES_OPTION),
    Param("singular_margin", float, 1.0, "how much better than every alternative a singular move must be",
          minimum=0.0, maximum=WIN_SCORE),
)

PARAMS = (DEPTH, HEURISTIC, *ENHANCEMENTS, KERNEL_PARAM)

#: Every enhancement switched off: plain fail-soft alpha-beta at a fixed depth, in the game's move order.
ALL_OFF: Mapping[str, bool] = {p.name: False for p in ENHANCEMENTS if p.type is bool}

#: The selective enhancements switched off and every exact one on: the value is minimax's.
EXACT_ONLY: Mapping[str, bool] = {"quiescence": False, "lmr": False, "singular": False}


@dataclass(frozen=True)
class Settings:
    """The resolved enhancement switches of one alpha-beta agent (defaults live in ENHANCEMENTS only)."""

    iterative_deepening: bool
    transposition_table: bool
    tt_size: int
    tt_move: bool
    move_hints: bool
    killers: bool
    history: bool
    pvs: bool
    aspiration: bool
    aspiration_width: float
    quiescence: bool
    quiescence_depth: int
    lmr: bool
    lmr_min_depth: int
    lmr_moves: int
    singular: bool
    singular_min_depth: int
    singular_margin: float

    @classmethod
    def resolve(cls, options: Mapping[str, Any], where: str = "agent 'alphabeta'") -> Settings:
        """Check `options` against the declared parameters (ConfigError names a bad key) and fill defaults."""
        return cls(**resolve_params(ENHANCEMENTS, options, where))

