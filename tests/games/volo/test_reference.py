"""The engine against the independent reference implementation (``reference.py``).

For at least 300 random positions of each board and each edition, reached by
seeded random play from the start and built by hand at random, the set of
positions the engine's legal moves lead to equals the reference's set, the
engine's move count equals the reference's count of distinct (move,
region-choice) actions, and each engine move leads where the reference's
matching action leads.
"""

from __future__ import annotations

import random

import pytest

import tablier.games

from . import reference as R

# Every test here runs on the compiled core and on the pure engine (conftest.py).
pytestmark = pytest.mark.usefixtures("engine")

CONFIGS = [(board, edition) for board in ("standard", "mini") for edition in ("current", "2010")]
# positions sampled from random games, per configuration: (setup, supply option, count)
PLAYED = (("nests", None, 80), ("centre", None, 60), ("nests", 12, 40), ("centre", 12, 40))
HANDMADE = 100  # random hand-made positions, per configuration
CROWDED = 60  # positions of placement-heavy games with small supplies (passes occur)


def _ref_key(move, board: R.RefBoard, actions) -> R.RefAction:
    """The reference action that matches an engine move (exactly one must)."""
    source = frozenset(board.cell(c) for c in move.source)
    target = frozenset(board.cell(c) for c in move.target)
    keep_cell = None if move.keep is None else board.cell(move.keep)
    found = [
        a
        for a in actions
        if a.kind == move.kind
        and a.source == source
        and a.target == target
        and (
            (a.keep is None) if keep_cell is None else (a.keep is not None and keep_cell in a.keep)
        )
    ]
    assert len(found) == 1, f"engine move {move} matches {len(found)} reference actions"
    return found[0]


def compare(state) -> int:
    """Check one engine state against the reference; return the number of moves."""
    game = state.game
    board_name, edition = game.options["board"], game.options["edition"]
    board = R.board_of(board_name)
    pos = R.from_state(state)
    # a position is evaluated as if the player not to move had just moved
    assert pos.outcome == R.static_outcome(board_name, edition, pos), state.to_text()
    expected = R.successors(board_name, edition, pos)
    moves = state.legal_moves()
    assert len(moves) == len(set(moves)), "the engine lists a move twice"
    assert len(moves) == len(expected), (
        f"{state.to_text()}: engine has {len(moves)} moves, reference {len(expected)}: "
        f"engine-only kinds {sorted(str(m) for m in moves)[:20]}"
    )
    engine_results = set()
    for move in moves:
        after = R.from_state(state.apply_unchecked(move))
        engine_results.add(after)
        action = _ref_key(move, board, expected)
        assert after == expected[action], f"{state.to_text()}: {move}"
    assert engine_results == set(expected.values())
    # a placement never divides the opponent (docs/rules/volo.md, R-5)
    assert not any(a.kind == "place" and a.keep is not None for a in expected)
    return len(moves)


def played_states(game, rng: random.Random, count: int):
    """``count`` positions met in seeded random games from the start."""
    found = []
    while len(found) < count:
        state = game.initial_state()
        plies = 0
        while state.outcome is None and len(found) < count:
            if rng.random() < 0.25:
                found.append(state)
            moves = state.legal_moves()
            state = state.apply_unchecked(rng.choice(moves))
            plies += 1
        if len(found) < count:
            found.append(state)  # the final position: no moves
    return found


def crowded_states(board: str, edition: str, rng: random.Random, count: int):
    """Positions of random games that place whenever they can, with small supplies.

    Such games fill the sky with lone birds, so passes (forced and optional)
    and both pass endings occur.  Every position where a pass is legal is
    kept, and a few others.
    """
    found = []
    while len(found) < count:
        game = tablier.games.get("volo", board=board, edition=edition, supply=rng.choice([12, 25]))
        state = game.initial_state()
        while state.outcome is None and len(found) < count:
            moves = state.legal_moves()
            if any(m.kind == "pass" for m in moves) or rng.random() < 0.03:
                found.append(state)
            places = [m for m in moves if m.kind == "place"]
            pool = places if places and rng.random() < 0.97 else moves
            state = state.apply_unchecked(rng.choice(pool))
    return found


