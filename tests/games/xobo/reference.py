"""A deliberately slow, independent reference implementation of XoBo's rules.

Plain lists of heights indexed ``grid[col][row]``, breadth-first search for
connections, and a brute-force threat test (try every empty cell).  It
shares nothing with the engine but the rules text: it is the oracle the
engine is compared with in ``test_reference.py``.

A position is a tuple ``(grid, common, reserves, turn, placed)`` where
``grid`` is a tuple of 9 column tuples of heights and ``placed`` says whether
the move that led to it was a placement (True at the start).  The rules'
options are keyword arguments: ``only_three`` (``stack=three``),
``cubes_rule`` (``exhaustion=cubes``) and ``by_placement``
(``voyna=placement``: only a placement announces voyna).
"""

from __future__ import annotations

from collections import deque

N = 9
TOTAL = 36
DIRS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def on_board(c: int, r: int) -> bool:
    return 0 <= c < N and 0 <= r < N


def to_lists(grid) -> list[list[int]]:
    return [list(col) for col in grid]


def freeze(grid) -> tuple:
    return tuple(tuple(col) for col in grid)


def room(c: int, r: int) -> int:
    """The longest walk from (c, r) to the edge in a straight line, in cells."""
    best = 0
    for dc, dr in DIRS:
        k = 0
        while on_board(c + (k + 1) * dc, r + (k + 1) * dr):
            k += 1
        best = max(best, k)
    return best


def is_start(player: int, c: int, r: int) -> bool:
    return r == 0 if player == 0 else c == 0


def is_goal(player: int, c: int, r: int) -> bool:
    return r == N - 1 if player == 0 else c == N - 1


def connected(grid, player: int) -> bool:
    """Breadth-first search over cells holding exactly one cube."""
    seen = set()
    queue = deque()
    for c in range(N):
        for r in range(N):
            if grid[c][r] == 1 and is_start(player, c, r):
                seen.add((c, r))
                queue.append((c, r))
    while queue:
        c, r = queue.popleft()
        if is_goal(player, c, r):
            return True
        for dc, dr in DIRS:
            nc, nr = c + dc, r + dr
            if on_board(nc, nr) and (nc, nr) not in seen and grid[nc][nr] == 1:
                seen.add((nc, nr))
                queue.append((nc, nr))
    return False


def threatens(grid, common: int, reserves, player: int) -> bool:
    """Could ``player`` win next turn by placing one cube (having one to place)?"""
    if common + reserves[player] == 0:
        return False
    g = to_lists(grid)
    for c in range(N):
        for r in range(N):
            if g[c][r] != 0:
                continue
            g[c][r] = 1
            wins = connected(g, player) and not connected(g, 1 - player)
            g[c][r] = 0
            if wins:
                return True
    return False


def stack_results(grid, only_three: bool):
    """Every grid reachable by gathering a straight run of single cubes."""
    out = []
    for c in range(N):
        for r in range(N):
            for dc, dr in DIRS:
                lengths = [3] if only_three else range(3, N + 1)
                for length in lengths:
                    cells = [(c + k * dc, r + k * dr) for k in range(length)]
                    if not all(on_board(x, y) for x, y in cells):
                        continue
                    if not all(grid[x][y] == 1 for x, y in cells):
                        continue
                    ex, ey = cells[-1]
                    if length > room(ex, ey):
                        continue
                    g = to_lists(grid)
                    for x, y in cells:
                        g[x][y] = 0
                    g[ex][ey] = length
                    out.append(freeze(g))
    return out


def distribution_results(grid):
    """Every (grid, captured cubes) reachable by distributing a stack."""
    out = []
    for c in range(N):
        for r in range(N):
            h = grid[c][r]
            if h < 3:
                continue
            for dc, dr in DIRS:
                cells = [(c + k * dc, r + k * dr) for k in range(1, h + 1)]
                if not all(on_board(x, y) for x, y in cells):
                    continue
                if not any(grid[x][y] == 1 for x, y in cells):
                    continue
                if any(grid[x][y] >= 3 and grid[x][y] + 1 > room(x, y) for x, y in cells):
                    continue
                g = to_lists(grid)
                g[c][r] = 0
                for x, y in cells:
                    g[x][y] += 1
                captured = 0
                for x in range(N):
                    for y in range(N):
                        if g[x][y] == 2:
                            g[x][y] = 0
                            captured += 2
                out.append((freeze(g), captured))
    return out


def analyse(pos, only_three: bool, cubes_rule: bool, by_placement: bool = False):
    """(winner, reason) or None, and whether the player to move is under voyna."""
    grid, common, reserves, turn, placed = pos
    mover = 1 - turn
    if connected(grid, turn):
        return (turn, "blocus"), False
    if connected(grid, mover):
        return (mover, "connection"), False
    # [X] "Si un joueur, en posant un cube, menace de gagner ..." / [K] "par son dernier coup"
    announced = placed or not by_placement
    voyna = announced and threatens(grid, common, reserves, mover)
    if common == 0:
        if cubes_rule:
            if reserves[turn] == 0:
                return (mover, "exhaustion"), False
            if reserves[mover] == 0:
                return (turn, "exhaustion"), False
        elif reserves[turn] == 0:
            can = bool(distribution_results(grid)) or (
                voyna and bool(stack_results(grid, only_three))
            )
            if not can:
                return (mover, "exhaustion"), False
    return None, voyna


def successors(pos, only_three: bool, cubes_rule: bool, by_placement: bool = False) -> list:
    """Every position reachable in one move (empty when the game is over)."""
    grid, common, reserves, turn, _ = pos
    outcome, voyna = analyse(pos, only_three, cubes_rule, by_placement)
    if outcome is not None:
        return []
    out = []
    if common + reserves[turn] > 0:
        for c in range(N):
            for r in range(N):
                if grid[c][r] == 0:
                    g = to_lists(grid)
                    g[c][r] = 1
                    if common > 0:
                        out.append((freeze(g), common - 1, reserves, 1 - turn, True))
                    else:
                        res = list(reserves)
                        res[turn] -= 1
                        out.append((freeze(g), common, tuple(res), 1 - turn, True))
    if voyna:
        for g in stack_results(grid, only_three):
            out.append((g, common, reserves, 1 - turn, False))
    for g, captured in distribution_results(grid):
        res = list(reserves)
        res[turn] += captured
        out.append((g, common, tuple(res), 1 - turn, False))
    return out
