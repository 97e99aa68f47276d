"""XoBo's fixed action-id encoding and observation planes (for research interfaces).

Declared by the game's class (``Game.actions()``) and read generically by
:mod:`tablier.adapters`; the interface is described in ``docs/research.md``.  Every XoBo move is one
decision, so every move is a single step (a flat encoding of 5265 ids).
Cells are numbered ``0 .. 80`` row by row from ``a1`` (``c = 9 * row + col``),
directions ``0 .. 7`` are E, NE, N, NW, W, SW, S, SE:

- ``c`` (``0 .. 80``): place a cube on cell ``c``;
- ``81 + (c * 8 + d) * 7 + (length - 3)`` (``81 .. 4616``): stack the run of
  ``length`` (3 to 9) single cubes onto cell ``c``, the run going from ``c``
  in direction ``d`` (notation ``far->c``);
- ``4617 + c * 8 + d`` (``4617 .. 5264``): distribute the stack on ``c``
  towards direction ``d`` (notation ``cxnext``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.errors import N_, IllegalMoveError
from .board import DIRECTIONS, GRID, SIZE
from .game import XoBo
from .rules import DISTRIBUTE, PLACE, XoBoMove, XoBoState

__all__ = [
    "cell_colours",
    "decode",
    "encode",
    "num_actions",
    "observation_planes",
    "observation_shape",
    "plane_names",
]

_CELLS = SIZE * SIZE
_STACK0 = _CELLS
_DIST0 = _STACK0 + _CELLS * 8 * 7
_TOTAL = _DIST0 + _CELLS * 8
_DENSE = {bit: k for k, bit in enumerate(GRID.indices)}
_TOTAL_CUBES = 36

_PLANES = (
    "single cubes",
    "stacks",
    "stack height / 8",
    "the two edges I connect",
    "the two edges the opponent connects",
    "common reserve / 36 (constant)",
    "my personal reserve / 36 (constant)",
    "opponent's personal reserve / 36 (constant)",
    "1 when I am under voyna (constant)",
    "1 when I am the first player, North-South (constant)",
)


def num_actions(game: XoBo) -> int:
    """5265 ids: 81 placements, 4536 stackings, 648 distributions."""
    return _TOTAL


def _direction(a: int, b: int) -> int:
    (ca, ra), (cb, rb) = GRID.coord(a), GRID.coord(b)
    step = ((cb > ca) - (cb < ca), (rb > ra) - (rb < ra))
    return DIRECTIONS.index(step)


def encode(state: XoBoState, move: XoBoMove) -> tuple[int, ...]:
    """The single step of ``move`` (see the module docstring)."""
    kind = move[0]
    if kind == PLACE:
        return (_DENSE[move[1]],)
    if kind == DISTRIBUTE:
        return (_DIST0 + _DENSE[move[1]] * 8 + _direction(move[1], move[2]),)
    far, onto, length = move[1], move[2], move[4]
    return (_STACK0 + (_DENSE[onto] * 8 + _direction(onto, far)) * 7 + length - 3,)


def decode(state: XoBoState, steps: Sequence[int]) -> XoBoMove:
    """The legal move of ``state`` whose steps are ``steps``; IllegalMoveError otherwise."""
    wanted = tuple(int(s) for s in steps)
    for move in state.legal_moves():
        if encode(state, move) == wanted:
            return move
    raise IllegalMoveError(N_("no legal move has the action steps {steps}"), steps=list(wanted))


def observation_shape(game: XoBo) -> tuple[int, int, int]:
    """``(9, 9, 10)``: rows from 1 up, columns from a, and the planes."""
    return (SIZE, SIZE, len(_PLANES))


def plane_names(game: XoBo) -> tuple[str, ...]:
    """What each plane of the observation holds, in order."""
    return _PLANES


def observation_planes(state: XoBoState, player: int, pending: Sequence[int] = ()) -> np.ndarray:
    """The position from ``player``'s side as float32 planes (``[row, col, plane]``).

    XoBo moves are single steps, so ``pending`` is always empty.
    """
    out = np.zeros(observation_shape(state.game), dtype=np.float32)
    for bit in GRID.indices:
        c, r = GRID.coord(bit)
        h = state.height_of(bit)
        if h == 1:
            out[r, c, 0] = 1.0
        elif h:
            out[r, c, 1] = 1.0
            out[r, c, 2] = h / 8
    for plane, who in ((3, player), (4, 1 - player)):
        if who == 0:  # North-South joins rows 1 and 9
            out[0, :, plane] = out[SIZE - 1, :, plane] = 1.0
        else:  # East-West joins columns a and i
            out[:, 0, plane] = out[:, SIZE - 1, plane] = 1.0
    out[:, :, 5] = state.common / _TOTAL_CUBES
    out[:, :, 6] = state.reserve(player) / _TOTAL_CUBES
    out[:, :, 7] = state.reserve(1 - player) / _TOTAL_CUBES
    under_voyna = state.voyna and state.to_move == player and not state.is_terminal
    out[:, :, 8] = 1.0 if under_voyna else 0.0
    out[:, :, 9] = 1.0 if player == 0 else 0.0
    return out


def cell_colours(state: XoBoState) -> np.ndarray:
    """A small RGB picture, one pixel per cell (rows top first): empty cells light,
    single cubes grey, stacks darker red the higher they are."""
    img = np.full((SIZE, SIZE, 3), 235, dtype=np.uint8)
    for bit in GRID.indices:
        c, r = GRID.coord(bit)
        h = state.height_of(bit)
        if h == 1:
            img[SIZE - 1 - r, c] = (120, 120, 120)
        elif h:
            img[SIZE - 1 - r, c] = (min(255, 100 + 20 * h), 40, 40)
    return img
