"""Lines of Action: bitboard rules (`rules`), the Game wrapper (`game`) and heuristics (`heuristics`)."""

from __future__ import annotations

from framework.hookspecs import hookimpl
from framework.specs import GameSpec, HeuristicSpec, first_line
from plugins.games.loa.game import PARAMS, LinesOfAction
from plugins.games.loa.heuristics import HEURISTICS


@hookimpl
def plyground_games() -> list[GameSpec]:
    return [GameSpec("loa", LinesOfAction, "Lines of Action (ICGA rules): connect all your pieces", PARAMS,
                     default_for=("make-endgames --game",))]


@hookimpl
def plyground_heuristics() -> list[HeuristicSpec]:
    return [HeuristicSpec(h.name, "loa", h, first_line(h)) for h in HEURISTICS]
