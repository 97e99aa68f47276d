"""Volo notation: reading moves (with precise errors) and position strings.

Moves: ``e5`` (add a bird), ``e5-e8`` (one bird flies), ``e5:e7-f6`` (the
line from e5 to e7 flies so that e5 lands on f6), ``/c3`` appended when the
move divides the opponent and the region holding c3 is kept, ``pass``.

Position body: the rows from the top down, separated by ``/``, each listing
its cells from left to right (``o`` Orange, ``b`` Blue, a number for a run
of empty cells; the missing corners and centre are not cells and are
skipped), then the side to move (``o`` or ``b``), Orange's supply, Blue's
supply and the number of consecutive passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...core.errors import (
    N_,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Message,
    quote,
)
from ...core.position import parse_int
from .rules import PLAYERS, VoloMove, VoloState

if TYPE_CHECKING:  # pragma: no cover
    from .game import Volo

__all__ = ["parse_move", "parse_position_body", "position_body"]

_CELL = r"[a-z][0-9]{1,2}"
_MOVE = re.compile(
    rf"^(?:(?P<pass>pass)|(?P<a>{_CELL})(?::(?P<b>{_CELL}))?(?:-(?P<to>{_CELL}))?)"
    rf"(?:/(?P<keep>{_CELL}))?$",
    re.ASCII,
)
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-"})

_HELP = Message(
    N_(
        "expected a cell (e5), a flight (e5-e8, or e5:e7-f6 for a line), "
        "then /cell if it divides, or pass"
    )
)


def _cell(game: Volo, text: str) -> int:
    index = game.grid.parse_label(text)
    if index is None:
        col, row = ord(text[0]) - ord("a"), int(text[1:]) - 1
        board = game.board
        if (col, row) == board.centre:
            raise InvalidMoveError(
                N_("{text} is the missing centre, not a cell of the sky"), text=text
            )
        if (col, row) in board.corners:
            raise InvalidMoveError(
                N_("{text} is a missing corner, not a cell of the sky"), text=text
            )
        raise InvalidMoveError(
            N_("unknown cell {text}: not on the {board} board"), text=repr(text), board=board.name
        )
    return index


def parse_move(game: Volo, state: VoloState, text: str) -> VoloMove:
    """Return the legal move written ``text``, or raise a precise error."""
    if not isinstance(text, str):
        raise InvalidMoveError(N_("a move must be text, not {kind}"), kind=type(text).__name__)
    if not isinstance(state, VoloState) or state.game != game:
        raise InvalidMoveError(N_("this is not a position of {spec}"), spec=game.spec)
    norm = "".join(text.translate(_DASHES).split())
    if not norm:
        raise InvalidMoveError(N_("empty move"))
    if not norm.isascii():
        raise InvalidMoveError(
            N_("cannot read {text}: {help} (in ASCII letters)"),
            text=quote(text.strip()),
            help=_HELP,
        )
    norm = norm.lower()
    m = _MOVE.match(norm)
    if not m:
        raise InvalidMoveError(
            N_("cannot read {text}: {help}"), text=quote(text.strip()), help=_HELP
        )
    if m["b"] and not m["to"]:
        raise InvalidMoveError(
            N_("{text}: a line needs a destination, as in e5:e7-f6"), text=quote(text.strip())
        )
    cells = {k: _cell(game, m[k]) for k in ("a", "b", "to", "keep") if m[k]}
    if state.outcome is not None:
        raise GameOverError(N_("the game is over: {why}"), why=state.outcome.message)
    legal = state.legal_moves()
    me = PLAYERS[state.to_move]
    if m["pass"]:
        if m["keep"]:
            raise InvalidMoveError(
                N_("a pass divides nothing: drop the region choice after 'pass'")
            )
        for mv in legal:
            if not mv[1]:
                return mv
        raise IllegalMoveError(_why_no_pass(game, state, legal))
    grid = game.grid
    label = grid.label
    mine = state.bitboard(state.to_move)
    if not m["to"]:
        src, dst = 0, 1 << cells["a"]
        _check_placement(game, state, cells["a"])
    else:
        src, dst = _check_flight(game, state, cells["a"], cells.get("b", cells["a"]), cells["to"])
    matches = [mv for mv in legal if mv[0] == src and mv[1] == dst]
    if not matches:
        # The cheap geometric checks passed: the flock conditions failed.
        flock = grid.fill(src & -src, mine)
        after = (mine & ~src) | dst
        if not grid.dilate(dst) & mine & ~flock:
            raise IllegalMoveError(
                N_("{move} does not join another flock of {player}: a flight must enlarge a flock"),
                move=_plain(src, dst, label),
                player=me,
            )
        raise IllegalMoveError(N_("{move} would split its flock"), move=_plain(src, dst, label))
    if matches[0][2] < 0:
        if m["keep"]:
            after = (mine & ~src) | dst
            fill = game.board.fill
            if src and fill(after & -after, after) == after:
                raise IllegalMoveError(
                    N_(
                        "{move} wins at once (all of {player}'s birds form one flock), so no "
                        "region is cleared: drop '/{cell}'"
                    ),
                    move=_plain(src, dst, label),
                    player=me,
                    cell=m["keep"],
                )
            raise IllegalMoveError(
                N_(
                    "{move} does not divide {opponent}'s birds: there is no region to "
                    "choose, drop '/{cell}'"
                ),
                move=_plain(src, dst, label),
                opponent=PLAYERS[1 - state.to_move],
                cell=m["keep"],
            )
        return matches[0]
    them = PLAYERS[1 - state.to_move]
    choices = ", ".join(str(mv) for mv in matches)
    if not m["keep"]:
        raise IllegalMoveError(
            N_(
                "{move} divides {opponent}'s birds into {n} regions: add /cell to say "
                "which region to keep ({choices})"
            ),
            move=_plain(src, dst, label),
            opponent=them,
            n=len(matches),
            choices=choices,
        )
    keep = cells["keep"]
    after = (mine & ~src) | dst
    open_after = game.board.all & ~after
    for mv in matches:
        if grid.fill(1 << mv[2], open_after) >> keep & 1:
            return mv
    raise IllegalMoveError(
        N_(
            "{cell} is not in one of the regions holding {opponent}'s birds after "
            "{move}: choose one of {choices}"
        ),
        cell=m["keep"],
        opponent=them,
        move=_plain(src, dst, label),
        choices=choices,
    )


def _plain(src: int, dst: int, label: Callable[[int], str]) -> str:
    if not src:
        return label(dst.bit_length() - 1)
    low, high = (src & -src).bit_length() - 1, src.bit_length() - 1
    to = label((dst & -dst).bit_length() - 1)
    return f"{label(low)}-{to}" if low == high else f"{label(low)}:{label(high)}-{to}"


def _check_placement(game: Volo, state: VoloState, cell: int) -> None:
    grid = game.grid
    p = state.to_move
    me, them = PLAYERS[p], PLAYERS[1 - p]
    mine, theirs = state.bitboard(p), state.bitboard(1 - p)
    bit = 1 << cell
    name = grid.label(cell)
    if (mine | theirs) & bit:
        owner = me if mine & bit else them
        raise IllegalMoveError(
            N_("{cell} is occupied by a bird of {player}"), cell=name, player=owner
        )
    if state.supply(p) <= 0:
        raise IllegalMoveError(N_("{player} has no bird left in supply"), player=me)
    if grid.neighbours[cell] & mine:
        raise IllegalMoveError(
            N_("{cell} is next to a bird of {player}: a bird is never added beside a friend"),
            cell=name,
            player=me,
        )
    if not grid.fill(bit, game.board.all & ~theirs) & mine:
        raise IllegalMoveError(
            N_(
                "{cell} lies in a region controlled by {opponent}: no open path leads to a "
                "bird of {player}"
            ),
            cell=name,
            opponent=them,
            player=me,
        )


def _check_flight(game: Volo, state: VoloState, a: int, b: int, to: int) -> tuple[int, int]:
    """Check the geometry of a flight; return (source, target) bitboards."""
    grid = game.grid
    label = grid.label
    p = state.to_move
    me, them = PLAYERS[p], PLAYERS[1 - p]
    mine, theirs = state.bitboard(p), state.bitboard(1 - p)
    (qa, ra), (qb, rb), (qt, rt) = grid.coord(a), grid.coord(b), grid.coord(to)
    line_step = _unit(qb - qa, rb - ra)
    if line_step is None:
        raise IllegalMoveError(
            N_("{cell} and {other} are not in one straight line"), cell=label(a), other=label(b)
        )
    src = 0
    q, r = qa, ra
    while True:
        i = grid.index(q, r)
        if not mine >> i & 1:
            what = (
                Message(N_("a bird of {player}"), player=them)
                if theirs >> i & 1
                else Message(N_("no bird"))
            )
            raise IllegalMoveError(
                N_("{cell} holds {what}: only {player}'s own birds can fly"),
                cell=label(i),
                what=what,
                player=me,
            )
        src |= 1 << i
        if (q, r) == (qb, rb):
            break
        q, r = q + line_step[0], r + line_step[1]
    step = _unit(qt - qa, rt - ra)
    if step is None or (qt, rt) == (qa, ra):
        raise IllegalMoveError(
            N_("{cell}-{to} is not a flight in a straight line along one of the six directions"),
            cell=label(a),
            to=label(to),
        )
    distance = max(abs(qt - qa), abs(rt - ra))
    shift = grid.index(*step) - grid.index(0, 0)
    cur = src
    free = (game.board.all & ~(mine | theirs)) | src
    for _ in range(distance):
        cur = cur << shift if shift > 0 else cur >> -shift
        bad = cur & ~free
        if bad:
            i = (bad & -bad).bit_length() - 1
            if game.board.all >> i & 1:
                raise IllegalMoveError(N_("the path is blocked at {cell}"), cell=label(i))
            raise IllegalMoveError(N_("the flight leaves the sky or crosses a missing cell"))
    return src, cur


def _unit(dq: int, dr: int) -> tuple[int, int] | None:
    """The unit step of a straight hex direction, or None (zero vector: (0, 0))."""
    if dq == 0 and dr == 0:
        return (0, 0)
    if dq == 0 or dr == 0 or dq == dr:
        n = max(abs(dq), abs(dr))
        return (dq // n, dr // n)
    return None


def _why_no_pass(game: Volo, state: VoloState, legal: list[VoloMove]) -> Message:
    me = PLAYERS[state.to_move]
    flights = [mv for mv in legal if mv[0]]
    if flights:
        why = Message(
            N_("{player} may not pass: a flight is possible (for example {move})"),
            player=me,
            move=flights[0],
        )
    elif game.optional_pass:
        why = Message(
            N_(
                "{player} may not pass: a bird can still be added outside {player}'s own "
                "regions (for example {move})"
            ),
            player=me,
            move=legal[0],
        )
    else:
        why = Message(
            N_("{player} may pass only when no action is possible (for example {move})"),
            player=me,
            move=legal[0],
        )
    return why


# -- position strings ------------------------------------------------------------------------


def position_body(state: VoloState) -> str:
    """The body of ``state``'s position string."""
    b0, b1 = state.bitboard(0), state.bitboard(1)
    rows = []
    for row in state.game.board.rows:
        out = []
        run = 0
        for i in row:
            if b0 >> i & 1:
                ch = "o"
            elif b1 >> i & 1:
                ch = "b"
            else:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(ch)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    side = "ob"[state.to_move]
    return f"{'/'.join(rows)} {side} {state.supply(0)} {state.supply(1)} {state.passes}"


