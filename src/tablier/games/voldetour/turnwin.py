"""A win within the mover's own turn: the Voldétour answer to the ``forced_win`` hook.

A Voldétour turn is up to five decisions by the same player (take and put a
block, take and put a stair, move the Lord), so a turn that ends with the
Lord on the enemy tower can lie beyond the three decisions the levels' proof
search looks at (docs/ai.md, "Tactical safety").  Such a win needs no answer
from the opponent: it is a search over the mover's own decisions alone.
:func:`forced_win` looks for the shortest one, one decision deeper at a time
(iterative deepening, to five), and keeps it small with four facts:

* only the Lord's move wins, and it goes at most three steps, so a piece put
  matters only near the way from the Lord to the tower: puts whose squares all
  lie off the *corridor* (squares whose distances to the Lord and to the tower
  add up to at most theirs plus :data:`SLACK`) are tried once, as one
  representative, and only for a piece lifted from the corridor (lifting it
  may open the way; moving any other piece out of the way changes nothing);
* a take is tried only with three decisions left (its put, the Lord's move),
  a put with two;
* a Lord farther than :data:`MAX_DISTANCE` squares from the tower cannot get
  there this turn on any likely terrain: nothing is searched;
* a position met again by another order of the same actions is searched once.

A line it answers is a real win (each decision legal, the last one ending
the game on the tower); a turn it does not see (past its nodes, seconds or
corridor) is left to the search.

The same search, with a second goal (a Lord beside the enemy tower at the
tower's height, or one a fork away from it, which nothing stops at the next turn),
answers :func:`unstoppable`, the safety checks' look one turn further; :func:`threat`
runs it with the mover to move again to find the turns that threaten a win.

Black's Lord on a block two levels high beside the square before White's tower:
a block raises that square to the Lord's height, a stair on it leads up to the
tower, and the Lord walks over it, five decisions in all:

>>> from tablier.games import get
>>> game = get("voldetour")
>>> state = game.position(black=["B112@i7:1x1x2"], lords=("i7", "e5"), turn=9)
>>> [str(move) for move in forced_win(state, 20_000)]
['B122', 'B122@h8:2x1x2', 'S', 'S@i8+2:n', 'Li7-i9']
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ...core.geometry import bits
from .ai import (
    _distance,
    line_squares,
    lord_distance,
    move_squares,
    path_distance,
    step_squares,
)
from .rules import VMove, VState, _orients

__all__ = [
    "LASTING_ENDS",
    "MAX_DECISIONS",
    "MAX_DISTANCE",
    "PROGRESS_MARGIN",
    "SLACK",
    "THREAT_TRIES",
    "TurnWin",
    "forced_win",
    "lasting",
    "search",
    "threat",
    "unstoppable",
]

#: The longest turn searched, in decisions (block take and put, stair take and put, Lord).
MAX_DECISIONS = 5
#: The farthest the mover's Lord may stand from the enemy tower (squares) for a search.
MAX_DISTANCE = 6
#: How far a useful put may lie off the shortest ways from the Lord to the tower (squares).
SLACK = 2
#: The most endings of its turn :func:`threat` tries, nearest the enemy tower first.
THREAT_TRIES = 12
#: The most ends of the opponent's turn :func:`lasting` tries for an answer to a threat.
LASTING_ENDS = 2000
#: How much farther from the mover's tower the opponent's Lord must be (path distance) than
#: the mover's Lord from the opponent's, the opponent's Lord taken as a wall, for
#: :func:`threat` to answer a turn that brings the mover on where it finds no threat.
PROGRESS_MARGIN = 10


class _Limit(Exception):
    """The node or time limit was reached."""


def _corridor(state: VState, lord: int, tower: int) -> int:
    """The squares (a bitboard) whose distances to ``lord`` and ``tower`` add up to at most
    theirs plus :data:`SLACK`."""
    grid = state.game.pieceset.grid
    bound = _distance(grid, lord, tower) + SLACK
    mask = 0
    for q in bits(grid.board):
        if _distance(grid, q, lord) + _distance(grid, q, tower) <= bound:
            mask |= 1 << q
    return mask


class _TurnSearch:
    """The search of :func:`search`; with ``hold_nodes``, of :func:`unstoppable`: a turn
    ending on a square beside the enemy tower at its height wins too, where the
    opponent has no winning turn found within ``hold_nodes`` positions."""

    def __init__(
        self,
        state: VState,
        nodes: int,
        seconds: float | None,
        hold_nodes: int = 0,
        forks: bool = True,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        ps = state.game.pieceset
        self.me = state.to_move
        self.tower = ps.towers[1 - self.me]
        self.height = ps.tower_height
        self.hold_nodes = hold_nodes
        self.ring = _ring(state, self.tower) if hold_nodes else 0
        # the squares off the ring a Lord's move from the tower (three steps): forks
        self.reach = _reach(state, self.tower) & ~self.ring if hold_nodes and forks else 0
        self.forks: dict[VState, bool] = {}
        self.near_flat: dict[tuple[Any, ...], int] = {}
        self.around = {q: _around(state, 1 << q) for q in bits(self.ring)} if self.reach else {}
        self.corridor = _corridor(state, state.lords[self.me], self.tower)
        self.orients = _orients(ps)
        self.max_nodes = nodes
        self.nodes = 0
        self.deadline = None if seconds is None else time.process_time() + seconds
        self.stop = stop
        # position -> the most decisions already searched from it without a win
        self.searched: dict[VState, int] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Limit
        if self.nodes & 63:
            return
        deadline = self.deadline
        if deadline is not None and time.process_time() > deadline:
            raise _Limit
        if self.stop is not None and self.stop():
            raise _Limit

    def _near(self, move: VMove) -> bool:
        """Whether a put covers a square of the corridor (:func:`move_squares`'s squares,
        without its calls: the search weighs every put of every position)."""
        if move[1] == "B":
            return bool(self.orients[move[3]].base << move[4] & self.corridor)
        return bool(self.corridor >> move[2] & 1)

    def _near_place(self, hand: tuple[Any, ...]) -> bool:
        """Whether the piece in hand was lifted from a square of the corridor."""
        if hand[0] == "S":
            return bool(self.corridor >> hand[1][0] & 1)
        oid, anchor, _level = hand[2]
        return bool(self.orients[oid].base << anchor & self.corridor)

    def win(self, state: VState, depth: int) -> list[VMove] | None:
        """The mover's winning decisions from ``state`` within ``depth``, or None."""
        if self.searched.get(state, -1) >= depth:
            return None
        self._tick()
        # all the decisions, not the Lord's reach alone: the compiled core generates them
        # faster than Python walks the Lord (twice as fast over a whole search)
        moves = state.legal_moves()
        for move in moves:
            if move[0] == "L" and move[1][-1] == self.tower:
                outcome = state.apply_unchecked(move).outcome
                if outcome is not None and outcome.winner == self.me:
                    return [move]
        if self.ring:
            near = -1
            for move in moves:
                if move[0] != "L":
                    continue
                square = move[1][-1]
                if self.ring >> square & 1:
                    if self._holds(state, move):
                        return [move]
                elif self.reach >> square & 1:
                    if near < 0:
                        near = self._near_flat_ring(state)
                    if near >> square & 1 and self._fork(state, move):
                        return [move]
        hand = state.hand
        # a take needs a put and the Lord's move after it, a put the Lord's move
        if depth > (2 if hand is None else 1):
            # a piece lifted off the corridor: one put out of the way may open the way
            lifted = hand is not None and hand[-1] is not None and self._near_place(hand)
            for move in moves:
                tag = move[0]
                if tag == "P":
                    if not self._near(move):
                        if not lifted:
                            continue
                        lifted = False  # one representative
                elif tag != "T":
                    continue
                after = state.apply_unchecked(move)
                if after.to_move != self.me or after.outcome is not None:
                    continue
                line = self.win(after, depth - 1)
                if line is not None:
                    return [move, *line]
        self.searched[state] = depth
        return None

    def _near_flat_ring(self, state: VState) -> int:
        """The squares at most two steps from a square beside the enemy tower flat at its
        height: where a fork may stand (its ways in cross such squares only, and step onto
        the tower from one).  Kept by the pieces on the ring, which alone set its heights
        (building a board for each position would cost more than the search)."""
        ring = self.ring
        orients = self.orients
        key = tuple(
            placed
            for placed in state.blocks
            if placed is not None and orients[placed[0]].base << placed[1] & ring
        ) + tuple(stair for side in state.stairs for stair in side if ring >> stair[0] & 1)
        near = self.near_flat.get(key)
        if near is None:
            flat = state.board.lflat[self.height]
            near = 0
            for square in bits(self.ring & flat):
                near |= self.around[square]
            near &= self.reach
            self.near_flat[key] = near
        return near

    def _fork(self, state: VState, move: VMove) -> bool:
        """Whether the Lord's ``move`` ends at the enemy tower's height on a square off
        its ring from which the Lord walks onto the tower whatever the opponent does in
        its turn (a fork: two ways in, one turn to stop both; :func:`_unbreakable`), the
        opponent without a winning turn found within ``hold_nodes`` positions."""
        after = state.apply_unchecked(move)
        if after.outcome is not None:
            return False
        known = self.forks.get(after)
        if known is None and after.board.height(move[1][-1]) != self.height:
            known = self.forks[after] = False
        if known is not None:
            return known
        self._tick()
        walks = _walks(after, self.me, self.tower)
        held = bool(walks) and _unbreakable(after, walks) and self._holds(state, move)
        self.forks[after] = held
        return held

    def _holds(self, state: VState, move: VMove) -> bool:
        """Whether the Lord's ``move`` ends at the enemy tower's height, the opponent
        without a winning turn found there within ``hold_nodes`` positions: beside the
        tower, nothing then stops the next turn's step onto it (the piece under a Lord
        cannot move, R-9); :meth:`_fork` asks it too."""
        square = move[1][-1]
        after = state.apply_unchecked(move)
        if after.outcome is not None or after.board.height(square) != self.height:
            return False
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - time.process_time()
            if seconds <= 0:
                raise _Limit
        # a win of the opponent's not found within its positions is taken as none: the
        # threat counts (the safety step, which asks this, would rather avoid it)
        return search(after, self.hold_nodes, seconds, self.stop).line is None


