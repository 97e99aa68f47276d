"""JSON views of Volo states and moves for graphical clients (the web board).

:func:`state_view` adds the sky (cells and holes with their axial
coordinates), the birds, both supplies and the flocks to the keys every
game gives; :func:`move_view` adds what click input needs: the kind of the
move, the line that flies and where each of its birds lands, and, when the
move divides the opponent, the region kept and the opponent's birds it
removes.  The formats are documented in ``docs/web-client.md`` ("Volo
board").  Both are cheap: a move view costs a few microseconds (a flood
fill only for the rare moves that divide the opponent).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from .rules import VoloMove, VoloState

if TYPE_CHECKING:  # pragma: no cover
    from .board import VoloBoard
    from .game import Volo

__all__ = ["move_view", "state_view"]


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


@cache
def _sky(
    board: VoloBoard,
) -> tuple[tuple[tuple[str, int, int], ...], tuple[tuple[str, int, int, str], ...]]:
    """The cells ``(label, q, r)`` and the holes ``(label, q, r, kind)`` of a board."""
    grid = board.grid
    cells = tuple((grid.label(i), *grid.coord(i)) for i in board.cells)
    holes = tuple(
        (f"{chr(ord('a') + q)}{r + 1}", q, r, kind)
        for kind, coords in (("corner", board.corners), ("centre", (board.centre,)))
        for q, r in coords
    )
    return cells, holes


@cache
def _labels(board: VoloBoard) -> dict[int, str]:
    """Bit index -> label, for every cell of the board."""
    grid = board.grid
    return {i: grid.label(i) for i in board.cells}


@cache
def _axial(board: VoloBoard) -> dict[int, tuple[int, int]]:
    """Bit index -> ``(q, r)``, for every cell of the board."""
    return {i: board.grid.coord(i) for i in board.cells}


def state_view(game: Volo, state: VoloState, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` (the core view) with Volo's board added; returns ``base``.

    Added keys: ``board`` (``"standard"`` or ``"mini"``), ``edge``, ``edition``,
    ``setup``, ``total`` (birds per player), ``cells`` (``[{"c", "q", "r"}]``,
    row by row from row 1), ``holes`` (the missing corners and centre,
    ``[{"c", "q", "r", "kind"}]``), ``birds`` (cell label -> 0 or 1), ``supply``
    (``[orange, blue]``), ``on_board`` (``[orange, blue]``), ``flocks`` (per
    player, a list of flocks, largest first, each a list of labels sorted
    row first, then column)
    and ``passes`` (passes in a row just made).
    """
    board = game.board
    cells, holes = _sky(board)
    labels = _labels(board)
    grid = board.grid
    birds: dict[str, int] = {}
    flocks = []
    for player in (0, 1):
        mine = state.bitboard(player)
        for i in _bits(mine):
            birds[labels[i]] = player
        # bit order is row first, then column: each flock comes out sorted
        comps = sorted(grid.components(mine), key=lambda c: (-c.bit_count(), c & -c))
        flocks.append([[labels[i] for i in _bits(c)] for c in comps])
    opts = game.options
    base.update(
        {
            "board": board.name,
            "edge": board.edge,
            "edition": opts["edition"],
            "setup": opts["setup"],
            "total": game.total,
            "cells": [{"c": c, "q": q, "r": r} for c, q, r in cells],
            "holes": [{"c": c, "q": q, "r": r, "kind": k} for c, q, r, k in holes],
            "birds": birds,
            "supply": [state.supply(0), state.supply(1)],
            "on_board": [state.bitboard(0).bit_count(), state.bitboard(1).bit_count()],
            "flocks": flocks,
            "passes": state.passes,
        }
    )
    return base


def move_view(game: Volo, state: VoloState, move: VoloMove, notation: str) -> dict[str, Any]:
    """The view of a legal ``move`` in ``state`` (see :func:`state_view` for the board).

    Keys: ``notation``; ``kind`` (``"add"``, ``"fly"`` or ``"pass"``); ``from``
    (the birds of the flying line, from the end the notation names first:
    the lowest cell, row first, then column; empty for an add or a pass);
    ``to`` (where each bird of ``from`` lands, in the same order; the added
    bird for an add); ``step`` (the unit direction ``[dq, dr]`` of a flight,
    else ``None``) and ``steps`` (how far it flies, else 0); ``keep`` (the
    label naming the opponent's region kept when the move divides the
    opponent, else ``None``), ``kept`` and ``removed`` (the opponent's birds
    that stay and that are taken off by that choice; empty when nothing is
    divided) and ``opponent_wins`` (true when that choice leaves the opponent's
    birds as one flock, which makes the opponent win at once, rule R-11).
    """
    src, dst, keep, board = move
    labels = _labels(board)
    view: dict[str, Any] = {
        "notation": notation,
        "kind": "pass" if not dst else ("fly" if src else "add"),
        "from": [labels[i] for i in _bits(src)],
        "to": [labels[i] for i in _bits(dst)],
        "step": None,
        "steps": 0,
        "keep": None,
        "kept": [],
        "removed": [],
        "opponent_wins": False,
    }
    if src:
        axial = _axial(board)
        q0, r0 = axial[(src & -src).bit_length() - 1]
        q1, r1 = axial[(dst & -dst).bit_length() - 1]
        dq, dr = q1 - q0, r1 - r0
        k = max(abs(dq), abs(dr))
        view["step"] = [dq // k, dr // k]
        view["steps"] = k
    if keep >= 0:
        p = state.to_move
        mine, theirs = state.bitboard(p), state.bitboard(1 - p)
        after = (mine & ~src) | dst
        region = board.fill(1 << keep, board.all & ~after)
        view["keep"] = labels[keep]
        view["kept"] = [labels[i] for i in _bits(theirs & region)]
        view["removed"] = [labels[i] for i in _bits(theirs & ~region)]
        kept = theirs & region
        view["opponent_wins"] = board.fill(kept & -kept, kept) == kept
    return view
