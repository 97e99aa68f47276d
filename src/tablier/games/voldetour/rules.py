"""Voldetour rules: the 3D board model, decisions, states and move generation.

The model (units: one square by one level, levels 0 .. tower_height - 1):

- A *block* fills whole unit cells: a cuboid, placed as an orientation
  (columns x rows x levels) anchored at its lowest-column, lowest-row square
  and resting at level ``z``.
- A *stair* is a wedge filling half of one unit cell.  Upright, its slope
  rises across the square towards direction ``d`` (n, e, s, w).  Upside down
  (``inv``), it can only be nested on an upright stair of the same cell, slope
  against slope; the two fill the cell and give a flat top.
- The towers are fixed columns ``tower_height`` high; nothing is placed on them.

Every column is a contiguous stack from the board (no piece may leave empty
space under it), topped either flat at some height or by one upright,
un-nested stair (a *slope*).  The engine keeps, per level, bitboards of the
block cells, of the upright stairs per direction and of the nested upside-down
stairs, and derives from them the flat tops per height, the squares where a
piece may rest and the slopes the Lords use.

A turn is a sequence of decisions by the same player (see ``docs/rules/voldetour.md``):

- *take* a block (``B123``: from the reserve or lifted from the board) or a stair
  (``S`` from the reserve, ``Sc4`` lifted from c4); at most one block action and
  one stair action per turn, and none once the Lord has moved;
- *put* the piece in hand (``B123@c3:2x1x3``, ``S@c4:n``, ``S@c4:u``);
- move the Lord (``Lb2-b3-c3``), which ends the turn;
- ``end`` the turn (after at least one action), or ``pass`` when no action is possible.

The engine below, in Python, is the reference.  A compiled core (``_native.c``)
does the same work faster when it is built: decision generation, applying and
the outcome dispatch to it through module-level names that :func:`switch`
rebinds, given the piece set's tables once per set (:func:`native_tables`).
It returns the same moves, in the same order, and equal states.  It leaves to
the pure engine the piece sets it cannot hold and turn numbers beyond 2**62.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ...core.errors import Label
from ...core.game import Move, Outcome, State, frozen_state, slot_setters
from ...core.native import load, register
from .pieceset import DIR_NAMES, Orientation, PieceSet, load_set

if TYPE_CHECKING:  # pragma: no cover
    from .game import Voldetour

__all__ = ["PLAYER_NAMES", "Board", "VMove", "VState", "move_class", "native_tables", "switch"]

#: The compiled core (``_native.c``), or None: the pure-Python engine below plays.
if TYPE_CHECKING:  # pragma: no cover
    from . import _native as _native
else:
    _native = load("tablier.games.voldetour._native")

PLAYER_NAMES = ("Black", "White")
#: The players' names inside messages: the labels of the catalogs (docs/i18n.md).
PLAYERS = (Label("game.voldetour.player.0", "Black"), Label("game.voldetour.player.1", "White"))

#: Action bits of ``VState.done``: block action used, stair action used,
#: a piece came from a reserve this turn (irreversible, for repetition).
BLOCK, STAIR, FROM_RESERVE = 1, 2, 4

_UNSET: Any = object()

#: A block on the board: ``(orientation id, anchor square, level)``.
BlockPlace = tuple[int, int, int]
#: A stair on the board: ``(square, level, direction, upside_down)`` (upside_down 0 or 1).
StairPlace = tuple[int, int, int, int]
#: Per player, the sorted placements of their stairs on the board.
Stairs = tuple[tuple[StairPlace, ...], tuple[StairPlace, ...]]
#: The piece in hand: ``("B", kind, BlockPlace | None)`` or ``("S", StairPlace | None)``.
Hand = tuple[Any, ...]


_KINDS = {"T": "take", "P": "put", "L": "lord", "E": "end", "X": "pass"}


class VMove(tuple[Any, ...], Move):
    """One Voldetour decision: a tuple (its key) whose ``str()`` gives its notation.

    Keys: ``("T", "B", k)`` take block kind ``k``; ``("T", "S", None)`` take a
    stair from the reserve; ``("T", "S", (a, z, d, inv))`` lift that stair;
    ``("P", "B", k, oid, a, z)`` put the block in hand; ``("P", "S", a, z, d, inv)``
    put the stair in hand; ``("L", path)`` move the Lord along the squares of
    ``path`` (bit indices, start included); ``("E",)`` end the turn; ``("X",)`` pass.
    Moves are built by :func:`move_class` (one subclass per piece set, which
    knows the set for printing); being tuples makes them cheap to create.
    """

    __slots__ = ()
    _ps: PieceSet

    @property
    def key(self) -> tuple[Any, ...]:
        """The decision as a plain tuple (see the class docstring)."""
        return tuple(self)

    @property
    def kind(self) -> str:
        """``"take"``, ``"put"``, ``"lord"``, ``"end"`` or ``"pass"``."""
        return _KINDS[self[0]]

    def __repr__(self) -> str:
        return f"<VMove {self}>"

    def __reduce__(self) -> tuple[Any, tuple[str, tuple[Any, ...]]]:
        return (_rebuild_move, (self._ps.name, tuple(self)))

    def __str__(self) -> str:
        key, ps = self, self._ps
        label = ps.grid.label
        tag = key[0]
        if tag == "T":
            if key[1] == "B":
                k: int = key[2]
                return "B" + ps.blocks[k].name
            return "S" if key[2] is None else "S" + label(key[2][0])
        if tag == "P":
            if key[1] == "B":
                o = ps.orientations[key[3]]
                lev = f"+{key[5]}" if key[5] else ""
                return f"B{ps.blocks[key[2]].name}@{label(key[4])}{lev}:{o.text}"
            lev = f"+{key[3]}" if key[3] else ""
            return f"S@{label(key[2])}{lev}:{'u' if key[5] else DIR_NAMES[key[4]]}"
        if tag == "L":
            return "L" + "-".join(label(i) for i in key[1])
        return "end" if tag == "E" else "pass"


_MOVE_CLASSES: dict[int, type[VMove]] = {}
_PUT_TABLES: dict[int, tuple[list[Any], list[Any]]] = {}


def put_tables(ps: PieceSet) -> tuple[list[Any], list[Any]]:
    """Premade put moves of piece set ``ps`` (moves are immutable, so shared).

    ``blocks[oid][z][a]`` is the move putting that orientation at anchor ``a``
    and level ``z``; ``stairs[z][d][inv][a]`` the move putting a stair, and
    ``stairs[z][4][a]`` the four upright puts at square ``a``, level ``z``.
    """
    got = _PUT_TABLES.get(id(ps))
    if got is None:
        mk = move_class(ps)
        size = max(ps.grid.indices) + 1
        H = ps.tower_height
        blocks = [
            [
                [
                    mk(("P", "B", o.kind, o.oid, a, z)) if o.anchors >> a & 1 else None
                    for a in range(size)
                ]
                for z in range(H)
            ]
            for o in ps.orientations
        ]
        stairs: list[list[Any]] = [
            [[[mk(("P", "S", a, z, d, i)) for a in range(size)] for i in (0, 1)] for d in range(4)]
            for z in range(H)
        ]
        for per_level in stairs:  # [4]: the four upright puts of each square, together
            per_level.append([tuple(per_level[d][0][a] for d in range(4)) for a in range(size)])
        got = _PUT_TABLES[id(ps)] = (blocks, stairs)
    return got


def _rebuild_move(set_name: str, key: tuple[Any, ...]) -> VMove:
    """Unpickle a move: its piece set by name, then the key."""
    return move_class(load_set(set_name))(key)


def move_class(ps: PieceSet) -> type[VMove]:
    """The VMove subclass of piece set ``ps``: ``move_class(ps)(key)`` builds a move."""
    cls = _MOVE_CLASSES.get(id(ps))
    if cls is None:
        cls = _MOVE_CLASSES[id(ps)] = type("VMove", (VMove,), {"__slots__": (), "_ps": ps})
    return cls


class Board:
    """Bitboards derived from the pieces on the board (one position).

    Per level ``z``: ``blk[z]`` block cells, ``up[z][d]`` upright stairs rising
    towards ``d`` (nested or not), ``inv[z]`` upside-down stairs, ``occ[z]``
    occupied cells, ``full[z]`` full cells (blocks and nested pairs),
    ``slope[z][d]`` un-nested upright stairs.  Per height ``h`` (0 ..
    tower_height): ``flat[h]`` squares whose column has a flat top at ``h``
    (towers excluded), ``lflat[h]`` the same where a Lord may stand (towers at
    the top height).  ``place[z]`` squares where a piece may rest at level ``z``
    (flat top at ``z``, no tower, no Lord).
    """

    __slots__ = ("blk", "flat", "full", "inv", "lflat", "lordmask", "occ", "place", "slope", "up")

    blk: list[int]
    up: list[list[int]]
    inv: list[int]
    occ: list[int]
    full: list[int]
    flat: list[int]
    lflat: list[int]
    place: list[int]
    slope: list[list[int]]
    lordmask: int

    def __init__(
        self,
        ps: PieceSet,
        blocks: tuple[BlockPlace | None, ...],
        stairs: Stairs,
        lords: tuple[int, int],
    ) -> None:
        H = ps.tower_height
        ori = _orients(ps)
        blk = [0] * H
        for pl in blocks:
            if pl is not None:
                oid, a, z = pl
                o = ori[oid]
                fp = o.base << a
                for lev in range(z, z + o.dz):
                    blk[lev] |= fp
        up = [[0, 0, 0, 0] for _ in range(H)]
        inv = [0] * H
        for side in stairs:
            for a, z, d, i in side:
                if i:
                    inv[z] |= 1 << a
                else:
                    up[z][d] |= 1 << a
        self._derive(ps, blk, up, inv, lords)

    @classmethod
    def from_masks(
        cls,
        ps: PieceSet,
        blk: list[int],
        up: list[list[int]],
        inv: list[int],
        lords: tuple[int, int],
    ) -> Board:
        """A board from its block, upright-stair and nested-stair masks per level."""
        b = cls.__new__(cls)
        b._derive(ps, blk, up, inv, lords)
        return b

    def _derive(
        self,
        ps: PieceSet,
        blk: list[int],
        up: list[list[int]],
        inv: list[int],
        lords: tuple[int, int],
    ) -> None:
        H = ps.tower_height
        occ = [blk[z] | up[z][0] | up[z][1] | up[z][2] | up[z][3] for z in range(H)]
        full = [blk[z] | inv[z] for z in range(H)]
        board = ps.grid.board
        towers = (1 << ps.towers[0]) | (1 << ps.towers[1])
        flat = [board & ~occ[0] & ~towers]
        for h in range(1, H):
            flat.append(full[h - 1] & ~occ[h])
        flat.append(full[H - 1])
        lordmask = (1 << lords[0]) | (1 << lords[1])
        free = ~lordmask
        self.blk, self.up, self.inv, self.occ, self.full = blk, up, inv, occ, full
        self.flat = flat
        self.lflat = [*flat[:H], flat[H] | towers]
        self.place = [flat[z] & free for z in range(H)]
        self.slope = [[up[z][d] & ~inv[z] for d in range(4)] for z in range(H)]
        self.lordmask = lordmask

    def with_block(self, ps: PieceSet, pl: BlockPlace, add: bool) -> Board:
        """This board with the block placed at ``pl`` added (or removed)."""
        oid, a, z = pl
        o = _orients(ps)[oid]
        fp = o.base << a
        blk = list(self.blk)
        for lev in range(z, z + o.dz):
            blk[lev] = blk[lev] | fp if add else blk[lev] & ~fp
        return Board.from_masks(ps, blk, self.up, self.inv, self._lords(ps))

    def with_stair(self, ps: PieceSet, st: StairPlace, add: bool) -> Board:
        """This board with the stair placed at ``st`` added (or removed)."""
        a, z, d, i = st
        bit = 1 << a
        up, inv = self.up, self.inv
        if i:
            inv = list(inv)
            inv[z] = inv[z] | bit if add else inv[z] & ~bit
        else:
            up = list(up)
            row = list(up[z])
            row[d] = row[d] | bit if add else row[d] & ~bit
            up[z] = row
        return Board.from_masks(ps, self.blk, up, inv, self._lords(ps))

    def _lords(self, ps: PieceSet) -> tuple[int, int]:
        m = self.lordmask
        low = m & -m
        high = m ^ low
        return (low.bit_length() - 1, high.bit_length() - 1)

    def height(self, a: int) -> int | None:
        """The flat-top height at square ``a`` (None on a slope)."""
        for h, m in enumerate(self.lflat):
            if m >> a & 1:
                return h
        return None


_ORIENTS: dict[int, tuple[Orientation, ...]] = {}


def _orients(ps: PieceSet) -> tuple[Orientation, ...]:
    got = _ORIENTS.get(id(ps))
    if got is None:
        got = _ORIENTS[id(ps)] = ps.orientations
    return got


def anchors(place: int, o: Orientation) -> int:
    """Anchors where orientation ``o`` rests at the level whose free flat tops are ``place``."""
    m = place & o.anchors
    for off in o.offsets:
        if not m:
            return 0
        m &= place >> off
    return m


@frozen_state
class VState(State[VMove]):
    """An immutable Voldetour position (see the module docstring for the model).

    Fields: ``blocks`` (per player, per block kind: ``None`` in reserve or in
    hand, else ``(oid, anchor, level)``), ``stairs`` (per player, the sorted
    placements ``(square, level, direction, upside_down)`` on the board),
    ``lords`` (the two Lords' squares), ``turn`` (1-based turn number; Black
    plays the odd turns), ``done`` (action bits used this turn), ``hand`` (the
    piece being placed: ``("B", k, previous placement or None)`` or
    ``("S", previous placement or None)``), ``passes`` (consecutive passes),
    ``history`` (repetition keys since the last irreversible action, only
    with the ``repetition`` option).

    A frozen slotted dataclass (:func:`~tablier.core.game.frozen_state`):
    assigning an attribute raises :class:`dataclasses.FrozenInstanceError`;
    ``dataclasses.replace`` gives a changed copy.
    """

    game: Voldetour
    blocks: tuple[BlockPlace | None, ...]
    stairs: Stairs
    lords: tuple[int, int]
    turn: int
    done: int = 0
    hand: Hand | None = None
    passes: int = 0
    history: tuple[int, ...] = ()
    # worked out on demand (apply_unchecked hands the next state its board)
    _board: Board | None = field(default=None, init=False)
    _moves: list[VMove] | None = field(default=None, init=False)
    _index: dict[tuple[Any, ...], VMove] | None = field(default=None, init=False)
    _outcome: Outcome | None = field(default=_UNSET, init=False)
    _hash: int | None = field(default=None, init=False)

    def __reduce__(self) -> tuple[type[VState], tuple[Any, ...]]:
        return (
            VState,
            (
                self.game,
                self.blocks,
                self.stairs,
                self.lords,
                self.turn,
                self.done,
                self.hand,
                self.passes,
                self.history,
            ),
        )

    # -- protocol -------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """Black (0) plays the odd turns, White (1) the even ones."""
        return (self.turn - 1) & 1

    def _key(self) -> tuple[Any, ...]:
        return (
            self.blocks,
            self.stairs,
            self.lords,
            self.turn,
            self.done,
            self.hand,
            self.passes,
            self.history,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VState) and other.game == self.game and other._key() == self._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            _s_hash(self, h)
        return h

    @property
    def board(self) -> Board:
        """The derived bitboards of this position (computed once)."""
        b = self._board
        if b is None:
            b = Board(self.game.pieceset, self.blocks, self.stairs, self.lords)
            _s_board(self, b)
        return b

    @property
    def outcome(self) -> Outcome | None:
        """Win on the enemy tower, loss by staying, or a draw (passes, repetition, limit)."""
        outcome = self._outcome
        if outcome is _UNSET:
            outcome = _outcome(self)
            _s_outcome(self, outcome)
        return outcome

    def _compute_outcome(self) -> Outcome | None:
        ps = self.game.pieceset
        names = PLAYER_NAMES
        for p in (0, 1):
            if self.lords[p] == ps.towers[1 - p]:
                return Outcome(p, "tower", f"{names[p]}'s Lord reached the enemy tower")
        for p in (0, 1):
            if self.lords[p] == ps.towers[p] and self.turns_completed(p) >= 3:
                return Outcome(
                    1 - p,
                    "stayed",
                    f"{names[p]}'s Lord did not leave its tower by the end of its third turn",
                )
        if self.passes >= 2:
            return Outcome(None, "no-action", "neither player could act: draw")
        if self.history and self.history.count(self.history[-1]) >= 3:
            return Outcome(None, "repetition", "the same position came three times: draw")
        limit = self.game.max_turns
        if limit is not None and self.turn > limit:
            return Outcome(None, "move-limit", f"the limit of {limit} turns was reached: draw")
        return None

    def turns_completed(self, player: int) -> int:
        """How many turns ``player`` has finished."""
        return self.turn // 2 if player == 0 else (self.turn - 1) // 2

    # -- reserves -------------------------------------------------------------------

    def reserve_blocks(self, player: int) -> list[int]:
        """The block kinds of ``player`` in reserve (not on the board, not in hand)."""
        nb = len(self.game.pieceset.blocks)
        held = self.hand[1] if self.hand and self.hand[0] == "B" and self.to_move == player else -1
        return [k for k in range(nb) if self.blocks[player * nb + k] is None and k != held]

    def reserve_stairs(self, player: int) -> int:
        """How many stairs ``player`` has in reserve."""
        held = 1 if self.hand and self.hand[0] == "S" and self.to_move == player else 0
        return self.game.pieceset.stairs - len(self.stairs[player]) - held

    # -- move generation ------------------------------------------------------------

    def legal_moves(self) -> list[VMove]:
        """Every legal decision, in a fixed order; empty once the game is over."""
        moves = self._moves
        if moves is None:
            moves = [] if self.outcome is not None else _generate(self)
            _s_moves(self, moves)
        return list(moves)

    def move_index(self) -> dict[tuple[Any, ...], VMove]:
        """The legal decisions by key (computed once; used to read notation)."""
        index = self._index
        if index is None:
            index = {m: m for m in self.legal_moves()}
            _s_index(self, index)
        return index

    def _generate(self) -> list[VMove]:
        ps = self.game.pieceset
        b = self.board
        if self.hand is not None:
            return self._puts(b)
        mk = move_class(ps)
        p = self.to_move
        nb = len(ps.blocks)
        moves: list[VMove] = []
        if not self.done & BLOCK:
            for k in range(nb):
                pl = self.blocks[p * nb + k]
                if pl is None:
                    if self._block_fits(b, k, None, 0):
                        moves.append(mk(("T", "B", k)))
                elif not self.block_blocked(b, pl):
                    fp = _orients(ps)[pl[0]].base << pl[1]
                    if self._block_fits(b, k, None, fp):
                        moves.append(mk(("T", "B", k)))
                        continue
                    # rare: only the squares it frees could take it; look without it
                    blocks = list(self.blocks)
                    blocks[p * nb + k] = None
                    b2 = Board(ps, tuple(blocks), self.stairs, self.lords)
                    if self._block_fits(b2, k, pl, 0):
                        moves.append(mk(("T", "B", k)))
        if not self.done & STAIR:
            if self.reserve_stairs(p) > 0 and self._stair_fits(b, None):
                moves.append(mk(("T", "S", None)))
            mine = self.stairs[p]
            for j, st in enumerate(mine):
                if self.stair_blocked(b, st):
                    continue
                if self._stair_fits(b, None, ~(1 << st[0])):
                    moves.append(mk(("T", "S", st)))
                    continue
                rest = mine[:j] + mine[j + 1 :]
                stairs = (rest, self.stairs[1]) if p == 0 else (self.stairs[0], rest)
                b2 = Board(ps, self.blocks, stairs, self.lords)
                if self._stair_fits(b2, st):
                    moves.append(mk(("T", "S", st)))
        for path in self.lord_paths(b).values():
            moves.append(mk(("L", path)))
        if self.done:
            moves.append(mk(("E",)))
        elif not moves:
            moves.append(mk(("X",)))
        return moves

    def _block_fits(self, b: Board, k: int, prev: BlockPlace | None, avoid: int) -> bool:
        """Whether block kind ``k`` has a placement other than ``prev``, its
        footprint clear of the squares of ``avoid``."""
        H = self.game.pieceset.tower_height
        for o in self.game.pieceset.blocks[k].orientations:
            bad = 0
            if avoid:
                for off in o.offsets:
                    bad |= avoid >> off
            for z in range(H - o.dz + 1):
                m = anchors(b.place[z], o) & ~bad
                if prev is not None and prev[0] == o.oid and prev[2] == z:
                    m &= ~(1 << prev[1])
                if m:
                    return True
        return False

    def _stair_fits(self, b: Board, prev: StairPlace | None, keep: int = -1) -> bool:
        """Whether a stair has a placement other than ``prev`` on the squares of ``keep``."""
        H = self.game.pieceset.tower_height
        for z in range(H):
            if b.place[z] & keep:
                # an upright stair fits there in four directions, at most one is prev
                return True
            for d in range(4):
                m = b.slope[z][d] & keep
                if prev is not None and prev[1] == z and prev[2] == d and prev[3]:
                    m &= ~(1 << prev[0])
                if m:
                    return True
        return False

    def _puts(self, b: Board) -> list[VMove]:
        ps = self.game.pieceset
        table_b, table_s = put_tables(ps)
        H = ps.tower_height
        hand = self.hand
        assert hand is not None  # only called with a piece in hand
        moves: list[VMove] = []
        add = moves.append
        if hand[0] == "B":
            k, prev = hand[1], hand[2]
            for o in ps.blocks[k].orientations:
                oid = o.oid
                by_level = table_b[oid]
                for z in range(H - o.dz + 1):
                    m = anchors(b.place[z], o)
                    if prev is not None and prev[0] == oid and prev[2] == z:
                        m &= ~(1 << prev[1])
                    tbl = by_level[z]
                    while m:
                        low = m & -m
                        add(tbl[low.bit_length() - 1])
                        m ^= low
            return moves
        prev = hand[1]
        for z in range(H):
            quads = table_s[z][4]
            m = b.place[z]
            while m:
                low = m & -m
                moves.extend(quads[low.bit_length() - 1])
                m ^= low
            for d in range(4):
                m = b.slope[z][d]
                tbl = table_s[z][d][1]
                while m:
                    low = m & -m
                    add(tbl[low.bit_length() - 1])
                    m ^= low
        if prev is not None:
            a, z, d, i = prev
            moves.remove(table_s[z][d][i][a])
        return moves

    # -- blocking ---------------------------------------------------------------------

    def block_blocked(self, b: Board, pl: BlockPlace) -> bool:
        """True when the block placed at ``pl`` cannot be moved (covered or enclosed)."""
        ps = self.game.pieceset
        oid, a, z = pl
        o = _orients(ps)[oid]
        fp = o.base << a
        zt = z + o.dz
        if fp & b.lordmask or (zt < ps.tower_height and b.occ[zt] & fp):
            return True
        board = ps.grid.board
        for e, s in enumerate(ps.grid.shifts):
            n = fp << s if s > 0 else fp >> -s
            if n & ~board:
                return False
            ring = n & ~fp
            opp = (e + 2) & 3
            for lev in range(z, zt):
                if ring & ~(b.full[lev] | b.up[lev][opp]):
                    return False
        return True

    def stair_blocked(self, b: Board, st: StairPlace) -> bool:
        """True when the stair placed at ``st`` cannot be moved (covered or enclosed)."""
        ps = self.game.pieceset
        a, z, d, i = st
        bit = 1 << a
        full, up = b.full[z], b.up[z]
        if i:
            if bit & b.lordmask or (z + 1 < ps.tower_height and b.occ[z + 1] & bit):
                return True
            # the thick end faces -d; the side triangles are the upper halves
            faces = [((d + 2) & 3, full | up[d])]
            faces += [(e, full | up[(e + 2) & 3]) for e in ((d + 1) & 3, (d + 3) & 3)]
        else:
            if b.inv[z] & bit:
                return True
            # the high end faces +d; the side triangles are the lower halves
            faces = [(d, full | up[(d + 2) & 3])]
            faces += [(e, full | up[(e + 2) & 3] | up[d]) for e in ((d + 1) & 3, (d + 3) & 3)]
        board = ps.grid.board
        shifts = ps.grid.shifts
        for e, hide in faces:
            s = shifts[e]
            n = bit << s if s > 0 else bit >> -s
            if not n & board & hide:
                return False
        return True

    # -- the Lord ----------------------------------------------------------------------

    def lord_step(self, b: Board, q: int, h: int, e: int) -> tuple[int, int] | None:
        """Where one step from square ``q`` (flat top at ``h``) towards ``e`` lands.

        Either the next square, flat at the same height, or the square beyond a
        straight, continuous chain of slopes.  Returns ``(square, height)`` or
        None.  Lords and towers are not checked here.
        """
        grid = self.game.pieceset.grid
        board = grid.board
        s = grid.shifts[e]
        t = q + s
        if not board >> t & 1:
            return None
        if b.lflat[h] >> t & 1:
            return t, h
        cur = h
        H = self.game.pieceset.tower_height
        back = (e + 2) & 3
        slope = b.slope
        lflat = b.lflat
        while True:
            if cur < H and slope[cur][e] >> t & 1:
                cur += 1
            elif cur > 0 and slope[cur - 1][back] >> t & 1:
                cur -= 1
            else:
                return None
            t += s
            if not board >> t & 1:
                return None
            if lflat[cur] >> t & 1:
                return t, cur

    def lord_paths(self, b: Board | None = None) -> dict[int, tuple[int, ...]]:
        """The squares the Lord to move can end on, each with a shortest path (start first).

        Breadth-first search over flat squares, at most three steps, never
        through the other Lord; the own tower may be crossed but not ended on.
        """
        if b is None:
            b = self.board
        ps = self.game.pieceset
        p = self.to_move
        src, other = self.lords[p], self.lords[1 - p]
        h0 = b.height(src)
        if h0 is None:  # pragma: no cover - positions are checked when built
            return {}
        parent = {src: -1}
        frontier = [(src, h0)]
        step = self.lord_step
        for _ in range(3):
            nxt = []
            for q, h in frontier:
                for e in range(4):
                    r = step(b, q, h, e)
                    if r is None:
                        continue
                    t = r[0]
                    if t == other or t in parent:
                        continue
                    parent[t] = q
                    nxt.append(r)
            frontier = nxt
        out = {}
        own = ps.towers[p]
        for t in sorted(parent):
            if t in (src, own):
                continue
            path = [t]
            while parent[path[-1]] != -1:
                path.append(parent[path[-1]])
            out[t] = tuple(reversed(path))
        return out

    # -- applying -----------------------------------------------------------------------

    def apply_unchecked(self, move: VMove) -> VState:
        """The state after ``move`` (which must come from :meth:`legal_moves`)."""
        return _apply(self, move)

    def _apply_pure(self, move: VMove) -> VState:
        """:meth:`apply_unchecked` in Python (the reference of the compiled core).

        When this state's board is known, the next one's is updated from it
        (one piece added or removed, or a Lord moved) instead of rebuilt.
        """
        key = move
        tag = key[0]
        game = self.game
        ps = game.pieceset
        p = self.to_move
        nb = len(ps.blocks)
        b = self._board
        blocks, stairs, lords, turn = self.blocks, self.stairs, self.lords, self.turn
        passes, history = self.passes, self.history
        if tag == "T":
            if key[1] == "B":
                k = key[2]
                pl = blocks[p * nb + k]
                if pl is not None:
                    lb = list(blocks)
                    lb[p * nb + k] = None
                    blocks = tuple(lb)
                    if b is not None:
                        b = b.with_block(ps, pl, False)
                hand: Hand = ("B", k, pl)
            else:
                st = key[2]
                if st is not None:
                    mine = tuple(x for x in stairs[p] if x != st)
                    stairs = (mine, stairs[1]) if p == 0 else (stairs[0], mine)
                    if b is not None:
                        b = b.with_stair(ps, st, False)
                hand = ("S", st)
            return _make(game, blocks, stairs, lords, turn, self.done, hand, passes, history, b)
        if tag == "P":
            held = self.hand
            assert held is not None  # a put follows a take
            if key[1] == "B":
                k = key[2]
                lb = list(blocks)
                pl = (key[3], key[4], key[5])
                lb[p * nb + k] = pl
                done = self.done | BLOCK | (FROM_RESERVE if held[2] is None else 0)
                if b is not None:
                    b = b.with_block(ps, pl, True)
                blocks = tuple(lb)
            else:
                st = (key[2], key[3], key[4], key[5])
                mine = tuple(sorted((*stairs[p], st)))
                stairs = (mine, stairs[1]) if p == 0 else (stairs[0], mine)
                done = self.done | STAIR | (FROM_RESERVE if held[1] is None else 0)
                if b is not None:
                    b = b.with_stair(ps, st, True)
            return _make(game, blocks, stairs, lords, turn, done, None, passes, history, b)
        passes = 0
        if tag == "L":
            lords = (key[1][-1], lords[1]) if p == 0 else (lords[0], key[1][-1])
            if b is not None:
                b = Board.from_masks(ps, b.blk, b.up, b.inv, lords)
        elif tag == "X":
            passes = self.passes + 1
        if game.repetition:
            # the player to move next is the other one: (turn + 1 - 1) & 1
            rep = _repetition_key(turn & 1, lords, blocks, stairs)
            history = (rep,) if self.done & FROM_RESERVE else (*history, rep)
        else:
            history = ()
        return _make(game, blocks, stairs, lords, turn + 1, 0, None, passes, history, b)

    def repetition_key(self) -> int:
        """A deterministic 64-bit key of the pieces, Lords and player to move."""
        return _repetition_key(self.to_move, self.lords, self.blocks, self.stairs)

    # -- text -------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position string (the game spec, then the body; see :meth:`body`)."""
        return self.game.position_text(self.body())

    def body(self) -> str:
        """The position body: ``turn=N lords=b2,i9 black=... white=... [do=..] [hand=..]...``.

        ``black``/``white`` list the pieces on the board in the put notation
        (``-`` for none); pieces not listed (and not in hand) are in reserve.
        """
        ps = self.game.pieceset
        label = ps.grid.label
        nb = len(ps.blocks)
        mk = move_class(ps)
        words = [f"turn={self.turn}", f"lords={label(self.lords[0])},{label(self.lords[1])}"]
        for p, word in ((0, "black"), (1, "white")):
            items = []
            for k in range(nb):
                pl = self.blocks[p * nb + k]
                if pl is not None:
                    items.append(str(mk(("P", "B", k, *pl))))
            for st in self.stairs[p]:
                items.append(str(mk(("P", "S", *st))))
            words.append(f"{word}={','.join(items) or '-'}")
        if self.done:
            flags = ("b" if self.done & BLOCK else "") + ("s" if self.done & STAIR else "")
            flags += "r" if self.done & FROM_RESERVE else ""
            words.append(f"do={flags}")
        if self.hand is not None:
            words.append(f"hand={self.hand_text()}")
        if self.passes:
            words.append(f"passes={self.passes}")
        if self.history:
            words.append("rep=" + ".".join(f"{h:x}" for h in self.history))
        return " ".join(words)

    def hand_text(self) -> str:
        """The piece in hand: ``B123`` or ``S`` (from the reserve), ``B123@c3:1x2x3``
        or ``S@c4:n`` (lifted from there)."""
        ps = self.game.pieceset
        hand = self.hand
        if hand is None:
            return "-"
        if hand[0] == "B":
            if hand[2] is None:
                return "B" + ps.blocks[hand[1]].name
            return str(move_class(ps)(("P", "B", hand[1], *hand[2])))
        return "S" if hand[1] is None else str(move_class(ps)(("P", "S", *hand[1])))


