"""XoBo's knowledge for the AI (see ``docs/ai.md`` for the interface).

The evaluation is a connection distance in the style of Hex evaluators: for
each player, the fewest cubes that must still be placed to join that
player's two edges by a chain of single cubes (8-neighbourhood), where a
cell holding one cube costs nothing, an empty cell costs one cube and a
stack cannot be crossed.  It is worked out on bitboards by growing the
reached set one cube at a time (a dilation into empty cells, then a flood
fill through single cubes), so it costs a few dozen shifts.

The side to move is a tempo ahead, which the evaluation counts as half a
cube.  The cubes are shared, so every cube helps whoever it connects (and
the blocus rule punishes joining the opponent's edges): the search, not the
evaluation, has to sort that out.
"""

from __future__ import annotations

import math

from .board import BOARD, EDGES, dilate, fill
from .rules import XoBoState

__all__ = ["PLAYOUT_DEPTH", "connection_distance", "evaluate"]

#: Plies of a cut-off playout before :func:`evaluate` scores it.
PLAYOUT_DEPTH = 4

#: The distance given to a player whose edges cannot be joined any more.
BLOCKED = 40

_SCALE = 0.45
_TEMPO = 0.5


def connection_distance(ones: int, stacks: int, player: int) -> int:
    """Cubes still needed to join ``player``'s edges (``BLOCKED`` when impossible)."""
    a, b = EDGES[player]
    empty = BOARD & ~(ones | stacks)
    reached = fill(ones & a, ones)
    cost = 0
    while not reached & b:
        grown = reached | ((dilate(reached) | a) & empty)
        if grown == reached:
            return BLOCKED
        reached = fill(grown, grown | ones)
        cost += 1
    return cost


def evaluate(state: XoBoState) -> float:
    """Score in ``[-1, 1]`` for the side to move: the difference of connection distances."""
    p = state.to_move
    mine = connection_distance(state.ones, state.stacks, p)
    theirs = connection_distance(state.ones, state.stacks, 1 - p)
    return math.tanh(_SCALE * (theirs - mine + _TEMPO))
