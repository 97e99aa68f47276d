"""Voldetour notation: reading decisions and position strings.

Decisions, as in ``docs/rules/voldetour.md``:

- ``B123`` takes a block, ``S`` a stair from the reserve, ``Sc4`` the stair on c4;
- ``B123@c3:2x1x3`` puts the block in hand anchored on c3 with those sizes,
  ``S@c4:n`` puts the stair in hand rising north, ``S@c4:u`` nests it upside
  down on an upright stair (``+1`` after the square gives the level);
- ``Lb2-b3-c3`` (or just ``Lc3``) moves the Lord; ``end`` and ``pass``.

:func:`read_move` reads the syntax alone (``InvalidMoveError``),
:func:`parse_move` finds the legal move it names (``IllegalMoveError`` with the
reason).  :func:`parse_position_body` reads the body written by
:meth:`VState.body <tablier.games.voldetour.rules.VState.body>` and checks that
the position can arise.  The writing side (move text, position body) lives with
the rules, which never import this module.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

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
from .pieceset import DIR_NAMES
from .rules import (
    BLOCK,
    FROM_RESERVE,
    PLAYERS,
    STAIR,
    BlockPlace,
    Hand,
    StairPlace,
    VMove,
    VState,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import Voldetour

__all__ = ["parse_move", "parse_position_body", "read_move"]

_CELL = r"([a-z][0-9]{1,2})"
_TAKE_BLOCK = re.compile(r"^b([0-9a-z]+)$", re.ASCII)
_LEVEL = r"(?:\+([0-9]))?"
_PUT_BLOCK = re.compile(r"^b([0-9a-z]+)@" + _CELL + _LEVEL + r":([0-9])x([0-9])x([0-9])$", re.ASCII)
_TAKE_STAIR = re.compile(r"^s" + _CELL + r"?$", re.ASCII)
_PUT_STAIR = re.compile(r"^s@" + _CELL + _LEVEL + r":([nesw]|u)$", re.ASCII)
_LORD = re.compile(r"^l([a-z0-9-]+)$", re.ASCII)
_REP_KEY = re.compile(r"[0-9a-f]{1,16}", re.ASCII)
#: Longer than any decision (``B123@c10+9:9x9x9``, a Lord's path of three steps).
_LONGEST = 40

_HELP = Message(
    N_(
        "write a take (B123, S, Sc4), a put (B123@c3:2x1x3, S@c4:n, S@c4:u), "
        "a Lord move (Lb2-b3-c3 or Lc3), end or pass"
    )
)


def _cell(game: Voldetour, text: str) -> int:
    i = game.pieceset.grid.parse_label(text)
    if i is None:
        ps = game.pieceset
        last = chr(ord("a") + ps.width - 1)
        raise InvalidMoveError(
            N_("{text} is not a square of the board (a1 to {last})"),
            text=quote(text),
            last=f"{last}{ps.height}",
        )
    return i


def _block_kind(game: Voldetour, name: str) -> int:
    k = game.pieceset.block_index(name)
    if k is None:
        names = ", ".join("B" + b.name for b in game.pieceset.blocks)
        raise InvalidMoveError(
            N_("there is no block {block} in this set (blocks: {names})"),
            block=quote("B" + name),
            names=names,
        )
    return k


def read_move(game: Voldetour, text: str) -> tuple[Any, ...]:
    """Read a decision's notation into a partial key (no legality check).

    Returns ``("T","B",k)``, ``("T","S",cell|None)``, ``("PB",k,dims,cell,level)``,
    ``("PS",cell,dir|'u',level)`` (level None when not written), ``("L",[cells])``,
    ``("E",)`` or ``("X",)``.
    Raises InvalidMoveError when the text cannot be read.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(N_("a move is text, not {kind}"), kind=type(text).__name__)
    t = re.sub(r"\s+", "", text)
    if not t:
        raise InvalidMoveError(N_("empty move: {help}"), help=_HELP)
    if not t.isascii():
        raise InvalidMoveError(
            N_("cannot read {text}: {help}, in ASCII letters"), text=quote(text), help=_HELP
        )
    if len(t) > _LONGEST:
        raise InvalidMoveError(
            N_("cannot read {text}: too long for a move ({help})"), text=quote(text), help=_HELP
        )
    t = t.lower()
    if t == "end":
        return ("E",)
    if t == "pass":
        return ("X",)
    m = _TAKE_BLOCK.match(t)
    if m:
        return ("T", "B", _block_kind(game, m.group(1)))
    m = _PUT_BLOCK.match(t)
    if m:
        k = _block_kind(game, m.group(1))
        dims = (int(m.group(4)), int(m.group(5)), int(m.group(6)))
        level = None if m.group(3) is None else int(m.group(3))
        return ("PB", k, dims, _cell(game, m.group(2)), level)
    m = _TAKE_STAIR.match(t)
    if m:
        return ("T", "S", None if m.group(1) is None else _cell(game, m.group(1)))
    m = _PUT_STAIR.match(t)
    if m:
        level = None if m.group(2) is None else int(m.group(2))
        return ("PS", _cell(game, m.group(1)), m.group(3), level)
    m = _LORD.match(t)
    if m:
        cells = [_cell(game, c) for c in m.group(1).split("-") if c]
        if not cells or m.group(1).startswith("-") or "--" in m.group(1):
            raise InvalidMoveError(
                N_("cannot read the Lord's path {text}: {help}"), text=quote(text), help=_HELP
            )
        return ("L", cells)
    raise InvalidMoveError(N_("cannot read {text}: {help}"), text=quote(text), help=_HELP)


