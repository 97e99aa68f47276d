"""Shared board geometry on bitboards held in Python ints.

A :class:`BitGrid` lays ``width`` x ``height`` cells out row by row with
one padding column per row (``stride = width + 1``) and one padding row
below, so that shifting a bitboard by one step in any direction never wraps
a cell onto the far side of the board and never drops below bit 0: it lands
in padding or outside the board and is cut off by :attr:`BitGrid.board`.
Cell ``(col, row)`` is bit ``(row + 1) * stride + col + 1``.  Because the
layout is linear, a set of cells and its (unmasked) neighbourhood can be
shifted together: offsets between cells are preserved.

Cells are named with a column letter and a row number from 1 (``a1`` is
column 0, row 0), as on a chess board.  Which cells of the rectangle belong
to the board is given by ``cells`` (a hexagonal board is a subset of its
axial bounding box).

Flood fills work by dilation: ``x | shift(x, d)`` for every direction,
masked, repeated until nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

__all__ = ["BitGrid", "bits", "popcount"]

_LABEL = re.compile(r"^([a-z])\s*([0-9]{1,2})$", re.ASCII)


def popcount(x: int) -> int:
    """Number of set bits."""
    return x.bit_count()


def bits(x: int) -> Iterator[int]:
    """Indices of the set bits of ``x``, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class BitGrid:
    """A set of cells on a padded rectangular bitboard layout.

    ``directions`` are ``(dcol, drow)`` steps that count as adjacency, in
    cyclic order around a cell when the geometry has one (hexagonal and
    8-neighbour grids do).
    """

    def __init__(
        self,
        width: int,
        height: int,
        cells: Iterable[tuple[int, int]],
        directions: Sequence[tuple[int, int]],
    ) -> None:
        if width > 26:
            raise ValueError("at most 26 columns (letters a-z)")
        self.width = width
        self.height = height
        self.stride = width + 1
        self.directions = tuple(directions)
        self.shifts = tuple(dr * self.stride + dc for dc, dr in self.directions)
        coords = sorted(set(cells), key=lambda c: (c[1], c[0]))
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self.board = 0
        for col, row in coords:
            if not (0 <= col < width and 0 <= row < height):
                raise ValueError(f"cell {(col, row)} outside the {width}x{height} box")
            self.board |= 1 << self.index(col, row)
        self.size = len(coords)
        self.indices: tuple[int, ...] = tuple(self.index(c, r) for c, r in coords)
        self._label_of = {i: self._make_label(i) for i in self.indices}
        self._index_of = {lab: i for i, lab in self._label_of.items()}
        # neighbour masks, one per cell index
        self.neighbours: dict[int, int] = {i: self.dilate(1 << i) & ~(1 << i) for i in self.indices}

    # -- coordinates ----------------------------------------------------------

    def index(self, col: int, row: int) -> int:
        """Bit index of ``(col, row)`` (no check that it is on the board)."""
        return (row + 1) * self.stride + col + 1

    def coord(self, index: int) -> tuple[int, int]:
        """``(col, row)`` of a bit index."""
        return index % self.stride - 1, index // self.stride - 1

    def contains(self, col: int, row: int) -> bool:
        """True when ``(col, row)`` is a cell of the board."""
        return (
            0 <= col < self.width
            and 0 <= row < self.height
            and bool(self.board >> self.index(col, row) & 1)
        )

    def _make_label(self, index: int) -> str:
        col, row = self.coord(index)
        return f"{chr(ord('a') + col)}{row + 1}"

    def label(self, index: int) -> str:
        """The name of a cell, e.g. ``e5``."""
        return self._label_of[index]

    def parse_label(self, text: str) -> int | None:
        """The index of a cell name (case and inner spaces tolerated), or None."""
        m = _LABEL.match(text.strip().lower())
        if not m:
            return None
        return self._index_of.get(f"{m.group(1)}{int(m.group(2))}")

    def is_label_syntax(self, text: str) -> bool:
        """True when ``text`` looks like a cell name, on the board or not."""
        return bool(_LABEL.match(text.strip().lower()))

    # -- bitboard operations ----------------------------------------------------

    def shift(self, x: int, s: int) -> int:
        """Shift a bitboard by ``s`` bit positions (negative: downwards)."""
        return x << s if s >= 0 else x >> -s

    def dilate(self, x: int) -> int:
        """``x`` together with every neighbour of its cells, cut to the board."""
        return self.dilate_raw(x) & self.board

    def dilate_raw(self, x: int) -> int:
        """Like :meth:`dilate` but not cut to the board (padding bits kept)."""
        out = x
        for s in self.shifts:
            out |= x << s if s > 0 else x >> -s
        return out

    def fill(self, seed: int, allowed: int) -> int:
        """Every cell of ``allowed`` connected to ``seed`` through ``allowed``."""
        shifts = self.shifts
        cur = seed & allowed
        while True:
            nxt = cur
            for s in shifts:
                nxt |= cur << s if s > 0 else cur >> -s
            nxt &= allowed
            if nxt == cur:
                return cur
            cur = nxt

    def components(self, x: int) -> list[int]:
        """The connected components of ``x``, each as a bitboard, lowest bit first."""
        out = []
        while x:
            comp = self.fill(x & -x, x)
            out.append(comp)
            x &= ~comp
        return out

    def mask(self, indices: Iterable[int]) -> int:
        """The bitboard with the given cell indices set."""
        m = 0
        for i in indices:
            m |= 1 << i
        return m
