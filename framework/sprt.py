"""Sequential probability ratio test (SPRT) of an Elo difference, as chess engine testers run it.

Wald's SPRT (Wald, *Sequential Analysis*, 1947) tests H0: Elo = elo0 against H1: Elo = elo1 after
every game (pair); it stops when the log-likelihood ratio (LLR) leaves the interval
(ln(beta / (1 - alpha)), ln((1 - beta) / alpha)), accepting H0 below it and H1 above it, with error
rates about alpha (H1 accepted when H0 is true) and beta (H0 accepted when H1 is true).

The outcomes are not a one-parameter family, so the LLR is the *generalized* one of Van den Bergh's
GSPRT ("Computing Elo", fishtest; fastchess `src/matchmaking/sprt/sprt.cpp` follows it): the
likelihood of the observed frequencies under the maximum-likelihood distribution of each hypothesis,

    LLR = N * sum_i phat_i * ln(p1_i / p0_i),

where phat is the empirical distribution of the N outcomes and p_k the distribution nearest phat
(maximum likelihood) among those satisfying hypothesis k. Outcomes are scores: per game 0, 1/2, 1
(`trinomial`: losses, draws, wins) or per colour-swapped pair 0, 1/4, 1/2, 3/4, 1 (`pentanomial`,
the pair score / 2: Ptnml(0-2)), which cancels most of the colour and opening bias.

A hypothesis is either a *logistic* Elo, i.e. an expected score s = 1 / (1 + 10^(-elo / 400)), whose
nearest distribution is p_i = phat_i / (1 + x (a_i - s)) with x solving sum phat_i (a_i - s) / (1 + x
(a_i - s)) = 0, or a *normalized* Elo (nElo, independent of the draw ratio), a t-value
t = (mu - 1/2) / sigma = nElo * ln(10) / 800 per game (sqrt(2) times that per pair), whose nearest
distribution is the fixed point of the same form with a_i - s replaced by
a_i - 1/2 - t sigma (1 + ((mu - a_i) / sigma)^2) / 2 (fishtest's `MLE_t_value`). Counts of 0 are
replaced by 1e-3, as fishtest and fastchess do, so every outcome has a positive probability.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from framework.errors import ConfigError

MODELS = ("pentanomial", "trinomial")
#: Outcome values of each model: the score of a game, or of a pair divided by 2.
VALUES = {"trinomial": (0.0, 0.5, 1.0), "pentanomial": (0.0, 0.25, 0.5, 0.75, 1.0)}
#: nElo per unit of t-value per game: the slope of the logistic Elo curve at 50%, times 2 (fishtest).
NELO_PER_T = 800 / math.log(10)
ZERO_COUNT = 1e-3  # what an outcome never seen counts as (fishtest, fastchess)


def elo_to_score(elo: float) -> float:
    """The expected score of a player `elo` points stronger, on the logistic Elo curve."""
    return 1 / (1 + 10 ** (-elo / 400))


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: below the lower accept H0, above the upper accept H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _stats(values: Sequence[float], probabilities: Sequence[float]) -> tuple[float, float]:
    mu = sum(a * p for a, p in zip(values, probabilities))
    return mu, sum(p * (a - mu) ** 2 for a, p in zip(values, probabilities))


def _secular(shifts: Sequence[float], phat: Sequence[float]) -> float:
    """The x in the open interval where every 1 + x a_i > 0 that solves sum phat_i a_i / (1 + x a_i) = 0."""
    if not min(shifts) < 0 < max(shifts):
        raise ConfigError("an SPRT hypothesis lies outside what the outcomes can score; choose elo0 and elo1 "
                          "nearer 0")
    from scipy.optimize import brentq  # here: tournament files name the module, most never run a test

    low, high = -1 / max(shifts), -1 / min(shifts)
    margin = 1e-12 * (high - low)
    return brentq(lambda x: sum(p * a / (1 + x * a) for a, p in zip(shifts, phat)), low + margin, high - margin,
                  xtol=1e-15, rtol=4 * 2.0 ** -52)


def mle_expected(values: Sequence[float], phat: Sequence[float], score: float) -> list[float]:
    """The distribution of largest likelihood for `phat` among those with expected score `score`."""
    shifts = [a - score for a in values]
    x = _secular(shifts, phat)
    return [p / (1 + x * a) for a, p in zip(shifts, phat)]


def mle_t_value(values: Sequence[float], phat: Sequence[float], t: float) -> list[float]:
    """The distribution of largest likelihood for `phat` among those with (mu - 1/2) / sigma = `t`."""
    p = [1 / len(values)] * len(values)
    for _ in range(100):
        mu, variance = _stats(values, p)
        sigma = math.sqrt(variance)
        shifts = [a - 0.5 - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2 for a in values]
        x = _secular(shifts, phat)
        previous, p = p, [q / (1 + x * a) for a, q in zip(shifts, phat)]
        if max(abs(a - b) for a, b in zip(p, previous)) < 1e-12:
            break
    return p


@dataclass(frozen=True)
class SprtState:
    """Where a test stands: its LLR, the bounds and the decision ("H0", "H1" or None: play on)."""

    llr: float
    lower: float
    upper: float
    decision: str | None

    def describe(self, test: Sprt) -> str:
        """One line, e.g. "LLR 1.23 (-2.94, 2.94) [0, 5]: continue"."""
        verdict = {"H0": f"H0 accepted (Elo <= {test.elo0:g})", "H1": f"H1 accepted (Elo >= {test.elo1:g})",
                   None: "continue"}[self.decision]
        return f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f}) [{test.elo0:g}, {test.elo1:g}]: {verdict}"


@dataclass(frozen=True)
class Sprt:
    """An SPRT of H0: Elo = elo0 against H1: Elo = elo1 (logistic Elo, or nElo when `normalized`)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"
    normalized: bool = False

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ConfigError(f"unknown SPRT model '{self.model}'; expected one of {', '.join(MODELS)}")
        if not self.elo0 < self.elo1:
            raise ConfigError(f"an SPRT needs elo0 < elo1, got elo0={self.elo0:g}, elo1={self.elo1:g}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ConfigError(f"SPRT {name} must be between 0 and 0.5, got {getattr(self, name)!r}")

    @property
    def bounds(self) -> tuple[float, float]:
        return wald_bounds(self.alpha, self.beta)

    def llr(self, counts: Sequence[int]) -> float:
        """The generalized LLR of `counts`: [losses, draws, wins] (trinomial) or Ptnml(0-2) (pentanomial)."""
        values = VALUES[self.model]
        if len(counts) != len(values):
            raise ConfigError(f"the {self.model} model takes {len(values)} counts, got {list(counts)}")
        if sum(counts) == 0:
            return 0.0
        regular = [n if n > 0 else ZERO_COUNT for n in counts]
        total = sum(regular)
        phat = [n / total for n in regular]
        if self.normalized:
            per_pair = math.sqrt(2) if self.model == "pentanomial" else 1.0
            p0, p1 = (mle_t_value(values, phat, nelo / NELO_PER_T * per_pair) for nelo in (self.elo0, self.elo1))
        else:
            p0, p1 = (mle_expected(values, phat, elo_to_score(elo)) for elo in (self.elo0, self.elo1))
        return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(phat, p0, p1))

    def state(self, counts: Sequence[int]) -> SprtState:
        """The LLR of `counts` against the bounds, and the decision if one is reached."""
        llr = self.llr(counts)
        lower, upper = self.bounds
        decision = "H1" if llr >= upper else "H0" if llr <= lower else None
        return SprtState(llr, lower, upper, decision)