def _repetition_key(
    to_move: int, lords: tuple[int, int], blocks: tuple[BlockPlace | None, ...], stairs: Stairs
) -> int:
    """The repetition key of a position (see :meth:`VState.repetition_key`)."""
    flat: list[int] = [to_move, *lords]
    for pl in blocks:
        flat.extend(pl if pl is not None else (-1, -1, -1))
    for side in stairs:
        flat.append(-2)
        for st in side:
            flat.extend(st)
    return hash(tuple(flat)) & 0xFFFFFFFFFFFFFFFF


_new_state = object.__new__
(
    _s_game, _s_blocks, _s_stairs, _s_lords, _s_turn, _s_done, _s_hand, _s_passes, _s_history,
    _s_board, _s_moves, _s_index, _s_outcome, _s_hash,
) = slot_setters(
    VState, "game", "blocks", "stairs", "lords", "turn", "done", "hand", "passes", "history",
    "_board", "_moves", "_index", "_outcome", "_hash",
)  # fmt: skip


def _make(
    game: Voldetour,
    blocks: tuple[BlockPlace | None, ...],
    stairs: Stairs,
    lords: tuple[int, int],
    turn: int,
    done: int,
    hand: Hand | None,
    passes: int,
    history: tuple[int, ...],
    board: Board | None,
) -> VState:
    """``VState(...)`` without the dataclass ``__init__`` (``apply_unchecked``'s fast path),
    given the board when it is already known."""
    s: VState = _new_state(VState)
    _s_game(s, game)
    _s_blocks(s, blocks)
    _s_stairs(s, stairs)
    _s_lords(s, lords)
    _s_turn(s, turn)
    _s_done(s, done)
    _s_hand(s, hand)
    _s_passes(s, passes)
    _s_history(s, history)
    _s_board(s, board)
    _s_moves(s, None)
    _s_index(s, None)
    _s_outcome(s, _UNSET)
    _s_hash(s, None)
    return s


