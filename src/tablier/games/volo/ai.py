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
from collections.abc import Sequence

from .rules import VoloMove, VoloState

__all__ = ["PLAYOUT_DEPTH", "evaluate", "features", "move_prior"]

#: Plies of a cut-off playout before :func:`evaluate` scores it.
PLAYOUT_DEPTH = 4

_W_FLOCKS = 0.30
_W_GAPS = 0.45
_W_REGION = 0.8


def features(state: VoloState, player: int) -> tuple[int, int, float]:
    """``(flocks, gaps, region share)`` of ``player`` in ``state``."""
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


def evaluate(state: VoloState) -> float:
    """Score in ``[-1, 1]`` for the side to move (see the module docstring)."""
    p = state.to_move
    f0, g0, r0 = features(state, p)
    f1, g1, r1 = features(state, 1 - p)
    x = _W_FLOCKS * (f1 - f0) + _W_GAPS * (g1 - g0) + _W_REGION * (r0 - r1)
    return math.tanh(x)


def move_prior(state: VoloState, moves: Sequence[VoloMove]) -> list[float]:
    """A cheap weight per move: flights first, near placements next, divisions last."""
    grid = state.game.grid
    mine = state.bitboard(state.to_move)
    near = grid.dilate_raw(grid.dilate_raw(mine))
    out = []
    for move in moves:
        src, dst, keep = move[0], move[1], move[2]
        if not dst:
            out.append(0.05)
        elif src:
            out.append(0.3 if keep >= 0 else 1.0)
        else:
            out.append(0.6 if dst & near else 0.35)
    return out