def _walks(state: VState, player: int, tower: int) -> list[int]:
    """Every way ``player``'s Lord would walk onto ``tower`` in one move from ``state``
    (one to three steps, R-12), were it to move: the squares each steps on or over
    (bitboards, its own first).  Each, not one per end square as the legal moves list
    them."""
    grid = state.game.pieceset.grid
    board = state.board
    start, other = state.lords[player], state.lords[1 - player]
    height = board.height(start)
    out: list[int] = []
    if height is None:  # pragma: no cover - a Lord never stands on a slope
        return out

    def walk(q: int, h: int, squares: int, steps: int) -> None:
        for e in range(4):
            landed = state.lord_step(board, q, h, e)
            if landed is None or landed[0] == other or squares >> landed[0] & 1:
                continue
            t = landed[0]
            crossed = squares | step_squares(grid, q, t)
            if t == tower:
                out.append(crossed)
            elif steps < 3:
                walk(t, landed[1], crossed, steps + 1)

    walk(start, height, 1 << start, 1)
    return out


def _unbreakable(start: VState, walks: list[int]) -> bool:
    """Whether nothing the player to move at ``start`` (a turn start) does in its turn
    breaks every one of ``walks``, the other player's Lord moves onto the tower (their
    squares, the Lord's own and the tower's set aside, ``u``) were it to move there.

    A proof over the turn's possible actions rather than a search: ``u`` must lie flat
    at the tower's height, where no piece may be put (R-7), so only three things
    change a walk over it: the Lord of the player to move ending on a square of ``u``
    (Lords never share a square nor pass over each other, R-15), one of its blocks
    lifted off ``u``, one of its stairs lifted off ``u`` (one of each a turn, R-2).
    Each is assumed possible unless it certainly is not: a piece with one of the
    other player's pieces above it, or that player's Lord on it, stays (R-9: the other
    player's pieces do not move in this turn), and the Lord reaches no square farther
    (in squares, across and along) than its three steps and every slope on the board,
    and one more put this turn, could carry it.
    Every such choice must leave a walk untouched.  Not proved where the game may
    end before the next turn (a move limit, or repetitions as draws).
    """
    game = start.game
    ps = game.pieceset
    grid = ps.grid
    me = start.to_move
    other = 1 - me
    if game.repetition or (game.max_turns is not None and start.turn + 1 > game.max_turns):
        return False
    u = 0
    for walk in walks:
        u |= walk
    u &= ~(1 << start.lords[other]) & ~(1 << ps.towers[me])
    board = start.board
    if any(board.height(q) != ps.tower_height for q in bits(u)):
        return False
    # what lies above the pieces of the player to move: the other player's pieces, Lord
    nb = len(ps.blocks)
    above: list[tuple[int, int]] = []  # (squares, lowest level) of the other's pieces
    for placed in start.blocks[other * nb : (other + 1) * nb]:
        if placed is not None:
            above.append((ps.orientations[placed[0]].base << placed[1], placed[2]))
    for stair in start.stairs[other]:
        above.append((1 << stair[0], stair[1]))

    def stays(squares: int, top: int) -> bool:
        if squares >> start.lords[other] & 1:
            return True
        return any(sq & squares and level >= top for sq, level in above)

    lifts: list[int] = [0]
    for placed in start.blocks[me * nb : (me + 1) * nb]:
        if placed is not None:
            orient = ps.orientations[placed[0]]
            squares = orient.base << placed[1]
            if squares & u and not stays(squares, placed[2] + orient.dz):
                lifts.append(squares & u)
    stair_lifts: list[int] = [0]
    for stair in start.stairs[me]:
        if u >> stair[0] & 1 and not stays(1 << stair[0], stair[1] + 1):
            stair_lifts.append(1 << stair[0])
    # a step moves one square, or over a chain of slopes one more square per slope, and
    # a chain crossed twice in a move is crossed back: its slopes count once
    slopes = len(start.stairs[0]) + len(start.stairs[1]) + 1
    lord = start.lords[me]
    stands = [0] + [1 << q for q in bits(u) if _distance(grid, lord, q) <= 3 + slopes]
    for lifted in lifts:
        for stair_lifted in stair_lifts:
            for stand in stands:
                broken = lifted | stair_lifted | stand
                if all(walk & broken for walk in walks):
                    return False
    return True