def parse_move(game: Voldetour, state: VState, text: str) -> VMove:
    """Read a decision in Voldetour notation and return the matching legal move.

    Raises InvalidMoveError for unreadable text, IllegalMoveError (with the
    reason) for a decision the rules forbid, GameOverError once the game is over.
    """
    if not isinstance(state, VState) or state.game != game:
        raise InvalidMoveError(N_("this state does not belong to this game"))
    parsed = read_move(game, text)
    if state.outcome is not None:
        raise GameOverError(N_("the game is over ({why})"), why=state.outcome.message)
    keys = state.move_index()
    ps = game.pieceset
    tag = parsed[0]
    p = state.to_move
    if tag in ("PB", "PS") and state.hand is None:
        raise IllegalMoveError(N_("{text}: take a piece first (e.g. B111 or S)"), text=text.strip())
    if tag not in ("PB", "PS") and state.hand is not None:
        raise IllegalMoveError(
            N_("{text}: you hold {hand}; put it on the board first"),
            text=text.strip(),
            hand=state.hand_text(),
        )
    if tag == "E":
        if ("E",) in keys:
            return keys[("E",)]
        raise IllegalMoveError(N_("you cannot end your turn before doing at least one action"))
    if tag == "X":
        if ("X",) in keys:
            return keys[("X",)]
        raise IllegalMoveError(N_("you may pass only when no action at all is possible"))
    if tag == "T":
        if parsed[1] == "B":
            return _take_block(game, state, parsed[2], keys)
        return _take_stair(game, state, parsed[2], keys)
    if tag == "PB":
        k, dims, a, level = parsed[1], parsed[2], parsed[3], parsed[4]
        assert state.hand is not None  # checked above
        if state.hand[0] != "B" or state.hand[1] != k:
            raise IllegalMoveError(
                N_("{text}: you hold {hand}"), text=text.strip(), hand=state.hand_text()
            )
        orient = [o for o in ps.blocks[k].orientations if (o.dx, o.dy, o.dz) == dims]
        if not orient:
            shapes = ", ".join(o.text for o in ps.blocks[k].orientations)
            raise IllegalMoveError(
                N_("block B{name} has no orientation {shape} (orientations: {shapes})"),
                name=ps.blocks[k].name,
                shape="x".join(map(str, dims)),
                shapes=shapes,
            )
        o = orient[0]
        for z in range(ps.tower_height):
            key = ("P", "B", k, o.oid, a, z)
            if key in keys:
                if level is not None and level != z:
                    raise IllegalMoveError(
                        N_("{text}: it would rest at level {level}"), text=text.strip(), level=z
                    )
                return keys[key]
        raise IllegalMoveError(
            N_("{text}: {why}"), text=text.strip(), why=_why_block(game, state, o, a)
        )
    if tag == "PS":
        a, how, level = parsed[1], parsed[2], parsed[3]
        assert state.hand is not None  # checked above
        if state.hand[0] != "S":
            raise IllegalMoveError(
                N_("{text}: you hold {hand}"), text=text.strip(), hand=state.hand_text()
            )
        for z in range(ps.tower_height):
            for d in range(4):
                key = ("P", "S", a, z, d, 1) if how == "u" else ("P", "S", a, z, d, 0)
                if (how == "u" or DIR_NAMES[d] == how) and key in keys:
                    if level is not None and level != z:
                        raise IllegalMoveError(
                            N_("{text}: it would rest at level {level}"), text=text.strip(), level=z
                        )
                    return keys[key]
        raise IllegalMoveError(
            N_("{text}: {why}"),
            text=text.strip(),
            why=_why_stair(game, state, a, how),
        )
    # the Lord
    cells = parsed[1]
    paths = state.lord_paths()
    src = state.lords[p]
    if len(cells) == 1 and cells[0] != src:
        dest = cells[0]
    else:
        if cells[0] != src:
            raise IllegalMoveError(
                N_("{text}: the path must start on your Lord's square, {cell}"),
                text=text.strip(),
                cell=ps.grid.label(src),
            )
        _check_path(game, state, cells, text.strip())
        dest = cells[-1]
    if dest not in paths:
        raise IllegalMoveError(
            N_("{text}: {why}"), text=text.strip(), why=_why_lord(game, state, dest)
        )
    return keys[("L", paths[dest])]


