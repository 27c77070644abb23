"""SPSA: simultaneous perturbation stochastic approximation, as fishtest runs it on game pairs.

Spall, "Implementation of the simultaneous perturbation algorithm for stochastic optimization",
IEEE Trans. Aerospace and Electronic Systems 34(3), 1998: at iteration k every parameter is
perturbed at once by ±c_k (a Rademacher vector Δ_k), the loss is measured at θ + c_kΔ_k and
θ − c_kΔ_k, and θ moves along the difference; gains a_k = a / (A + k)^α and c_k = c / k^γ with
Spall's α = 0.602 and γ = 0.101. The measurement here is one colour-swapped game pair: θ + c_kΔ_k
against θ − c_kΔ_k, scored wins minus losses of the first (−2 … 2).

The gains and the update are those of fishtest (official-stockfish/fishtest,
`server/fishtest/views.py` parse_spsa_params and `server/fishtest/spsa_handler.py`): per parameter,
for a run of N iterations, A = 10% of N, c = c_end · N^γ, a = r_end · c_end² · (A + N)^α, so
c_N = c_end and a_N / c_N² = r_end at the last iteration; iteration k (from 0) plays with
c_k = c / (k + 1)^γ and moves θ ← clamp(θ + R_k · c_k · result · Δ_k) with
R_k = a / (A + k + 1)^α / c_k²; both probes are clamped to [min, max] too. Integer parameters are
rounded stochastically as fishtest's worker does (floor(v + u), u uniform in [0, 1)), so θ stays
real-valued and a value between two integers plays each in proportion.

Every random draw comes from a stream seeded by the run's seed and the iteration (`derive_seed`), so
θ after iteration k depends on the seed and the stored results alone: an interrupted run resumes
on the same θ sequence, whichever game finished first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from framework.tournament.tasks import derive_seed
from framework.tournament.tune import TunedParam

#: Spall's exponents (1998, section III), which fishtest uses too.
ALPHA = 0.602
GAMMA = 0.101
#: A as a share of the iterations (fishtest's default "A ratio").
A_RATIO = 0.1

Theta = dict[str, float]


@dataclass(frozen=True)
class Probe:
    """One iteration's two points: θ + cΔ (`plus`) and θ − cΔ (`minus`), clamped, integers rounded, and the
    perturbation c_kΔ_k of each parameter."""

    plus: Theta
    minus: Theta
    perturbation: Theta


class Spsa:
    """The gain schedule of a run of `schedule` iterations and the seeded draws of every iteration."""

    def __init__(self, parameters: Sequence[TunedParam], schedule: int, seed: int) -> None:
        self.parameters = tuple(parameters)
        self.schedule = schedule
        self.seed = seed
        self.big_a = int(A_RATIO * schedule)   # fishtest: int(A ratio * iterations)

    def start(self) -> Theta:
        return {p.name: p.start for p in self.parameters}

    def c(self, p: TunedParam, k: int) -> float:
        """The perturbation size of iteration k: c_end at the last iteration of the schedule."""
        return p.c_end * self.schedule ** GAMMA / (k + 1) ** GAMMA

    def r(self, p: TunedParam, k: int) -> float:
        """R_k = a_k / c_k²: r_end at the last iteration of the schedule."""
        a = p.r_end * p.c_end ** 2 * (self.big_a + self.schedule) ** ALPHA
        return a / (self.big_a + k + 1) ** ALPHA / self.c(p, k) ** 2

    def flips(self, k: int) -> tuple[int, ...]:
        """Δ_k: +1 or −1 per parameter, with equal probability (Rademacher)."""
        rng = random.Random(derive_seed(self.seed, "spsa flip", k))
        return tuple(rng.choice((-1, 1)) for _ in self.parameters)

    def probe(self, theta: Mapping[str, float], k: int) -> Probe:
        """The points iteration k plays, around `theta`."""
        plus, minus, perturbation = {}, {}, {}
        for p, flip in zip(self.parameters, self.flips(k)):
            step = self.c(p, k) * flip
            plus[p.name], minus[p.name] = _clamp(p, theta[p.name] + step), _clamp(p, theta[p.name] - step)
            perturbation[p.name] = step
        return Probe(self._rounded(plus, k, "plus"), self._rounded(minus, k, "minus"), perturbation)

    def _rounded(self, values: Theta, k: int, side: str) -> Theta:
        rng = random.Random(derive_seed(self.seed, "spsa round", k, side))
        out = {}
        for p in self.parameters:
            u = rng.random()
            out[p.name] = float(math.floor(values[p.name] + u)) if p.integer else values[p.name]
        return out

    def update(self, theta: Mapping[str, float], k: int, result: float) -> Theta:
        """θ after iteration k, whose pair scored `result` (wins minus losses of θ + cΔ)."""
        return {p.name: _clamp(p, theta[p.name] + self.r(p, k) * self.c(p, k) * result * flip)
                for p, flip in zip(self.parameters, self.flips(k))}


def _clamp(p: TunedParam, value: float) -> float:
    return min(max(value, p.min), p.max)
