"""Building XoBo positions from diagrams for the tests."""

from __future__ import annotations

import random

from tablier.games import get
from tablier.games.xobo import XoBo, XoBoState
from tablier.games.xobo.board import GRID

DEFAULT = {"stack": "any", "exhaustion": "moves", "voyna": "placement"}
TEN_POINT = {"stack": "three", "exhaustion": "cubes", "voyna": "any-move"}
#: both rule sets, each with both readings of which moves announce voyna
OPTION_SETS = [
    DEFAULT,
    {**DEFAULT, "voyna": "any-move"},
    TEN_POINT,
    {**TEN_POINT, "voyna": "placement"},
]
OPTION_IDS = ["xobo", "xobo-any-move", "ten-point", "ten-point-placement"]


def build(
    diagram: str,
    side: str = "ns",
    reserves: tuple[int, int] = (0, 0),
    common: int | None = None,
    game: XoBo | None = None,
) -> XoBoState:
    """A position from nine lines (row 9 first), ``.`` empty, ``o`` one cube, digits stacks.

    The common reserve holds whatever is left of the 36 cubes unless given.
    Built through the position string, so the reader is exercised too.
    """
    game = game or get("xobo")
    lines = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    assert len(lines) == 9, lines
    rows = [line.replace("o", "1") for line in lines]
    on_board = sum(int(ch) for row in rows for ch in row if ch.isdigit())
    if common is None:
        common = 36 - on_board - sum(reserves)
    body = f"{'/'.join(rows)} {side} {common}/{reserves[0]}/{reserves[1]}"
    return game.parse_position(game.position_text(body))


def cell(label: str) -> int:
    """The bit index of a cell name."""
    index = GRID.parse_label(label)
    assert index is not None
    return index


def texts(state: XoBoState) -> set[str]:
    """The notation of every legal move."""
    return {str(m) for m in state.legal_moves()}


def random_states(game: XoBo, seed: int, count: int, keep: float = 0.15) -> list[XoBoState]:
    """States met in random games, favouring stackings and distributions when offered.

    About ``keep`` of the states met are kept, including terminal ones.
    """
    return [state for state, _ in random_plays(game, seed, count, keep)]


def random_plays(
    game: XoBo, seed: int, count: int, keep: float = 0.15
) -> list[tuple[XoBoState, bool]]:
    """Like :func:`random_states`, each state with whether the move that led to it
    was a placement (True for the initial position)."""
    rng = random.Random(seed)
    out: list[tuple[XoBoState, bool]] = []
    while len(out) < count:
        state, placed = game.initial_state(), True
        while True:
            if rng.random() < keep:
                out.append((state, placed))
                if len(out) >= count:
                    break
            moves = state.legal_moves()
            if not moves:
                break
            special = [m for m in moves if m.kind != "place"]
            move = rng.choice(special) if special and rng.random() < 0.6 else rng.choice(moves)
            state, placed = state.apply_unchecked(move), move.kind == "place"
    return out


def random_position(game: XoBo, rng: random.Random, placed: bool = True) -> XoBoState:
    """A random position built directly: singles, a few stacks and random reserves.

    With ``placed`` False the position string ends in ``-``: the last move was a
    stacking or a distribution, so a threat of the player who made it announced no
    voyna under ``voyna=placement`` (and the position must not be one of voyna under
    ``voyna=any-move``: such a draw is made again).
    """
    from tablier.games.xobo.board import ROOM

    while True:
        cells = list(GRID.indices)
        rng.shuffle(cells)
        n_stacks = rng.randint(0, 3)
        heights: dict[int, int] = {}
        for i in cells[:n_stacks]:
            heights[i] = rng.randint(3, min(6, ROOM[i]))
        n_singles = rng.randint(10, 30)
        for i in cells[n_stacks : n_stacks + n_singles]:
            heights[i] = 1
        used = sum(heights.values())
        if used > 36:
            continue
        rest = 36 - used
        common = rng.choice([0, 0, rest, rng.randint(0, rest)])
        r0 = rng.randint(0, rest - common)
        r1 = rest - common - r0
        rows = []
        for r in range(8, -1, -1):
            rows.append(
                "".join(
                    "." if heights.get(GRID.index(c, r), 0) == 0 else str(heights[GRID.index(c, r)])
                    for c in range(9)
                )
            )
        side = rng.choice(["ns", "ew"])
        body = f"{'/'.join(rows)} {side} {common}/{r0}/{r1}"
        if placed:
            return game.parse_position_body(body)
        state = game.parse_position_body(body + " -") if game.voyna_placement else None
        if state is None:
            state = game.parse_position_body(body)
            if state.voyna:
                continue
        return state