def _take_block(
    game: Voldetour, state: VState, k: int, keys: dict[tuple[Any, ...], VMove]
) -> VMove:
    key = ("T", "B", k)
    if key in keys:
        return keys[key]
    ps = game.pieceset
    name = "B" + ps.blocks[k].name
    p = state.to_move
    if state.done & BLOCK:
        raise IllegalMoveError(
            N_("{block}: you have already played your block action this turn"), block=name
        )
    pl = state.blocks[p * len(ps.blocks) + k]
    if pl is None:
        raise IllegalMoveError(N_("{block}: this block fits nowhere on the board"), block=name)
    b = state.board
    o = ps.orientations[pl[0]]
    fp = o.base << pl[1]
    if fp & b.lordmask or (pl[2] + o.dz < ps.tower_height and b.occ[pl[2] + o.dz] & fp):
        raise IllegalMoveError(N_("{block} is blocked: a piece or a Lord rests on it"), block=name)
    if state.block_blocked(b, pl):
        raise IllegalMoveError(
            N_("{block} is blocked: construction pieces hide all its sides"), block=name
        )
    raise IllegalMoveError(N_("{block}: it has nowhere else to go"), block=name)


def _take_stair(
    game: Voldetour, state: VState, a: int | None, keys: dict[tuple[Any, ...], VMove]
) -> VMove:
    ps = game.pieceset
    p = state.to_move
    if state.done & STAIR:
        raise IllegalMoveError(N_("you have already played your stair action this turn"))
    if a is None:
        if ("T", "S", None) in keys:
            return keys[("T", "S", None)]
        if state.reserve_stairs(p) == 0:
            raise IllegalMoveError(N_("you have no stair left in reserve"))
        raise IllegalMoveError(N_("a stair fits nowhere on the board"))
    label = ps.grid.label(a)
    mine = [st for st in state.stairs[p] if st[0] == a]
    if not mine:
        raise IllegalMoveError(N_("S{cell}: you have no stair on {cell}"), cell=label)
    for st in mine:
        if ("T", "S", st) in keys:
            return keys[("T", "S", st)]
    raise IllegalMoveError(
        N_(
            "S{cell}: that stair is blocked (something rests on it, or its sides "
            "are hidden) or has nowhere else to go"
        ),
        cell=label,
    )


