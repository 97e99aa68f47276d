"""XoBo's rules on bitboards: moves, states, move generation and the end of the game.

A position is a few plain ints:

- ``ones``: the cells holding exactly one cube (the only cells a connection
  may use);
- ``stacks``: the cells holding a stack (three cubes or more; a height of
  two never survives a move, since such cells are captured at once);
- ``heights``: the height of every stack, four bits per cell, at bit
  ``4 * index`` (stacks are at most 8 high: no ray is longer);
- ``common`` and ``reserves``: the common reserve and each player's personal
  reserve;
- ``turn``: the player whose decision it is;
- ``silent``: under the option ``voyna=placement`` only, True when the player
  who just moved threatens to win but did so by a stacking or a
  distribution, which announces no voyna (always False otherwise, and
  whenever that player threatens nothing).

Whether the player to move is under *voyna* and whether the game is over
both follow from those fields (the player who just moved is the other one),
so they are worked out once, lazily, and cached on the state.

The functions below are the reference engine.  When the compiled core
(``_native.c``) is built, :func:`switch` points the state's methods at it
instead (same moves in the same order, same states and outcomes); the pure
functions stay callable as ``_legal_moves_pure``, ``_apply_pure``,
``_analyse_pure`` and ``_threat_cells_pure``.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from ...core.errors import Label
from ...core.game import Move, Outcome, State, frozen_state, slot_setters
from ...core.native import load, register
from .board import (
    BOARD,
    DIRECTIONS,
    EDGES,
    GRID,
    LINE_SHIFTS,
    RAY_MASK,
    ROOM,
    ROW_SHIFT,
    SIZE,
    dilate,
    fill,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import XoBo

__all__ = [
    "DISTRIBUTE",
    "PLACE",
    "PLAYER_NAMES",
    "STACK",
    "TOTAL_CUBES",
    "XoBoMove",
    "XoBoState",
    "distribute_move",
    "height_at",
    "place_move",
    "stack_move",
]

PLAYER_NAMES = ("North-South", "East-West")
#: The players' names inside messages: the labels of the catalogs (docs/i18n.md).
PLAYERS = (Label("game.xobo.player.0", "North-South"), Label("game.xobo.player.1", "East-West"))
TOTAL_CUBES = 36

PLACE, STACK, DISTRIBUTE = 0, 1, 2
_KIND_NAMES = ("place", "stack", "distribute")

LABEL = {i: GRID.label(i) for i in GRID.indices}


class XoBoMove(tuple[int, int, int, int, int], Move):
    """One XoBo move, an immutable value.

    ``str(move)`` is the seed's notation: ``e5`` (place a cube on e5),
    ``a4->c4`` (gather the run of single cubes from a4 to c4 onto c4) or
    ``g6xf5`` (distribute the stack on g6 towards f5).  Moves are built once
    per board and shared; get them from :meth:`XoBoState.legal_moves` or
    :meth:`XoBo.parse_move`.

    The tuple holds ``(kind, a, b, extra, length)``: for a placement the cell
    twice; for a stacking the far end of the run, the cell the stack is
    formed on, the mask of the run and its length; for a distribution the
    stack's cell, the first cell reached, and the direction index.
    """

    __slots__ = ()

    def __new__(cls, kind: int, a: int, b: int, extra: int = 0, length: int = 0) -> XoBoMove:
        return tuple.__new__(cls, (kind, a, b, extra, length))

    @property
    def kind(self) -> str:
        """``"place"``, ``"stack"`` or ``"distribute"``."""
        return _KIND_NAMES[self[0]]

    @property
    def cells(self) -> tuple[str, ...]:
        """The cells the notation names: one for a placement, two otherwise."""
        if self[0] == PLACE:
            return (LABEL[self[1]],)
        return (LABEL[self[1]], LABEL[self[2]])

    def __str__(self) -> str:
        kind = self[0]
        if kind == PLACE:
            return LABEL[self[1]]
        if kind == STACK:
            return f"{LABEL[self[1]]}->{LABEL[self[2]]}"
        return f"{LABEL[self[1]]}x{LABEL[self[2]]}"

    def __repr__(self) -> str:
        return f"<XoBoMove {self}>"

    def __reduce__(self) -> tuple[type[XoBoMove], tuple[int, int, int, int, int]]:
        return (XoBoMove, (self[0], self[1], self[2], self[3], self[4]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, XoBoMove) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    # the tuple's own hash, called without a Python frame (moves are dict keys in the search)
    __hash__ = tuple.__hash__


# -- the shared move objects -----------------------------------------------------------------

_PLACE: dict[int, XoBoMove] = {i: XoBoMove(PLACE, i, i) for i in GRID.indices}

# (far end, stack cell) -> move, for every straight run of 3 to 9 cells whose
# stack would still fit on the board (height <= ROOM of the stack cell).
_STACK: dict[tuple[int, int], XoBoMove] = {}
_STACK_ANY: dict[tuple[int, int], XoBoMove] = {}  # every geometric pair, room or not
for _i in GRID.indices:
    for _d in range(8):
        _cells = [_i]
        _c, _r = GRID.coord(_i)
        _dc, _dr = DIRECTIONS[_d]
        for _k in range(1, SIZE):
            if not (0 <= _c + _k * _dc < SIZE and 0 <= _r + _k * _dr < SIZE):
                break
            _cells.append(GRID.index(_c + _k * _dc, _r + _k * _dr))
            if _k >= 2:
                _mask = GRID.mask(_cells)
                _mv = XoBoMove(STACK, _i, _cells[-1], _mask, len(_cells))
                _STACK_ANY[(_i, _cells[-1])] = _mv
                if len(_cells) <= ROOM[_cells[-1]]:
                    _STACK[(_i, _cells[-1])] = _mv

_DIST: dict[tuple[int, int], XoBoMove] = {}
for _i in GRID.indices:
    for _d in range(8):
        _c, _r = GRID.coord(_i)
        _dc, _dr = DIRECTIONS[_d]
        if 0 <= _c + _dc < SIZE and 0 <= _r + _dr < SIZE:
            _DIST[(_i, _d)] = XoBoMove(DISTRIBUTE, _i, GRID.index(_c + _dc, _r + _dr), _d)

# Placements listed row by row: _ROW_PLACES[r][bits] is the tuple of moves on
# the empty cells ``bits`` (9 bits, bit k = column k) of row r.
_ROW_PLACES = tuple(
    tuple(
        tuple(_PLACE[GRID.index(c, r)] for c in range(SIZE) if bits >> c & 1)
        for bits in range(1 << SIZE)
    )
    for r in range(SIZE)
)


def place_move(cell: int) -> XoBoMove:
    """The placement on the cell of bit index ``cell``."""
    return _PLACE[cell]


def stack_move(far: int, onto: int) -> XoBoMove | None:
    """The stacking of the run from ``far`` to ``onto``, or None if not a straight run of 3+."""
    return _STACK_ANY.get((far, onto))


def distribute_move(cell: int, direction: int) -> XoBoMove | None:
    """The distribution from ``cell`` in ``direction`` (index into DIRECTIONS), or None."""
    return _DIST.get((cell, direction))


def height_at(heights: int, cell: int) -> int:
    """The height stored for ``cell`` in a packed heights int."""
    return heights >> (cell << 2) & 15


_SHIFT2 = tuple(2 * s for s in LINE_SHIFTS)


@frozen_state
class XoBoState(State[XoBoMove]):
    """An immutable XoBo position; see the module docstring for its fields.

    A frozen slotted dataclass (:func:`~tablier.core.game.frozen_state`):
    assigning an attribute raises :class:`dataclasses.FrozenInstanceError`.
    Equality and hashing use the game and the plain-int fields.
    """

    game: XoBo
    ones: int
    stacks: int
    heights: int
    common: int
    reserves: tuple[int, int]
    turn: int
    silent: bool = False
    # (outcome, voyna), worked out on demand by _analyse_pure
    _info: tuple[Outcome | None, bool] | None = field(default=None, init=False)

    # -- reading the position -------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The player whose decision it is (0: North-South, 1: East-West)."""
        return self.turn

    @property
    def outcome(self) -> Outcome | None:
        """The outcome, worked out after every move (see :func:`_analyse_pure`)."""
        info = self._info
        if info is None:
            info = _analyse(self)
        return info[0]

    @property
    def voyna(self) -> bool:
        """True when the player who just moved announced voyna: they threaten to win next turn.

        The player to move may then stack.  Under the option ``voyna=placement``
        only a placement announces it (a threat made by a stacking or a
        distribution is :attr:`silent`).  Always False once the game is over.
        """
        info = self._info
        if info is None:
            info = _analyse(self)
        return info[1]

    def height(self, cell: str) -> int:
        """How many cubes the cell named ``cell`` (e.g. ``"e5"``) holds."""
        i = GRID.parse_label(cell)
        if i is None:
            raise ValueError(f"no cell {cell!r} on the board")
        return self.height_of(i)

    def height_of(self, index: int) -> int:
        """How many cubes the cell of bit index ``index`` holds."""
        if self.ones >> index & 1:
            return 1
        if self.stacks >> index & 1:
            return height_at(self.heights, index)
        return 0

    @property
    def cubes_on_board(self) -> int:
        """Cubes on the board, single and stacked."""
        total = self.ones.bit_count()
        st = self.stacks
        while st:
            low = st & -st
            total += height_at(self.heights, low.bit_length() - 1)
            st ^= low
        return total

    def reserve(self, player: int) -> int:
        """The personal reserve of ``player``."""
        return self.reserves[player]

    def cubes_to_place(self, player: int) -> int:
        """The cubes ``player`` could place: the common reserve, then their own."""
        return self.common + self.reserves[player]

    def connected(self, player: int) -> bool:
        """True when a chain of single cubes joins ``player``'s two edges."""
        a, b = EDGES[player]
        return bool(fill(self.ones & a, self.ones) & b)

    def threats(self, player: int) -> int:
        """Bitboard of empty cells where a cube would connect ``player``'s edges
        without connecting the other player's (whether or not a cube is available)."""
        return _threat_cells(self.ones, self.stacks, player)

    def _key(self) -> tuple[int, int, int, int, tuple[int, int], int]:
        return (self.ones, self.stacks, self.heights, self.common, self.reserves, self.turn)

    def __eq__(self, other: object) -> bool:
        if not (
            isinstance(other, XoBoState) and self._key() == other._key() and self.game == other.game
        ):
            return False
        # A silent threat matters only while the game goes on: once it is over, the
        # position string cannot tell (its flag is '-'), and neither can any move.
        return self.silent == other.silent or (
            self.outcome is not None and other.outcome is not None
        )

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<XoBoState {self.to_text()}>"

    def __reduce__(
        self,
    ) -> tuple[type[XoBoState], tuple[XoBo, int, int, int, int, tuple[int, int], int, bool]]:
        fields = (self.ones, self.stacks, self.heights, self.common, self.reserves, self.turn)
        return (XoBoState, (self.game, *fields, self.silent))

    # -- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list[XoBoMove]:
        """Placements (row by row from a1), then stackings, then distributions."""
        return _legal_moves(self)

    def apply_unchecked(self, move: XoBoMove) -> XoBoState:
        """The state after ``move`` (a move from :meth:`legal_moves`)."""
        return _apply(self, move)

    def to_text(self) -> str:
        """The position string (game spec, board, side to move, reserves, voyna flag)."""
        return self.game.position_text(self.game.position_body(self))


