"""Optimal two-player Pig, solved exactly: Neller & Presser's value iteration, made fast by Newton steps.

T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1), 2004.
P(i, j, k) is the probability that the player to move wins, with score i, the opponent's score j and
turn total k, both playing optimally (i + k >= goal: 1, the player holds and wins). The player rolls or
holds, whichever is larger:

    P_roll = ((1 - P(j, i, 0)) + P(i, j, k+2) + ... + P(i, j, k+6)) / 6
    P_hold = 1 - P(j, i + k, 0)

The equations of the score sum s = i + j depend only on themselves and on higher sums (a hold with
k > 0 raises the sum), so the sums are solved from the highest down, as the paper does. Within one sum
the only unknowns coupling a chain of turn totals are the opponent's P(j, i, 0): given them, every
P(i, j, k) follows from k = goal - i - 1 down to 0. That map is piecewise linear, so instead of the
paper's plain iteration each sum takes Newton steps on the pairs (x = P(i,j,0), y = P(j,i,0)) with the
slopes carried down the chain (a policy-iteration step); it stops when a step changes no value by more
than TOLERANCE (a handful of steps per sum). Goal 100: P(0, 0, 0) = 0.5306 (the paper's figure).
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from framework.errors import ConfigError

#: A sum's Newton steps stop when no value moves more than this.
TOLERANCE = 1e-14
#: Steps per score sum before giving up (never reached: piecewise-linear maps settle in a few).
MAX_STEPS = 200
FACES = 6


@dataclass(frozen=True)
class PigSolution:
    """P(i, j, k) for every score i, j < goal and turn total k, and whether rolling is optimal there."""

    goal: int
    win: np.ndarray     # float64 [goal, goal, goal + FACES]: P(i, j, k); 1 where i + k >= goal
    rolls: np.ndarray   # bool [goal, goal, goal]: the optimal player rolls (ties roll)

    def win_probability(self, i: int, j: int, k: int) -> float:
        """P(i, j, k): the optimal mover's chance to win with score i, the opponent's j, turn total k (0 once the
        opponent has reached the goal, 1 once the mover can hold at it)."""
        if j >= self.goal:
            return 0.0
        return 1.0 if i + k >= self.goal else float(self.win[i, j, k])

    def roll_probability(self, i: int, j: int, k: int) -> float:
        """The mover's chance to win when the die is in the air (a chance node): P_roll."""
        rest = sum(self.win_probability(i, j, k + r) for r in range(2, FACES + 1))
        return (1.0 - self.win_probability(j, i, 0) + rest) / FACES

    def should_roll(self, i: int, j: int, k: int) -> bool:
        """The optimal decision: roll (True) or hold; a turn total reaching the goal holds."""
        return i + k < self.goal and bool(self.rolls[i, j, k])


def table_bytes(goal: int, tables: int = 1) -> int:
    """The memory `tables` solutions of `goal` take: P(i, j, k) as float64 plus the roll decisions (goal^3 cells)."""
    return tables * goal * goal * ((goal + FACES) * 8 + goal)


def free_memory() -> int | None:
    """Bytes this process may still allocate: the memory the system has available, or the address-space limit
    set on this process (a worker's) when lower; None when neither can be read."""
    free = None
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    free = int(line.split()[1]) * 1024
    except OSError:
        pass
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit != resource.RLIM_INFINITY:
        free = limit if free is None else min(free, limit)
    if free is None and hasattr(os, "sysconf"):
        try:
            free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError):
            pass
    return free


def require_memory(goal: int, tables: int = 1) -> None:
    """ConfigError, before anything is allocated, when `tables` solutions of `goal` would not fit in memory."""
    need, free = table_bytes(goal, tables), free_memory()
    if free is not None and need > free:
        raise ConfigError(f"pig goal={goal}: the exact solution is a table of goal^3 numbers, {need / 1e9:.1f} GB, "
                          f"more than the {free / 1e9:.1f} GB of memory free; use a smaller goal, or heuristic "
                          "race / pig_policy policy=hold_at, which need no table")


@lru_cache(maxsize=4)
def solve(goal: int) -> PigSolution:
    """The exact solution for two players and `goal` (cached: goal 100 takes about a second); ConfigError when its
    table would not fit in memory."""
    require_memory(goal)
    win = np.zeros((goal, goal, goal + FACES))
    rolls = np.zeros((goal, goal, goal), dtype=bool)
    k_index = np.arange(goal + FACES)
    for i in range(goal):
        win[i, :, k_index[i + k_index >= goal]] = 1.0
    for s in range(2 * goal - 2, -1, -1):
        _solve_sum(win, rolls, goal, s)
    return PigSolution(goal, win, rolls)


