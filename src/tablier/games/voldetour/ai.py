"""Voldétour's knowledge for the AI (see ``docs/ai.md`` for the interface).

Built on two facts of the rules:

* a Lord must leave its tower (3 levels high) by the end of its player's
  third turn, and to step off it needs a flat top at the tower's height
  next to it: so the move prior favours putting a block whose top is level
  with the Lord on a square next to it, and Lord moves that leave the tower;
* the race is to the enemy tower.  :func:`path_distance` is the Lord's 3D
  path distance to it: a cheapest-path search over (square, height) with the
  Lord's own step rules (:meth:`~tablier.games.voldetour.rules.VState.lord_step`:
  flat steps at the same height, slopes and chains of slopes), where a step
  over what is already built costs ``STEP`` and, where nothing is built yet,
  a step onto a square that would first have to be raised costs ``STEP``
  plus ``LEVEL`` per missing level plus ``SLOPE`` for a change of height.
  Where the Lord can walk all the way over what is built, it is at most
  ``STEP`` times the number of its steps (building may be cheaper still).
  It runs on per-height bitboards (a bucket queue of costs), cheap enough
  for the evaluation at the end of every cut-off playout.

The evaluation compares the two Lords' path distances (each capped at 40: a
Lord hemmed in for now is far, not lost) and penalises a Lord still on its
own tower, more so as its third turn approaches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core.game import Move
from .rules import VState

__all__ = [
    "BLOCKED",
    "LEVEL",
    "PLAYOUT_DEPTH",
    "SLOPE",
    "STEP",
    "evaluate",
    "lord_distance",
    "move_prior",
    "path_distance",
]

#: Decisions of a cut-off playout before :func:`evaluate` scores it (a turn is several).
PLAYOUT_DEPTH = 8

#: Costs of :func:`path_distance`: a Lord step, a level to build under a square, a slope.
STEP = 1
LEVEL = 1
SLOPE = 2
#: The distance of a Lord that cannot reach the enemy tower at all.
BLOCKED = 200

_SCALE = 0.2
#: Distances are capped here in the evaluation: a Lord hemmed in for now is far, not lost
#: (pieces move), so blocking it must not read as a won game.
_CAP = 40
_STUCK = 0.6


def _distance(grid, a: int, b: int) -> int:
    (ca, ra), (cb, rb) = grid.coord(a), grid.coord(b)
    return abs(ca - cb) + abs(ra - rb)


def lord_distance(state: VState, player: int) -> int:
    """Squares between ``player``'s Lord and the enemy tower (Manhattan distance)."""
    ps = state.game.pieceset
    return _distance(ps.grid, state.lords[player], ps.towers[1 - player])


def path_distance(state: VState, player: int) -> int:
    """The cost of ``player``'s Lord's cheapest 3D path to the enemy tower.

    See the module docstring: ``STEP`` per step over built paths (slopes
    included, crossing the own tower allowed; the other Lord is no wall: Lords
    move, and a Lord in the way must not make a near Lord look far),
    and, where the path needs building, ``LEVEL`` per level to raise a square
    and ``SLOPE`` per change of height.  ``BLOCKED`` when no path exists.
    """
    ps = state.game.pieceset
    grid = ps.grid
    board = grid.board
    b = state.board
    H = ps.tower_height
    target = ps.towers[1 - player]
    tbit = 1 << target
    start = state.lords[player]
    h0 = b.height(start)
    if h0 is None:  # pragma: no cover - Lords never stand on slopes
        return BLOCKED
    towers = (1 << ps.towers[0]) | (1 << ps.towers[1])
    lflat = b.lflat
    # squares by the height of their flat top, where a Lord could be led by building
    buildable = [b.flat[k] & ~towers for k in range(H + 1)]
    slopes = 0
    for z in range(H):
        for m in b.slope[z]:
            slopes |= m
    near_slope = grid.dilate(slopes) if slopes else 0
    # virtual[h]: (height reached, added cost, squares) for the steps that need building
    virtual: list[list[tuple[int, int, int]]] = []
    for h in range(H + 1):
        row = []
        for h2 in (h - 1, h, h + 1):
            if 0 <= h2 <= H:
                climb = SLOPE if h2 != h else 0
                for k in range(h2 + 1):
                    squares = buildable[k]
                    if squares and (climb or k < h2):  # else nothing, or a plain step
                        row.append((h2, STEP + climb + LEVEL * (h2 - k), squares))
        virtual.append(row)
    shifts = grid.shifts
    step = state.lord_step
    seen = [0] * (H + 1)
    buckets: dict[int, list[int]] = {0: [0] * (H + 1)}
    buckets[0][h0] = 1 << start

    def push(cost: int, h: int, mask: int) -> None:
        row = buckets.get(cost)
        if row is None:
            row = buckets[cost] = [0] * (H + 1)
        row[h] |= mask

    cost = 0
    while buckets:
        cur = buckets.pop(cost, None)
        if cur is not None:
            for h in range(H + 1):
                new = cur[h] & ~seen[h]
                if not new:
                    continue
                seen[h] |= new
                if h == H and new & tbit:
                    return cost
                nb = 0
                for s in shifts:
                    nb |= new << s if s > 0 else new >> -s
                nb &= board
                real = nb & lflat[h] & ~seen[h]
                if real:
                    push(cost + STEP, h, real)
                if new & near_slope:
                    q_bits = new & near_slope
                    while q_bits:
                        low = q_bits & -q_bits
                        q_bits ^= low
                        q = low.bit_length() - 1
                        for e in range(4):
                            r = step(b, q, h, e)
                            if r is not None:
                                push(cost + STEP, r[1], 1 << r[0])
                for h2, extra, squares in virtual[h]:
                    cells = nb & squares & ~seen[h2]
                    if cells:
                        push(cost + extra, h2, cells)
                if h == H - 1 and nb & tbit:
                    push(cost + STEP + SLOPE, H, tbit)
        cost += 1
    return BLOCKED


def _stuck(state: VState, player: int) -> float:
    """How urgent leaving the tower is for ``player`` (0 once the Lord has left)."""
    if state.lords[player] != state.game.pieceset.towers[player]:
        return 0.0
    return _STUCK * (1 + state.turns_completed(player)) / 3


def evaluate(state: VState) -> float:
    """Score in ``[-1, 1]`` for the side to move (see the module docstring)."""
    p = state.to_move
    race = min(_CAP, path_distance(state, 1 - p)) - min(_CAP, path_distance(state, p))
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
