"""Piece sets: the Voldetour material as data, and the tables built from it.

A piece set is a TOML file in ``pieces/`` (``default.toml`` is the project's
reading of the seed): the board size, the two tower squares and the towers'
height, the squares drawn marked, the blocks (a name and a size in units each)
and the number of stairs per player.  :func:`load_set` reads one by name and
returns a :class:`PieceSet`, which also holds the precomputed bitboard tables
the engine uses (footprints of every block orientation, valid anchors).

Units: one square by one level.  Levels are numbered from 0 (the cell just
above the board) to ``tower_height - 1``; a column's *height* is the number of
levels filled below its flat top.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import permutations
from pathlib import Path

from ...core.errors import InvalidOptionError
from ...core.geometry import BitGrid

__all__ = [
    "DIRS",
    "DIR_NAMES",
    "BlockKind",
    "Orientation",
    "PieceSet",
    "available_sets",
    "load_set",
]

_DIR = Path(__file__).with_name("pieces")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_BLOCK_NAME = re.compile(r"^[0-9a-z]{1,8}$")

#: The four horizontal directions as ``(dcol, drow)``: north (towards row 10),
#: east (towards column j), south, west.  Index ``d`` and ``(d + 2) % 4`` are opposite.
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: One-letter names of :data:`DIRS`, used in the notation.
DIR_NAMES = "nesw"


def available_sets() -> tuple[str, ...]:
    """The names of the piece sets shipped in ``pieces/`` (sorted)."""
    return tuple(sorted(p.stem for p in _DIR.glob("*.toml") if _NAME.match(p.stem)))


@dataclass(frozen=True)
class Orientation:
    """One orientation of one block kind: extents in columns, rows and levels.

    ``base`` is the footprint as a bitboard anchored at bit 0 (shift it left by
    the anchor's index), ``offsets`` the bit offsets of its squares from the
    anchor, ``anchors`` the bitboard of anchors whose footprint lies on the board.
    """

    oid: int
    kind: int
    dx: int
    dy: int
    dz: int
    base: int
    offsets: tuple[int, ...]
    anchors: int

    @property
    def text(self) -> str:
        """``"2x1x3"``: columns x rows x levels."""
        return f"{self.dx}x{self.dy}x{self.dz}"


@dataclass(frozen=True)
class BlockKind:
    """A block of the set: its name (used in the notation) and size in units."""

    name: str
    size: tuple[int, int, int]
    orientations: tuple[Orientation, ...]


@dataclass(frozen=True, eq=False)
class PieceSet:
    """A Voldetour piece set with its board and precomputed tables."""

    name: str
    title: str
    width: int
    height: int
    towers: tuple[int, int]
    tower_height: int
    marked: int
    blocks: tuple[BlockKind, ...]
    stairs: int
    grid: BitGrid

    @cached_property
    def orientations(self) -> tuple[Orientation, ...]:
        """Every orientation of every block kind, indexed by ``oid`` (computed once: the
        turn searches ask it for each decision they weigh)."""
        return tuple(o for b in self.blocks for o in b.orientations)

    def block_index(self, name: str) -> int | None:
        """The index of the block kind called ``name``, or None."""
        for k, b in enumerate(self.blocks):
            if b.name == name:
                return k
        return None


def _fail(name: str, why: str) -> InvalidOptionError:
    return InvalidOptionError(f"piece set {name!r}: {why}")


@cache
def load_set(name: str) -> PieceSet:
    """Read the piece set ``name`` from ``pieces/<name>.toml`` (cached).

    Raises InvalidOptionError when there is no such set or its file is wrong.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidOptionError(f"{name!r} is not a piece-set name")
    path = _DIR / f"{name}.toml"
    if not path.is_file():
        raise InvalidOptionError(
            f"no piece set {name!r} (available: {', '.join(available_sets())})"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise _fail(name, f"cannot read the file: {exc}") from None
    try:
        width, height = int(data["width"]), int(data["height"])
        th = int(data["tower_height"])
        nstairs = int(data["stairs"])
        tower_labels = list(data["towers"])
        marked_labels = list(data.get("marked", []))
        blocks_data = list(data["blocks"])
        title = str(data.get("title", name))
    except (KeyError, TypeError, ValueError) as exc:
        raise _fail(name, f"missing or bad field {exc}") from None
    if not (2 <= width <= 26 and 2 <= height <= 99):
        raise _fail(name, "the board must be 2 to 26 columns and 2 to 99 rows")
    if not 1 <= th <= 9 or not 0 <= nstairs <= 20:
        raise _fail(name, "tower_height must be 1 to 9 and stairs 0 to 20")
    grid = BitGrid(width, height, [(c, r) for r in range(height) for c in range(width)], DIRS)

    def cell(text: object) -> int:
        i = grid.parse_label(str(text))
        if i is None:
            raise _fail(name, f"{text!r} is not a square of the board")
        return i

    if len(tower_labels) != 2:
        raise _fail(name, "there must be exactly two towers")
    towers = (cell(tower_labels[0]), cell(tower_labels[1]))
    if towers[0] == towers[1]:
        raise _fail(name, "the two towers must stand on different squares")
    marked = 0
    for text in marked_labels:
        marked |= 1 << cell(text)
    stride = grid.stride
    kinds: list[BlockKind] = []
    oid = 0
    seen: set[str] = set()
    for entry in blocks_data:
        try:
            bname = str(entry["name"]).lower()
            size = tuple(int(v) for v in entry["size"])
        except (KeyError, TypeError, ValueError):
            raise _fail(name, f"bad block entry {entry!r}") from None
        if not _BLOCK_NAME.match(bname) or bname in seen:
            raise _fail(name, f"block names must be distinct short words, not {bname!r}")
        seen.add(bname)
        if len(size) != 3 or min(size) < 1:
            raise _fail(name, f"block {bname}: a size is three positive whole numbers")
        orients = []
        for dx, dy, dz in sorted(set(permutations(size))):
            if dz > th or dx > width or dy > height:
                continue
            offsets = tuple(r * stride + c for r in range(dy) for c in range(dx))
            base = 0
            for off in offsets:
                base |= 1 << off
            anchors = 0
            for r in range(height - dy + 1):
                for c in range(width - dx + 1):
                    anchors |= 1 << grid.index(c, r)
            orients.append(Orientation(oid, len(kinds), dx, dy, dz, base, offsets, anchors))
            oid += 1
        if not orients:
            raise _fail(name, f"block {bname} fits in no orientation under the towers")
        kinds.append(BlockKind(bname, size, tuple(orients)))
    return PieceSet(name, title, width, height, towers, th, marked, tuple(kinds), nstairs, grid)
