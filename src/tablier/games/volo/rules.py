"""Volo's rules on bitboards: states, moves and move generation.

A state is two bitboards (Orange's and Blue's birds), the side to move, both
supplies and the number of consecutive passes.  Move generation works on
whole sets of cells at once: a line of birds is shifted step by step as one
bitboard, flocks are found by flood fill (dilation), and the question "does
this flight divide the opponent?" is first answered by a local test around
each landing cell (see :func:`_may_divide`) and only when that test cannot
rule it out by a full flood fill.

The rules themselves, with the seed sentences they rest on, are written up
in ``docs/rules/volo.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import field
from typing import TYPE_CHECKING

from ...core.errors import Label
from ...core.game import Move, Outcome, State, frozen_state, slot_setters
from ...core.native import load, register
from .board import ARCS, VoloBoard

if TYPE_CHECKING:  # pragma: no cover
    from .game import Volo

__all__ = ["VoloMove", "VoloState"]

PLAYER_NAMES = ("Orange", "Blue")
#: The players' names inside messages: the labels of the catalogs (docs/i18n.md).
PLAYERS = (Label("game.volo.player.0", "Orange"), Label("game.volo.player.1", "Blue"))


class VoloMove(tuple[int, int, int, VoloBoard], Move):
    """A Volo move: a placement, a flight or a pass.

    Stored as a tuple ``(source, target, keep, board)``: ``source`` is the
    bitboard of the birds that fly (0 for a placement or a pass), ``target``
    the bitboard of the cells they land on (or of the placed bird; 0 for a
    pass), ``keep`` the bit index of the cell naming the opponent's region
    that is kept when the move divides the opponent (-1 otherwise).  Use
    :meth:`Volo.parse_move` or :meth:`VoloState.legal_moves` to get moves;
    ``str(move)`` gives the notation (``e5``, ``e5-e8``, ``e5:e7-f6``,
    ``e5-e8/c3``, ``pass``).
    """

    __slots__ = ()

    @property
    def source_mask(self) -> int:
        """The bitboard of the birds that fly (0 for a placement or a pass)."""
        return self[0]

    @property
    def target_mask(self) -> int:
        """The bitboard of the landing cells or of the placed bird (0 for a pass)."""
        return self[1]

    @property
    def keep_index(self) -> int:
        """The bit index naming the opponent's region kept, or -1."""
        return self[2]

    @property
    def kind(self) -> str:
        """``"place"``, ``"fly"`` or ``"pass"``."""
        if not self[1]:
            return "pass"
        return "fly" if self[0] else "place"

    @property
    def source(self) -> tuple[str, ...]:
        """Labels of the birds that fly, lowest first (empty for a placement or pass)."""
        return tuple(self[3].grid.label(i) for i in _bits(self[0]))

    @property
    def target(self) -> tuple[str, ...]:
        """Labels of the cells the birds land on, or of the placed bird."""
        return tuple(self[3].grid.label(i) for i in _bits(self[1]))

    @property
    def keep(self) -> str | None:
        """Label of the cell naming the region kept, or None."""
        return None if self[2] < 0 else self[3].grid.label(self[2])

    def __str__(self) -> str:
        src, dst, keep, board = self
        if not dst:
            return "pass"
        label = board.grid.label
        if not src:
            text = label(dst.bit_length() - 1)
        else:
            low = (src & -src).bit_length() - 1
            high = src.bit_length() - 1
            to = label((dst & -dst).bit_length() - 1)
            text = f"{label(low)}-{to}" if low == high else f"{label(low)}:{label(high)}-{to}"
        if keep >= 0:
            text += "/" + label(keep)
        return text

    def __repr__(self) -> str:
        return f"<VoloMove {self}>"


# tuple.__new__ itself: no Python-level call in the generation loops.
_new_move: Callable[[type[VoloMove], tuple[int, int, int, VoloBoard]], VoloMove] = tuple.__new__


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


# Fills a lazily computed cache slot of a frozen state (its legal moves, its hash).
_cache = object.__setattr__