def _why_block(game: Voldetour, state: VState, o: Any, a: int) -> Message:
    ps = game.pieceset
    grid = ps.grid
    b = state.board
    if not o.anchors >> a & 1:
        return Message(N_("a {shape} block anchored there would leave the board"), shape=o.text)
    fp = o.base << a
    towers = (1 << ps.towers[0]) | (1 << ps.towers[1])
    if fp & towers:
        return Message(N_("nothing may be placed on a tower"))
    if fp & b.lordmask:
        return Message(N_("nothing may be placed on a Lord's square"))
    for z in range(ps.tower_height + 1):
        if fp & b.flat[z] == fp:
            if z + o.dz > ps.tower_height:
                return Message(
                    N_("it would rise above the towers (height {height})"), height=ps.tower_height
                )
            break
    else:
        return Message(N_("it would not rest flat: no empty space may remain under a piece"))
    if state.hand is not None and state.hand[2] == (o.oid, a, z):
        return Message(N_("that is where the block already stood; a move must change its place"))
    return Message(N_("it cannot be placed there ({cell})"), cell=grid.label(a))  # pragma: no cover


def _why_stair(game: Voldetour, state: VState, a: int, how: str) -> Message:
    ps = game.pieceset
    b = state.board
    bit = 1 << a
    if how == "u":
        return Message(
            N_("an upside-down stair must be nested on an upright stair, slope against slope")
        )
    if bit & ((1 << ps.towers[0]) | (1 << ps.towers[1])):
        return Message(N_("nothing may be placed on a tower"))
    if bit & b.lordmask:
        return Message(N_("nothing may be placed on a Lord's square"))
    if any(b.slope[z][d] & bit for z in range(ps.tower_height) for d in range(4)):
        return Message(N_("a slope carries nothing but a nested upside-down stair (write :u)"))
    if b.flat[ps.tower_height] & bit:
        return Message(
            N_("it would rise above the towers (height {height})"), height=ps.tower_height
        )
    if state.hand is not None and state.hand[1] is not None:
        return Message(N_("that is where the stair already stood; a move must change its place"))
    return Message(N_("it cannot be placed there"))  # pragma: no cover


def _why_lord(game: Voldetour, state: VState, dest: int) -> Message:
    ps = game.pieceset
    p = state.to_move
    if dest == state.lords[p]:
        return Message(N_("the Lord must end its move on another square"))
    if dest == ps.towers[p]:
        return Message(N_("the Lord may cross its own tower but not stop on it"))
    if dest == state.lords[1 - p]:
        return Message(N_("two Lords never share a square"))
    if state.board.height(dest) is None:
        return Message(N_("the Lord never stops on a slope"))
    return Message(N_("the Lord cannot get there in 1 to 3 steps"))


def _check_path(game: Voldetour, state: VState, cells: list[int], text: str) -> None:
    b = state.board
    label = game.pieceset.grid.label
    if len(cells) - 1 > 3:
        raise IllegalMoveError(
            N_("{text}: the Lord moves 1, 2 or 3 steps, not {n}"), text=text, n=len(cells) - 1
        )
    other = state.lords[1 - state.to_move]
    h = b.height(cells[0])
    if h is None:  # pragma: no cover - positions are checked: a Lord stands on a flat top
        raise IllegalMoveError(N_("{text}: the Lord stands on a slope"), text=text)
    for q, t in itertools.pairwise(cells):
        landed = None
        for e in range(4):
            r = state.lord_step(b, q, h, e)
            if r is not None and r[0] == t:
                landed = r
        if landed is None:
            raise IllegalMoveError(
                N_(
                    "{text}: no step from {cell} to {to} (steps go to an adjacent "
                    "square at the same level, or across slopes faced along their "
                    "direction)"
                ),
                text=text,
                cell=label(q),
                to=label(t),
            )
        if t == other:
            raise IllegalMoveError(N_("{text}: Lords never pass over each other"), text=text)
        h = landed[1]


