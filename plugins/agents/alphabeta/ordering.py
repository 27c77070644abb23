"""Move ordering for alpha-beta: TT move, then killer moves, then the rest by history score.

Good ordering is what makes alpha-beta approach its best case of about b^(d/2) leaves
(Knuth & Moore 1975). The killer heuristic is Akl & Newborn (1977): the last two quiet
moves that caused a cut-off at the same ply are tried early in sibling positions. The
history heuristic is Schaeffer (1989, "The history heuristic and alpha-beta search
enhancements in practice"): every quiet cut-off move gains depth^2, and quiet moves are
tried in decreasing order of that score. Python's sort is stable, so moves with equal
scores keep the game's order (its `ordered_moves` hints, e.g. captures first).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Hashable, Sequence


class MoveOrderer:
    """Killer and history tables of one decision, and the ordering they imply."""

    __slots__ = ("use_killers", "use_history", "killers", "history")

    def __init__(self, use_killers: bool, use_history: bool) -> None:
        self.use_killers = use_killers
        self.use_history = use_history
        self.killers: list[list] = []
        self.history: tuple[defaultdict, defaultdict] = (defaultdict(int), defaultdict(int))

    def reset(self) -> None:
        """Forget killers and history, so every decision is independent of the previous ones."""
        self.killers = []
        self.history = (defaultdict(int), defaultdict(int))

    def grow(self, plies: int) -> None:
        """Make room for killers up to ply `plies - 1`."""
        while len(self.killers) < plies:
            self.killers.append([None, None])

    def order(self, moves: Sequence[Hashable], first: Hashable | None, ply: int, mover: int) -> Sequence[Hashable]:
        """`moves` with `first` (the TT move, if legal), then killers, then the rest by history score.

        Returns `moves` itself when nothing reorders it, so a node with no hints allocates nothing.
        """
        if self.use_history:
            scores = self.history[mover]
            if scores:
                moves = sorted(moves, key=scores.__getitem__, reverse=True)   # C-level key, no lambda
        front = None
        if first is not None and first in moves:
            front = [first]
        if self.use_killers:
            for killer in self.killers[ply]:
                if killer is not None and killer != first and killer in moves:
                    if front is None:
                        front = [killer]
                    else:
                        front.append(killer)
        if front is None:
            return moves
        return front + [m for m in moves if m not in front]

    def cutoff(self, move: Hashable, ply: int, mover: int, depth: int) -> None:
        """Record that the quiet `move` caused a cut-off `depth` plies above the horizon."""
        if self.use_killers:
            slots = self.killers[ply]
            if slots[0] != move:
                slots[1] = slots[0]
                slots[0] = move
        if self.use_history:
            scores = self.history[mover]
            scores[move] += depth * depth