@frozen_state
class VoloState(State[VoloMove]):
    """An immutable Volo position.  Build one with :meth:`Volo.initial_state`,
    :meth:`Volo.position` or :meth:`Volo.parse_position`.

    A frozen slotted dataclass (:func:`~tablier.core.game.frozen_state`):
    assigning an attribute raises :class:`dataclasses.FrozenInstanceError`.
    Its fields are private; read the position through the methods below.
    """

    game: Volo
    _b0: int
    _b1: int
    _p: int
    _s0: int
    _s1: int
    _passes: int
    _outcome: Outcome | None
    _moves: tuple[VoloMove, ...] | None = field(default=None, init=False)
    _hash: int | None = field(default=None, init=False)

    def __reduce__(
        self,
    ) -> tuple[type[VoloState], tuple[Volo, int, int, int, int, int, int, Outcome | None]]:
        return (
            VoloState,
            (
                self.game,
                self._b0,
                self._b1,
                self._p,
                self._s0,
                self._s1,
                self._passes,
                self._outcome,
            ),
        )

    # -- public accessors -------------------------------------------------------

    @property
    def to_move(self) -> int:
        """0 (Orange) or 1 (Blue): whose decision it is."""
        return self._p

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else None."""
        return self._outcome

    @property
    def passes(self) -> int:
        """How many passes in a row have just been made (0, 1 or 2)."""
        return self._passes

    def bitboard(self, player: int) -> int:
        """The bitboard of ``player``'s birds (bit indices of ``game.grid``)."""
        return self._b1 if player else self._b0

    def birds(self, player: int) -> frozenset[str]:
        """Labels of the cells holding ``player``'s birds."""
        label = self.game.grid.label
        return frozenset(label(i) for i in _bits(self.bitboard(player)))

    def supply(self, player: int) -> int:
        """Birds left in ``player``'s supply."""
        return self._s1 if player else self._s0

    def flocks(self, player: int) -> list[frozenset[str]]:
        """``player``'s flocks, each as a set of labels."""
        grid = self.game.grid
        return [
            frozenset(grid.label(i) for i in _bits(c))
            for c in grid.components(self.bitboard(player))
        ]

    # -- identity -----------------------------------------------------------------

    def _key(self) -> tuple[int, int, int, int, int, int]:
        return (self._b0, self._b1, self._p, self._s0, self._s1, self._passes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VoloState):
            return NotImplemented
        return self._key() == other._key() and (self.game is other.game or self.game == other.game)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            _cache(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        return f"<VoloState {self.to_text()}>"

    # -- moves ----------------------------------------------------------------------

    def legal_moves(self) -> list[VoloMove]:
        """Every legal move: placements, flights (one per region choice), pass."""
        moves = self._moves
        if moves is None:
            moves = () if self._outcome is not None else tuple(_generate(self))
            _cache(self, "_moves", moves)
        return list(moves)

    def apply_unchecked(self, move: VoloMove) -> VoloState:
        """Return the position after a move taken from :meth:`legal_moves`."""
        return _apply(self, move)

    def to_text(self) -> str:
        """The position string, e.g. ``volo:board=mini,... 5/6/... o 47 47 0``."""
        return self.game.position_text(self.game.position_body(self))


_new_state = object.__new__
_s_game, _s_b0, _s_b1, _s_p, _s_s0, _s_s1, _s_passes, _s_outcome, _s_moves, _s_hash = slot_setters(
    VoloState, "game", "_b0", "_b1", "_p", "_s0", "_s1", "_passes", "_outcome", "_moves", "_hash"
)


def _make(
    game: Volo,
    b0: int,
    b1: int,
    to_move: int,
    s0: int,
    s1: int,
    passes: int,
    outcome: Outcome | None,
) -> VoloState:
    """``VoloState(...)`` without the dataclass ``__init__`` (``apply_unchecked``'s fast path)."""
    s: VoloState = _new_state(VoloState)
    _s_game(s, game)
    _s_b0(s, b0)
    _s_b1(s, b1)
    _s_p(s, to_move)
    _s_s0(s, s0)
    _s_s1(s, s1)
    _s_passes(s, passes)
    _s_outcome(s, outcome)
    _s_moves(s, None)
    _s_hash(s, None)
    return s


def apply_move(state: VoloState, move: VoloMove) -> VoloState:
    """:meth:`VoloState.apply_unchecked` in Python (the reference of the compiled core)."""
    src, dst, keep, board = move
    p = state._p
    game = state.game
    if not dst:
        passes = state._passes + 1
        outcome = None
        if passes >= 2:
            outcome = game.double_pass_outcome(p)
        return _make(game, state._b0, state._b1, 1 - p, state._s0, state._s1, passes, outcome)
    if p:
        mine, theirs, s_mine, s_theirs = state._b1, state._b0, state._s1, state._s0
    else:
        mine, theirs, s_mine, s_theirs = state._b0, state._b1, state._s0, state._s1
    fill = board.fill
    if src:
        mine = (mine & ~src) | dst
    else:
        mine |= dst
        s_mine -= 1
    outcome = None
    if src and fill(mine & -mine, mine) == mine:
        outcome = flock_outcome(p)
    elif keep >= 0:
        region = fill(1 << keep, board.all & ~mine)
        kept = theirs & region
        s_theirs += theirs.bit_count() - kept.bit_count()
        theirs = kept
        if fill(theirs & -theirs, theirs) == theirs:
            outcome = clearing_outcome(p)
    if p:
        return _make(game, theirs, mine, 0, s_theirs, s_mine, 0, outcome)
    return _make(game, mine, theirs, 1, s_mine, s_theirs, 0, outcome)


def flock_outcome(mover: int) -> Outcome:
    """The outcome when ``mover``'s flight gathers all its birds into one flock."""
    return Outcome(mover, "flock", f"{PLAYER_NAMES[mover]} gathered all its birds into one flock")


def clearing_outcome(mover: int) -> Outcome:
    """The outcome when ``mover``'s clearing leaves the opponent as one flock (``mover`` loses)."""
    return Outcome(
        1 - mover,
        "opponent-flock",
        f"{PLAYER_NAMES[mover]}'s clearing left {PLAYER_NAMES[1 - mover]} as one flock",
    )


def _may_divide(board: VoloBoard, open_before: int, landed: int) -> bool:
    """Could removing the cells of ``landed`` from ``open_before`` disconnect it?

    Cells are removed one at a time; removing a cell whose remaining open
    neighbours form a single arc around it never disconnects anything (any
    path through the cell can go round it along the arc), nor does removing
    one whose open neighbours are connected to each other within two steps
    of it; so when every removal passes that test the set stays connected.
    ``True`` means "maybe": the caller then does the full flood fill.
    """
    S = open_before
    shifts = board.shifts
    while landed:
        low = landed & -landed
        landed ^= low
        S &= ~low
        c = low.bit_length() - 1
        pattern = 0
        k = 1
        for s in shifts:
            if S >> (c + s) & 1:
                pattern |= k
            k <<= 1
        if ARCS[pattern] > 1:
            # Several arcs: still safe if they meet within two steps of the cell.
            near = S & board.neighbours[c]
            if near & ~board.fill(near & -near, S & board.window[c]):
                return True
    return False


def generate(state: VoloState) -> list[VoloMove]:
    """All legal moves of a non-terminal state, in a fixed order."""
    game = state.game
    board = game.board
    grid = board.grid
    fill = board.fill
    shifts = board.shifts
    p = state._p
    if p:
        mine, theirs, supply = state._b1, state._b0, state._s1
    else:
        mine, theirs, supply = state._b0, state._b1, state._s0
    full = board.all
    empty = full & ~(mine | theirs)
    moves: list[VoloMove] = []
    append = moves.append
    placements = 0

    # -- add a bird -----------------------------------------------------------------
    if supply > 0:
        reach = fill(mine, empty | mine)
        placements = reach & empty & ~grid.dilate(mine)
        x = placements
        while x:
            low = x & -x
            x ^= low
            if low & board.safe_cut:
                append(_new_move(VoloMove, (0, low, -1, board)))
            else:  # pragma: no cover - no such cell on the built-in boards
                _add_with_regions(moves, board, 0, low, mine | low, theirs)

    # -- let the birds fly ----------------------------------------------------------------
    flights = 0
    flocks = grid.components(mine) if mine else []
    open_theirs = empty | theirs
    axes = shifts[:3]
    dilate_raw = grid.dilate_raw
    for flock in flocks:
        others = mine & ~flock
        if not others:
            continue
        # A flight must land next to another flock: some landing cell in this zone.
        zone = dilate_raw(others)
        lines = []
        x = flock
        while x:
            low = x & -x
            x ^= low
            lines.append(low)
            for s in axes:
                line = low
                nxt = low << s
                while nxt & flock:
                    line |= nxt
                    lines.append(line)
                    nxt <<= s
        for line in lines:
            rest = flock & ~line
            free = empty | line
            blocked = ~free
            base = mine & ~line
            rest_near = -1  # lazily: cells next to the rest of the flock, or 0 if it may split
            for s in shifts:
                cur = line
                while True:
                    if s > 0:
                        cur <<= s
                    else:
                        cur >>= -s
                    if cur & blocked:
                        break
                    if not cur & zone:
                        continue
                    after = base | cur
                    if rest:
                        if rest_near < 0:
                            # When taking the line out leaves the rest of the flock
                            # connected, the flock stays whole as soon as the line
                            # lands next to the rest.
                            rest_near = 0 if _may_divide(board, flock, line) else dilate_raw(rest)
                        if not cur & rest_near and rest & ~fill(cur, after):
                            continue
                    flights += 1
                    if _may_divide(board, open_theirs | line, cur):
                        _add_with_regions(moves, board, line, cur, after, theirs)
                    else:
                        append(_new_move(VoloMove, (line, cur, -1, board)))

    # -- pass ----------------------------------------------------------------------------
    if not moves:
        append(_new_move(VoloMove, (0, 0, -1, board)))
    elif not flights and game.optional_pass:
        theirs_reach = fill(theirs, open_theirs)
        if not placements & theirs_reach:
            append(_new_move(VoloMove, (0, 0, -1, board)))
    return moves


def _add_with_regions(
    moves: list[VoloMove], board: VoloBoard, src: int, dst: int, after: int, theirs: int
) -> None:
    """Append the move (with one entry per region choice when it divides the opponent)."""
    fill = board.fill
    open_after = board.all & ~after
    regions = []
    x = theirs
    while x:
        region = fill(x & -x, open_after)
        regions.append(region)
        x &= ~region
    if len(regions) < 2 or (src and fill(after & -after, after) == after):
        moves.append(_new_move(VoloMove, (src, dst, -1, board)))
        return
    for region in regions:
        kept = theirs & region
        moves.append(_new_move(VoloMove, (src, dst, (kept & -kept).bit_length() - 1, board)))


# -- the compiled core ---------------------------------------------------------------------

_native = load("tablier.games.volo._native")

# The engine in use: rebound by switch() (tests flip it with tablier.core.native.using).
_generate: Callable[[VoloState], list[VoloMove]] = generate
_apply: Callable[[VoloState, VoloMove], VoloState] = apply_move
#: True while the compiled core is in use (ai.py follows it when first imported).
compiled_in_use = False


def _native_context(game: Volo) -> object:
    """The compiled core's tables for ``game`` (built once per game, cached on it by the core)."""
    assert _native is not None
    board = getattr(game, "board", None)
    if not isinstance(board, VoloBoard):
        raise TypeError(f"volo: a state of {type(game).__name__}, not of a Volo game")
    return _native.context(
        board,
        board.grid.stride,
        board.shifts,
        board.all,
        board.safe_cut,
        board.neighbours,
        board.window,
        ARCS,
        game.optional_pass,
        (
            flock_outcome(0),
            flock_outcome(1),
            clearing_outcome(0),
            clearing_outcome(1),
            game.double_pass_outcome(0),
            game.double_pass_outcome(1),
        ),
    )


def switch(compiled: bool) -> None:
    """Use the compiled core (True) or the pure-Python engine (False) from now on."""
    global _generate, _apply, compiled_in_use
    compiled_in_use = compiled and _native is not None
    if compiled and _native is not None:
        _generate, _apply = _native.generate, _native.apply
    else:
        _generate, _apply = generate, apply_move


if _native is not None:
    _native.setup(VoloState, VoloMove, _native_context)
    switch(True)
    register(__name__, switch)