# -- the compiled core ----------------------------------------------------------------

_NO_TABLES: Any = object()
_TABLES: dict[PieceSet, Any] = {}


def native_tables(ps: PieceSet) -> Any:
    """The compiled core's tables of piece set ``ps`` (made once), or None.

    None when the compiled core is not loaded, or cannot hold the set (a board
    with squares beyond bit 127, more than 32 block kinds...): the pure engine
    then plays that set.
    """
    got = _TABLES.get(ps, _NO_TABLES)
    if got is _NO_TABLES:
        got = None
        if _native is not None:
            table_b, table_s = put_tables(ps)
            mk = move_class(ps)
            kinds = [
                (
                    kind.orientations[0].oid,
                    len(kind.orientations),
                    int(max(kind.size) >= ps.tower_height),
                )
                for kind in ps.blocks
            ]
            orients = [(o.kind, o.dz, o.base, o.offsets, o.anchors) for o in ps.orientations]
            got = _native.init(
                VState, _UNSET, mk, ps.grid.stride, ps.grid.board, ps.towers,
                ps.tower_height, ps.stairs, kinds, orients, table_b, table_s,
                [mk(("T", "B", k)) for k in range(len(ps.blocks))],
                mk(("T", "S", None)), mk(("E",)), mk(("X",)),
            )  # fmt: skip
        _TABLES[ps] = got
    return got


