"""Voldetour's fixed action-id encoding and observation planes (for research interfaces).

Declared by the game's class (``Game.actions()``) and read generically by
:mod:`tablier.adapters`; the interface is described in ``docs/research.md``.

A Voldetour turn is already a sequence of decisions of the same player (take,
put, Lord, end); the research interfaces play them as consecutive steps of
that player.  A put or a Lord move still has many variants, so each decision
is further *factored* into steps, every step an id in
``range(num_actions(game))``.  With ``N`` squares (numbered row by row from
``a1``: ``c = width * row + col``), ``H`` levels (the tower height), ``O``
block orientations (the piece set's ``oid``) and ``K`` block kinds, the ids are

===========================  ================================================
``c`` (``0 .. N-1``)          a square
``N + z``                     a level ``z``
``N + H + oid``               a block orientation
``N + H + O + d``             a stair direction: ``d`` = 0..3 for n, e, s, w;
                              4 for upside down
``X + k``                     take block kind ``k`` (``X = N + H + O + 5``)
``X + K + 0``                 take a stair from the reserve (``S``)
``X + K + 1``                 lift a stair from the board: then square, level, direction
``X + K + 2``                 put the block in hand: then orientation, square, level
``X + K + 3``                 put the stair in hand: then square, level, direction
``X + K + 4``                 move the Lord: then every square of the path
                              (start included), then ``X + K + 5``
``X + K + 5``                 end of a Lord's path
``X + K + 6``                 end the turn (``end``)
``X + K + 7``                 pass
===========================  ================================================

so ``num_actions = N + H + O + 5 + K + 8`` (61 for the mini set, 137 for the default).  Every
decision starts with one of the last ``K + 8`` ids, so no decision's steps are
a prefix of another's (Lord paths end with their own id).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.errors import N_, IllegalMoveError
from .game import Voldetour
from .rules import VMove, VState

__all__ = [
    "cell_colours",
    "decode",
    "encode",
    "num_actions",
    "observation_planes",
    "observation_shape",
    "plane_names",
]


def _layout(game: Voldetour) -> tuple[int, int, int, int, int]:
    """``(N, H, O, K, X)`` of the game's piece set."""
    ps = game.pieceset
    n = ps.width * ps.height
    h = ps.tower_height
    o = len(ps.orientations)
    k = len(ps.blocks)
    return n, h, o, k, n + h + o + 5


def num_actions(game: Voldetour) -> int:
    """Size of the action space of every step (see the module docstring)."""
    *_, k, x = _layout(game)
    return x + k + 8


def _sq(game: Voldetour, bit: int) -> int:
    col, row = game.pieceset.grid.coord(bit)
    return row * game.pieceset.width + col


def encode(state: VState, move: VMove) -> tuple[int, ...]:
    """The steps of ``move`` (a legal decision of ``state``); see the module docstring."""
    game = state.game
    n, h, o, k, x = _layout(game)
    tag = move[0]
    if tag == "T":
        if move[1] == "B":
            return (x + move[2],)
        if move[2] is None:
            return (x + k,)
        a, z, d, inv = move[2]
        return (x + k + 1, _sq(game, a), n + z, n + h + o + (4 if inv else d))
    if tag == "P":
        if move[1] == "B":
            return (x + k + 2, n + h + move[3], _sq(game, move[4]), n + move[5])
        a, z, d, inv = move[2:6]
        return (x + k + 3, _sq(game, a), n + z, n + h + o + (4 if inv else d))
    if tag == "L":
        return (x + k + 4, *(_sq(game, a) for a in move[1]), x + k + 5)
    return (x + k + 6,) if tag == "E" else (x + k + 7,)


def decode(state: VState, steps: Sequence[int]) -> VMove:
    """The legal decision of ``state`` whose steps are ``steps``; IllegalMoveError otherwise."""
    wanted = tuple(int(s) for s in steps)
    for move in state.legal_moves():
        if encode(state, move) == wanted:
            return move
    raise IllegalMoveError(N_("no legal decision has the action steps {steps}"), steps=list(wanted))


def _plane_list(game: Voldetour) -> tuple[str, ...]:
    h = game.pieceset.tower_height
    names: list[str] = []
    for z in range(h):
        names += [
            f"my block cells at level {z}",
            f"opponent's block cells at level {z}",
            f"my stairs at level {z}",
            f"opponent's stairs at level {z}",
        ]
    names += [f"upright stairs rising towards {d} (any level)" for d in "nesw"]
    names += [
        "upside-down (nested) stairs (any level)",
        "my Lord",
        "opponent's Lord",
        "towers",
        "marked squares",
        "my blocks off the board / block kinds (constant)",
        "my stairs off the board / stairs per player (constant)",
        "opponent's blocks off the board / block kinds (constant)",
        "opponent's stairs off the board / stairs per player (constant)",
        "block action used this turn (constant)",
        "stair action used this turn (constant)",
        "block in hand: (kind + 1) / block kinds (constant)",
        "stair in hand (constant)",
        "1 when it is my decision (constant)",
        "1 when I am the first player, Black (constant)",
        "pending decision: squares named so far, (i + 1) / count",
        "pending decision: its kind, (first id - X - K + 1) / 8 (constant; 0 when none)",
        "pending decision: level named, (z + 1) / H (constant)",
        "pending decision: orientation named, (oid + 1) / O (constant)",
    ]
    return tuple(names)