def hold_at(goal: int, total: int) -> np.ndarray:
    """The "hold at `total`" policy as a rolls array: roll while the turn total is below it (and the goal)."""
    i, j, k = np.ogrid[:goal, :goal, :goal]
    return np.broadcast_to((k < total) & (i + k < goal) & (j >= 0), (goal, goal, goal)).copy()


@dataclass(frozen=True)
class Matchup:
    """Exact win probabilities of two fixed policies A and B against each other."""

    a_first: float    # A moves first: A's chance to win
    b_first: float    # B moves first: A's chance to win

    @property
    def average(self) -> float:
        """A's chance over both seatings, each equally likely."""
        return (self.a_first + self.b_first) / 2


def matchup(goal: int, a_rolls: np.ndarray, b_rolls: np.ndarray) -> Matchup:
    """A against B, both playing their fixed policies (rolls arrays, `PigSolution.rolls` or `hold_at`): the
    same sum-by-sum decomposition, where a fixed policy makes each pair's equations linear (solved at once)."""
    require_memory(goal, tables=2)
    wins = []
    for _ in (a_rolls, b_rolls):
        w = np.zeros((goal, goal, goal + FACES))
        k_index = np.arange(goal + FACES)
        for score in range(goal):
            w[score, :, k_index[score + k_index >= goal]] = 1.0
        wins.append(w)
    wa, wb = wins
    scratch = np.zeros((goal, goal, goal), dtype=bool)
    for s in range(2 * goal - 2, -1, -1):
        low, high = max(0, s - goal + 1), min(s, goal - 1)
        i = np.arange(low, high + 1)
        j = s - i
        zero = np.zeros(len(i))
        xa, slope_a = _chain(wa, wb, scratch, goal, i, j, zero, a_rolls)          # A to move at (i, j)
        xb, slope_b = _chain(wb, wa, scratch, goal, j, i, zero, b_rolls)          # B to move at (j, i)
        x = (xa + slope_a * xb) / (1.0 - slope_a * slope_b)                       # P_A(i, j, 0)
        y = xb + slope_b * x                                                     # P_B(j, i, 0)
        _chain(wa, wb, scratch, goal, i, j, y, a_rolls)
        _chain(wb, wa, scratch, goal, j, i, x, b_rolls)
    return Matchup(float(wa[0, 0, 0]), 1.0 - float(wb[0, 0, 0]))


def _solve_sum(win: np.ndarray, rolls: np.ndarray, goal: int, s: int) -> None:
    """Fill P(i, j, k) for every i + j = s (higher sums done)."""
    low, high = max(0, s - goal + 1), min(s, goal - 1)
    i = np.arange(low, high + 1)
    j = s - i
    partner = (s - i) - low           # the index of the pair (j, i)
    y = np.full(len(i), 0.5)          # estimates of P(j, i, 0)
    for _ in range(MAX_STEPS):
        x, slope = _chain(win, win, rolls, goal, i, j, y)
        # x = b + slope * y near y; solve x_p = b_p + a_p x_q, x_q = b_q + a_q x_p for each pair p, q = partner(p)
        b = x - slope * y
        a, a_q, b_q = slope, slope[partner], b[partner]
        new_x = (b + a * b_q) / (1.0 - a * a_q)
        new_y = new_x[partner]
        if np.max(np.abs(new_y - y)) <= TOLERANCE:
            break
        y = new_y
    _chain(win, win, rolls, goal, i, j, new_y)


def _chain(win: np.ndarray, other: np.ndarray, rolls: np.ndarray, goal: int, i: np.ndarray, j: np.ndarray,
           y: np.ndarray, policy: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The mover's P(i, j, k) for k from the top down given the opponent's P(j, i, 0) = y (`other` holds the
    opponent's values at higher sums), written into `win` and `rolls`; returns P(i, j, 0) and its slope in y.
    The mover rolls where `policy` says, or (None) where rolling is at least as good as holding."""
    slopes = np.zeros((len(i), goal + FACES))
    for k in range(goal - 1, -1, -1):
        live = i + k < goal
        if not live.any():
            continue
        li, lj = i[live], j[live]
        rest = win[li, lj, k + 2:k + FACES + 1].sum(axis=1)
        roll = (1.0 - y[live] + rest) / FACES
        d_roll = (slopes[live, k + 2:k + FACES + 1].sum(axis=1) - 1.0) / FACES
        if k:
            hold, d_hold = 1.0 - other[lj, li + k, 0], 0.0
        else:
            hold, d_hold = 1.0 - y[live], -1.0
        choose = roll >= hold if policy is None else policy[li, lj, k]
        win[li, lj, k] = np.where(choose, roll, hold)
        slopes[live, k] = np.where(choose, d_roll, d_hold)
        rolls[li, lj, k] = choose
    return win[i, j, 0].copy(), slopes[:, 0]
