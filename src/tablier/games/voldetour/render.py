"""Terminal rendering of a Voldetour position (rich Text): a height map with reserves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .rules import BLOCK, PLAYER_NAMES, STAIR, VMove, VState

if TYPE_CHECKING:  # pragma: no cover
    from .game import Voldetour

__all__ = ["render", "top_owner"]


def render(game: Voldetour, state: VState, *, last_move: VMove | None = None) -> Text:
    """A height map: each square shows its height and a mark, with coordinates.

    Marks: ``.`` flat, ``^ > v <`` a slope rising north/east/south/west
    (the digit is its lower level), ``#`` a tower, ``B``/``W`` a Lord.
    The colour is the owner of the top piece.  Reserves follow.
    """
    ps = game.pieceset
    grid = ps.grid
    b = state.board
    owner = top_owner(game, state)
    styles = ("bold red", "bold cyan")
    arrows = "^>v<"
    out = Text()
    letters = "   " + "".join(f" {chr(ord('a') + c)} " for c in range(ps.width))
    out.append(letters + "\n", style="dim")
    moved: set[int] = set()
    if isinstance(last_move, VMove):
        key = last_move.key
        if key[0] == "L":
            moved = {key[1][-1]}
        elif key[0] == "P":
            moved = {key[4]} if key[1] == "B" else {key[2]}
    for r in range(ps.height - 1, -1, -1):
        out.append(f"{r + 1:>2} ", style="dim")
        for c in range(ps.width):
            a = grid.index(c, r)
            h = b.height(a)
            if a in ps.towers:
                mark, digit = "#", str(ps.tower_height)
                style = styles[ps.towers.index(a)]
            elif h is None:
                digit, mark = "0", "?"
                for z in range(ps.tower_height):
                    for d in range(4):
                        if b.slope[z][d] >> a & 1:
                            digit, mark = str(z), arrows[d]
                style = styles[owner.get(a, 0)]
            else:
                digit, mark = str(h), "."
                style = styles[owner[a]] if a in owner else ("dim" if h == 0 else "")
            if a == state.lords[0] or a == state.lords[1]:
                mark = "B" if a == state.lords[0] else "W"
                style = "reverse " + styles[0 if mark == "B" else 1]
            if ps.marked >> a & 1 and not style:
                style = "magenta"
            cell = f"{digit}{mark}"
            if a in moved:
                style += " underline"
            out.append(" " + cell, style=style or None)
        out.append(f" {r + 1:<2}\n", style="dim")
    out.append(letters + "\n", style="dim")
    for p in (0, 1):
        blocks = " ".join("B" + ps.blocks[k].name for k in state.reserve_blocks(p)) or "-"
        out.append(f"{PLAYER_NAMES[p]} reserve: ", style=styles[p])
        out.append(f"blocks {blocks}; stairs {state.reserve_stairs(p)}\n")
    if state.outcome is not None:
        out.append(f"Game over: {state.outcome.message}\n", style="bold")
    else:
        p = state.to_move
        used = []
        if state.done & BLOCK:
            used.append("block")
        if state.done & STAIR:
            used.append("stair")
        line = f"Turn {state.turn} of {PLAYER_NAMES[p]}"
        if used:
            line += f" (done: {', '.join(used)})"
        if state.hand is not None:
            line += f"; in hand: {state.hand_text()}"
        out.append(line + "\n", style=styles[p])
    return out


def top_owner(game: Voldetour, state: VState) -> dict[int, int]:
    """The owner of the top piece of every covered square."""
    ps = game.pieceset
    nb = len(ps.blocks)
    top: dict[int, tuple[int, int]] = {}

    def note(a: int, lev: int, p: int) -> None:
        if a not in top or top[a][0] <= lev:
            top[a] = (lev, p)

    for i, pl in enumerate(state.blocks):
        if pl is None:
            continue
        o = ps.orientations[pl[0]]
        for off in o.offsets:
            note(pl[1] + off, 2 * (pl[2] + o.dz) - 1, i // nb)
    for p in (0, 1):
        for a, z, _d, inv in state.stairs[p]:
            note(a, 2 * z + inv, p)
    return {a: v[1] for a, v in top.items()}
