"""The XoBo board: 9 x 9 cells on a padded bitboard, and the tables built once.

Columns ``a``-``i`` run from West to East, rows ``1``-``9`` from South to
North.  The layout is :class:`~tablier.core.geometry.BitGrid`'s: stride 10
(one padding column per row) and one padding row below, so cell
``(col, row)`` is bit ``(row + 1) * 10 + col + 1`` and a shift by one step
in any of the 8 directions never wraps onto a real cell.

Everything the hot loops need is precomputed here: edge masks, the room
left to the edge of the board from each cell (how high a stack may be
there), the ray of cells a distribution covers, and the rows of cells used
to list placements without iterating over bits.
"""

from __future__ import annotations

from ...core.geometry import BitGrid

__all__ = [
    "BOARD",
    "DIRECTIONS",
    "EAST",
    "EDGES",
    "GRID",
    "LINE_SHIFTS",
    "NORTH",
    "RAYS",
    "RAY_MASK",
    "ROOM",
    "ROW_SHIFT",
    "SHIFTS",
    "SIZE",
    "SOUTH",
    "STRIDE",
    "WEST",
    "dilate",
    "fill",
    "ray",
]

SIZE = 9

# The 8 directions (dcol, drow) in cyclic order: E, NE, N, NW, W, SW, S, SE.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))

GRID = BitGrid(SIZE, SIZE, [(c, r) for r in range(SIZE) for c in range(SIZE)], DIRECTIONS)
STRIDE = GRID.stride
BOARD = GRID.board
SHIFTS = GRID.shifts  # bit offset of one step in each direction

# The four line orientations (E, NE, N, NW) as positive bit offsets.
LINE_SHIFTS = (SHIFTS[0], SHIFTS[1], SHIFTS[2], SHIFTS[3])

SOUTH = GRID.mask(GRID.index(c, 0) for c in range(SIZE))
NORTH = GRID.mask(GRID.index(c, SIZE - 1) for c in range(SIZE))
WEST = GRID.mask(GRID.index(0, r) for r in range(SIZE))
EAST = GRID.mask(GRID.index(SIZE - 1, r) for r in range(SIZE))

# EDGES[player] = the two edges that player connects.
EDGES = ((SOUTH, NORTH), (WEST, EAST))


def _steps_to_edge(col: int, row: int, dc: int, dr: int) -> int:
    n = 0
    c, r = col + dc, row + dr
    while 0 <= c < SIZE and 0 <= r < SIZE:
        n += 1
        c += dc
        r += dr
    return n


# ROOM[index]: the most cells a distribution from this cell can cover (the
# longest of its 8 rays to the edge); a stack higher than that could never
# be distributed.  Indexed by bit index (0 outside the board).
ROOM = [0] * (GRID.index(SIZE - 1, SIZE - 1) + 1)
# RAYS[index][d]: tuple of the bit indices met going in direction d, nearest first.
RAYS: list[tuple[tuple[int, ...], ...]] = [()] * len(ROOM)
for _c, _r in GRID.coords:
    _i = GRID.index(_c, _r)
    ROOM[_i] = max(_steps_to_edge(_c, _r, dc, dr) for dc, dr in DIRECTIONS)
    RAYS[_i] = tuple(
        tuple(
            GRID.index(_c + k * dc, _r + k * dr)
            for k in range(1, _steps_to_edge(_c, _r, dc, dr) + 1)
        )
        for dc, dr in DIRECTIONS
    )

# RAY_MASK[index][d][h]: the h cells a distribution of height h covers from
# index in direction d, or 0 when they would run off the board.
RAY_MASK: list[tuple[tuple[int, ...], ...]] = [()] * len(ROOM)
for _i in GRID.indices:
    per_dir = []
    for d in range(8):
        cells = RAYS[_i][d]
        masks = [0] * (SIZE + 1)
        acc = 0
        for h in range(1, SIZE + 1):
            if h <= len(cells):
                acc |= 1 << cells[h - 1]
                masks[h] = acc
        per_dir.append(tuple(masks))
    RAY_MASK[_i] = tuple(per_dir)


def ray(index: int, direction: int, height: int) -> int:
    """The cells a stack of ``height`` on ``index`` covers going ``direction`` (0 if off board)."""
    if height > SIZE:
        return 0
    return RAY_MASK[index][direction][height]


def fill(seed: int, allowed: int) -> int:
    """Cells of ``allowed`` 8-connected to ``seed`` through ``allowed``.

    The 3 x 3 dilation is done in two separable passes (horizontal, then
    vertical): four shifts per step instead of eight.  ``allowed`` must hold
    board cells only, so bits pushed into the padding are cut off.
    """
    cur = seed & allowed
    while True:
        x = cur | cur << 1 | cur >> 1
        x = (x | x << STRIDE | x >> STRIDE) & allowed
        if x == cur:
            return cur
        cur = x


def dilate(x: int) -> int:
    """``x`` and its 8 neighbours, cut to the board."""
    x = x | x << 1 | x >> 1
    return (x | x << STRIDE | x >> STRIDE) & BOARD


# ROW_SHIFT[r]: how far to shift a bitboard right to bring row r's nine cells to bits 0-8.
ROW_SHIFT = tuple((r + 1) * STRIDE + 1 for r in range(SIZE))