def parse_position_body(game: Voldetour, body: str) -> VState:
    """Read a position body written by :meth:`VState.body` and check it.

    Raises InvalidPositionError, saying what is wrong, for anything that
    cannot be read or cannot arise (overlaps, floating pieces, pieces on a
    tower or above it, an upside-down stair not nested, a Lord on a slope...).
    """
    if not isinstance(body, str) or not body.strip():
        raise InvalidPositionError(N_("empty position body"))
    ps = game.pieceset
    fields: dict[str, str] = {}
    for word in body.split():
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep or key not in ("turn", "lords", "black", "white", "do", "hand", "passes", "rep"):
            raise InvalidPositionError(N_("cannot read {word} in the position"), word=quote(word))
        if key in fields:
            raise InvalidPositionError(N_("{key}= is given twice"), key=key)
        fields[key] = value
    for need in ("turn", "black", "white"):
        if need not in fields:
            raise InvalidPositionError(N_("the position lacks {key}="), key=need)
    turn = parse_int(fields["turn"], "turn=")
    passes = parse_int(fields.get("passes", "0"), "passes=")
    if turn < 1 or not 0 <= passes <= 2:
        raise InvalidPositionError(N_("turn starts at 1 and passes is 0, 1 or 2"))
    p = (turn - 1) & 1
    if "lords" in fields:
        parts = fields["lords"].split(",")
        if len(parts) != 2:
            raise InvalidPositionError(N_("lords= gives two squares, Black's then White's"))
        lords = (_pos_cell(game, parts[0]), _pos_cell(game, parts[1]))
    else:
        lords = ps.towers
    if lords[0] == lords[1]:
        raise InvalidPositionError(N_("two Lords never share a square"))
    nb = len(ps.blocks)
    blocks: list[BlockPlace | None] = [None] * (2 * nb)
    stairs: list[list[StairPlace]] = [[], []]
    for side, word in ((0, "black"), (1, "white")):
        text = fields[word]
        if text == "-":
            continue
        for item in text.split(","):
            kind, place = _pos_piece(game, item)
            if kind == "S":
                stairs[side].append(place)
            else:
                k, pl = place
                if blocks[side * nb + k] is not None:
                    raise InvalidPositionError(
                        N_("{side}= has only one block B{name}"), side=word, name=ps.blocks[k].name
                    )
                blocks[side * nb + k] = pl
    done = 0
    for ch in fields.get("do", ""):
        bit = {"b": BLOCK, "s": STAIR, "r": FROM_RESERVE}.get(ch)
        if bit is None:
            raise InvalidPositionError(N_("do= lists b (block), s (stair) and r (from reserve)"))
        done |= bit
    if done == FROM_RESERVE:
        raise InvalidPositionError(N_("do=r needs an action (b or s)"))
    hand = None
    if fields.get("hand", "-") != "-":
        hand = _pos_hand(game, fields["hand"], p, blocks, done)
    history: tuple[int, ...] = ()
    if "rep" in fields:
        if not game.repetition:
            raise InvalidPositionError(N_("rep= needs the repetition option"))
        keys = fields["rep"].split(".")
        if not all(_REP_KEY.fullmatch(h) for h in keys):
            raise InvalidPositionError(N_("rep= lists hexadecimal keys joined by dots"))
        history = tuple(int(h, 16) for h in keys)
    state = VState(
        game,
        tuple(blocks),
        (tuple(sorted(stairs[0])), tuple(sorted(stairs[1]))),
        lords,
        turn,
        done,
        hand,
        passes,
        history,
    )
    state = _check_state(game, state)
    if game.repetition and not history:
        start = VState(game, state.blocks, state.stairs, lords, turn)
        state = replace(state, history=(start.repetition_key(),))
    return state


def _pos_cell(game: Voldetour, text: str) -> int:
    i = game.pieceset.grid.parse_label(text)
    if i is None:
        raise InvalidPositionError(N_("{text} is not a square of the board"), text=quote(text))
    return i


