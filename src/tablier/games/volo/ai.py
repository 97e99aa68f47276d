"""Volo's knowledge for the AI (see ``docs/ai.md`` for the interface).

Cheap bitboard features only, no move generation:

* **flocks**: the number of connected groups of each side's birds; the goal
  is one flock, so fewer is better;
* **gaps**: the number of groups left once each side's birds are grown by
  one cell into cells the opponent does not hold: flocks one cell apart count
  as one, so this measures how close the birds are to gathering;
* **regions**: the share of the free sky each side can reach (placements and
  flights need room; a side hemmed into a small region is in danger).

The move prior prefers flights (they gather birds) over placements near the
own birds, over distant placements, and treats dividing the opponent and
passing as last resorts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ...core.game import Move
from ...core.native import register
from . import rules
from .rules import VoloMove, VoloState

__all__ = [
    "PLAYOUT_DEPTH",
    "PROOF_MAX_DEPTH",
    "evaluate",
    "features",
    "move_prior",
    "playout",
    "prove",
]

#: Plies of a cut-off playout before :func:`evaluate` scores it.
PLAYOUT_DEPTH = 4

#: The deepest question :func:`prove` answers (that of the compiled core).
PROOF_MAX_DEPTH = 15

_W_FLOCKS = 0.30
_W_GAPS = 0.45
_W_REGION = 0.8

# move prior weights
_P_PASS = 0.05
_P_FLY = 1.0
_P_FLY_DIVIDE = 0.3
_P_NEAR = 0.6
_P_FAR = 0.35


def features(state: VoloState, player: int) -> tuple[int, int, float]:
    """``(flocks, gaps, region share)`` of ``player`` in ``state``."""
    return _features(state, player)


def evaluate(state: VoloState) -> float:
    """Score in ``[-1, 1]`` for the side to move (see the module docstring)."""
    return _evaluate(state)


def move_prior(state: VoloState, moves: Sequence[VoloMove]) -> list[float]:
    """A cheap weight per move: flights first, near placements next, divisions last."""
    return _move_prior(state, moves)


def playout(
    state: VoloState, seed: int, limit: int, weighted: bool, cutoff: bool
) -> tuple[float, list[tuple[int, Move]]] | None:
    """A whole playout in the compiled core (see ``tablier.ai.knowledge``), or None.

    Plays at most ``limit`` plies from ``state``, uniformly or (``weighted``) by
    :func:`move_prior`, with a generator seeded by ``seed``; returns the reward for
    Orange (the outcome's score; else, with ``cutoff``, :func:`evaluate` mapped to
    ``[0, 1]``; else 0.5) and the ``(mover, move)`` pairs played.  None when the
    compiled core is off: the search then plays the playout itself.
    """
    if _playout is None:
        return None
    return _playout(state, seed, limit, weighted, cutoff)


def prove(
    state: VoloState, attacker: int, depth: int, nodes: int, seconds: float
) -> tuple[bool | None, int] | None:
    """Whether ``attacker`` forces a win within ``depth`` decisions, in the compiled core.

    The answer of :meth:`tablier.ai.solver.Solver.wins` (the same AND/OR search over
    the same moves, without its table), ``None`` past ``nodes`` positions or
    ``seconds`` of CPU time (``seconds < 0``: no time limit), with the positions
    expanded; ``None`` instead of the pair when the compiled core is off, and for
    a depth above :data:`PROOF_MAX_DEPTH` (the solver then searches the first
    decisions itself and hands the rest over).  Five decisions take about 0.03 s
    on the standard board (docs/performance.md).

    >>> from tablier.games import get
    >>> game = get("volo", board="mini")
    >>> trap = game.position(["e8", "g8", "b2"], ["e5", "e6", "e9"], to_move=0)
    >>> after = trap.apply(game.parse_move(trap, "e8-f8"))
    >>> answer = prove(after, 1, 3, 100_000, -1.0)
    >>> answer is None or answer[0]
    True
    """
    if _prove is None or state.outcome is not None or depth > PROOF_MAX_DEPTH:
        return None
    return _prove(state, attacker, depth, nodes, seconds)


def features_pure(state: VoloState, player: int) -> tuple[int, int, float]:
    """:func:`features` in Python (the reference of the compiled core)."""
    grid = state.game.grid
    board = state.game.board
    mine = state.bitboard(player)
    theirs = state.bitboard(1 - player)
    flocks = len(grid.components(mine))
    grown = grid.dilate_raw(mine) & board.all & ~theirs
    gaps = len(grid.components(grown))
    free = board.all & ~theirs
    reach = grid.fill(mine, free)
    share = reach.bit_count() / max(1, free.bit_count())
    return flocks, gaps, share


def evaluate_pure(state: VoloState) -> float:
    """:func:`evaluate` in Python."""
    p = state.to_move
    f0, g0, r0 = features_pure(state, p)
    f1, g1, r1 = features_pure(state, 1 - p)
    x = _W_FLOCKS * (f1 - f0) + _W_GAPS * (g1 - g0) + _W_REGION * (r0 - r1)
    return math.tanh(x)


def move_prior_pure(state: VoloState, moves: Sequence[VoloMove]) -> list[float]:
    """:func:`move_prior` in Python."""
    grid = state.game.grid
    mine = state.bitboard(state.to_move)
    near = grid.dilate_raw(grid.dilate_raw(mine))
    out = []
    for move in moves:
        src, dst, keep = move[0], move[1], move[2]
        if not dst:
            out.append(_P_PASS)
        elif src:
            out.append(_P_FLY_DIVIDE if keep >= 0 else _P_FLY)
        else:
            out.append(_P_NEAR if dst & near else _P_FAR)
    return out


# -- the compiled core ---------------------------------------------------------------------

_native = rules._native

# The implementations in use: rebound by switch() (tests flip it with tablier.core.native.using).
_features: Callable[[VoloState, int], tuple[int, int, float]] = features_pure
_evaluate: Callable[[VoloState], float] = evaluate_pure
_move_prior: Callable[[VoloState, Sequence[VoloMove]], list[float]] = move_prior_pure
_playout: Callable[[VoloState, int, int, bool, bool], tuple[float, list[tuple[int, Move]]]] | None
_playout = None
_prove: Callable[[VoloState, int, int, int, float], tuple[bool | None, int]] | None = None


def switch(compiled: bool) -> None:
    """Use the compiled core (True) or Python (False) for the knowledge from now on."""
    global _features, _evaluate, _move_prior, _playout, _prove
    if compiled and _native is not None:
        _features, _evaluate = _native.features, _native.evaluate
        _move_prior, _playout = _native.move_prior, _native.playout
        _prove = _native.prove
    else:
        _features, _evaluate, _move_prior, _playout, _prove = (
            features_pure,
            evaluate_pure,
            move_prior_pure,
            None,
            None,
        )


if _native is not None:
    _native.set_weights(
        (_W_FLOCKS, _W_GAPS, _W_REGION), (_P_PASS, _P_FLY, _P_FLY_DIVIDE, _P_NEAR, _P_FAR)
    )
    switch(rules.compiled_in_use)  # as the rules, even when imported inside using(False)
    register(__name__, switch)