def _ring(state: VState, tower: int) -> int:
    """The squares beside ``tower`` (a bitboard)."""
    return state.game.pieceset.grid.neighbours[tower]


def _around(state: VState, squares: int) -> int:
    """The squares at most two steps from one of ``squares`` (a bitboard)."""
    grid = state.game.pieceset.grid
    out = squares
    for _ in range(2):
        grown = out
        for q in bits(out):
            grown |= grid.neighbours[q]
        out = grown
    return out


def _reach(state: VState, tower: int) -> int:
    """The squares at most three steps from ``tower`` (a bitboard)."""
    grid = state.game.pieceset.grid
    return sum(1 << q for q in bits(grid.board) if _distance(grid, q, tower) <= 3)


class TurnWin(NamedTuple):
    """What :func:`search` found: the winning ``line`` (None: none), the positions it
    expanded, and whether it ran out of ``nodes`` or ``seconds`` first (``limited``)."""

    line: list[VMove] | None
    nodes: int
    limited: bool


def search(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> TurnWin:
    """The shortest winning line within the mover's turn, and what finding it cost.

    At most ``nodes`` positions and ``seconds`` of CPU time (``None``: no limit), and
    not past the first time ``stop`` (asked every 64 positions) answers True; nothing
    is searched when the game is over or the mover's Lord stands farther than
    :data:`MAX_DISTANCE` squares from the enemy tower.
    """
    return _deepening(state, nodes, seconds, 0, stop=stop)


def _deepening(
    state: VState,
    nodes: int,
    seconds: float | None,
    hold_nodes: int,
    forks: bool = True,
    stop: Callable[[], bool] | None = None,
) -> TurnWin:
    """:class:`_TurnSearch` one decision deeper at a time, to :data:`MAX_DECISIONS`."""
    if state.outcome is not None:
        return TurnWin(None, 0, False)
    if lord_distance(state, state.to_move) > MAX_DISTANCE:
        return TurnWin(None, 0, False)
    turn = _TurnSearch(state, nodes, seconds, hold_nodes, forks, stop)
    try:
        for depth in range(1, MAX_DECISIONS + 1):
            line = turn.win(state, depth)
            if line is not None:
                return TurnWin(line, turn.nodes, False)
    except _Limit:
        return TurnWin(None, turn.nodes, True)
    return TurnWin(None, turn.nodes, False)


def unstoppable(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    hold_nodes: int | None = None,
    forks: bool = True,
    stop: Callable[[], bool] | None = None,
) -> TurnWin:
    """The shortest turn after which nothing stops the mover's next one from winning.

    A winning turn (:func:`search`'s), or a turn whose Lord's move ends on a
    square beside the enemy tower at the tower's height: the piece under a Lord
    cannot be moved (R-9), nothing may be put on a Lord, and the tower stays, so
    the Lord steps onto the tower at the next turn, unless the opponent wins
    first.  With ``forks`` (the default), also a Lord's move ending at the tower's
    height two or three squares from the tower, whence two or more walks of one move
    lead onto it and no turn of the opponent's can break them all (a *fork*: proved by
    :func:`_unbreakable` over what a turn can do to the squares they cross, not
    searched).  Either ending counts unless :func:`search` finds the opponent a
    winning turn within ``hold_nodes`` positions (``None``: ``nodes``).  The same
    corridor and limits as :func:`search` (``nodes`` positions for the mover's
    turn, ``seconds`` of CPU time for the whole, and ``stop``, asked every 64
    positions); the safety step of ``hard`` and above asks it of the opponent after
    each way of ending their own turn (docs/ai.md, "Unstoppable turns").

    Black's Lord on a block three levels high at e9, four squares from White's tower
    (i9) along a ridge of White's blocks at the same height: no turn wins (the Lord
    walks three squares; nothing may rise above the tower), but walking to h9 leaves
    White nothing to stop the step onto the tower:

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> state = game.position(black=["B113@e9:1x1x3"], white=["B123@f9:2x1x3", "B113@h9:1x1x3"],
    ...                       lords=("e9", "j5"), turn=9)
    >>> forced_win(state, 20_000) is None
    True
    >>> [str(move) for move in unstoppable(state, 2000).line]
    ['Le9-f9-g9-h9']

    A fork: Black's Lord walks along a ridge three high to h8, diagonally beside
    White's tower, where h9 and i8 are Black's blocks at the tower's height; White's
    Lord may stand on one of them, not on both, and White has nothing to lift there:

    >>> state = game.position(
    ...     black=["B123@e8:2x1x3", "B113@h9:1x1x3", "B112@i8:1x1x2", "B111@i8+2:1x1x1"],
    ...     white=["B113@g8:1x1x3", "B123@h7:1x2x3"], lords=("e8", "j6"), turn=11)
    >>> [str(move) for move in unstoppable(state, 2000).line]
    ['Le8-f8-g8-h8']
    >>> unstoppable(state, 2000, forks=False).line is None
    True
    """
    # (at least one position for the opponent's search: 0 would turn the second goal off)
    hold = max(1, nodes if hold_nodes is None else hold_nodes)
    return _deepening(state, nodes, seconds, hold, forks, stop)


def forced_win(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[VMove] | None:
    """The shortest winning line within the mover's turn (see :func:`search`), or None."""
    return search(state, nodes, seconds, stop).line


def threat(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
    progress: bool = False,
) -> list[VMove] | None:
    """A turn that threatens to win at the next one: the mover's decisions to the end
    of its turn, or None.

    The turns tried move at most one more piece, put on the corridor from the Lord
    to the enemy tower (:func:`forced_win`'s), then move the Lord or end the turn;
    their endings are tried nearest the enemy tower first (by the mover's
    :func:`~tablier.games.voldetour.ai.path_distance`), at most
    :data:`THREAT_TRIES` of them.  An ending is a threat when, were the mover to
    play again there, :func:`search` finds it a winning turn, and the opponent, to
    move there, has no winning turn of its own found (the safety step after the
    search looks further).  Each search gets ``nodes`` positions; ``seconds`` of CPU
    time bound the whole (``None``: no limit), and so does ``stop``: the first time it
    answers True (asked between the endings and by the searches), the answer is None;
    an opponent's search cut short by either proves nothing and offers no threat.  A
    turn that wins at once is :func:`forced_win`'s, not a threat.  The opponent may
    answer a threat; the player that makes it (``hard``'s ``threat_turn`` step,
    docs/ai.md "Threat turns") makes it rather than idle in a race both Lords are
    stuck in.

    With ``progress`` (the levels' ``threat_turn`` hook asks so), where no ending is a
    threat, the answer is a *progress turn*: the ending that brings the mover's Lord
    nearest the enemy tower, by its path distance with the opponent's Lord counted as
    a wall, when that is nearer than before the turn and the opponent's Lord is at
    least :data:`PROGRESS_MARGIN` farther from the mover's tower (a race won but for
    the finish: docs/ai.md "Progress turns").  Where no ending brings it nearer, the
    answer is the first turn of a two-turn *plan*: the first ending after which one of the
    mover's own endings, were it to play again, wins or brings it nearer (a piece put first
    for a second to stand on), looked for within ``seconds`` of CPU time more.  Time that
    runs out while the threats are tried (not while the endings are gathered) still leaves
    the progress turn, which costs one path distance an ending; a ``stop`` leaves nothing.

    White's Lord on its 1×2×3 pillar (d3, d4), four squares from Black's tower, with
    no winning turn: standing its 1×1×3 block up on d2 and walking onto it threatens
    to stand the pillar it leaves on c1 and c2 at the next turn and walk onto the
    tower; Black must stop it:

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> state = game.position(white=["B113@f6:1x1x3", "B123@d3:1x2x3"],
    ...                       lords=("h8", "d4"), turn=10)
    >>> forced_win(state, 2000) is None
    True
    >>> [str(move) for move in threat(state, 2000)]
    ['B113', 'B113@d2:1x1x3', 'Ld4-d3-d2']
    """
    deadline, over = _clock(seconds, stop)
    endings = _ranked(state, over)
    if endings is None:
        return None
    for _cost, _order, line, after in endings[:THREAT_TRIES]:
        left = None if deadline is None else deadline - time.process_time()
        if over():
            break
        if search(_again(after), nodes, left, stop).line is None:
            continue
        answer = search(after, nodes, left, stop)
        # an answer cut short by the time proves nothing: no threat is offered
        if answer.line is None and not over():
            return line
    # the time running out among the threats still leaves the (cheap) progress turn;
    # a stop does not
    if not progress or (stop is not None and stop()):
        return None
    return _progress(state, endings, seconds, stop)


def _clock(
    seconds: float | None, stop: Callable[[], bool] | None
) -> tuple[float | None, Callable[[], bool]]:
    """The CPU-time deadline ``seconds`` from now (None: none) and a question that answers
    True once it has passed or ``stop`` (if any) answers True."""
    deadline = None if seconds is None else time.process_time() + seconds
    return deadline, _over(deadline, stop)


def _over(deadline: float | None, stop: Callable[[], bool] | None) -> Callable[[], bool]:
    """A question that answers True once the CPU time ``deadline`` (None: none) has passed
    or ``stop`` (if any) answers True."""

    def over() -> bool:
        late = deadline is not None and time.process_time() > deadline
        return late or (stop is not None and stop())

    return over


def _ranked(
    state: VState, over: Callable[[], bool]
) -> list[tuple[int, int, list[VMove], VState]] | None:
    """The ends of the mover's turn :func:`threat` and :func:`lasting` try (:func:`_endings`,
    those that leave the Lord at most :data:`MAX_DISTANCE` squares from the enemy tower),
    nearest it first: ``(path distance, order made, decisions, position)``; none when the
    Lord stands too far for a threat, None once ``over`` (asked every 64 ends) answers True."""
    me = state.to_move
    if state.outcome is not None or lord_distance(state, me) > MAX_DISTANCE + 3:
        return []
    tower = state.game.pieceset.towers[1 - me]
    corridor = _corridor(state, state.lords[me], tower)
    endings: list[tuple[int, int, list[VMove], VState]] = []
    for tried, (line, after) in enumerate(_endings(state, corridor), 1):
        if after.outcome is None and lord_distance(after, me) <= MAX_DISTANCE:
            endings.append((path_distance(after, me), len(endings), line, after))
        if not tried & 63 and over():
            return None
    endings.sort(key=lambda ending: ending[:2])
    return endings


def lasting(
    state: VState,
    nodes: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[VMove] | None:
    """A turn that threatens a win at the next one and that no turn of the opponent's
    was found to answer: the mover's decisions to the end of that turn, or None.

    The turns tried are :func:`threat`'s (one piece moved onto the corridor, then the
    Lord's move or the end; the :data:`THREAT_TRIES` nearest the enemy tower), each a
    threat when :func:`search` finds the mover, were it to play again, a winning turn,
    and the opponent, to move there, none.  Then :func:`_answered` looks for the
    opponent's answer among its turns that touch the squares of the winning lines; a
    threat none of them answers is the answer here.  A threat the opponent does answer
    is not, nor one whose answers were not all tried within ``seconds`` of CPU time
    (``None``: no limit) or before ``stop`` answers True: then the answer is None.
    ``nodes`` positions for each winning-turn search.

    This is the look past :func:`unstoppable` that the safety checks of ``expert`` ask
    (docs/ai.md, "Lasting threats"): a block put on a low square between a Lord at the
    tower's height and the tower, a piece left in reserve to raise it next turn, is no
    Lord beside the tower nor a fork, and yet often no turn stops it.  Found, not proved:
    the opponent's turns that touch none of the squares cannot break the lines found,
    but turns that move two pieces onto them are tried only as far as :data:`LASTING_ENDS`
    ends go.

    White's Lord stands on a block three high on d2, beside Black's tower (b2) but for
    c2 between them, on the ground; a 1×1×2 block put on c2 now, the 1×1×1 left in
    reserve raises it to the tower's height next turn, and Black's Lord, far away, has
    nothing to put on c2 that stops both the block and the stair's way:

    >>> from tablier.games import get
    >>> game = get("voldetour")
    >>> state = game.position(
    ...     black=["B111@c3:1x1x1", "B113@h5:1x1x3", "B123@h6:1x2x3", "S@a1:n", "S@c1:s",
    ...            "S@f4:w"],
    ...     white=["B113@d2:1x1x3", "B123@d3:2x1x3"], lords=("h7", "d2"), turn=18)
    >>> forced_win(state, 2000) is None and unstoppable(state, 2000).line is None
    True
    >>> [str(move) for move in lasting(state, 2000)]
    ['B112', 'B112@c2:1x1x2', 'end']
    """
    deadline, over = _clock(seconds, stop)
    endings = _ranked(state, over)
    if endings is None:
        return None
    for _cost, _order, line, after in endings[:THREAT_TRIES]:
        if over():
            return None
        left = None if deadline is None else deadline - time.process_time()
        win = search(_again(after), nodes, left, stop)
        if win.line is None:
            continue
        # the opponent's own win first (one not found within its positions counts as none,
        # as in threat(); one cut short by the time proves nothing)
        if search(after, nodes, left, stop).line is not None:
            continue
        if over():
            return None
        answered = _answered(after, win.line, nodes, deadline, stop)
        if answered is None:
            return None
        if not answered:
            return line
    return None


def _still_wins(state: VState, line: list[VMove], player: int) -> bool:
    """Whether ``line`` is still ``player``'s winning turn from ``state``."""
    for move in line:
        if state.outcome is not None or state.to_move != player or move not in state.legal_moves():
            return False
        state = state.apply_unchecked(move)
    return state.outcome is not None and state.outcome.winner == player


def _answered(
    threat: VState,
    line: list[VMove],
    nodes: int,
    deadline: float | None,
    stop: Callable[[], bool] | None,
) -> bool | None:
    """Whether the player to move at ``threat`` has a turn after which the opponent's
    winning ``line`` (played were it the opponent's turn), and any other winning turn
    found, no longer wins: True once one is found, False when none of those tried is one,
    None past :data:`LASTING_ENDS` ends, ``deadline`` (CPU time) or ``stop``.

    A turn can break a line only where it touches the line's squares (``zone``): a
    piece taken from one or put on one, the Lord standing on one (as
    :func:`~tablier.games.voldetour.ai.defences` says).  So at each decision the turn
    is ended, the puts and Lord's moves on the zone are tried (where the turn cannot end
    yet, one other decision too: a piece lifted from the zone is put elsewhere once),
    then the takes; each end (a position reached twice counted once) where no line found
    so far still wins is searched for a new one (:func:`search`, ``nodes`` positions), whose
    squares join the zone, and an end without one found answers the threat (a win not
    found within the positions counts as none, as in :func:`threat`; one cut short by the
    time, None).
    """
    me = threat.to_move
    attacker = 1 - me
    ps = threat.game.pieceset
    orients = _orients(ps)
    lines = [line]
    zone = line_squares(_again(threat), line)
    seen: set[VState] = set()
    ends = 0
    over = _over(deadline, stop)

    def on_zone(state: VState, move: VMove) -> bool:
        if move[0] == "L":
            return bool(zone >> move[1][-1] & 1)
        return bool(move_squares(state, move) & zone)

    def lifted(hand: tuple[Any, ...] | None) -> bool:
        if hand is None or hand[-1] is None:
            return False
        if hand[0] == "S":
            return bool(zone >> hand[1][0] & 1)
        oid, anchor, _level = hand[2]
        return bool(orients[oid].base << anchor & zone)

    def turn(state: VState) -> bool | None:
        nonlocal ends, zone
        moves = state.legal_moves()
        # the turn ended first, then what touches the zone, then the takes (what to put)
        ends_now = [m for m in moves if m[0] == "E"]
        tried = ends_now + [m for m in moves if m[0] != "T" and on_zone(state, m)]
        if not ends_now:
            # the turn must go on: one way on that touches nothing (a Lord's move, a put)
            rest = [m for m in moves if m[0] != "T" and m not in tried]
            if state.hand is not None and not lifted(state.hand):
                rest = [m for m in rest if m[0] != "P"]
            tried += rest[:1]
        tried += [m for m in moves if m[0] == "T"]
        for move in tried:
            after = state.apply_unchecked(move)
            if after in seen:
                continue
            seen.add(after)
            if after.outcome is not None:
                if after.outcome.winner == me:
                    return True
                continue
            if after.to_move == me:
                found = turn(after)
                if found is not False:
                    return found
                continue
            ends += 1
            if ends > LASTING_ENDS or over():
                return None
            if any(_still_wins(after, known, attacker) for known in lines):
                continue
            left = None if deadline is None else deadline - time.process_time()
            win = search(after, nodes, left, stop)
            if win.line is None:
                # a win not found within its positions counts as none; the time proves nothing
                return None if over() else True
            lines.append(win.line)
            zone |= line_squares(after, win.line)
        return False

    return turn(threat)


def _progress(
    state: VState,
    endings: list[tuple[int, int, list[VMove], VState]],
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[VMove] | None:
    """Of ``endings`` (:func:`threat`'s), the one that brings the mover's Lord nearest the
    enemy tower, its path distance counted with the other Lord as a wall (a defender beside
    its tower need never step aside); None unless the opponent's Lord is at least
    :data:`PROGRESS_MARGIN` farther from the mover's tower.  Where none is nearer than now,
    :func:`_plan`'s first turn of two (within ``seconds`` of CPU time more, before ``stop``)."""
    me = state.to_move
    wall = 1 << state.lords[1 - me]
    now = path_distance(state, me, wall)
    if path_distance(state, 1 - me) < now + PROGRESS_MARGIN:
        return None
    nearer = (
        (distance, cost, order, line)
        for cost, order, line, after in endings
        if (distance := path_distance(after, me, wall)) < now
    )
    best = min(nearer, key=lambda ending: ending[:3], default=None)
    if best is not None:
        return best[3]
    return _plan(state, endings, now, seconds, stop)


def _plan(
    state: VState,
    endings: list[tuple[int, int, list[VMove], VState]],
    now: int,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[VMove] | None:
    """The first of ``endings`` (in the order :func:`_endings` made them) after which, were
    the mover to play again, one of its own endings from there (:func:`_endings`, on the
    corridor from its Lord's new square) wins or brings its Lord nearer than ``now`` (the path
    distance with the other Lord a wall, which stays where it is): the first turn of a
    two-turn *plan*, for a finish that no single turn brings on (a piece to put first where a
    second one can stand on it).  None when there is none, and past ``seconds`` of CPU time
    (``None``: no limit) or once ``stop`` answers True, each asked every 64 endings."""
    me = state.to_move
    wall = 1 << state.lords[1 - me]
    tower = state.game.pieceset.towers[1 - me]
    _deadline, over = _clock(seconds, stop)
    tried = 0
    for _cost, _order, line, after in sorted(endings, key=lambda ending: ending[1]):
        again = _again(after)
        for _second, end in _endings(again, _corridor(again, again.lords[me], tower)):
            if end.outcome is not None:
                if end.outcome.winner == me:
                    return line
            elif path_distance(end, me, wall) < now:
                return line
            tried += 1
            if not tried & 63 and over():
                return None
    return None


def _again(state: VState) -> VState:
    """``state``, a turn start, with the player who just ended a turn to move again (the
    opponent's turn skipped): where :func:`threat` looks for the next turn's win."""
    return dataclasses.replace(state, turn=state.turn + 1, done=0, passes=0, history=())


def _endings(state: VState, corridor: int) -> Iterator[tuple[list[VMove], VState]]:
    """The ends of the mover's turn :func:`threat` tries: (its decisions, the position),
    one at a time (the caller may stop between them)."""
    me = state.to_move

    def finish(s: VState, line: list[VMove]) -> Iterator[tuple[list[VMove], VState]]:
        for move in s.legal_moves():
            if move[0] in ("L", "E"):
                yield [*line, move], s.apply_unchecked(move)

    def put(s: VState, line: list[VMove]) -> Iterator[tuple[list[VMove], VState]]:
        for move in s.legal_moves():
            if move[0] == "P" and move_squares(s, move) & corridor:
                after = s.apply_unchecked(move)
                if after.to_move == me and after.outcome is None:
                    yield from finish(after, [*line, move])

    if state.hand is not None:
        yield from put(state, [])
        return
    yield from finish(state, [])
    for take in state.legal_moves():
        if take[0] == "T":
            yield from put(state.apply_unchecked(take), [take])
