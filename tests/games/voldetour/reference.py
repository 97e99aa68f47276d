"""A deliberately slow, independent reference for the Voldetour rules.

It rebuilds a position as explicit 3D voxels -- a dict from ``(x, y, z)``
unit cells to what fills them -- and decides everything geometrically:
a piece is a set of cells, each ``"full"`` or a wedge (``("up", d)``, solid
below the diagonal plane rising towards ``d``; ``("inv", d)``, solid above it).
Solidity is tested at sample points inside cells, so "no empty space under a
piece", "something rests on it" and "its vertical faces are hidden" are
checked by probing points just below, above and beside the piece's surfaces.
Candidates are enumerated by brute force over every cell, level, orientation
and direction; the Lord's moves by enumerating every path of 1 to 3 steps.

It shares no code with the engine beyond reading the piece set's data (sizes,
board, towers) and the raw placements of a state, and writes the notation
itself.
"""

from __future__ import annotations

from itertools import permutations

DIRS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
OPP = {"n": "s", "s": "n", "e": "w", "w": "e"}
DNAME = "nesw"
# sample fractions: never on a wedge's diagonal (u != v and u != 1 - v)
SU = (0.1, 0.35, 0.6, 0.85)
SV = (0.2, 0.45, 0.7, 0.95)
EPS = 0.01


def frac_along(d: str, fx: float, fy: float) -> float:
    """How far (0..1) a point lies across its cell towards direction ``d``."""
    return {"n": fy, "s": 1 - fy, "e": fx, "w": 1 - fx}[d]


def solid(shape, fx: float, fy: float, fz: float) -> bool:
    """Whether a cell filled with ``shape`` contains the point at fractions (fx, fy, fz)."""
    if shape == "full":
        return True
    kind, d = shape
    t = frac_along(d, fx, fy)
    return fz < t if kind == "up" else fz > t


