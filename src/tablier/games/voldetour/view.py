"""JSON views of Voldetour states and decisions for graphical clients (the web board).

:func:`state_view` adds the 3D board to the core view: every column (flat top
or slope), every piece with its unit cells, the towers, the Lords, the
reserves and the turn's progress.  :func:`move_view` describes one legal
decision: what it takes, puts or moves, the unit cells a put occupies, the
Lord's path.  A *take* decision also lists every placement the piece would
have once taken, grouped by orientation, so that a client can let the player
choose the piece, its orientation and its square before sending the two
decisions (take, then put).  The format is described in ``docs/web-client.md``
(section "Voldétour board").

Coordinates: ``x`` is the column (0 = a), ``y`` the row (0 = row 1), ``z`` the
level (0 = just above the board).  A unit cell ``[x, y, z]`` is one square by
one level.  Directions are ``n`` (towards the last row), ``e``, ``s``, ``w``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .pieceset import DIR_NAMES, PieceSet
from .render import top_owner
from .rules import BLOCK, STAIR, BlockPlace, StairPlace, VMove, VState, move_class

if TYPE_CHECKING:  # pragma: no cover
    from .game import Voldetour

__all__ = ["TURN_ENDS", "move_view", "piece_id", "state_view"]

_SIDE = "bw"

#: The notation prefixes (case aside) of the decisions that end a player's turn: the
#: Lord's move, ``end`` and ``pass`` (rules I-1, D-1).  The client's move list reads them
#: from the state view to write one line per turn (docs/web-client.md, "The move list").
TURN_ENDS = ("L", "end", "pass")


def piece_id(ps: PieceSet, owner: int, kind: str, place: Any) -> str:
    """A stable name of a piece on the board or in hand, as the views give it.

    Blocks are unique per player: ``b:B123`` (Black's block 123).  Stairs are
    interchangeable and named by their placement: ``w:S@c4+1:n`` (``w:S`` for
    one in hand that came from the reserve).  ``place`` is the block kind for
    blocks, the placement ``(square, level, direction, upside_down)`` or None
    for stairs.
    """
    if kind == "B":
        return f"{_SIDE[owner]}:B{ps.blocks[place].name}"
    if place is None:
        return f"{_SIDE[owner]}:S"
    return f"{_SIDE[owner]}:{move_class(ps)(('P', 'S', *place))}"


def _xy(ps: PieceSet, a: int) -> tuple[int, int]:
    return ps.grid.coord(a)


def _block_place(ps: PieceSet, pl: BlockPlace) -> dict[str, Any]:
    """A placed block ``(oid, anchor, level)`` as JSON: anchor, level, orientation, cells."""
    oid, a, z = pl
    o = ps.orientations[oid]
    label = ps.grid.label
    squares = [a + off for off in o.offsets]
    cells = []
    for lev in range(z, z + o.dz):
        for s in squares:
            x, y = _xy(ps, s)
            cells.append([x, y, lev])
    return {
        "anchor": label(a),
        "level": z,
        "orientation": o.text,
        "dims": [o.dx, o.dy, o.dz],
        "squares": [label(s) for s in squares],
        "cells": cells,
    }


def _stair_place(ps: PieceSet, st: StairPlace) -> dict[str, Any]:
    """A placed stair ``(square, level, direction, upside_down)`` as JSON."""
    a, z, d, inv = st
    x, y = _xy(ps, a)
    return {
        "anchor": ps.grid.label(a),
        "level": z,
        "orientation": "u" if inv else DIR_NAMES[d],
        "dir": DIR_NAMES[d],
        "upside_down": bool(inv),
        "squares": [ps.grid.label(a)],
        "cells": [[x, y, z]],
    }


def _columns(state: VState) -> dict[str, dict[str, Any]]:
    """Every square's column: its flat-top height or its slope, and the top piece's owner."""
    game = state.game
    ps = game.pieceset
    b = state.board
    owner = top_owner(game, state)
    H = ps.tower_height
    out: dict[str, dict[str, Any]] = {}
    for a in ps.grid.indices:
        col: dict[str, Any] = {}
        h = b.height(a)
        if h is None:
            for z in range(H):
                for d in range(4):
                    if b.slope[z][d] >> a & 1:
                        col["slope"] = {"level": z, "dir": DIR_NAMES[d]}
            col["height"] = None
        else:
            col["height"] = h
        if a in ps.towers:
            col["tower"] = ps.towers.index(a)
            col["top"] = ps.towers.index(a)
        else:
            col["top"] = owner.get(a)
        out[ps.grid.label(a)] = col
    return out


def _pieces(state: VState) -> list[dict[str, Any]]:
    """Every construction piece on the board with its owner, id, placement and cells."""
    ps = state.game.pieceset
    b = state.board
    nb = len(ps.blocks)
    out = []
    for i, pl in enumerate(state.blocks):
        if pl is None:
            continue
        p, k = divmod(i, nb)
        item = {
            "id": piece_id(ps, p, "B", k),
            "owner": p,
            "kind": "block",
            "name": ps.blocks[k].name,
            "blocked": state.block_blocked(b, pl),
        }
        item.update(_block_place(ps, pl))
        out.append(item)
    for p in (0, 1):
        for st in state.stairs[p]:
            item = {
                "id": piece_id(ps, p, "S", st),
                "owner": p,
                "kind": "stair",
                "blocked": state.stair_blocked(b, st),
            }
            item.update(_stair_place(ps, st))
            out.append(item)
    return out


def _hand(state: VState) -> dict[str, Any] | None:
    """The piece in hand (taken this turn, not yet put), or None."""
    hand = state.hand
    if hand is None:
        return None
    ps = state.game.pieceset
    p = state.to_move
    if hand[0] == "B":
        k, prev = hand[1], hand[2]
        return {
            "kind": "block",
            "id": piece_id(ps, p, "B", k),
            "name": ps.blocks[k].name,
            "from": None if prev is None else _block_place(ps, prev),
            "notation": state.hand_text(),
        }
    prev = hand[1]
    return {
        "kind": "stair",
        "id": piece_id(ps, p, "S", prev),
        "from": None if prev is None else _stair_place(ps, prev),
        "notation": state.hand_text(),
    }


def _deadline_turn(player: int, own_turns: int = 3) -> int:
    """The game turn number of ``player``'s ``own_turns``-th turn (Black plays odd turns)."""
    return 2 * own_turns - 1 + player


def state_view(game: Voldetour, state: VState, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` (the core view) with the Voldetour board added; see the module docstring.

    Keys added: ``board`` (size, files, tower height, piece set, block kinds),
    ``towers``, ``marked``, ``columns`` (per square label: ``height`` of the
    flat top or None on a slope, ``slope`` ``{level, dir}``, ``top`` the owner
    of the top piece or None, ``tower`` the owner on a tower square),
    ``pieces``, ``lords``, ``reserves``, ``turn`` and ``turn_ends`` (the
    notation prefixes of the decisions that end a turn: :data:`TURN_ENDS`).
    """
    ps = game.pieceset
    grid = ps.grid
    b = state.board
    label = grid.label
    view = dict(base)
    view["board"] = {
        "width": ps.width,
        "height": ps.height,
        "files": "".join(chr(ord("a") + c) for c in range(ps.width)),
        "tower_height": ps.tower_height,
        "pieces": ps.name,
        "blocks": [{"name": bk.name, "size": list(bk.size)} for bk in ps.blocks],
        "stairs": ps.stairs,
    }
    view["towers"] = [
        {
            "owner": p,
            "square": label(a),
            "x": _xy(ps, a)[0],
            "y": _xy(ps, a)[1],
            "height": ps.tower_height,
        }
        for p, a in enumerate(ps.towers)
    ]
    view["marked"] = [label(a) for a in grid.indices if ps.marked >> a & 1]
    view["columns"] = _columns(state)
    view["pieces"] = _pieces(state)
    lords = []
    for p, a in enumerate(state.lords):
        x, y = _xy(ps, a)
        lords.append(
            {
                "owner": p,
                "square": label(a),
                "x": x,
                "y": y,
                "level": b.height(a),
                "on_tower": a == ps.towers[p],
            }
        )
    view["lords"] = lords
    view["reserves"] = [
        {
            "blocks": [ps.blocks[k].name for k in state.reserve_blocks(p)],
            "stairs": state.reserve_stairs(p),
        }
        for p in (0, 1)
    ]
    deadlines = []
    for p in (0, 1):
        done = state.turns_completed(p)
        if state.lords[p] == ps.towers[p] and done < 3:
            deadlines.append(
                {
                    "player": p,
                    "turn": _deadline_turn(p),
                    "own_turns_left": 3 - done,
                }
            )
    view["turn"] = {
        "number": state.turn,
        "player": state.to_move,
        "own_turn": state.turns_completed(state.to_move) + 1,
        # the Lord's move ends the turn, so a state never shows it done
        "done": {
            "block": bool(state.done & BLOCK),
            "stair": bool(state.done & STAIR),
            "lord": False,
        },
        "hand": _hand(state),
        "passes": state.passes,
        "deadlines": deadlines,
        "max_turns": game.max_turns,
    }
    view["turn_ends"] = list(TURN_ENDS)
    return view


def _placements(state: VState, move: VMove) -> list[dict[str, Any]]:
    """The placements the piece taken by ``move`` would have: per orientation, the
    anchor squares with the level the piece would rest at."""
    ps = state.game.pieceset
    label = ps.grid.label
    after = state.apply_unchecked(move)
    groups: dict[Any, dict[str, Any]] = {}
    for m in after.legal_moves():
        if m[0] != "P":
            continue  # pragma: no cover - a state with a hand has only puts
        if m[1] == "B":
            oid, a, z = m[3], m[4], m[5]
            g = groups.get(oid)
            if g is None:
                o = ps.orientations[oid]
                g = groups[oid] = {
                    "orientation": o.text,
                    "dims": [o.dx, o.dy, o.dz],
                    "anchors": {},
                }
        else:
            a, z, d, inv = m[2], m[3], m[4], m[5]
            key = "u" if inv else DIR_NAMES[d]
            g = groups.get(key)
            if g is None:
                g = groups[key] = {"orientation": key, "anchors": {}}
        g["anchors"][label(a)] = z
    if any(isinstance(key, str) for key in groups):
        return [groups[key] for key in "neswu" if key in groups]
    return [groups[oid] for oid in sorted(groups)]


def move_view(game: Voldetour, state: VState, move: VMove, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` (``{"notation": ...}``) with what a click interface needs.

    ``kind`` is ``take``, ``put``, ``lord``, ``end`` or ``pass``.  Takes and
    puts give ``piece`` (``kind`` block/stair, ``id``, ``name`` for blocks,
    and for takes ``from``: the placement it is lifted from, or None from the
    reserve).  Takes add ``placements`` (what the piece could do once taken).
    Puts add ``source`` (``reserve`` or ``board``) and the placement
    (``anchor``, ``level``, ``orientation``, ``dims`` or ``dir``/``upside_down``,
    ``squares``, ``cells``).  Lord moves give ``path`` (the squares landed on,
    start first), ``levels`` (their
    heights), ``from`` and ``to``.
    """
    ps = game.pieceset
    label = ps.grid.label
    p = state.to_move
    view = dict(base)
    view["kind"] = move.kind
    view["player"] = p
    tag = move[0]
    if tag == "T":
        if move[1] == "B":
            k = move[2]
            pl = state.blocks[p * len(ps.blocks) + k]
            piece = {
                "kind": "block",
                "id": piece_id(ps, p, "B", k),
                "name": ps.blocks[k].name,
                "from": None if pl is None else _block_place(ps, pl),
            }
        else:
            st = move[2]
            piece = {
                "kind": "stair",
                "id": piece_id(ps, p, "S", st),
                "from": None if st is None else _stair_place(ps, st),
            }
        view["piece"] = piece
        view["placements"] = _placements(state, move)
    elif tag == "P":
        hand = _hand(state)
        assert hand is not None  # a put is legal only with a piece in hand
        # the placement it was lifted from is in the state view (turn.hand.from)
        view["piece"] = {key: hand[key] for key in ("kind", "id", "name") if key in hand}
        view["source"] = "reserve" if hand["from"] is None else "board"
        if move[1] == "B":
            view.update(_block_place(ps, (move[3], move[4], move[5])))
        else:
            a, z, d, inv = move[2:]
            view.update(_stair_place(ps, (a, z, d, inv)))
    elif tag == "L":
        b = state.board
        path = move[1]
        view["path"] = [label(a) for a in path]
        view["levels"] = [b.height(a) for a in path]
        view["from"] = label(path[0])
        view["to"] = label(path[-1])
    return view
