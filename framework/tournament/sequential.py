"""Stopping a match by SPRT: each pairing's test, fed its games as they finish, in a reproducible order.

The test of a pairing (a, b) is of a's Elo over b (in a gauntlet a is the champion). It takes the
pairing's game pairs (pentanomial: games 2k and 2k+1, the same start with colours swapped) or games
(trinomial) strictly in index order, as a prefix: a result arriving early waits for those before it,
and the test is decided at the first prefix whose LLR leaves the bounds. So the decision, and the
number of pairs it took, depend on the seed alone, not on the number of workers or which game ended
first; games that were already running when it was decided are stored but not counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from framework.sprt import Sprt, SprtState


@dataclass
class PairingTest:
    """The SPRT of one pairing: the scores seen so far by game index and the counts of the prefix."""

    test: Sprt
    scores: dict[int, float] = field(default_factory=dict)
    counts: list[int] = field(default_factory=list)
    used: int = 0  # games counted, a prefix of the indices
    state: SprtState | None = None

    def __post_init__(self) -> None:
        self.counts = [0] * (5 if self.test.model == "pentanomial" else 3)

    @property
    def decided(self) -> bool:
        return self.state is not None and self.state.decision is not None

    def add(self, index: int, score: float) -> None:
        """Record game `index` (score 0, 1/2 or 1 of the tested side) and extend the counted prefix."""
        self.scores[index] = score
        step = 2 if self.test.model == "pentanomial" else 1
        while not self.decided and all(self.used + i in self.scores for i in range(step)):
            points = sum(self.scores[self.used + i] for i in range(step))
            self.counts[round(points * 2)] += 1
            self.used += step
            self.state = self.test.state(self.counts)

    def line(self) -> str:
        unit = "pairs" if self.test.model == "pentanomial" else "games"
        n = self.used // 2 if self.test.model == "pentanomial" else self.used
        label = "Ptnml(0-2)" if self.test.model == "pentanomial" else "L-D-W"
        state = self.state or self.test.state(self.counts)
        return f"{state.describe(self.test)} after {n} {unit}, {label} {self.counts}"


class SprtWatch:
    """The SPRT of every pairing of a match."""

    def __init__(self, test: Sprt, pairings: Iterable[tuple[str, str]]) -> None:
        self.test = test
        self.tests = {pairing: PairingTest(test) for pairing in pairings}

    def add(self, pairing: tuple[str, str], index: int, winner: str | None) -> None:
        """Record game `index` of `pairing`, won by the participant id `winner` (None: a draw)."""
        self.tests[pairing].add(index, 0.5 if winner is None else float(winner == pairing[0]))

    def decided(self, pairing: tuple[str, str]) -> bool:
        return self.tests[pairing].decided

    def all_decided(self) -> bool:
        return all(t.decided for t in self.tests.values())

    def lines(self) -> list[str]:
        return [f"SPRT {a} vs {b}: {t.line()}" for (a, b), t in self.tests.items()]

    def short(self) -> str:
        """For the progress bar: each pairing's LLR against the upper bound, or its decision."""
        def one(t: PairingTest) -> str:
            if t.state is None:
                return "LLR -"
            return t.state.decision or f"LLR {t.state.llr:.2f}/{t.state.upper:.2f}"
        return " ".join(one(t) for t in self.tests.values())


class Undecided(Sequence):
    """The pending tasks, skipping (when the executor asks for the next one) those of decided pairings."""

    def __init__(self, tasks: list[Any], watch: SprtWatch) -> None:
        self.tasks, self.watch = tasks, watch

    def __len__(self) -> int:
        return len(self.tasks)

    def __getitem__(self, i: Any) -> Any:
        return self.tasks[i]

    def __iter__(self) -> Iterator[Any]:
        return (t for t in self.tasks if not self.watch.decided(t.pairing))