def label(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


class Piece:
    """A construction piece as explicit cells."""

    def __init__(self, pid, owner, kind, cells, text):
        self.pid = pid  # ("B", owner, k) or ("S", owner, j)
        self.owner = owner
        self.kind = kind  # "B" or "S"
        self.cells = cells  # {(x, y, z): shape}
        self.text = text  # the placement's notation


def block_cells(x, y, z, dx, dy, dz):
    return {(x + i, y + j, z + k): "full" for i in range(dx) for j in range(dy) for k in range(dz)}


def block_text(name, x, y, z, dx, dy, dz):
    lev = f"+{z}" if z else ""
    return f"B{name}@{label(x, y)}{lev}:{dx}x{dy}x{dz}"


def stair_text(x, y, z, d, inv):
    lev = f"+{z}" if z else ""
    return f"S@{label(x, y)}{lev}:{'u' if inv else d}"


class World:
    """The construction pieces, towers and Lords of a position, as voxels."""

    def __init__(self, state):
        ps = state.game.pieceset
        self.W, self.H, self.TH = ps.width, ps.height, ps.tower_height
        self.names = [b.name for b in ps.blocks]
        self.sizes = [b.size for b in ps.blocks]
        self.towers = [ps.grid.coord(t) for t in ps.towers]
        self.lords = [ps.grid.coord(a) for a in state.lords]
        self.pieces: list[Piece] = []
        nb = len(ps.blocks)
        ori = ps.orientations
        for i, pl in enumerate(state.blocks):
            if pl is None:
                continue
            owner, k = divmod(i, nb)
            o = ori[pl[0]]
            x, y = ps.grid.coord(pl[1])
            z = pl[2]
            self.pieces.append(
                Piece(
                    ("B", owner, k),
                    owner,
                    "B",
                    block_cells(x, y, z, o.dx, o.dy, o.dz),
                    block_text(self.names[k], x, y, z, o.dx, o.dy, o.dz),
                )
            )
        for owner in (0, 1):
            for j, (a, z, d, inv) in enumerate(state.stairs[owner]):
                x, y = ps.grid.coord(a)
                dn = DNAME[d]
                self.pieces.append(
                    Piece(
                        ("S", owner, j),
                        owner,
                        "S",
                        {(x, y, z): ("inv" if inv else "up", dn)},
                        stair_text(x, y, z, dn, inv),
                    )
                )

    # -- probing -------------------------------------------------------------------

    def on_board(self, x, y):
        return 0 <= x < self.W and 0 <= y < self.H

    def material(self, pieces, X, Y, Z):
        """The pieces containing the continuous point (X, Y, Z)."""
        x, y, z = int(X // 1), int(Y // 1), int(Z // 1)
        out = []
        for p, shape in self.index(pieces).get((x, y, z), ()):
            if solid(shape, X - x, Y - y, Z - z):
                out.append(p)
        return out

    def index(self, pieces):
        """Cell -> [(piece, shape)] for a list of pieces (cached)."""
        key = tuple(id(p) for p in pieces)
        cache = self.__dict__.setdefault("_index", {})
        got = cache.get(key)
        if got is None:
            got = {}
            for p in pieces:
                for c, shape in p.cells.items():
                    got.setdefault(c, []).append((p, shape))
            cache[key] = got
        return got

    def voxels(self, pieces):
        return {c: [shape for _, shape in v] for c, v in self.index(pieces).items()}

    def column_top(self, pieces, x, y):
        """("flat", h) or ("slope", z, d) for the top of a column, or ("tower", TH)."""
        if (x, y) in self.towers:
            return ("flat", self.TH)
        vox = self.voxels(pieces)
        h = 0
        while True:
            shapes = vox.get((x, y, h))
            if not shapes:
                return ("flat", h)
            if len(shapes) == 1 and shapes[0] != "full":
                return ("slope", h, shapes[0][1])
            h += 1

    # -- placement -----------------------------------------------------------------------

    def valid(self, others, cells, prev_text=None, text=None, lords=True):
        """Is a piece made of ``cells`` placeable among ``others``?"""
        if text is not None and text == prev_text:
            return False
        lordsq = set(self.lords) if lords else set()
        vox = self.index(others)
        for (x, y, z), shape in cells.items():
            if not self.on_board(x, y) or not 0 <= z < self.TH:
                return False
            if (x, y) in self.towers or (x, y) in lordsq:
                return False
            there = [sh for _, sh in vox.get((x, y, z), [])]
            # only an upright stair and an upside-down one of the same slope share a cell
            if there and not (
                len(there) == 1
                and shape != "full"
                and there[0] != "full"
                and {shape[0], there[0][0]} == {"up", "inv"}
                and shape[1] == there[0][1]
            ):
                return False
        # no empty space under any part: probe just below the lowest material
        for (x, y, z), shape in cells.items():
            for fx in SU:
                for fy in SV:
                    # lowest solid point of this piece above (fx, fy) in this cell
                    if (x, y, z - 1) in cells and solid(cells[(x, y, z - 1)], fx, fy, 0.99):
                        continue
                    bottom = None
                    for k in range(100):
                        fz = k / 100 + 0.005
                        if solid(shape, fx, fy, fz):
                            bottom = fz
                            break
                    if bottom is None:
                        continue
                    Z = z + bottom - EPS
                    if Z < 0:
                        continue  # on the board
                    if not self.material(others, x + fx, y + fy, Z):
                        return False
        # a stair's slope faces the sky unless nested: an upside-down stair alone floats
        return True

    def placements(self, kind, k, others):
        """Every (text, cells) placement of block kind ``k`` or of a stair."""
        out = []
        if kind == "B":
            for dx, dy, dz in sorted(set(permutations(self.sizes[k]))):
                for x in range(self.W):
                    for y in range(self.H):
                        for z in range(self.TH):
                            cells = block_cells(x, y, z, dx, dy, dz)
                            out.append((block_text(self.names[k], x, y, z, dx, dy, dz), cells))
        else:
            for x in range(self.W):
                for y in range(self.H):
                    for z in range(self.TH):
                        for d in DNAME:
                            out.append((stair_text(x, y, z, d, 0), {(x, y, z): ("up", d)}))
                            out.append((stair_text(x, y, z, d, 1), {(x, y, z): ("inv", d)}))
        return out

    def valid_placements(self, kind, k, others, prev_text=None, first=False):
        found = []
        for text, cells in self.placements(kind, k, others):
            if self.valid(others, cells, prev_text, text):
                found.append(text)
                if first:
                    return found
        return found

    # -- blocking -------------------------------------------------------------------------

    def blocked(self, piece):
        others = [p for p in self.pieces if p is not piece]
        # something rests on it: material or a Lord just above its top surface
        for (x, y, z), shape in piece.cells.items():
            if (x, y, z + 1) in piece.cells:
                continue
            top = self.column_top(self.pieces, x, y)
            for lord in self.lords:
                if lord == (x, y) and top == ("flat", z + 1):
                    return True
            for fx in SU:
                for fy in SV:
                    topz = None
                    for kk in range(99, -1, -1):
                        fz = kk / 100 + 0.005
                        if solid(shape, fx, fy, fz):
                            topz = fz
                            break
                    if topz is None:
                        continue
                    if self.material(others, x + fx, y + fy, z + topz + EPS):
                        return True
        # enclosed: every point of its vertical faces is against another piece
        for (x, y, z), shape in piece.cells.items():
            for _dn, (ddx, ddy) in DIRS.items():
                for u in SU:
                    for v in SV:
                        # a point on the face of side (ddx, ddy), u across, v up
                        if ddx:
                            fx = 1 - EPS if ddx > 0 else EPS
                            fy = u
                        else:
                            fy = 1 - EPS if ddy > 0 else EPS
                            fx = u
                        if not solid(shape, fx, fy, v):
                            continue
                        X = x + fx + ddx * 2 * EPS
                        Y = y + fy + ddy * 2 * EPS
                        if self.material([piece], X, Y, z + v):
                            continue  # an inner face of the same piece
                        if not self.on_board(int(X // 1), int(Y // 1)):
                            return False
                        if not self.material(others, X, Y, z + v):
                            return False
        return True

    # -- the Lord --------------------------------------------------------------------------

    def step(self, x, y, h, dn, other):
        """Land after one step (flat move or a straight chain of slopes), or None."""
        ddx, ddy = DIRS[dn]
        cx, cy, cur = x + ddx, y + ddy, h
        while self.on_board(cx, cy):
            top = self.column_top(self.pieces, cx, cy)
            if top[0] == "flat":
                if top[1] != cur or (cx, cy) == other:
                    return None
                return (cx, cy, cur)
            _, z, d = top
            # edge heights of the slope on the side we enter and the side we leave
            if d == dn:
                enter, leave = z, z + 1
            elif d == OPP[dn]:
                enter, leave = z + 1, z
            else:
                return None  # crossed from the side
            if enter != cur:
                return None
            cur = leave
            cx, cy = cx + ddx, cy + ddy
        return None

    def lord_paths(self, player):
        me, other = self.lords[player], self.lords[1 - player]
        top = self.column_top(self.pieces, *me)
        paths = []

        def walk(path, x, y, h):
            if len(path) > 1:
                paths.append(tuple(path))
            if len(path) == 4:
                return
            for dn in DNAME:
                r = self.step(x, y, h, dn, other)
                if r is not None:
                    walk([*path, (r[0], r[1])], *r)

        walk([me], me[0], me[1], top[1])
        return paths


def reference_moves(state) -> tuple[set[str], dict[str, set[tuple]]]:
    """Every legal decision by the reference: non-Lord decisions as notation
    strings, and the Lord's destinations (``"L" + square``) with every path."""
    if state.outcome is not None:
        return set(), {}
    w = World(state)
    p = state.to_move
    ps = state.game.pieceset
    nb = len(ps.blocks)
    out: set[str] = set()
    lords: dict[str, set[tuple]] = {}
    hand = state.hand
    if hand is not None:
        if hand[0] == "B":
            k, prev = hand[1], hand[2]
            prev_text = None
            if prev is not None:
                o = ps.orientations[prev[0]]
                x, y = ps.grid.coord(prev[1])
                prev_text = block_text(w.names[k], x, y, prev[2], o.dx, o.dy, o.dz)
            out.update(w.valid_placements("B", k, w.pieces, prev_text))
        else:
            prev = hand[1]
            prev_text = None
            if prev is not None:
                x, y = ps.grid.coord(prev[0])
                prev_text = stair_text(x, y, prev[1], DNAME[prev[2]], prev[3])
            out.update(w.valid_placements("S", None, w.pieces, prev_text))
        return out, lords
    done = state.done
    if not done & 1:
        for k in range(nb):
            on = [q for q in w.pieces if q.pid == ("B", p, k)]
            if not on:
                if w.valid_placements("B", k, w.pieces, first=True):
                    out.add("B" + w.names[k])
            else:
                piece = on[0]
                others = [q for q in w.pieces if q is not piece]
                if not w.blocked(piece) and w.valid_placements(
                    "B", k, others, piece.text, first=True
                ):
                    out.add("B" + w.names[k])
    if not done & 2:
        mine = [q for q in w.pieces if q.kind == "S" and q.owner == p]
        if len(mine) < ps.stairs and w.valid_placements("S", None, w.pieces, first=True):
            out.add("S")
        for piece in mine:
            others = [q for q in w.pieces if q is not piece]
            if not w.blocked(piece) and w.valid_placements(
                "S", None, others, piece.text, first=True
            ):
                ((x, y, _z),) = piece.cells
                out.add("S" + label(x, y))
    own_tower = w.towers[p]
    for path in w.lord_paths(p):
        end = path[-1]
        if end == w.lords[p] or end == own_tower:
            continue
        lords.setdefault("L" + label(*end), set()).add(tuple(label(*c) for c in path))
    if done:
        out.add("end")
    elif not out and not lords:
        out.add("pass")
    return out, lords


def floating_or_too_high(state) -> list[str]:
    """Problems of a position found by the voxel model (empty when sound)."""
    w = World(state)
    problems = []
    for piece in w.pieces:
        others = [q for q in w.pieces if q is not piece]
        for _x, _y, z in piece.cells:
            if z >= w.TH:
                problems.append(f"{piece.text} above the towers")
        if not w.valid(others, piece.cells, lords=False):
            problems.append(f"{piece.text} overlaps, floats, or stands on a tower or a Lord")
    return problems
