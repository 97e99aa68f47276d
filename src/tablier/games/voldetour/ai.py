"""Voldétour's knowledge for the AI (see ``docs/ai.md`` for the interface).

A first, cheap version built on two facts of the rules:

* a Lord must leave its tower (3 levels high) by the end of its player's
  third turn, and to step off it needs a flat top at the tower's height
  next to it: so the move prior favours putting a block whose top is level
  with the Lord on a square next to it, and Lord moves that leave the tower;
* the race is to the enemy tower: the evaluation compares the two Lords'
  distances to the enemy tower, counted in squares (Manhattan distance,
  Lords walk in four directions), and penalises a Lord still on its own
  tower, more so as its third turn approaches.

It does not yet measure the 3D path distance over the built paths.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core.game import Move
from .rules import VState

__all__ = ["PLAYOUT_DEPTH", "evaluate", "lord_distance", "move_prior"]

#: Decisions of a cut-off playout before :func:`evaluate` scores it (a turn is several).
PLAYOUT_DEPTH = 8

_SCALE = 0.25
_STUCK = 0.6


def _distance(grid, a: int, b: int) -> int:
    (ca, ra), (cb, rb) = grid.coord(a), grid.coord(b)
    return abs(ca - cb) + abs(ra - rb)


def lord_distance(state: VState, player: int) -> int:
    """Squares between ``player``'s Lord and the enemy tower (Manhattan distance)."""
    ps = state.game.pieceset
    return _distance(ps.grid, state.lords[player], ps.towers[1 - player])


def _stuck(state: VState, player: int) -> float:
    """How urgent leaving the tower is for ``player`` (0 once the Lord has left)."""
    if state.lords[player] != state.game.pieceset.towers[player]:
        return 0.0
    return _STUCK * (1 + state.turns_completed(player)) / 3


def evaluate(state: VState) -> float:
    """Score in ``[-1, 1]`` for the side to move (see the module docstring)."""
    p = state.to_move
    race = lord_distance(state, 1 - p) - lord_distance(state, p)
    return math.tanh(_SCALE * race + _stuck(state, 1 - p) - _stuck(state, p))


def move_prior(state: VState, moves: Sequence[Move]) -> list[float]:
    """Leaving the tower and approaching the enemy tower first, then useful blocks."""
    ps = state.game.pieceset
    grid = ps.grid
    p = state.to_move
    lord = state.lords[p]
    target = ps.towers[1 - p]
    before = _distance(grid, lord, target)
    on_tower = lord == ps.towers[p]
    lord_height = state.board.height(lord)
    near = grid.neighbours[lord]  # the four squares next to the Lord
    orientations = ps.orientations
    out = []
    for move in moves:
        tag = move[0]  # type: ignore[index]
        if tag == "L":
            gain = before - _distance(grid, move[1][-1], target)  # type: ignore[index]
            out.append(max(0.1, (2.0 if on_tower else 1.0) + 0.5 * gain))
        elif tag == "P" and move[1] == "B":  # type: ignore[index]
            _, _, _, oid, anchor, z = move  # type: ignore[misc]
            o = orientations[oid]
            foot = o.base << anchor
            level = lord_height is not None and z + o.dz == lord_height
            out.append(1.5 if level and foot & near else 0.5)
        elif tag in ("T", "P"):
            out.append(0.6)
        elif tag == "E":
            out.append(0.3)
        else:
            out.append(0.1)
    return out