def random_birds(board: R.RefBoard, rng: random.Random) -> tuple[set, set]:
    """Two random sets of birds (clusters of random density), each in one region."""
    cells = sorted(board.cells)
    density = rng.choice([0.1, 0.25, 0.4, 0.6, 0.8])
    birds: list[set] = [set(), set()]
    for cell in cells:
        if rng.random() < density:
            birds[rng.randrange(2)].add(cell)
    # grow some lines so that line flights occur
    for _ in range(rng.randrange(4)):
        p = rng.randrange(2)
        cell = rng.choice(cells)
        d = rng.choice(R.DIRECTIONS)
        for _k in range(rng.randrange(2, 5)):
            if cell not in board.cells:
                break
            birds[1 - p].discard(cell)
            birds[p].add(cell)
            cell = (cell[0] + d[0], cell[1] + d[1])
    for p in (0, 1):
        if not birds[p]:
            free = [c for c in cells if c not in birds[1 - p]]
            birds[p].add(rng.choice(free))
    # keep each side's birds in a single region (the region with most birds)
    for p in (0, 1):
        regions = R.regions_with_birds(board, birds[p], birds[1 - p])
        best = max(regions, key=lambda r: (len(r & birds[p]), sorted(r)))
        birds[p] &= best
    assert R.valid_position(board.name, birds[0], birds[1]) is None
    return birds[0], birds[1]


def handmade_states(board_name: str, edition: str, rng: random.Random, count: int):
    """``count`` random hand-made positions (random supplies, passes and side to move)."""
    board = R.board_of(board_name)
    found = []
    while len(found) < count:
        b0, b1 = random_birds(board, rng)
        biggest = max(len(b0), len(b1), 3)
        total = rng.choice([None, biggest, biggest + 1, biggest + rng.randrange(2, 20)])
        options = {"board": board_name, "edition": edition}
        if total is not None and total <= 200:
            options["supply"] = total
        elif R.TOTAL[board_name] < biggest:
            continue
        game = tablier.games.get("volo", **options)
        labels = [[board.label(c) for c in b] for b in (b0, b1)]
        state = game.position(
            labels[0], labels[1], to_move=rng.randrange(2), passes=rng.choice([0, 0, 0, 1])
        )
        found.append(state)
    return found


@pytest.mark.parametrize(("board", "edition"), CONFIGS)
def test_engine_matches_reference_on_played_positions(board, edition):
    rng = random.Random(f"played-{board}-{edition}")
    states = []
    for setup, supply, count in PLAYED:
        options = {"board": board, "edition": edition, "setup": setup}
        if supply is not None:
            options["supply"] = supply
        game = tablier.games.get("volo", **options)
        states += played_states(game, rng, count)
    assert len(states) == sum(count for _s, _t, count in PLAYED)
    total_moves = sum(compare(state) for state in states)
    assert total_moves > len(states)


@pytest.mark.parametrize(("board", "edition"), CONFIGS)
def test_engine_matches_reference_on_handmade_positions(board, edition):
    rng = random.Random(f"handmade-{board}-{edition}")
    states = handmade_states(board, edition, rng, HANDMADE)
    seen = {"place": 0, "fly": 0, "in file": 0, "region choice": 0}
    endings = {"flock": 0, "opponent-flock": 0}
    for state in states:
        compare(state)
        for move in state.legal_moves():
            seen[move.kind] = seen.get(move.kind, 0) + 1
            if set(move.source) & set(move.target):
                seen["in file"] += 1  # a line lands partly on cells it vacates
            if move.keep is not None:
                seen["region choice"] += 1
            after = state.apply_unchecked(move)
            if after.outcome is not None:
                endings[after.outcome.reason] += 1
    # the sample must exercise every kind of action and both ends of a move
    assert all(seen.values()), seen
    assert all(endings.values()), endings


@pytest.mark.parametrize(("board", "edition"), CONFIGS)
def test_engine_matches_reference_on_crowded_positions(board, edition):
    rng = random.Random(f"crowded-{board}-{edition}")
    states = crowded_states(board, edition, rng, CROWDED)
    passing = [s for s in states if any(m.kind == "pass" for m in s.legal_moves())]
    endings = set()
    for state in states:
        compare(state)
        for move in state.legal_moves():
            after = state.apply_unchecked(move)
            if after.outcome is not None:
                endings.add(after.outcome.reason)
    assert len(passing) >= CROWDED // 3
    assert ("double-pass" if edition == "current" else "last-action") in endings


def test_position_counts_per_configuration():
    """At least 300 positions per board and edition are compared."""
    assert sum(count for _s, _t, count in PLAYED) + HANDMADE + CROWDED >= 300


def test_reference_on_its_own_initial_moves():
    """At the start only placements exist: every empty cell not next to an Orange bird.

    Standard: 120 cells - 6 birds = 114 empty, minus 5 on-board neighbours of each of
    Orange's 3 nests = 99.  Mini: 84 - 6 - 15 = 63.
    """
    for board, count in (("standard", 99), ("mini", 63)):
        for edition in ("current", "2010"):
            actions = R.successors(board, edition, R.initial(board))
            assert len(actions) == count
            assert {a.kind for a in actions} == {"place"}


def test_reference_initial_positions():
    """The reference's own setup agrees with the engine's initial states."""
    for board in ("standard", "mini"):
        for setup in ("nests", "centre"):
            game = tablier.games.get("volo", board=board, setup=setup)
            assert R.from_state(game.initial_state()) == R.initial(board, setup)