def _pos_piece(game: Voldetour, item: str) -> tuple[str, Any]:
    """Read ``B123@c3+1:2x1x3`` or ``S@c4+1:n`` into a placement (level 0 if not given)."""
    try:
        parsed = read_move(game, item)
    except InvalidMoveError as exc:
        raise InvalidPositionError(
            N_("cannot read the piece {item}: {error}"), item=quote(item), error=exc
        ) from None
    ps = game.pieceset
    if parsed[0] == "PB":
        _, k, dims, a, level = parsed
        for o in ps.blocks[k].orientations:
            if (o.dx, o.dy, o.dz) == dims:
                if not o.anchors >> a & 1:
                    raise InvalidPositionError(N_("{item} leaves the board"), item=item)
                return "B", (k, (o.oid, a, level or 0))
        raise InvalidPositionError(
            N_("{item}: block B{name} has no such orientation"), item=item, name=ps.blocks[k].name
        )
    if parsed[0] == "PS":
        _, a, how, level = parsed
        z = level or 0
        if how != "u":
            return "S", (a, z, DIR_NAMES.index(how), 0)
        return "S", (a, z, -1, 1)  # direction taken from the stair it nests on
    raise InvalidPositionError(
        N_("{item} is not a piece on the board (e.g. B111@c3:1x1x1)"), item=quote(item)
    )


def _pos_hand(
    game: Voldetour, text: str, p: int, blocks: list[BlockPlace | None], done: int
) -> Hand:
    ps = game.pieceset
    nb = len(ps.blocks)
    try:
        parsed = read_move(game, text)
    except InvalidMoveError as exc:
        raise InvalidPositionError(
            N_("cannot read hand={text}: {error}"), text=quote(text), error=exc
        ) from None
    if parsed[0] == "T" and parsed[1] == "B":
        k, prev = parsed[2], None
    elif parsed[0] == "PB":
        _, (k, prev) = _pos_piece(game, text)
    elif parsed[0] in ("PS", "T") and parsed[1] != "B":
        if parsed[0] == "T" and parsed[2] is not None:
            raise InvalidPositionError(N_("hand={text} is not a piece"), text=quote(text))
        if done & STAIR:
            raise InvalidPositionError(N_("a stair in hand but the stair action is already used"))
        return ("S", None if parsed[0] == "T" else _pos_piece(game, text)[1])
    else:
        raise InvalidPositionError(N_("hand={text} is not a piece"), text=quote(text))
    if done & BLOCK:
        raise InvalidPositionError(N_("a block in hand but the block action is already used"))
    if blocks[p * nb + k] is not None:
        raise InvalidPositionError(
            N_("B{name} is both in hand and on the board"), name=ps.blocks[k].name
        )
    return ("B", k, prev)


