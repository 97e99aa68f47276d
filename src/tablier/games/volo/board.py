"""Volo's boards: the hexagonal "sky" on a padded bitboard.

Axial coordinates ``(q, r)``, both from 0 to ``2n - 2`` for a hexagon of
edge ``n``, with ``|q - r| <= n - 1``.  The column letter is ``q`` and the
row number ``r + 1`` (``a1`` is the lower-left corner of the bounding box).
The six neighbours of ``(q, r)`` are ``(q±1, r)``, ``(q, r±1)``,
``(q+1, r+1)`` and ``(q-1, r-1)``.  The six corners and the centre are not
cells.  Drawn with rows as text lines, cell ``(q, r)`` sits at column
``2q - r`` of line ``r``: rows are horizontal and the hexagon has flat top
and bottom edges.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ...core.geometry import BitGrid

__all__ = ["BOARDS", "VoloBoard", "board_for"]

# The six directions in cyclic order around a cell (each is adjacent to the next).
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))

BOARDS = {"standard": 7, "mini": 6}


def _arcs(pattern: int) -> int:
    """Number of maximal runs of set bits in a cyclic 6-bit pattern."""
    if pattern == 0b111111:
        return 1
    return sum(1 for i in range(6) if pattern >> i & 1 and not pattern >> ((i - 1) % 6) & 1)


# ARCS[p]: runs of open neighbours around a cell whose ring pattern is p.
ARCS = tuple(_arcs(p) for p in range(64))


class VoloBoard:
    """The cells, masks and precomputed tables of one Volo board."""

    def __init__(self, name: str, edge: int) -> None:
        n = edge
        size = 2 * n - 1
        self.name = name
        self.edge = n
        self.centre = (n - 1, n - 1)
        self.corners = (
            (0, 0),
            (n - 1, 0),
            (2 * n - 2, n - 1),
            (2 * n - 2, 2 * n - 2),
            (n - 1, 2 * n - 2),
            (0, n - 1),
        )
        holes = set(self.corners) | {self.centre}
        cells = [
            (q, r)
            for r in range(size)
            for q in range(size)
            if abs(q - r) <= n - 1 and (q, r) not in holes
        ]
        self.grid = BitGrid(size, size, cells, DIRECTIONS)
        g = self.grid
        self.cells: tuple[int, ...] = g.indices
        self.all = g.board
        self.shifts = g.shifts
        # ring pattern of on-board neighbours, per cell
        self.ring_shifts = g.shifts  # cyclic order
        self.safe_cut = 0  # cells whose removal from an all-open neighbourhood never disconnects
        for i in self.cells:
            pattern = 0
            for k, s in enumerate(g.shifts):
                if g.board >> (i + s) & 1:
                    pattern |= 1 << k
            if ARCS[pattern] <= 1:
                self.safe_cut |= 1 << i
        self.neighbours = g.neighbours
        # cells within distance 2 of each cell, the window of the local cut test
        self.window = {i: g.dilate(g.dilate(1 << i)) & ~(1 << i) for i in self.cells}
        self.fill = _make_fill(g.stride)
        self.nests = (
            ((1, 1), (2 * n - 3, n - 1), (n - 1, 2 * n - 3)),
            ((n - 1, 1), (2 * n - 3, 2 * n - 3), (1, n - 1)),
        )
        cq, cr = self.centre
        self.centre_ring = (
            tuple((cq + dq, cr + dr) for dq, dr in (DIRECTIONS[0], DIRECTIONS[2], DIRECTIONS[4])),
            tuple((cq + dq, cr + dr) for dq, dr in (DIRECTIONS[1], DIRECTIONS[3], DIRECTIONS[5])),
        )
        # rows for the position string: bit indices of each row's cells, top row first
        self.rows: tuple[tuple[int, ...], ...] = tuple(
            tuple(g.index(q, r) for q in range(size) if (q, r) in set(cells))
            for r in reversed(range(size))
        )

    def __reduce__(self) -> tuple[Callable[[str], VoloBoard], tuple[str]]:
        return (board_for, (self.name,))

    def setup_mask(self, setup: str, player: int) -> int:
        """The bitboard of ``player``'s three birds at the start."""
        coords = self.nests[player] if setup == "nests" else self.centre_ring[player]
        return self.grid.mask(self.grid.index(q, r) for q, r in coords)

    def ring_pattern(self, cell: int, open_mask: int) -> int:
        """6-bit pattern of which neighbours of ``cell`` are in ``open_mask`` (cyclic order)."""
        pattern = 0
        for k, s in enumerate(self.ring_shifts):
            if open_mask >> (cell + s) & 1:
                pattern |= 1 << k
        return pattern


def _make_fill(w: int) -> Callable[[int, int], int]:
    """A flood fill specialised to the hex directions of a grid of stride ``w``.

    The six neighbours of a cell are at offsets +-1, +-w and +-(w+1); with
    ``y = x | x << 1`` and ``z = x | x >> 1`` the dilation is
    ``y | z | y << w | z >> w``, four shifts instead of six.
    """

    def fill(seed: int, allowed: int) -> int:
        cur = seed & allowed
        while True:
            y = cur | cur << 1
            z = cur | cur >> 1
            nxt = (y | z | y << w | z >> w) & allowed
            if nxt == cur:
                return cur
            cur = nxt

    return fill


@cache
def board_for(name: str) -> VoloBoard:
    """The (shared, immutable) board called ``name``."""
    return VoloBoard(name, BOARDS[name])
