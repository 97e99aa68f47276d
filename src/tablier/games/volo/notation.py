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
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    quote,
)
from ...core.position import parse_int
from .rules import PLAYER_NAMES, VoloMove, VoloState

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

_HELP = (
    "expected a cell (e5), a flight (e5-e8, or e5:e7-f6 for a line), "
    "then /cell if it divides, or pass"
)


def _cell(game: Volo, text: str) -> int:
    index = game.grid.parse_label(text)
    if index is None:
        col, row = ord(text[0]) - ord("a"), int(text[1:]) - 1
        board = game.board
        if (col, row) == board.centre:
            raise InvalidMoveError(f"{text} is the missing centre, not a cell of the sky")
        if (col, row) in board.corners:
            raise InvalidMoveError(f"{text} is a missing corner, not a cell of the sky")
        raise InvalidMoveError(f"unknown cell {text!r}: not on the {board.name} board")
    return index


def parse_move(game: Volo, state: VoloState, text: str) -> VoloMove:
    """Return the legal move written ``text``, or raise a precise error."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
    if not isinstance(state, VoloState) or state.game != game:
        raise InvalidMoveError(f"this is not a position of {game.spec}")
    norm = "".join(text.translate(_DASHES).split())
    if not norm:
        raise InvalidMoveError("empty move")
    if not norm.isascii():
        raise InvalidMoveError(f"cannot read {quote(text.strip())}: {_HELP} (in ASCII letters)")
    norm = norm.lower()
    m = _MOVE.match(norm)
    if not m:
        raise InvalidMoveError(f"cannot read {quote(text.strip())}: {_HELP}")
    if m["b"] and not m["to"]:
        raise InvalidMoveError(f"{quote(text.strip())}: a line needs a destination, as in e5:e7-f6")
    cells = {k: _cell(game, m[k]) for k in ("a", "b", "to", "keep") if m[k]}
    if state.outcome is not None:
        raise GameOverError(f"the game is over: {state.outcome.message}")
    legal = state.legal_moves()
    me = PLAYER_NAMES[state.to_move]
    if m["pass"]:
        if m["keep"]:
            raise InvalidMoveError("a pass divides nothing: drop the region choice after 'pass'")
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
                f"{_plain(src, dst, label)} does not join another flock of {me}: "
                "a flight must enlarge a flock"
            )
        raise IllegalMoveError(f"{_plain(src, dst, label)} would split its flock")
    if matches[0][2] < 0:
        if m["keep"]:
            after = (mine & ~src) | dst
            fill = game.board.fill
            if src and fill(after & -after, after) == after:
                raise IllegalMoveError(
                    f"{_plain(src, dst, label)} wins at once (all of {me}'s birds form one "
                    f"flock), so no region is cleared: drop '/{m['keep']}'"
                )
            raise IllegalMoveError(
                f"{_plain(src, dst, label)} does not divide {PLAYER_NAMES[1 - state.to_move]}'s "
                f"birds: there is no region to choose, drop '/{m['keep']}'"
            )
        return matches[0]
    them = PLAYER_NAMES[1 - state.to_move]
    choices = ", ".join(str(mv) for mv in matches)
    if not m["keep"]:
        raise IllegalMoveError(
            f"{_plain(src, dst, label)} divides {them}'s birds into {len(matches)} regions: "
            f"add /cell to say which region to keep ({choices})"
        )
    keep = cells["keep"]
    after = (mine & ~src) | dst
    open_after = game.board.all & ~after
    for mv in matches:
        if grid.fill(1 << mv[2], open_after) >> keep & 1:
            return mv
    raise IllegalMoveError(
        f"{m['keep']} is not in one of the regions holding {them}'s birds after "
        f"{_plain(src, dst, label)}: choose one of {choices}"
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
    me, them = PLAYER_NAMES[p], PLAYER_NAMES[1 - p]
    mine, theirs = state.bitboard(p), state.bitboard(1 - p)
    bit = 1 << cell
    name = grid.label(cell)
    if (mine | theirs) & bit:
        owner = me if mine & bit else them
        raise IllegalMoveError(f"{name} is occupied by a bird of {owner}")
    if state.supply(p) <= 0:
        raise IllegalMoveError(f"{me} has no bird left in supply")
    if grid.neighbours[cell] & mine:
        raise IllegalMoveError(
            f"{name} is next to a bird of {me}: a bird is never added beside a friend"
        )
    if not grid.fill(bit, game.board.all & ~theirs) & mine:
        raise IllegalMoveError(
            f"{name} lies in a region controlled by {them}: no open path leads to a bird of {me}"
        )


def _check_flight(game: Volo, state: VoloState, a: int, b: int, to: int) -> tuple[int, int]:
    """Check the geometry of a flight; return (source, target) bitboards."""
    grid = game.grid
    label = grid.label
    p = state.to_move
    me, them = PLAYER_NAMES[p], PLAYER_NAMES[1 - p]
    mine, theirs = state.bitboard(p), state.bitboard(1 - p)
    (qa, ra), (qb, rb), (qt, rt) = grid.coord(a), grid.coord(b), grid.coord(to)
    line_step = _unit(qb - qa, rb - ra)
    if line_step is None:
        raise IllegalMoveError(f"{label(a)} and {label(b)} are not in one straight line")
    src = 0
    q, r = qa, ra
    while True:
        i = grid.index(q, r)
        if not mine >> i & 1:
            what = f"a bird of {them}" if theirs >> i & 1 else "no bird"
            raise IllegalMoveError(f"{label(i)} holds {what}: only {me}'s own birds can fly")
        src |= 1 << i
        if (q, r) == (qb, rb):
            break
        q, r = q + line_step[0], r + line_step[1]
    step = _unit(qt - qa, rt - ra)
    if step is None or (qt, rt) == (qa, ra):
        raise IllegalMoveError(
            f"{label(a)}-{label(to)} is not a flight in a straight line "
            "along one of the six directions"
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
                raise IllegalMoveError(f"the path is blocked at {label(i)}")
            raise IllegalMoveError("the flight leaves the sky or crosses a missing cell")
    return src, cur


def _unit(dq: int, dr: int) -> tuple[int, int] | None:
    """The unit step of a straight hex direction, or None (zero vector: (0, 0))."""
    if dq == 0 and dr == 0:
        return (0, 0)
    if dq == 0 or dr == 0 or dq == dr:
        n = max(abs(dq), abs(dr))
        return (dq // n, dr // n)
    return None


def _why_no_pass(game: Volo, state: VoloState, legal: list[VoloMove]) -> str:
    me = PLAYER_NAMES[state.to_move]
    flights = [mv for mv in legal if mv[0]]
    if flights:
        return f"{me} may not pass: a flight is possible (for example {flights[0]})"
    example = legal[0]
    if game.optional_pass:
        return (
            f"{me} may not pass: a bird can still be added outside {me}'s own regions "
            f"(for example {example})"
        )
    return f"{me} may pass only when no action is possible (for example {example})"


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
        raise InvalidPositionError(f"a position must be text, not {type(body).__name__}")
    parts = body.split()
    if len(parts) != 5:
        raise InvalidPositionError(
            "a Volo position has five fields: rows, side to move, Orange's supply, "
            f"Blue's supply, passes (got {len(parts)})"
        )
    rows_text, side, s0, s1, passes = parts
    rows = rows_text.lower().split("/")
    board_rows = game.board.rows
    if len(rows) != len(board_rows):
        raise InvalidPositionError(
            f"the {game.board.name} board has {len(board_rows)} rows, "
            f"the position gives {len(rows)}"
        )
    b0 = b1 = 0
    for n, (text, cells) in enumerate(zip(rows, board_rows, strict=True), start=1):
        k = 0
        for tok in _ROW_TOKEN.findall(text):
            if tok[0] in "0123456789":
                if len(tok) > 3:
                    raise InvalidPositionError(
                        f"row {n} from the top: a run of {quote(tok, 12)} empty cells is longer "
                        "than any row"
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
                    f"row {n} from the top: unexpected {tok!r} (use o, b and numbers)"
                )
        if k != len(cells):
            raise InvalidPositionError(
                f"row {n} from the top has {len(cells)} cells, the position gives {k}"
            )
    side = side.lower()
    if side not in ("o", "b"):
        raise InvalidPositionError(f"side to move must be o or b, not {quote(side)}")
    n0 = parse_int(s0, "Orange's supply")
    n1 = parse_int(s1, "Blue's supply")
    npass = parse_int(passes, "the number of passes")
    return game.make_state(b0, b1, "ob".index(side), n0, n1, npass)
