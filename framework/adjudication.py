"""Adjudication: ending a game early when both engines' scores agree on its outcome, as testers do.

The rules of cutechess-cli (`-resign`, `-draw`) and fastchess (`-resign twosided=true`, `-draw`):

- resign: for `moves` consecutive moves of *each* side, the side behind scores itself at or below
  -`score` and its opponent scores itself at or above `score`: the game is a loss for the side behind.
- draw: from move `after` on (a move being a ply of each side), for `moves` consecutive moves of each
  side, both scores are within `score` of zero: the game is a draw.

Scores are each engine's own `SearchStats.score` (its point of view, in its heuristic's units; a forced
result is +-WIN_SCORE); a move without a score (a random agent, a human) breaks every streak.
"""

from __future__ import annotations

from dataclasses import dataclass

from framework.errors import ConfigError


@dataclass(frozen=True)
class ResignRule:
    score: float
    moves: int


@dataclass(frozen=True)
class DrawRule:
    score: float
    moves: int
    after: int = 0


@dataclass(frozen=True)
class Adjudication:
    """The optional resign and draw rules of a tournament."""

    resign: ResignRule | None = None
    draw: DrawRule | None = None

    def __post_init__(self) -> None:
        for name, rule in (("resign", self.resign), ("draw", self.draw)):
            if rule is not None and (rule.moves < 1 or rule.score < 0):
                raise ConfigError(f"adjudication {name}: expected moves >= 1 and score >= 0, got "
                                  f"moves={rule.moves}, score={rule.score:g}")


class Adjudicator:
    """Follows one game's scores and says when a rule ends it: (winner seat or None for a draw, reason)."""

    def __init__(self, rules: Adjudication) -> None:
        self.rules = rules
        self.scores: list[tuple[int, float | None]] = []  # (mover, score) per ply

    def add(self, mover: int, score: float | None) -> tuple[int | None, str] | None:
        """Record a ply; a verdict when a rule now applies, else None."""
        self.scores.append((mover, score))
        resign, draw = self.rules.resign, self.rules.draw
        if resign is not None:
            window = self._window(resign.moves)
            if window is not None:
                for loser in (0, 1):
                    if all((s <= -resign.score) if m == loser else (s >= resign.score) for m, s in window):
                        return 1 - loser, (f"both engines' scores were beyond {resign.score:g} for {resign.moves} "
                                           "moves each")
        if draw is not None and len(self.scores) >= 2 * (draw.after + draw.moves):
            window = self._window(draw.moves)
            if window is not None and all(abs(s) <= draw.score for _, s in window):
                return None, (f"both engines' scores were within {draw.score:g} of 0 for {draw.moves} moves each "
                              f"after move {draw.after}")
        return None

    def _window(self, moves: int) -> list[tuple[int, float]] | None:
        """The last `moves` plies of each side, when every one has a score."""
        window = self.scores[-2 * moves:]
        if len(window) < 2 * moves or any(s is None for _, s in window):
            return None
        return [(m, float(s)) for m, s in window if s is not None]