_ROW_TOKEN = re.compile(r"[0-9]+|[ob]|.", re.ASCII | re.DOTALL)


def parse_position_body(game: Volo, body: str) -> VoloState:
    """Read a position body; raise InvalidPositionError naming the problem."""
    if not isinstance(body, str):
        raise InvalidPositionError(
            N_("a position must be text, not {kind}"), kind=type(body).__name__
        )
    parts = body.split()
    if len(parts) != 5:
        raise InvalidPositionError(
            N_(
                "a Volo position has five fields: rows, side to move, Orange's supply, "
                "Blue's supply, passes (got {n})"
            ),
            n=len(parts),
        )
    rows_text, side, s0, s1, passes = parts
    rows = rows_text.lower().split("/")
    board_rows = game.board.rows
    if len(rows) != len(board_rows):
        raise InvalidPositionError(
            N_("the {board} board has {n} rows, the position gives {given}"),
            board=game.board.name,
            n=len(board_rows),
            given=len(rows),
        )
    b0 = b1 = 0
    for n, (text, cells) in enumerate(zip(rows, board_rows, strict=True), start=1):
        k = 0
        for tok in _ROW_TOKEN.findall(text):
            if tok[0] in "0123456789":
                if len(tok) > 3:
                    raise InvalidPositionError(
                        N_(
                            "row {n} from the top: a run of {run} empty cells is longer than any "
                            "row"
                        ),
                        n=n,
                        run=quote(tok, 12),
                    )
                k += int(tok)
            elif tok in "ob":
                if k < len(cells):
                    if tok == "o":
                        b0 |= 1 << cells[k]
                    else:
                        b1 |= 1 << cells[k]
                k += 1
            else:
                raise InvalidPositionError(
                    N_("row {n} from the top: unexpected {char} (use o, b and numbers)"),
                    n=n,
                    char=repr(tok),
                )
        if k != len(cells):
            raise InvalidPositionError(
                N_("row {n} from the top has {cells} cells, the position gives {given}"),
                n=n,
                cells=len(cells),
                given=k,
            )
    side = side.lower()
    if side not in ("o", "b"):
        raise InvalidPositionError(N_("side to move must be o or b, not {side}"), side=quote(side))
    n0 = parse_int(s0, Message(N_("{player}'s supply"), player=PLAYERS[0]))
    n1 = parse_int(s1, Message(N_("{player}'s supply"), player=PLAYERS[1]))
    npass = parse_int(passes, Message(N_("the number of passes")))
    return game.make_state(b0, b1, "ob".index(side), n0, n1, npass)
