"""XoBo notation (the seed's own) and position strings.

Moves, as in the seed's examples (``1. e5 (v) ; a4->c4``):

- ``e5``: place a cube on e5;
- ``a4->c4``: gather the run of single cubes from a4 to c4 onto c4;
- ``g6xf5``: distribute the stack on g6 towards f5 (the first cell reached);
- any of them may end with `` (v)`` when it announces voyna.  The mark is
  optional when reading, but a ``(v)`` on a move that does not announce
  voyna is refused.

Position body: the nine rows from 9 (North) down to 1, separated by ``/``,
one character per cell from a to i: ``.`` empty, ``1`` a single cube,
``3``-``8`` a stack of that height; then the side to move (``ns`` or
``ew``); then ``common/ns/ew``, the common reserve and both personal
reserves; then ``v`` when the side to move is under voyna, else ``-``.
Under ``voyna=placement`` a ``-`` where the player who just moved threatens
to win says that the threat is silent (made by a stacking or a
distribution); without the last field voyna follows from the threat.
"""

from __future__ import annotations

import re
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
from .board import DIRECTIONS, GRID, RAYS, ROOM, SIZE
from .rules import (
    DISTRIBUTE,
    PLAYERS,
    STACK,
    TOTAL_CUBES,
    XoBoMove,
    XoBoState,
    distribute_move,
    height_at,
    place_move,
    stack_move,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import XoBo

__all__ = ["move_text", "parse_move", "parse_position_body", "position_body"]

_CELL = r"([a-z][0-9]{1,3})"
_PLACE_RE = re.compile(rf"^{_CELL}$", re.ASCII)
_STACK_RE = re.compile(rf"^{_CELL}\s*->\s*{_CELL}$", re.ASCII)
_DIST_RE = re.compile(rf"^{_CELL}\s*x\s*{_CELL}$", re.ASCII)
_VOYNA_RE = re.compile(r"^(.*?)\s*\(\s*v\s*\)$", re.ASCII | re.DOTALL)
_SIDES = ("ns", "ew")

_HELP = Message(
    N_(
        "expected a placement like e5, a stacking like a4->c4, "
        "or a distribution like g6xf5 (optionally followed by (v))"
    )
)


def _cell(text: str) -> int:
    index = GRID.parse_label(text)
    if index is None:
        raise InvalidMoveError(
            N_("there is no cell {text}: columns run from a to i and rows from 1 to 9"),
            text=quote(text),
        )
    return index


def _describe(state: XoBoState, index: int) -> Message:
    h = state.height_of(index)
    label = GRID.label(index)
    if h == 0:
        return Message(N_("{cell} is empty"), cell=label)
    if h == 1:
        return Message(N_("{cell} holds a single cube"), cell=label)
    return Message(N_("{cell} holds a stack of {n}"), cell=label, n=h)


def move_text(state: XoBoState, move: XoBoMove) -> str:
    """The move as the seed writes it in a game: ``e5 (v)`` when it announces voyna."""
    after = state.apply_unchecked(move)
    return f"{move} (v)" if after.voyna else str(move)


def parse_move(game: XoBo, state: XoBoState, text: str) -> XoBoMove:
    """Read a move in the seed's notation and return the matching legal move."""
    if not isinstance(text, str):
        raise InvalidMoveError(N_("a move is text, not {kind}"), kind=type(text).__name__)
    if not isinstance(state, XoBoState) or state.game != game:
        raise InvalidMoveError(N_("this is not a position of {spec}"), spec=game.spec)
    raw = text.strip()
    if not raw.isascii():
        raise InvalidMoveError(
            N_("cannot read {text}: {help}, in ASCII letters"), text=quote(raw), help=_HELP
        )
    body = raw.lower()
    announced = False
    m = _VOYNA_RE.match(body)
    if m:
        announced = True
        body = m.group(1).strip()
    if not body:
        raise InvalidMoveError(N_("empty move text: {help}"), help=_HELP)
    if state.outcome is not None:
        raise GameOverError(N_("the game is over ({why})"), why=state.outcome.message)
    if m := _PLACE_RE.match(body):
        move = _check_place(state, _cell(m.group(1)))
    elif m := _STACK_RE.match(body):
        move = _check_stack(game, state, _cell(m.group(1)), _cell(m.group(2)))
    elif m := _DIST_RE.match(body):
        move = _check_distribution(state, _cell(m.group(1)), _cell(m.group(2)))
    else:
        raise InvalidMoveError(N_("cannot read {text}: {help}"), text=quote(raw), help=_HELP)
    if move not in state.legal_moves():  # pragma: no cover - the checks above are complete
        raise IllegalMoveError(N_("{move} is not a legal move in this position"), move=move)
    if announced:
        after = state.apply_unchecked(move)
        if after.silent:
            raise IllegalMoveError(
                N_(
                    "{move} does not announce voyna: under voyna=placement only a "
                    "placement announces it (the threat stands, but the opponent may not "
                    "stack): remove the '(v)'"
                ),
                move=move,
            )
        if not after.voyna:
            raise IllegalMoveError(
                N_("{move} does not announce voyna: remove the '(v)'"), move=move
            )
    return move


def _check_place(state: XoBoState, cell: int) -> XoBoMove:
    if state.height_of(cell):
        raise IllegalMoveError(N_("cannot place a cube there: {why}"), why=_describe(state, cell))
    if not state.cubes_to_place(state.turn):
        raise IllegalMoveError(
            N_("{player} has no cube to place: the common reserve and their own reserve are empty"),
            player=PLAYERS[state.turn],
        )
    return place_move(cell)


def _line(a: int, b: int) -> tuple[int, int] | None:
    """(direction index, number of steps) from a to b when they share a line, else None."""
    ca, ra = GRID.coord(a)
    cb, rb = GRID.coord(b)
    dc, dr = cb - ca, rb - ra
    n = max(abs(dc), abs(dr))
    if n == 0 or (dc and dr and abs(dc) != abs(dr)):
        return None
    step = (dc // n, dr // n)
    return DIRECTIONS.index(step), n


def _check_stack(game: XoBo, state: XoBoState, far: int, onto: int) -> XoBoMove:
    text = f"{GRID.label(far)}->{GRID.label(onto)}"  # a move's text: not translated
    line = _line(far, onto)
    if line is None:
        raise IllegalMoveError(
            N_(
                "{text} is not a straight run: a stack gathers cubes along a row, a "
                "column or a diagonal"
            ),
            text=text,
        )
    direction, steps = line
    length = steps + 1
    if length < 3:
        raise IllegalMoveError(
            N_("{text} covers {length} cells: a stack gathers a run of at least three cubes"),
            text=text,
            length=length,
        )
    if game.stack_three and length != 3:
        raise IllegalMoveError(
            N_(
                "{text} covers {length} cells: under the ten-point rules (stack=three) "
                "a stack gathers exactly three cubes"
            ),
            text=text,
            length=length,
        )
    if not state.voyna:
        raise IllegalMoveError(
            N_(
                "no voyna to answer: stacking is allowed only when the opponent "
                "({player}) has just announced voyna"
            ),
            player=PLAYERS[1 - state.turn],
        )
    cells = (far, *RAYS[far][direction][:steps])
    for c in cells:
        if state.height_of(c) != 1:
            raise IllegalMoveError(
                N_("{text} is not a run of single cubes: {why}"),
                text=text,
                why=_describe(state, c),
            )
    if length > ROOM[onto]:
        raise IllegalMoveError(
            N_(
                "unplayable stack: a stack of {length} on {cell} could never be "
                "distributed (at most {room} cells to the edge from there)"
            ),
            length=length,
            cell=GRID.label(onto),
            room=ROOM[onto],
        )
    move = stack_move(far, onto)
    assert move is not None and move[0] == STACK
    return move


def _check_distribution(state: XoBoState, cell: int, towards: int) -> XoBoMove:
    label, target = GRID.label(cell), GRID.label(towards)
    h = state.height_of(cell)
    if h < 3:
        raise IllegalMoveError(
            N_("{cell} holds no stack to distribute ({why})"),
            cell=label,
            why=_describe(state, cell),
        )
    line = _line(cell, towards)
    if line is None or line[1] != 1:
        raise IllegalMoveError(
            N_(
                "{towards} is not next to {cell}: write the stack's cell, 'x', then "
                "the first cell in the direction of the distribution (e.g. g6xf5)"
            ),
            towards=target,
            cell=label,
        )
    direction = line[0]
    ray = RAYS[cell][direction]
    if len(ray) < h:
        raise IllegalMoveError(
            N_(
                "the {height} cubes of {cell} would run off the board towards {towards} "
                "(only {n} cells to the edge)"
            )
            if len(ray) != 1
            else N_(
                "the {height} cubes of {cell} would run off the board towards {towards} "
                "(only {n} cell to the edge)"
            ),
            height=h,
            cell=label,
            towards=target,
            n=len(ray),
        )
    reached = ray[:h]
    if not any(state.ones >> c & 1 for c in reached):
        raise IllegalMoveError(
            N_(
                "distributing {cell} towards {towards} captures nothing: no cell "
                "reached holds a single cube"
            ),
            cell=label,
            towards=target,
        )
    for c in reached:
        if state.stacks >> c & 1:
            grown = height_at(state.heights, c) + 1
            if grown > ROOM[c]:
                raise IllegalMoveError(
                    N_(
                        "distributing {cell} towards {towards} would grow the stack on "
                        "{other} to {grown} cubes, which could never be distributed (at most "
                        "{room} cells to the edge from there)"
                    ),
                    cell=label,
                    towards=target,
                    other=GRID.label(c),
                    grown=grown,
                    room=ROOM[c],
                )
    move = distribute_move(cell, direction)
    assert move is not None and move[0] == DISTRIBUTE
    return move


# -- position strings ---------------------------------------------------------------------


def position_body(state: XoBoState) -> str:
    """The body of ``state``'s position string (see the module docstring)."""
    rows = []
    for r in range(SIZE - 1, -1, -1):
        chars = []
        for c in range(SIZE):
            h = state.height_of(GRID.index(c, r))
            chars.append("." if h == 0 else str(h))
        rows.append("".join(chars))
    res = state.reserves
    flag = "v" if state.voyna else "-"
    return f"{'/'.join(rows)} {_SIDES[state.turn]} {state.common}/{res[0]}/{res[1]} {flag}"


def parse_position_body(game: XoBo, body: str) -> XoBoState:
    """Read a position body made by :func:`position_body`."""
    if not isinstance(body, str):
        raise InvalidPositionError(N_("a position is text"))
    fields = body.split()
    if len(fields) not in (3, 4):
        raise InvalidPositionError(
            N_(
                "an XoBo position has 3 or 4 fields: the rows (9 to 1, '/' between "
                "them), the side to move (ns or ew), the reserves common/ns/ew, and "
                "optionally v or -"
            )
        )
    rows = fields[0].split("/")
    if len(rows) != SIZE:
        raise InvalidPositionError(
            N_("the board needs {size} rows separated by '/', not {n}"), size=SIZE, n=len(rows)
        )
    ones = stacks = heights = 0
    on_board = 0
    for k, text in enumerate(rows):
        r = SIZE - 1 - k
        if len(text) != SIZE:
            raise InvalidPositionError(
                N_("row {row} ({text}) must have {size} characters, one per column a-i"),
                row=r + 1,
                text=quote(text, 20),
                size=SIZE,
            )
        for c, ch in enumerate(text):
            index = GRID.index(c, r)
            label = GRID.label(index)
            if ch == ".":
                continue
            if ch == "1":
                ones |= 1 << index
                on_board += 1
                continue
            if ch == "2":
                raise InvalidPositionError(
                    N_("{cell} cannot hold exactly two cubes: such cubes are captured at once"),
                    cell=label,
                )
            if ch not in "345678":
                raise InvalidPositionError(
                    N_("unknown character {char} at {cell}: use '.', '1' or a stack height 3-8"),
                    char=repr(ch),
                    cell=label,
                )
            h = int(ch)
            if h > ROOM[index]:
                raise InvalidPositionError(
                    N_(
                        "a stack of {height} on {cell} could never be distributed (at most "
                        "{room} cells to the edge)"
                    ),
                    height=h,
                    cell=label,
                    room=ROOM[index],
                )
            stacks |= 1 << index
            heights |= h << (index << 2)
            on_board += h
    side = fields[1].lower()
    if side not in _SIDES:
        raise InvalidPositionError(
            N_("the side to move must be 'ns' or 'ew', not {text}"), text=quote(fields[1])
        )
    parts = fields[2].split("/")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise InvalidPositionError(
            N_("the reserves must read common/ns/ew with whole numbers, not {text}"),
            text=quote(fields[2]),
        )
    common, r0, r1 = (int(p) for p in parts)
    total = on_board + common + r0 + r1
    if total != TOTAL_CUBES:
        raise InvalidPositionError(
            N_(
                "the position holds {total} cubes ({on_board} on the board, {common} "
                "in the common reserve, {r0}+{r1} in the personal reserves), not "
                "{needed}"
            ),
            total=total,
            on_board=on_board,
            common=common,
            r0=r0,
            r1=r1,
            needed=TOTAL_CUBES,
        )
    turn = _SIDES.index(side)
    state = XoBoState(game, ones, stacks, heights, common, (r0, r1), turn)
    if len(fields) == 4:
        flag = fields[3].lower()
        if flag not in ("v", "-"):
            raise InvalidPositionError(
                N_("the last field must be 'v' (voyna) or '-', not {text}"),
                text=quote(fields[3]),
            )
        if flag == "-" and game.voyna_placement and state.voyna:
            # The mover's threat came from a stacking or a distribution: no voyna.
            return XoBoState(game, ones, stacks, heights, common, (r0, r1), turn, True)
        if (flag == "v") != state.voyna:
            raise InvalidPositionError(
                N_("the position says voyna, but the side to move is not under voyna here")
                if flag == "v"
                else N_("the position says no voyna, but the side to move is under voyna here")
            )
    return state
