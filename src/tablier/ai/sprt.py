"""A sequential probability ratio test on game pairs (pentanomial model).

"Is A stronger than B?" is asked as a choice between two hypotheses about
A's Elo advantage: H0, ``elo = elo0``, and H1, ``elo = elo1`` (``elo0 < elo1``).
The arena plays each seeded opening twice, colours swapped; the two games
are a *pair*, and A's pair score is 0, ½, 1, 1½ or 2.  Counting the pairs by
score gives the pentanomial sample ``(n0, n½, n1, n1½, n2)``.  Pairs, not
games, are the independent units: the two games of a pair share an opening,
so their results are correlated, and treating them as independent games
would misstate the variance.

After each finished pair the log-likelihood ratio of H1 against H0 is
compared with two bounds, ``lower = log(β/(1−α))`` and
``upper = log((1−β)/α)``: below ``lower`` H0 is accepted, above ``upper``
H1 is accepted, in between the match goes on.  α is the chance of accepting
H1 when H0 holds, β that of accepting H0 when H1 holds (both 5% by default).

The ratio is the generalized SPRT approximation: with the score of one game
``x`` (the pair score halved), the expected scores ``s = 1/(1 + 10^(−elo/400))``
under each hypothesis, the sample mean ``x̄`` and the sample variance ``σ²``
of the ``N`` halved pair scores,

    LLR ≈ N · (s1 − s0) · (2x̄ − s0 − s1) / (2σ²),

the log-likelihood ratio of two normal distributions of mean ``s0`` and
``s1`` that share the observed variance.  It is close to the exact ratio of
the two best pentanomial distributions with means ``s0`` and ``s1`` when
``elo1 − elo0`` is small, which is the case it is used for.

A sample with an outcome never seen would have a variance of zero after
a handful of equal pairs; each empty outcome is given a weight of
:data:`PSEUDO_COUNT` (0.05) pairs, so the variance stays positive and the
ratio finite.  The weight changes nothing worth noting once the sample is
large, and keeps a short streak of equal pairs from deciding the test: with
``elo0=0, elo1=10`` seven swept pairs in a row accept H1 (fourteen straight
wins, which an equal opponent without draws gives once in 16,000 matches)
and thirty pairs all scoring 1 accept H0.

    >>> v = sprt([0, 30, 110, 50, 10], 0.0, 10.0)
    >>> v.verdict, v.pairs, round(v.llr, 2), round(v.lower, 2), round(v.upper, 2)
    ('H1', 200, 3.5, -2.94, 2.94)
    >>> round(v.elo, 1)
    34.9
    >>> sprt([0, 0, 0, 0, 0], 0.0, 10.0).verdict
    'continue'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "PAIR_SCORES",
    "PSEUDO_COUNT",
    "SprtResult",
    "bounds",
    "elo_to_score",
    "llr",
    "pair_counts",
    "sprt",
    "validate",
]

#: A's score in a game pair, for the five pentanomial cells in order.
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
#: The weight, in pairs, given to each outcome that has not been seen.
PSEUDO_COUNT = 0.05


def elo_to_score(elo: float) -> float:
    """The expected score of one game for an Elo advantage (logistic model).

    >>> elo_to_score(0.0), round(elo_to_score(400.0), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _score_to_elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def validate(elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
    """Raise ValueError unless ``elo0 < elo1`` and α, β are in (0, 1) with α + β < 1.

    >>> validate(5.0, 0.0)
    Traceback (most recent call last):
      ...
    ValueError: elo0 must be less than elo1 (got 5 and 0)
    """
    for x in (elo0, elo1, alpha, beta):
        if not isinstance(x, int | float) or isinstance(x, bool) or not math.isfinite(x):
            raise ValueError(f"SPRT parameters must be finite numbers (got {x!r})")
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be less than elo1 (got {elo0:g} and {elo1:g})")
    if abs(elo0) > 1000 or abs(elo1) > 1000:
        raise ValueError("elo0 and elo1 must be between -1000 and 1000")
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError(
            f"alpha and beta must be between 0 and 1 with a sum below 1 "
            f"(got {alpha:g} and {beta:g})"
        )


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds ``(log(β/(1−α)), log((1−β)/α))`` on the log-likelihood ratio.

    >>> tuple(round(b, 4) for b in bounds())
    (-2.9444, 2.9444)
    """
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _check_counts(counts: Sequence[float]) -> list[float]:
    if len(counts) != 5:
        raise ValueError(f"a pentanomial sample has 5 counts, not {len(counts)}")
    out = [float(c) for c in counts]
    if any(not math.isfinite(c) or c < 0 for c in out):
        raise ValueError("pentanomial counts must be finite and not negative")
    return out


def _mean_variance(counts: Sequence[float]) -> tuple[float, float, float]:
    """The pairs, and the mean and variance of the halved pair score (empty cells weighted)."""
    n = float(sum(counts))
    weights = [c if c > 0 else PSEUDO_COUNT for c in counts]
    total = sum(weights)
    xs = [s / 2.0 for s in PAIR_SCORES]
    mean = sum(w * x for w, x in zip(weights, xs, strict=True)) / total
    var = sum(w * (x - mean) ** 2 for w, x in zip(weights, xs, strict=True)) / total
    return n, mean, var


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized SPRT log-likelihood ratio of ``elo1`` against ``elo0``.

    ``counts`` are the pairs scoring 0, ½, 1, 1½ and 2 for A.  No pairs: 0.

    >>> round(llr([10, 20, 40, 20, 10], 0.0, 5.0), 3)  # mean exactly ½: evidence for H0
    -0.035
    >>> llr([0, 0, 0, 0, 0], 0.0, 5.0)
    0.0
    """
    validate(elo0, elo1)
    n, mean, var = _mean_variance(_check_counts(counts))
    if n == 0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


@dataclass(frozen=True)
class SprtResult:
    """The state of the test: ``verdict`` is ``"H0"``, ``"H1"`` or ``"continue"``."""

    verdict: str
    llr: float
    lower: float
    upper: float
    pairs: int
    counts: tuple[int, ...]
    elo0: float
    elo1: float
    alpha: float
    beta: float
    elo: float  # the Elo estimate from the mean pair score
    elo_low: float  # its 95% interval (pentanomial variance, normal approximation)
    elo_high: float

    @property
    def decided(self) -> bool:
        """Whether the test has stopped on a hypothesis."""
        return self.verdict != "continue"

    def describe(self) -> str:
        """One line for the terminal.

        >>> v = sprt([0, 30, 110, 50, 10], 0.0, 10.0)
        >>> print(v.describe())  # doctest: +NORMALIZE_WHITESPACE
        SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: H1 accepted (A is the stronger: elo >= 10
        more likely than elo <= 0); LLR 3.50 [-2.94, 2.94] after 200 pairs
        (0-0.5-1-1.5-2: 0-30-110-50-10), Elo +35 (95% CI +17 to +53)
        """
        if self.verdict == "H1":
            what = (
                f"H1 accepted (A is the stronger: elo >= {self.elo1:g} "
                f"more likely than elo <= {self.elo0:g})"
            )
        elif self.verdict == "H0":
            what = f"H0 accepted (elo <= {self.elo0:g} more likely than elo >= {self.elo1:g})"
        else:
            what = "no decision yet"

        def fmt(x: float) -> str:
            if math.isinf(x):
                return "+inf" if x > 0 else "-inf"
            return "0" if abs(x) < 0.5 else f"{x:+.0f}"

        return (
            f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
            f"beta={self.beta:g}: {what}; LLR {self.llr:.2f} "
            f"[{self.lower:.2f}, {self.upper:.2f}] after {self.pairs} pairs "
            f"(0-0.5-1-1.5-2: {'-'.join(str(c) for c in self.counts)}), "
            f"Elo {fmt(self.elo)} (95% CI {fmt(self.elo_low)} to {fmt(self.elo_high)})"
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (infinite Elo values as strings)."""
        out: dict[str, Any] = dict(self.__dict__)
        out["counts"] = list(self.counts)
        for k in ("elo", "elo_low", "elo_high"):
            if math.isinf(out[k]):
                out[k] = "+inf" if out[k] > 0 else "-inf"
        return out


def sprt(
    counts: Sequence[int], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> SprtResult:
    """The test on a pentanomial sample: verdict, LLR, bounds and the Elo estimate.

    >>> sprt([0, 5, 190, 5, 0], 0.0, 10.0).verdict  # 200 equal pairs of a draw and a split
    'H0'
    >>> sprt([0, 0, 0, 0, 3], 0.0, 10.0).verdict  # three swept pairs are not enough yet
    'continue'
    >>> sprt([0, 0, 0, 0, 7], 0.0, 10.0).verdict
    'H1'
    """
    validate(elo0, elo1, alpha, beta)
    cells = _check_counts(counts)
    lower, upper = bounds(alpha, beta)
    value = llr(cells, elo0, elo1)
    n, _mean, var = _mean_variance(cells)
    verdict = "H1" if value >= upper else "H0" if value <= lower else "continue"
    if n > 0:
        raw = sum(c * s / 2.0 for c, s in zip(cells, PAIR_SCORES, strict=True)) / n
        half = 1.96 * math.sqrt(var / n)
        elo, low, high = (_score_to_elo(x) for x in (raw, raw - half, raw + half))
    else:
        elo, low, high = 0.0, -math.inf, math.inf
    return SprtResult(
        verdict,
        value,
        lower,
        upper,
        int(n),
        tuple(int(c) for c in cells),
        elo0,
        elo1,
        alpha,
        beta,
        elo,
        low,
        high,
    )


def pair_counts(results: Iterable[Mapping[str, Any]]) -> list[int]:
    """The pentanomial counts of the finished pairs among arena result lines.

    Games ``2k`` and ``2k + 1`` share an opening with colours swapped; a pair
    counts once both are there.  ``score_a`` is A's score in each game.

    >>> pair_counts([{"index": 0, "score_a": 1.0}, {"index": 1, "score_a": 0.5},
    ...              {"index": 2, "score_a": 0.0}])
    [0, 0, 0, 1, 0]
    """
    halves: dict[int, dict[int, float]] = {}
    for r in results:
        i = int(r["index"])
        halves.setdefault(i // 2, {})[i % 2] = float(r["score_a"])
    counts = [0] * 5
    for pair in halves.values():
        if len(pair) == 2:
            counts[round(2 * (pair[0] + pair[1]))] += 1
    return counts