_new_state = object.__new__
(
    _s_game,
    _s_ones,
    _s_stacks,
    _s_heights,
    _s_common,
    _s_reserves,
    _s_turn,
    _s_silent,
    _s_info,
) = slot_setters(
    XoBoState,
    "game",
    "ones",
    "stacks",
    "heights",
    "common",
    "reserves",
    "turn",
    "silent",
    "_info",
)

# -- the pure engine ---------------------------------------------------------------------------


def _legal_moves_pure(state: XoBoState) -> list[XoBoMove]:
    """Placements (row by row from a1), then stackings, then distributions."""
    info = state._info
    if info is None:
        info = _analyse_pure(state)
    if info[0] is not None:
        return []
    out: list[XoBoMove] = []
    ones = state.ones
    stacks = state.stacks
    if state.common or state.reserves[state.turn]:
        empty = BOARD & ~(ones | stacks)
        for r in range(SIZE):
            bits = empty >> ROW_SHIFT[r] & 511
            if bits:
                out.extend(_ROW_PLACES[r][bits])
    if info[1]:
        _gen_stacks(ones, state.game.stack_three, out)
    if stacks:
        _gen_distributions(ones, stacks, state.heights, out)
    return out


def _apply_pure(state: XoBoState, move: XoBoMove) -> XoBoState:
    """The state after ``move`` (a move from :meth:`legal_moves`)."""
    kind, a, b, extra, length = move
    turn = state.turn
    # A private fast constructor: object.__new__ and the slots' own setters.
    s: XoBoState = _new_state(XoBoState)
    game = state.game
    _s_game(s, game)
    _s_turn(s, 1 - turn)
    _s_info(s, None)
    _s_silent(s, False)
    if kind == PLACE:
        _s_ones(s, state.ones | 1 << a)
        _s_stacks(s, state.stacks)
        _s_heights(s, state.heights)
        if state.common:
            _s_common(s, state.common - 1)
            _s_reserves(s, state.reserves)
        else:
            _s_common(s, 0)
            res = state.reserves
            _s_reserves(s, (res[0] - 1, res[1]) if turn == 0 else (res[0], res[1] - 1))
        return s
    _s_common(s, state.common)
    if kind == STACK:
        _s_ones(s, state.ones & ~extra)
        _s_stacks(s, state.stacks | 1 << b)
        _s_heights(s, state.heights | length << (b << 2))
        _s_reserves(s, state.reserves)
        if game.voyna_placement:
            _s_silent(s, _threatens_pure(s.ones, s.stacks, s.common, s.reserves, turn))
        return s
    ones, stacks, heights = state.ones, state.stacks, state.heights
    h = heights >> (a << 2) & 15
    ray = RAY_MASK[a][extra][h]
    captured = ray & ones
    grown = ray & stacks
    while grown:
        low = grown & -grown
        heights += 1 << ((low.bit_length() - 1) << 2)
        grown ^= low
    heights &= ~(15 << (a << 2))
    _s_ones(s, (ones & ~captured) | (ray & ~ones & ~stacks))
    _s_stacks(s, stacks & ~(1 << a))
    _s_heights(s, heights)
    gain = 2 * captured.bit_count()
    res = state.reserves
    _s_reserves(s, (res[0] + gain, res[1]) if turn == 0 else (res[0], res[1] + gain))
    if game.voyna_placement:
        _s_silent(s, _threatens_pure(s.ones, s.stacks, s.common, s.reserves, turn))
    return s


