"""The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2012/2022).

Pure functions on frozen :class:`Rating` values, on the paper's scale (rating 1500, rating
deviation 350, volatility 0.06 for a new player).  :func:`update` is the paper's steps 2–8
for one player and one rating period; volatility is found with the Illinois algorithm of
its step 5.  Tablier rates each game as a period of its own, as lichess does
(:func:`rate_game`); a player idle for a while first has their deviation grown by
:func:`idle` (step 6 with no games, once per period elapsed).

Why not a library: the Glicko-2 packages on PyPI were weighed in 2026.  ``glicko2``
(2.1.0, 2024) mutates a ``Player`` object, keeps ``tau`` as a class attribute, and its
volatility function uses the player's rating where step 5 uses the deviation (φ²); the
``skills`` package has seen no release since 2015; ``openskill`` is a different model.
The algorithm is short, so it is written here against the paper and checked against its
worked example (``tests/server/test_glicko2.py``):

>>> player = Rating(1500, 200, 0.06)
>>> new = update(player, [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                        (Rating(1700, 300), 0.0)])
>>> round(new.rating, 2), round(new.rd, 2), round(new.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper prints 1464.06 and 0.05999: it rounds μ′ to −0.2069 before scaling it back, and
cuts σ′ after five decimals.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_RATING",
    "DEFAULT_RD",
    "DEFAULT_VOLATILITY",
    "MAX_RD",
    "SCALE",
    "TAU",
    "Rating",
    "expected_score",
    "idle",
    "rate_game",
    "update",
]

#: A new player's rating, deviation and volatility (the paper's suggested values).
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant τ: how much the volatility may change (the paper suggests 0.3–1.2;
#: 0.5 is its example's, and lichess's 0.75 is for a far larger pool of games).
TAU = 0.5
#: A deviation never grows past a new player's.
MAX_RD = DEFAULT_RD
#: The factor between the Glicko scale and the Glicko-2 scale (step 2).
SCALE = 173.7178
#: The convergence tolerance of step 5.
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A player's rating ``rating`` ± ``rd`` (deviation) and ``volatility`` (σ)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The expected score of ``player`` against ``opponent`` (Glicko-2's E).

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    return _e(
        (player.rating - DEFAULT_RATING) / SCALE,
        (opponent.rating - DEFAULT_RATING) / SCALE,
        opponent.rd / SCALE,
    )


def idle(player: Rating, periods: float) -> Rating:
    """``player`` after ``periods`` rating periods without games: the deviation grows
    (step 6: φ* = √(φ² + σ²) per period), never past :data:`MAX_RD`.

    >>> round(idle(Rating(1500, 50, 0.06), 1).rd, 2)
    51.07
    >>> idle(Rating(1500, 340), 1000).rd
    350.0
    """
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    phi = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Rating(player.rating, min(phi * SCALE, MAX_RD), player.volatility)


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player`` after one rating period with ``results``: (opponent, score) pairs, the
    score 1 for a win, 0.5 for a draw, 0 for a loss (the paper's steps 2–8).  No games: the
    deviation grows as in :func:`idle`.
    """
    if not results:
        return idle(player, 1)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    # Step 3: the estimated variance v; step 4: the estimated improvement Δ.
    inv_v = 0.0
    total = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    # Step 5: the new volatility σ′ (Illinois algorithm).
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6–7: the new deviation φ′ and rating μ′.
    phi_star = math.sqrt(phi2 + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + inv_v)
    new_mu = mu + new_phi * new_phi * total
    # Step 8: back to the Glicko scale.
    return Rating(new_mu * SCALE + DEFAULT_RATING, min(new_phi * SCALE, MAX_RD), new_sigma)


def rate_game(
    first: Rating, second: Rating, score: float, tau: float = TAU
) -> tuple[Rating, Rating]:
    """Both players after one game, each rated against the other's rating before it;
    ``score`` is the first player's (1, 0.5 or 0).

    >>> a, b = rate_game(Rating(), Rating(), 1.0)
    >>> round(a.rating), round(b.rating), round(a.rd)
    (1662, 1338, 290)
    """
    return (
        update(first, [(second, score)], tau),
        update(second, [(first, 1.0 - score)], tau),
    )
