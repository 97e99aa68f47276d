"""Volo's fixed action-id encoding and observation planes (for research interfaces).

This module is the game knowledge that :mod:`tablier.adapters` (PettingZoo,
Gymnasium, OpenSpiel) needs; the game's class declares it (``Game.actions()``)
and the adapters read it from there, never asking which game they handle.  The
interface (see ``docs/research.md``) is:

``num_actions(game)``, ``encode(state, move)``, ``decode(state, steps)``,
``observation_shape(game)``, ``plane_names(game)``,
``observation_planes(state, player, pending)`` and ``cell_colours(state)``.

**Factored encoding.**  A flight names a line of birds, a landing cell and,
when it divides the opponent, the region kept: a flat id per flight would
need about ``N**3 * N`` ids.  A move is therefore a short sequence of
*steps*, each an id in ``range(num_actions(game))`` with ``N`` the number
of cells (120 standard, 84 mini), cells numbered ``0 .. N-1`` row by row
from ``a1``'s row up, left to right (the order of ``game.grid.indices``):

- placement on cell ``c``: ``(c,)``;
- pass: ``(2N,)``;
- flight of the line from cell ``low`` to cell ``high`` (the lowest and
  highest labels of the flying birds, ``low == high`` for a single bird),
  landing with its lowest bird on ``to``: ``(N + low, high, to)``, followed by
  ``keep`` (the cell naming the opponent's region kept) when the flight
  divides the opponent: ``(N + low, high, to, keep)``.

These are exactly the cells the notation ``e5:e7-f6/c3`` names, so every legal
move gets a distinct sequence, and no legal sequence is a prefix of another
(a flight either divides the opponent, and then always names the region, or not).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.errors import N_, IllegalMoveError
from .game import Volo
from .rules import VoloMove, VoloState

__all__ = [
    "cell_colours",
    "decode",
    "encode",
    "num_actions",
    "observation_planes",
    "observation_shape",
    "plane_names",
]

_PLANES = (
    "my birds",
    "opponent's birds",
    "cells of the board",
    "my supply / total birds (constant)",
    "opponent's supply / total birds (constant)",
    "consecutive passes / 2 (constant)",
    "1 when I am the first player, Orange (constant)",
    "pending flight: the first flying bird (low end of the line)",
    "pending flight: the last flying bird (high end of the line)",
    "pending flight: the landing cell of the lowest bird",
)


_DENSE: dict[str, dict[int, int]] = {}


def _dense(game: Volo) -> dict[int, int]:
    """Bit index -> cell number, per board."""
    table = _DENSE.get(game.board.name)
    if table is None:
        table = _DENSE[game.board.name] = {bit: k for k, bit in enumerate(game.grid.indices)}
    return table


def num_actions(game: Volo) -> int:
    """Size of the action space of every step: ``2N + 1`` (241 standard, 169 mini)."""
    return 2 * game.grid.size + 1


def encode(state: VoloState, move: VoloMove) -> tuple[int, ...]:
    """The steps of ``move`` (a legal move of ``state``); see the module docstring."""
    game = state.game
    n = game.grid.size
    dense = _dense(game)
    src, dst, keep = move[0], move[1], move[2]
    if not dst:
        return (2 * n,)
    if not src:
        return (dense[dst.bit_length() - 1],)
    low = dense[(src & -src).bit_length() - 1]
    high = dense[src.bit_length() - 1]
    to = dense[(dst & -dst).bit_length() - 1]
    steps = (n + low, high, to)
    return (*steps, dense[keep]) if keep >= 0 else steps


def decode(state: VoloState, steps: Sequence[int]) -> VoloMove:
    """The legal move of ``state`` whose steps are ``steps``; IllegalMoveError otherwise."""
    wanted = tuple(int(s) for s in steps)
    for move in state.legal_moves():
        if encode(state, move) == wanted:
            return move
    raise IllegalMoveError(N_("no legal move has the action steps {steps}"), steps=list(wanted))


def observation_shape(game: Volo) -> tuple[int, int, int]:
    """``(rows, columns, planes)``: the board's bounding box (13 x 13 standard) by 10 planes."""
    return (game.grid.height, game.grid.width, len(_PLANES))


def plane_names(game: Volo) -> tuple[str, ...]:
    """What each plane of the observation holds, in order."""
    return _PLANES


def observation_planes(state: VoloState, player: int, pending: Sequence[int] = ()) -> np.ndarray:
    """The position from ``player``'s side as float32 planes of :func:`observation_shape`.

    Plane ``[row, col]`` is cell ``(q=col, r=row)`` (row 0 is the row of ``a1``).
    ``pending`` holds the steps already chosen of a move not yet complete.
    """
    game = state.game
    grid = game.grid
    out = np.zeros(observation_shape(game), dtype=np.float32)
    mine, theirs = state.bitboard(player), state.bitboard(1 - player)
    for bit in grid.indices:
        c, r = grid.coord(bit)
        out[r, c, 2] = 1.0
        if mine >> bit & 1:
            out[r, c, 0] = 1.0
        elif theirs >> bit & 1:
            out[r, c, 1] = 1.0
    out[:, :, 3] = state.supply(player) / game.total
    out[:, :, 4] = state.supply(1 - player) / game.total
    out[:, :, 5] = state.passes / 2
    out[:, :, 6] = 1.0 if player == 0 else 0.0
    n = grid.size
    if pending and n <= pending[0] < 2 * n:
        cells = [pending[0] - n, *pending[1:3]]
        for plane, cell in zip((7, 8, 9), cells, strict=False):
            c, r = grid.coord(grid.indices[cell])
            out[r, c, plane] = 1.0
    return out


def cell_colours(state: VoloState) -> np.ndarray:
    """A small RGB picture of the board, one pixel per half cell (uint8, rows top first).

    Rows are drawn as in the text rendering: cell ``(q, r)`` covers pixels
    ``2q - r + n - 1`` and the next of line ``r``, which gives the hexagon.
    """
    game = state.game
    grid = game.grid
    n = game.board.edge
    height = grid.height
    width = 2 * grid.width + n
    img = np.full((height, width, 3), 235, dtype=np.uint8)
    colours = ((230, 120, 20), (40, 90, 220))
    b0, b1 = state.bitboard(0), state.bitboard(1)
    for bit in grid.indices:
        q, r = grid.coord(bit)
        x = 2 * q - r + n - 1
        y = height - 1 - r
        colour = (180, 200, 215)
        if b0 >> bit & 1:
            colour = colours[0]
        elif b1 >> bit & 1:
            colour = colours[1]
        img[y, x : x + 2] = colour
    return img