def _check_state(game: Voldetour, state: VState) -> VState:
    """Check the 3D position of a parsed state; return it with nested stairs' directions filled.

    Every piece must lie on the board, off the towers, within the towers'
    height, without overlapping another, resting on the board or on flat
    tops; an upside-down stair must nest on an upright one of its cell.
    Lords stand on flat tops.  Raises InvalidPositionError.
    """
    ps = game.pieceset
    H = ps.tower_height
    grid = ps.grid
    ori = ps.orientations
    towers = (1 << ps.towers[0]) | (1 << ps.towers[1])
    occ = [0] * H
    full = [0] * H
    up = [[0, 0, 0, 0] for _ in range(H)]
    for side in (0, 1):
        if len(state.stairs[side]) > ps.stairs:
            raise InvalidPositionError(
                N_("{player} has only {stairs} stairs"),
                player=PLAYERS[side],
                stairs=ps.stairs,
            )
    cells: list[tuple[int, int, int, str]] = []  # (level, mask, kind, label)
    for pl in state.blocks:
        if pl is not None:
            oid, a, z = pl
            o = ori[oid]
            if z + o.dz > H:
                raise InvalidPositionError(
                    N_("a block at {cell} rises above the towers (height {height})"),
                    cell=grid.label(a),
                    height=H,
                )
            for lev in range(z, z + o.dz):
                cells.append((lev, o.base << a, 0, grid.label(a)))
    for side in (0, 1):
        for a, z, d, inv in state.stairs[side]:
            if not 0 <= z < H:
                raise InvalidPositionError(
                    N_("a stair at {cell} is above the towers"), cell=grid.label(a)
                )
            if not inv:
                cells.append((z, 1 << a, 1 + d, grid.label(a)))
    for lev, m, kind, lab in cells:
        if m & towers:
            raise InvalidPositionError(N_("a piece at {cell} stands on a tower"), cell=lab)
        if occ[lev] & m:
            raise InvalidPositionError(
                N_("two pieces overlap at {cell}, level {level}"), cell=lab, level=lev
            )
        occ[lev] |= m
        if kind == 0:
            full[lev] |= m
        else:
            up[lev][kind - 1] |= m
    stairs_out: list[list[StairPlace]] = [[], []]
    inv_seen = [0] * H
    for side in (0, 1):
        for a, z, d, inv in state.stairs[side]:
            bit = 1 << a
            if inv:
                found = [dd for dd in range(4) if up[z][dd] & bit]
                if not found:
                    raise InvalidPositionError(
                        N_("the upside-down stair at {cell} is not nested on an upright stair"),
                        cell=grid.label(a),
                    )
                if inv_seen[z] & bit:
                    raise InvalidPositionError(
                        N_("two pieces overlap at {cell}"), cell=grid.label(a)
                    )
                inv_seen[z] |= bit
                full[z] |= bit
                d = found[0]
            stairs_out[side].append((a, z, d, inv))
    # supports: every bottom cell rests on a full cell or on the board
    for pl in state.blocks:
        if pl is not None:
            oid, a, z = pl
            fp = ori[oid].base << a
            if z > 0 and fp & ~full[z - 1]:
                raise InvalidPositionError(
                    N_(
                        "the block at {cell} floats: no empty space may remain under a piece, "
                        "and a slope carries nothing"
                    ),
                    cell=grid.label(a),
                )
    for side in (0, 1):
        for a, z, _d, inv in stairs_out[side]:
            if not inv and z > 0 and not full[z - 1] >> a & 1:
                raise InvalidPositionError(N_("the stair at {cell} floats"), cell=grid.label(a))
    state = replace(state, stairs=(tuple(sorted(stairs_out[0])), tuple(sorted(stairs_out[1]))))
    b = state.board
    for p in (0, 1):
        if b.height(state.lords[p]) is None:
            raise InvalidPositionError(
                N_("{player}'s Lord must stand on a flat top, not on a slope"),
                player=PLAYERS[p],
            )
    hand = state.hand
    p = state.to_move
    if hand is not None:
        if hand[0] == "S" and state.reserve_stairs(p) < 0:
            raise InvalidPositionError(N_("a stair in hand, but none is left"))
        prev = hand[2] if hand[0] == "B" else hand[1]
        if prev is not None:
            state = replace(state, hand=_check_prev(game, state, hand, prev))
    return state


def _check_prev(game: Voldetour, state: VState, hand: Hand, prev: tuple[int, ...]) -> Hand:
    """The hand with its previous placement checked (and a nested direction filled)."""
    ps = game.pieceset
    b = state.board
    if hand[0] == "B":
        oid, a, z = prev
        fp = ps.orientations[oid].base << a
        if not 0 <= z < ps.tower_height or fp & b.flat[z] != fp:
            raise InvalidPositionError(N_("the block in hand cannot have been lifted from there"))
        return hand
    a, z, _d, inv = prev
    bit = 1 << a
    if 0 <= z < ps.tower_height:
        if not inv and b.flat[z] & bit:
            return hand
        if inv:
            for dd in range(4):
                if b.slope[z][dd] & bit:
                    return ("S", (a, z, dd, 1))
    raise InvalidPositionError(N_("the stair in hand cannot have been lifted from there"))