def _generate_native(state: VState) -> list[VMove]:
    tables = _TABLES.get(state.game.pieceset, _NO_TABLES)
    if tables is _NO_TABLES:
        tables = native_tables(state.game.pieceset)
    if tables is None:
        return state._generate()
    try:
        moves: list[VMove] = _native.generate(tables, state)
    except OverflowError:  # a turn number beyond 2**62: the pure engine plays it
        return state._generate()
    return moves


def _apply_native(state: VState, move: VMove) -> VState:
    game = state.game
    tables = _TABLES.get(game.pieceset, _NO_TABLES)
    if tables is _NO_TABLES:
        tables = native_tables(game.pieceset)
    if tables is None:
        return state._apply_pure(move)
    try:
        new: VState = _native.apply(tables, state, move, game.repetition, game.max_turns or 0)
    except OverflowError:
        return state._apply_pure(move)
    return new


def _outcome_native(state: VState) -> Outcome | None:
    game = state.game
    tables = _TABLES.get(game.pieceset, _NO_TABLES)
    if tables is _NO_TABLES:
        tables = native_tables(game.pieceset)
    if tables is None:
        return state._compute_outcome()
    try:
        code = _native.outcome(tables, state, game.max_turns or 0)
    except OverflowError:
        return state._compute_outcome()
    return None if code == 0 else _OUTCOMES[code](game)


