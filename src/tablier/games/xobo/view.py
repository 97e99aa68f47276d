"""JSON views of XoBo states and moves for graphical clients (the web application).

``state_view`` adds to the core keys (``game``, ``spec``, ``position``, ``to_move``,
``players``, ``outcome``):

- ``size``: 9; ``columns``: ``"abcdefghi"``;
- ``heights``: nine rows from row 1 (South) to row 9 (North), each nine cube counts from
  column ``a`` to ``i`` (0 empty, 1 a single cube, 3-8 a stack);
- ``common``: the common reserve; ``reserves``: ``[North-South, East-West]`` personal
  reserves; ``cubes_to_place``: what each player could still place (common + own);
- ``voyna``: true when the player to move is under voyna (the previous move threatens to
  win next turn: stacking is allowed); ``voyna_by``: the player who announced it (or None);
  ``silent``: true when the player who just moved threatens to win without a voyna
  (``voyna=placement``: a stacking or a distribution made the threat; no stacking);
  ``threats``: the empty cells where the player who just moved would win with one more
  cube, under voyna or a silent threat (else empty);
- ``connections``: per player, the single cubes of the chains joining that player's two
  edges (empty lists until someone connects);
- ``edges``: ``[["south", "north"], ["west", "east"]]``, the edges each player joins;
- ``options``: the game's options (``stack``, ``exhaustion``, ``voyna``).

``move_view`` gives ``notation`` (``game.move_text``: ``e5``, ``a4->c4``, ``g6xf5``, with
`` (v)`` when the move announces voyna), ``kind`` (``place``, ``stack``, ``distribute``),
``voyna`` (bool), ``from`` and ``to`` (the two cells the notation names; both the cell for a
placement), ``cells`` (every cell the move changes), and:

- stack: ``run`` (the cells gathered, from ``from`` to ``to``), ``height`` (cubes gathered);
- distribute: ``direction`` (``[dcol, drow]``), ``height`` (cubes distributed), ``covered``
  (the cells reached, nearest first), ``captures`` (the covered cells holding one cube, whose
  two cubes go to the mover's reserve).

See ``docs/web-client.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import DIRECTIONS, EDGES, GRID, RAYS, SIZE, fill
from .rules import DISTRIBUTE, PLACE, STACK, XoBoMove, XoBoState

if TYPE_CHECKING:  # pragma: no cover
    from .game import XoBo

__all__ = ["move_view", "state_view"]

COLUMNS = "abcdefghi"
EDGE_NAMES = (("south", "north"), ("west", "east"))


def _cells_of(mask: int) -> list[str]:
    """The labels of the cells of a bitboard, row by row from a1."""
    return [GRID.label(i) for i in GRID.indices if mask >> i & 1]


def _chain(state: XoBoState, player: int) -> list[str]:
    """Single cubes on a chain joining ``player``'s edges (empty when not joined)."""
    a, b = EDGES[player]
    ones = state.ones
    from_a = fill(ones & a, ones)
    if not from_a & b:
        return []
    return _cells_of(from_a & fill(ones & b, ones))


def state_view(game: XoBo, state: XoBoState, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` (the core view) completed with XoBo's board; see the module docstring."""
    heights = [[state.height_of(GRID.index(c, r)) for c in range(SIZE)] for r in range(SIZE)]
    voyna = state.voyna
    announcer = 1 - state.to_move if voyna else None
    silent = state.silent and state.outcome is None
    threatener = 1 - state.to_move if voyna or silent else None
    view = dict(base)
    view.update(
        {
            "size": SIZE,
            "columns": COLUMNS,
            "heights": heights,
            "common": state.common,
            "reserves": list(state.reserves),
            "cubes_to_place": [state.cubes_to_place(0), state.cubes_to_place(1)],
            "voyna": voyna,
            "voyna_by": announcer,
            "silent": silent,
            "threats": _cells_of(state.threats(threatener)) if threatener is not None else [],
            "connections": [_chain(state, 0), _chain(state, 1)],
            "edges": [list(pair) for pair in EDGE_NAMES],
            "options": dict(game.options),
        }
    )
    return view


def _run(far: int, onto: int, length: int) -> list[int]:
    """The cells of the straight run from ``far`` to ``onto`` (``length`` cells), in order."""
    (c0, r0), (c1, r1) = GRID.coord(far), GRID.coord(onto)
    steps = length - 1
    dc, dr = (c1 - c0) // steps, (r1 - r0) // steps
    return [GRID.index(c0 + k * dc, r0 + k * dr) for k in range(length)]


def move_view(game: XoBo, state: XoBoState, move: XoBoMove, notation: str) -> dict[str, Any]:
    """The click-input description of ``move`` in ``state``; see the module docstring."""
    kind, a, b, extra, length = move
    view: dict[str, Any] = {
        "notation": notation,
        "kind": move.kind,
        "voyna": notation.endswith("(v)"),
        "from": GRID.label(a),
        "to": GRID.label(b),
    }
    if kind == PLACE:
        view["cells"] = [GRID.label(a)]
    elif kind == STACK:
        run = [GRID.label(i) for i in _run(a, b, length)]
        view.update({"run": run, "height": length, "cells": run})
    elif kind == DISTRIBUTE:
        height = state.height_of(a)
        covered = RAYS[a][extra][:height]
        captures = [GRID.label(i) for i in covered if state.ones >> i & 1]
        view.update(
            {
                "direction": list(DIRECTIONS[extra]),
                "height": height,
                "covered": [GRID.label(i) for i in covered],
                "captures": captures,
                "cells": [GRID.label(a)] + [GRID.label(i) for i in covered],
            }
        )
    return view