# -- generation helpers ---------------------------------------------------------------------


def _gen_stacks(ones: int, three: bool, out: list[XoBoMove]) -> None:
    """Append every legal stacking of runs of single cubes in ``ones``."""
    get = _STACK.get
    for k in range(4):
        s = LINE_SHIFTS[k]
        starts = ones & ones >> s & ones >> _SHIFT2[k]
        while starts:
            low = starts & -starts
            starts ^= low
            i = low.bit_length() - 1
            j = i + 2 * s
            while True:
                mv = get((i, j))
                if mv is not None:
                    out.append(mv)
                mv = get((j, i))
                if mv is not None:
                    out.append(mv)
                if three:
                    break
                j += s
                if not ones >> j & 1:
                    break


def _gen_distributions(ones: int, stacks: int, heights: int, out: list[XoBoMove]) -> None:
    """Append every legal distribution of the stacks."""
    st = stacks
    while st:
        low = st & -st
        st ^= low
        i = low.bit_length() - 1
        h = heights >> (i << 2) & 15
        rays = RAY_MASK[i]
        for d in range(8):
            r = rays[d][h]
            if r and r & ones:
                grown = r & stacks
                ok = True
                while grown:
                    g = grown & -grown
                    grown ^= g
                    c = g.bit_length() - 1
                    if (heights >> (c << 2) & 15) + 1 > ROOM[c]:
                        ok = False
                        break
                if ok:
                    out.append(_DIST[(i, d)])