def _tower(p: int) -> Any:
    return lambda game: Outcome(p, "tower", f"{PLAYER_NAMES[p]}'s Lord reached the enemy tower")


def _stayed(p: int) -> Any:
    return lambda game: Outcome(
        1 - p,
        "stayed",
        f"{PLAYER_NAMES[p]}'s Lord did not leave its tower by the end of its third turn",
    )


#: The outcomes by the compiled core's codes (as :meth:`VState._compute_outcome` words them).
_OUTCOMES: dict[int, Any] = {
    1: _tower(0),
    2: _tower(1),
    3: _stayed(0),
    4: _stayed(1),
    5: lambda game: Outcome(None, "no-action", "neither player could act: draw"),
    6: lambda game: Outcome(None, "repetition", "the same position came three times: draw"),
    7: lambda game: Outcome(
        None, "move-limit", f"the limit of {game.max_turns} turns was reached: draw"
    ),
}

_generate: Callable[[VState], list[VMove]] = VState._generate
_apply: Callable[[VState, VMove], VState] = VState._apply_pure
_outcome: Callable[[VState], Outcome | None] = VState._compute_outcome


def switch(compiled: bool) -> None:
    """Use the compiled core (True, when it is loaded) or the pure-Python engine (False)."""
    global _generate, _apply, _outcome
    on = compiled and _native is not None
    _generate = _generate_native if on else VState._generate
    _apply = _apply_native if on else VState._apply_pure
    _outcome = _outcome_native if on else VState._compute_outcome


def native_on() -> bool:
    """True while the compiled core plays (see :func:`switch`)."""
    return _generate is _generate_native


if _native is not None:
    register(__name__, switch)
    switch(True)
