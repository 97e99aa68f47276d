"""Terminal rendering of a Volo position (rich Text).

Orange birds are drawn ``O`` and Blue birds ``B`` (the letter is the second
cue beside the colour), empty cells ``.``; the cells the last move landed on
are shown in reverse video and the cells it vacated as ``*``.  Row numbers
stand at the left of each row; column letters stand where each column would
continue below the board (under the bottom row for a-g, at the right of the
lower rows for h-m).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .rules import PLAYER_NAMES, VoloMove, VoloState

if TYPE_CHECKING:  # pragma: no cover
    from .game import Volo

STYLES = ("bold dark_orange", "bold dodger_blue1")
SYMBOLS = ("O", "B")


def render(game: Volo, state: VoloState, last_move: VoloMove | None = None) -> Text:
    """Draw the board with coordinates, both supplies and the last move."""
    board = game.board
    grid = game.grid
    n = board.edge
    size = 2 * n - 1
    margin = 3
    landed = vacated = 0
    if isinstance(last_move, VoloMove):
        vacated, landed = last_move[0], last_move[1]
        vacated &= ~landed
    b0, b1 = state.bitboard(0), state.bitboard(1)

    # canvas: line index 0 is the top row; one extra line for the column letters below
    lines: list[list[tuple[str, str]]] = [[] for _ in range(size + 1)]

    def put(line: int, x: int, text: str, style: str = "") -> None:
        row = lines[line]
        while len(row) < x:
            row.append((" ", ""))
        for k, ch in enumerate(text):
            if x + k < len(row):
                row[x + k] = (ch, style)
            else:
                row.append((ch, style))

    for r in range(size):
        line = size - 1 - r
        qs = [q for q in range(size) if abs(q - r) <= n - 1]
        first_x = 2 * qs[0] - r + (n - 1) + margin
        put(line, first_x - margin, f"{r + 1:>2}", "dim")
        for q in qs:
            x = 2 * q - r + (n - 1) + margin
            if not grid.contains(q, r):
                continue
            i = grid.index(q, r)
            bit = 1 << i
            if b0 & bit:
                ch, style = SYMBOLS[0], STYLES[0]
            elif b1 & bit:
                ch, style = SYMBOLS[1], STYLES[1]
            elif vacated & bit:
                ch, style = "*", "yellow"
            else:
                ch, style = ".", "grey50"
            if landed & bit:
                style += " reverse"
            put(line, x, ch, style)
    # column letters where each column continues below the board
    for q in range(size):
        r = -1 if q <= n - 1 else q - n
        x = 2 * q - r + (n - 1) + margin
        put(size - 1 - r if r >= 0 else size, x, chr(ord("a") + q), "dim")

    out = Text()
    for row in lines:
        for ch, style in row:
            out.append(ch, style or None)
        out.rstrip()
        out.append("\n")
    for p in (0, 1):
        on_board = state.bitboard(p).bit_count()
        flocks = len(grid.components(state.bitboard(p)))
        out.append(f"{SYMBOLS[p]} {PLAYER_NAMES[p]}", STYLES[p])
        out.append(
            f": {on_board} in the sky in {flocks} flock{'s' if flocks != 1 else ''}, "
            f"{state.supply(p)} in supply\n"
        )
    if state.outcome is None and state.passes:
        out.append(f"{state.passes} pass{'es' if state.passes > 1 else ''} in a row\n")
    elif state.outcome is not None:
        out.append(state.outcome.message + "\n", "bold")
    out.rstrip()
    return out
