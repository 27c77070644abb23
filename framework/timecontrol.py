"""Time controls and clocks, as fastchess and cutechess-cli write them: `BASE+INC` or `MOVES/BASE+INC`.

BASE is seconds (`10`, `0.5`) or minutes and seconds (`1:30`), INC seconds (optional), MOVES the moves of each
period: after every MOVES moves of its own a side's clock gets BASE again. The referee keeps one `Clock` per seat
(framework/engine/referee.py): it gives the engine what is left with every `go`, charges each move the engine's
CPU time as the referee measured it, adds the increment, and records what is left after the move. A side whose
clock falls below minus `MARGIN` has lost on time; an engine is stopped once its clock plus the margin is spent.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from framework.errors import ConfigError

#: Seconds a clock may run below zero before its side has lost on time (fastchess's `timemargin`).
MARGIN = 0.05

_PATTERN = re.compile(r"^(?:(?P<moves>\d+)/)?(?P<base>\d+(?:\.\d*)?|\d+:\d{1,2}(?:\.\d*)?)"
                      r"(?:\+(?P<inc>\d+(?:\.\d*)?))?$")


@dataclass(frozen=True)
class TimeControl:
    """A side's time for a game: `base` seconds, `increment` seconds after each of its moves, and, when `moves`
    is set, `base` again after every `moves` moves."""

    base: float
    increment: float = 0.0
    moves: int | None = None

    @classmethod
    def parse(cls, text: Any, where: str = "time_control") -> TimeControl:
        """The time control `text` writes (fastchess's syntax); ConfigError naming `where` otherwise."""
        match = _PATTERN.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise ConfigError(f"{where}: expected a time control as fastchess writes it (BASE+INC or MOVES/BASE+INC, "
                              f"e.g. '10+0.1', '40/60+0.6', '1:30+1'), got {text!r}")
        minutes, _, seconds = match["base"].rpartition(":")
        base = float(seconds) + 60 * int(minutes or 0)
        moves = None if match["moves"] is None else int(match["moves"])
        if base <= 0 or moves == 0:
            raise ConfigError(f"{where}: {text!r} gives no time; BASE must be above 0 and MOVES at least 1")
        return cls(base, float(match["inc"] or 0.0), moves)

    def __str__(self) -> str:
        text = f"{self.base:g}" + (f"+{self.increment:g}" if self.increment else "")
        return text if self.moves is None else f"{self.moves}/{text}"


class Clock:
    """One side's clock in one game (see the module's docstring)."""

    def __init__(self, control: TimeControl, margin: float = MARGIN) -> None:
        self.control = control
        self.margin = margin
        self.left = control.base
        self.made = 0

    @property
    def moves_to_go(self) -> int | None:
        """Moves until the clock gets its base again (None: the game is one period)."""
        return None if self.control.moves is None else self.control.moves - self.made % self.control.moves

    def message(self) -> dict[str, Any]:
        """What the engine is told with `go`: seconds left, the increment, and moves to go when a period ends."""
        told: dict[str, Any] = {"time": round(self.left, 6), "inc": self.control.increment}
        if self.moves_to_go is not None:
            told["movestogo"] = self.moves_to_go
        return told

    def limit(self) -> float:
        """The CPU seconds the engine may use on this move before it is stopped: what is left plus the margin."""
        return max(self.left + self.margin, 0.0)

    def spend(self, used: float) -> bool:
        """Charge a move of `used` seconds; False when that lost the game on time (below minus the margin)."""
        self.left -= used
        if self.left < -self.margin:
            return False
        self.left += self.control.increment
        self.made += 1
        if self.control.moves is not None and self.made % self.control.moves == 0:
            self.left += self.control.base
        return True


def clock_text(seconds: float) -> str:
    """A clock as PGN's `[%clk]` writes it: h:mm:ss.s (tenths)."""
    seconds = max(seconds, 0.0)
    tenths = math.floor(seconds * 10 + 1e-9)
    hours, rest = divmod(tenths, 36000)
    minutes, rest = divmod(rest, 600)
    return f"{hours}:{minutes:02d}:{rest // 10:02d}.{rest % 10}"
