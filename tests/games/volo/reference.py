"""An independent, deliberately simple reference implementation of Volo.

Written from the seeds (see ``docs/rules/volo.md``) without looking at the
engine in ``tablier.games.volo``: cells are ``(q, r)`` tuples, sets of birds
are Python ``frozenset``s and every connectivity question is answered by a
plain breadth-first search.  It is slow on purpose; the tests compare the
fast engine against it.

The only contact with the engine is :func:`from_state`, which reads a state
through its public accessors (``birds``, ``supply``, ``to_move``,
``passes``) and the game's options.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

ORANGE, BLUE = 0, 1
# The six axial neighbour steps (rule R-2 / interpretation I-1).
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
EDGE = {"standard": 7, "mini": 6}
TOTAL = {"standard": 60, "mini": 50}


class RefBoard:
    """The cells of one board (edge ``n``) and their labels."""

    def __init__(self, board: str) -> None:
        n = EDGE[board]
        self.name = board
        self.n = n
        top = 2 * n - 2
        hexagon = {(q, r) for q in range(top + 1) for r in range(top + 1) if abs(q - r) <= n - 1}
        corners = {(0, 0), (n - 1, 0), (top, n - 1), (top, top), (n - 1, top), (0, n - 1)}
        self.centre = (n - 1, n - 1)
        self.corners = frozenset(corners)
        self.cells = frozenset(hexagon - corners - {self.centre})
        self.neighbours = {
            c: tuple(
                (c[0] + dq, c[1] + dr)
                for dq, dr in DIRECTIONS
                if (c[0] + dq, c[1] + dr) in self.cells
            )
            for c in self.cells
        }

    def label(self, cell: tuple[int, int]) -> str:
        """``(4, 4)`` -> ``"e5"``."""
        return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"

    def cell(self, label: str) -> tuple[int, int]:
        """``"e5"`` -> ``(4, 4)``; raises KeyError for a label that is not a cell."""
        text = label.strip().lower()
        cell = (ord(text[0]) - ord("a"), int(text[1:]) - 1)
        if cell not in self.cells:
            raise KeyError(label)
        return cell

    def nests(self) -> tuple[frozenset, frozenset]:
        """Setup "nests" (I-3): one step inward from each missing corner, alternating."""
        n = self.n
        orange = {(1, 1), (2 * n - 3, n - 1), (n - 1, 2 * n - 3)}
        blue = {(n - 1, 1), (2 * n - 3, 2 * n - 3), (1, n - 1)}
        return frozenset(orange), frozenset(blue)

    def centre_setup(self) -> tuple[frozenset, frozenset]:
        """Setup "centre" (I-4): the six cells around the missing centre, alternating."""
        cq, cr = self.centre
        orange = {(cq + 1, cr), (cq, cr + 1), (cq - 1, cr - 1)}
        blue = {(cq + 1, cr + 1), (cq - 1, cr), (cq, cr - 1)}
        return frozenset(orange), frozenset(blue)


_BOARDS: dict[str, RefBoard] = {}


def board_of(name: str) -> RefBoard:
    """The (cached) RefBoard called ``name``."""
    if name not in _BOARDS:
        _BOARDS[name] = RefBoard(name)
    return _BOARDS[name]


@dataclass(frozen=True)
class RefPos:
    """A position: birds of each side, supplies, side to move, passes, outcome.

    ``outcome`` is ``None`` or ``(winner, reason)`` with winner 0, 1 or None.
    """

    birds: tuple[frozenset, frozenset]
    supply: tuple[int, int]
    to_move: int
    passes: int
    outcome: tuple[int | None, str] | None = None


@dataclass(frozen=True)
class RefAction:
    """One decision: ``kind`` is "place", "fly" or "pass".

    ``source``/``target`` are frozensets of cells (the line before and after a
    flight; empty/the placed cell for a placement); ``keep`` is the frozenset of
    cells of the opponent region kept, or None when there was no choice.
    """

    kind: str
    source: frozenset
    target: frozenset
    keep: frozenset | None


# -- connectivity ------------------------------------------------------------


def component(board: RefBoard, start, allowed) -> set:
    """Every cell reachable from ``start`` through cells of ``allowed`` (BFS)."""
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nb in board.neighbours[cell]:
            if nb in allowed and nb not in seen:
                seen.add(nb)
                queue.append(nb)
    return seen


def components(board: RefBoard, cells: Iterable) -> list[frozenset]:
    """The connected components of a set of cells."""
    cells = set(cells)
    result = []
    while cells:
        start = next(iter(cells))
        comp = component(board, start, cells)
        result.append(frozenset(comp))
        cells -= comp
    return result


def flocks(board: RefBoard, birds) -> list[frozenset]:
    """The flocks (connected groups of one side's birds)."""
    return components(board, birds)


def regions_with_birds(board: RefBoard, player_birds, other_birds) -> list[frozenset]:
    """The regions of ``player_birds``: components of cells not holding ``other_birds``
    (empty or holding ``player_birds``) that contain at least one of ``player_birds``.
    """
    open_cells = board.cells - other_birds
    result = []
    left = set(player_birds)
    while left:
        start = next(iter(left))
        comp = component(board, start, open_cells)
        result.append(frozenset(comp))
        left -= comp
    return result


# -- the rules -----------------------------------------------------------------


def initial(board: str, setup: str = "nests", supply: int | None = None) -> RefPos:
    """The starting position (R-1, R-3)."""
    b = board_of(board)
    birds = b.nests() if setup == "nests" else b.centre_setup()
    total = TOTAL[board] if supply is None else supply
    return RefPos(birds, (total - 3, total - 3), ORANGE, 0, None)


def static_outcome(board: str, edition: str, pos: RefPos) -> tuple[int | None, str] | None:
    """The outcome of a position read as if the player not to move had just moved (I-12)."""
    b = board_of(board)
    mover = 1 - pos.to_move
    if pos.passes >= 2:
        if edition == "current":
            return (None, "double-pass")
        return (mover, "last-action")
    if len(flocks(b, pos.birds[mover])) == 1:
        return (mover, "flock")
    if len(flocks(b, pos.birds[pos.to_move])) == 1:
        return (pos.to_move, "opponent-flock")
    return None


def placements(board: str, pos: RefPos) -> list[tuple[int, int]]:
    """Cells where the side to move may add a bird (R-4)."""
    b = board_of(board)
    me = pos.to_move
    if pos.supply[me] <= 0:
        return []
    mine, theirs = pos.birds[me], pos.birds[1 - me]
    occupied = mine | theirs
    open_for_me = b.cells - theirs
    result = []
    for cell in sorted(b.cells - occupied):
        if any(nb in mine for nb in b.neighbours[cell]):
            continue  # next to a friendly bird
        # an open path (empty cells or friendly birds) to a friendly bird
        if not (component(b, cell, open_for_me) & mine):
            continue  # inside a region controlled by the opponent
        result.append(cell)
    return result


def lines(board: RefBoard, birds) -> set[tuple]:
    """Every straight contiguous line of ``birds`` (single birds included).

    A line is returned as a tuple of cells from one end to the other, in the
    order of one of the axes (1,0), (0,1), (1,1); single birds appear once.
    """
    result = set()
    for bird in birds:
        result.add((bird,))
        for dq, dr in ((1, 0), (0, 1), (1, 1)):
            cells = [bird]
            nxt = (bird[0] + dq, bird[1] + dr)
            while nxt in birds:
                cells.append(nxt)
                result.add(tuple(cells))
                nxt = (nxt[0] + dq, nxt[1] + dr)
    return result


def flights(board: str, pos: RefPos) -> list[tuple[frozenset, frozenset]]:
    """Every legal flight of the side to move as (cells before, cells after) (R-5..R-8)."""
    b = board_of(board)
    me = pos.to_move
    mine, theirs = pos.birds[me], pos.birds[1 - me]
    occupied = mine | theirs
    flock_of = {}
    for flock in flocks(b, mine):
        for bird in flock:
            flock_of[bird] = flock
    result = []
    for line in lines(b, mine):
        line_set = frozenset(line)
        flock = flock_of[line[0]]
        others = mine - flock  # birds of the other flocks
        for dq, dr in DIRECTIONS:
            step = 1
            while True:
                # every cell passed over or landed on by any bird of the line
                path = {(q + k * dq, r + k * dr) for (q, r) in line for k in range(1, step + 1)}
                if not path <= b.cells or (path - line_set) & occupied:
                    break  # off the board or blocked: longer flights are blocked too
                target = frozenset((q + step * dq, r + step * dr) for (q, r) in line)
                step += 1
                # it must end next to a bird of another flock (cheap necessary test)
                if not any(nb in others for cell in target for nb in b.neighbours[cell]):
                    continue
                after = (mine - line_set) | target
                moved_flock = (flock - line_set) | target
                joined = component(b, next(iter(target)), after)
                if moved_flock <= joined and len(joined) > len(flock):
                    result.append((line_set, target))
    return result


def _finish(board: str, mover: int, birds: list, supply: list, kept_choices: bool):
    """Outcome/region handling after an action; yields (keep, RefPos) pairs (R-9..R-11)."""
    b = board_of(board)
    opp = 1 - mover
    if len(flocks(b, birds[mover])) == 1:
        pos = RefPos((birds[0], birds[1]), (supply[0], supply[1]), opp, 0, (mover, "flock"))
        return [(None, pos)]
    regions = regions_with_birds(b, birds[opp], birds[mover])
    if len(regions) == 1:
        choices = [(None, birds[opp])]
    else:
        choices = [(region, birds[opp] & region) for region in regions]
    result = []
    for keep, kept in choices:
        new_birds = list(birds)
        new_birds[opp] = frozenset(kept)
        new_supply = list(supply)
        new_supply[opp] += len(birds[opp]) - len(kept)
        outcome = None
        if len(flocks(b, new_birds[opp])) == 1:
            outcome = (opp, "opponent-flock")
        result.append(
            (keep, RefPos((new_birds[0], new_birds[1]), tuple(new_supply), opp, 0, outcome))
        )
    return result


def pass_allowed(board: str, edition: str, pos: RefPos, places=None, flies=None) -> bool:
    """Whether the side to move may pass (R-12, R-13)."""
    b = board_of(board)
    places = placements(board, pos) if places is None else places
    flies = flights(board, pos) if flies is None else flies
    if not places and not flies:
        return True
    if edition == "2010" or flies:
        return False
    # current edition: every placement lies in a region of the mover's own
    # (the opponent cannot reach it through empty cells and its own birds)
    me = pos.to_move
    mine, theirs = pos.birds[me], pos.birds[1 - me]
    open_for_them = b.cells - mine
    return all(not (component(b, cell, open_for_them) & theirs) for cell in places)


def successors(board: str, edition: str, pos: RefPos) -> dict[RefAction, RefPos]:
    """Every legal action of the side to move and the position it leads to."""
    if pos.outcome is not None:
        return {}
    me = pos.to_move
    result: dict[RefAction, RefPos] = {}
    places = placements(board, pos)
    flies = flights(board, pos)
    for cell in places:
        birds = list(pos.birds)
        birds[me] = birds[me] | {cell}
        supply = list(pos.supply)
        supply[me] -= 1
        for keep, new in _finish(board, me, birds, supply, True):
            result[RefAction("place", frozenset(), frozenset([cell]), keep)] = new
    for source, target in flies:
        birds = list(pos.birds)
        birds[me] = (birds[me] - source) | target
        for keep, new in _finish(board, me, birds, list(pos.supply), True):
            result[RefAction("fly", source, target, keep)] = new
    if pass_allowed(board, edition, pos, places, flies):
        passes = pos.passes + 1
        outcome = None
        if passes >= 2:
            outcome = (None, "double-pass") if edition == "current" else (me, "last-action")
        result[RefAction("pass", frozenset(), frozenset(), None)] = RefPos(
            pos.birds, pos.supply, 1 - me, passes, outcome
        )
    return result


def valid_position(board: str, birds0, birds1) -> str | None:
    """Why two sets of birds cannot form a position (None when they can)."""
    b = board_of(board)
    birds = (frozenset(birds0), frozenset(birds1))
    if birds[0] & birds[1]:
        return "a cell holds two birds"
    for p in (0, 1):
        if not birds[p]:
            return "a side has no bird"
        if not birds[p] <= b.cells:
            return "a bird is off the board"
        if len(regions_with_birds(b, birds[p], birds[1 - p])) > 1:
            return "a side's birds lie in two regions"
    return None


# -- bridge to the engine ------------------------------------------------------


def from_state(state) -> RefPos:
    """Read an engine state through its public accessors into a RefPos."""
    b = board_of(state.game.options["board"])
    birds = tuple(frozenset(b.cell(label) for label in state.birds(p)) for p in (0, 1))
    outcome = state.outcome
    return RefPos(
        birds,
        (state.supply(0), state.supply(1)),
        state.to_move,
        state.passes,
        None if outcome is None else (outcome.winner, outcome.reason),
    )
