"""Terminal rendering of an XoBo position (rich Text).

Rows run from 9 (North, top) down to 1, columns a-i from West to East; the
coordinates are drawn on all four sides.  An empty cell is ``.``, a single
cube ``o`` and a stack its height (``3``-``8``).  The cells the last move
touched are shown in reverse video.  Under the board: the common reserve,
both personal reserves, whose turn it is and whether they are under voyna.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .board import GRID, RAYS, SIZE
from .rules import DISTRIBUTE, PLACE, PLAYER_NAMES, XoBoMove, XoBoState

if TYPE_CHECKING:  # pragma: no cover
    from .game import XoBo

STYLES = ("bold red", "bold green")


def _touched(state: XoBoState, move: object) -> int:
    if not isinstance(move, XoBoMove):
        return 0
    kind, a, _b, extra, _ = move
    if kind == PLACE:
        return 1 << a
    if kind == DISTRIBUTE:
        mask = 1 << a
        for c in RAYS[a][extra]:
            mask |= 1 << c
        return mask
    return extra


def render(game: XoBo, state: XoBoState, last_move: XoBoMove | None = None) -> Text:
    """Draw the board with coordinates, heights, the reserves and voyna."""
    touched = _touched(state, last_move)
    letters = "   " + " ".join(chr(ord("a") + c) for c in range(SIZE)) + "\n"
    out = Text()
    out.append(letters, "dim")
    for r in range(SIZE - 1, -1, -1):
        out.append(f"{r + 1:>2} ", "dim")
        for c in range(SIZE):
            i = GRID.index(c, r)
            h = state.height_of(i)
            if h == 0:
                ch, style = ".", "grey50"
            elif h == 1:
                ch, style = "o", "bold"
            else:
                ch, style = str(h), "bold yellow"
            if touched >> i & 1:
                style += " reverse"
            out.append(ch, style)
            if c < SIZE - 1:
                out.append(" ")
        out.append(f" {r + 1}\n", "dim")
    out.append(letters, "dim")
    res = state.reserves
    out.append(f"common reserve: {state.common}   ")
    out.append(f"{PLAYER_NAMES[0]}: {res[0]}", STYLES[0])
    out.append("   ")
    out.append(f"{PLAYER_NAMES[1]}: {res[1]}", STYLES[1])
    out.append("\n")
    if state.outcome is None:
        if state.voyna:
            out.append("VOYNA! ", "bold white on red")
            out.append(f"({PLAYER_NAMES[1 - state.to_move]} threatens to win; stacking allowed)")
    else:
        out.append(state.outcome.message, "bold")
    out.rstrip()
    return out