def _threat_cells_pure(ones: int, stacks: int, player: int) -> int:
    """Empty cells where one more cube joins ``player``'s edges and not the other's."""
    a, b = EDGES[player]
    fa = fill(ones & a, ones)
    fb = fill(ones & b, ones)
    empty = BOARD & ~(ones | stacks)
    cand = empty & (dilate(fa) | a) & (dilate(fb) | b)
    if cand:
        c, d = EDGES[1 - player]
        fc = fill(ones & c, ones)
        fd = fill(ones & d, ones)
        cand &= ~((dilate(fc) | c) & (dilate(fd) | d))
    return cand


def _threatens_pure(
    ones: int, stacks: int, common: int, reserves: tuple[int, int], player: int
) -> bool:
    """True when ``player`` has a cube to place and a cell where it would win (see voyna)."""
    return bool((common or reserves[player]) and _threat_cells_pure(ones, stacks, player))


def _analyse_pure(state: XoBoState) -> tuple[Outcome | None, bool]:
    """Work out (outcome, voyna) for ``state`` and cache it on the state.

    The player who just moved is ``1 - state.turn``.  In order: if the
    player to move has their edges connected, the mover joined the
    opponent's edges and loses (blocus rule, even if the mover's edges are
    joined too); otherwise if the mover's edges are connected the mover
    wins; then voyna (unless the mover's threat is silent); then exhaustion
    (see :class:`~tablier.games.xobo.XoBo`).
    """
    ones = state.ones
    t = state.turn
    m = 1 - t
    names = PLAYER_NAMES
    a, b = EDGES[t]
    info: tuple[Outcome | None, bool]
    if fill(ones & a, ones) & b:
        info = (
            Outcome(
                t,
                "blocus",
                f"{names[m]} joined {names[t]}'s edges: {names[t]} wins (blocus rule)",
            ),
            False,
        )
        _s_info(state, info)
        return info
    a, b = EDGES[m]
    fa = fill(ones & a, ones)
    if fa & b:
        info = (Outcome(m, "connection", f"{names[m]} connected their edges"), False)
        _s_info(state, info)
        return info
    common = state.common
    reserves = state.reserves
    voyna = False
    if (common or reserves[m]) and not state.silent:
        fb = fill(ones & b, ones)
        stacks = state.stacks
        empty = BOARD & ~(ones | stacks)
        cand = empty & (dilate(fa) | a) & (dilate(fb) | b)
        if cand:
            c, d = EDGES[t]
            fc = fill(ones & c, ones)
            fd = fill(ones & d, ones)
            cand &= ~((dilate(fc) | c) & (dilate(fd) | d))
            voyna = bool(cand)
    outcome = None
    if not common:
        if state.game.exhaustion_cubes:
            if not reserves[t]:
                outcome = Outcome(m, "exhaustion", f"{names[t]} has no cube left to place")
            elif not reserves[m]:
                outcome = Outcome(t, "exhaustion", f"{names[m]} has no cube left to place")
        elif not reserves[t]:
            others: list[XoBoMove] = []
            if voyna:
                _gen_stacks(ones, state.game.stack_three, others)
            if not others and state.stacks:
                _gen_distributions(ones, state.stacks, state.heights, others)
            if not others:
                outcome = Outcome(
                    m, "exhaustion", f"{names[t]} cannot play: no cube, no stack to use"
                )
    info = (outcome, voyna and outcome is None)
    _s_info(state, info)
    return info