def plane_names(game: Voldetour) -> tuple[str, ...]:
    """What each plane of the observation holds, in order."""
    return _plane_list(game)


def observation_shape(game: Voldetour) -> tuple[int, int, int]:
    """``(rows, columns, 4 * H + 23)``."""
    ps = game.pieceset
    return (ps.height, ps.width, 4 * ps.tower_height + 23)


def observation_planes(state: VState, player: int, pending: Sequence[int] = ()) -> np.ndarray:
    """The position from ``player``'s side as float32 planes (``[row, col, plane]``)."""
    game = state.game
    ps = game.pieceset
    n, h, o, k, x = _layout(game)
    grid = ps.grid
    out = np.zeros(observation_shape(game), dtype=np.float32)
    orients = ps.orientations

    def put(bit: int, plane: int, value: float = 1.0) -> None:
        col, row = grid.coord(bit)
        out[row, col, plane] = value

    off_board = [0, 0]
    for side in (0, 1):
        rel = 0 if side == player else 1
        for kind in range(k):
            placed = state.blocks[side * k + kind]
            if placed is None:
                off_board[side] += 1
                continue
            oid, anchor, z = placed
            ori = orients[oid]
            for lev in range(z, z + ori.dz):
                for off in ori.offsets:
                    put(anchor + off, 4 * lev + rel)
        for a, z, d, inv in state.stairs[side]:
            put(a, 4 * z + 2 + rel)
            put(a, 4 * h + (4 if inv else d))
    base = 4 * h + 5
    put(state.lords[player], base)
    put(state.lords[1 - player], base + 1)
    for t in ps.towers:
        put(t, base + 2)
    for bit in grid.indices:
        if ps.marked >> bit & 1:
            put(bit, base + 3)
    c = base + 4
    out[:, :, c] = off_board[player] / max(1, k)
    out[:, :, c + 1] = (ps.stairs - len(state.stairs[player])) / max(1, ps.stairs)
    out[:, :, c + 2] = off_board[1 - player] / max(1, k)
    out[:, :, c + 3] = (ps.stairs - len(state.stairs[1 - player])) / max(1, ps.stairs)
    mine = state.to_move == player
    if mine:
        out[:, :, c + 4] = float(state.done & 1)
        out[:, :, c + 5] = float(state.done >> 1 & 1)
        if state.hand is not None:
            if state.hand[0] == "B":
                out[:, :, c + 6] = (state.hand[1] + 1) / k
            else:
                out[:, :, c + 7] = 1.0
    out[:, :, c + 8] = 1.0 if mine else 0.0
    out[:, :, c + 9] = 1.0 if player == 0 else 0.0
    if pending:
        squares = [s for s in pending if s < n]
        for i, s in enumerate(squares):
            out[s // ps.width, s % ps.width, c + 10] = (i + 1) / len(squares)
        out[:, :, c + 11] = (pending[0] - x - k + 1) / 8
        for s in pending:
            if n <= s < n + h:
                out[:, :, c + 12] = (s - n + 1) / h
            elif n + h <= s < n + h + o:
                out[:, :, c + 13] = (s - n - h + 1) / o
    return out


def cell_colours(state: VState) -> np.ndarray:
    """A small RGB picture, one pixel per square (rows top first): the height of
    each column in shades of the owner of its top piece, towers dark, Lords bright."""
    game = state.game
    ps = game.pieceset
    grid = ps.grid
    planes = observation_planes(state, 0)
    h = ps.tower_height
    img = np.full((ps.height, ps.width, 3), 225, dtype=np.uint8)
    for bit in grid.indices:
        col, row = grid.coord(bit)
        y = ps.height - 1 - row
        levels = [z for z in range(h) if planes[row, col, 4 * z : 4 * z + 4].any()]
        if levels:
            top = max(levels)
            shade = int(200 - 120 * (top + 1) / h)
            black = planes[row, col, 4 * top] or planes[row, col, 4 * top + 2]
            img[y, col] = (shade, shade, shade) if black else (shade + 40, shade + 30, shade)
        if bit in ps.towers:
            img[y, col] = (60, 40, 20)
        if bit == state.lords[0]:
            img[y, col] = (200, 30, 30)
        elif bit == state.lords[1]:
            img[y, col] = (30, 160, 60)
    return img