# -- the engine in use: the compiled core when built, else the functions above ------------------


def _endings(t: int) -> tuple[Outcome, ...]:
    """The endings reported with player ``t`` to move, in the compiled core's order."""
    m, n = 1 - t, PLAYER_NAMES
    return (
        Outcome(t, "blocus", f"{n[m]} joined {n[t]}'s edges: {n[t]} wins (blocus rule)"),
        Outcome(m, "connection", f"{n[m]} connected their edges"),
        Outcome(m, "exhaustion", f"{n[t]} has no cube left to place"),
        Outcome(t, "exhaustion", f"{n[m]} has no cube left to place"),
        Outcome(m, "exhaustion", f"{n[t]} cannot play: no cube, no stack to use"),
    )


#: Every ending the compiled core can report, per reason and player to move: the same
#: outcomes as :func:`_analyse_pure` (blocus, connection, the three exhaustions).
_OUTCOMES = tuple(zip(_endings(0), _endings(1), strict=True))

if TYPE_CHECKING:  # pragma: no cover
    from . import _native as _native
else:
    _native = load("tablier.games.xobo._native")
if _native is not None:
    _native.init_board(
        XoBoState,
        XoBoMove,
        BOARD,
        EDGES,
        GRID.stride,
        LINE_SHIFTS,
        ROOM,
        RAY_MASK,
        [*_PLACE.values(), *_STACK_ANY.values(), *_DIST.values()],
        list(_STACK.values()),
        _OUTCOMES,
    )

_legal_moves = _legal_moves_pure
_apply = _apply_pure
_analyse = _analyse_pure
_threat_cells = _threat_cells_pure


def switch(compiled: bool) -> None:
    """Run the states on the compiled core (True) or on the pure functions above (False)."""
    global _legal_moves, _apply, _analyse, _threat_cells
    if compiled and _native is not None:
        _legal_moves = _native.legal_moves
        _apply = _native.apply
        _analyse = _native.analyse
        _threat_cells = _native.threat_cells
    else:
        _legal_moves = _legal_moves_pure
        _apply = _apply_pure
        _analyse = _analyse_pure
        _threat_cells = _threat_cells_pure


if _native is not None:
    switch(True)
    register(__name__, switch)
