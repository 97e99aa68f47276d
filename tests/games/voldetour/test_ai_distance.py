"""The Lord's 3D path distance of the Voldetour AI: hand counts and a slow reference."""

from __future__ import annotations

import heapq
import random

import pytest

from tablier.games.voldetour import ai as vold_ai
from tablier.games.voldetour.rules import VState

from .helpers import built_position, game, play

pytestmark = pytest.mark.usefixtures("engine")

STEP, LEVEL, SLOPE = vold_ai.STEP, vold_ai.LEVEL, vold_ai.SLOPE


def _slow_distance(
    state: VState, player: int, walls: frozenset[int] = frozenset(), pillar: int = -1
) -> int:
    """Dijkstra over (square, height), one square at a time, with the rules' own Lord step;
    never onto a square of ``walls``; with ``pillar`` 0 or more, raising a square to the
    towers' height for a step there adds at most that (``ai._PILLAR``)."""
    ps = state.game.pieceset
    grid = ps.grid
    b = state.board
    H = ps.tower_height
    target = ps.towers[1 - player]
    start = state.lords[player]
    heap = [(0, start, b.height(start))]
    done = set()
    while heap:
        cost, q, h = heapq.heappop(heap)
        if (q, h) in done or (q in walls and q != start):
            continue
        done.add((q, h))
        if q == target and h == H:
            return cost
        col, row = grid.coord(q)
        for e, (dc, dr) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
            r = state.lord_step(b, q, h, e)
            if r is not None:  # the other Lord is no wall for the distance
                heapq.heappush(heap, (cost + STEP, r[0], r[1]))
            if not grid.contains(col + dc, row + dr):
                continue
            t = grid.index(col + dc, row + dr)
            if t == target and h == H - 1:
                heapq.heappush(heap, (cost + STEP + SLOPE, t, H))
            if t in ps.towers:
                continue
            top = next((k for k in range(H + 1) if b.flat[k] >> t & 1), None)
            if top is None:  # a slope: only the rules' step goes there
                continue
            for h2 in (h - 1, h, h + 1):
                if 0 <= h2 <= H and top <= h2 and (h2 != h or top < h2):
                    raised = LEVEL * (h2 - top)
                    if h == h2 == H and 0 <= pillar < raised:
                        raised = pillar
                    extra = (SLOPE if h2 != h else 0) + raised
                    heapq.heappush(heap, (cost + STEP + extra, t, h2))
    return vold_ai.BLOCKED


def _square(g, label):
    return g.pieceset.grid.parse_label(label)


def test_hand_counts_on_the_empty_board():
    g = game()
    start = g.initial_state()
    # From b2 (height 3) to i9: 14 squares.  Down three levels over the first three
    # squares (each a step and a slope, with two, one and no levels to build under it),
    # eight flat steps, then up three levels over the last three squares (one and two levels
    # to build, then a slope onto the tower): with the costs 1/1/2, 12 + 8 + 12 = 32.
    down = (STEP + SLOPE + 2 * LEVEL) + (STEP + SLOPE + LEVEL) + (STEP + SLOPE)
    up = (STEP + SLOPE + LEVEL) + (STEP + SLOPE + 2 * LEVEL) + (STEP + SLOPE)
    assert vold_ai.path_distance(start, 0) == down + 8 * STEP + up
    assert vold_ai.path_distance(start, 1) == vold_ai.path_distance(start, 0)
    # A Lord on the ground at e5: 8 squares to i9, the last three climbing.
    ground = VState(g, start.blocks, start.stairs, (_square(g, "e5"), start.lords[1]), 3)
    assert vold_ai.path_distance(ground, 0) == 5 * STEP + up


def test_over_a_built_path_it_counts_the_lords_steps():
    g = game()
    state = play(g.initial_state(), "B113", "B113@h9:1x1x3")
    # Black's Lord on the 3-high block next to White's tower: one step.
    on_block = VState(g, state.blocks, state.stairs, (_square(g, "h9"), state.lords[1]), 3)
    assert on_block.board.height(_square(g, "h9")) == 3
    # (White's Lord is still on i9, Black's target: it must leave, so the path counts.)
    assert vold_ai.path_distance(on_block, 0) == STEP
    assert vold_ai.lord_distance(on_block, 0) == 1
    # Three steps back along a row of 3-high blocks: g9 and f9 raised too.
    fresh = VState(g, state.blocks, state.stairs, state.lords, 3)  # a new Black turn
    row = play(fresh, "B123", "B123@f9:2x1x3")
    back = VState(g, row.blocks, row.stairs, (_square(g, "f9"), row.lords[1]), 3)
    assert vold_ai.path_distance(back, 0) == 3 * STEP
    # White's Lord standing on g9, in the way: no wall for the distance (Lords move)
    blocker = VState(g, row.blocks, row.stairs, (_square(g, "f9"), _square(g, "g9")), 3)
    assert vold_ai.path_distance(blocker, 0) == 3 * STEP
    # unless a benchmark asks with its square a wall: around it, f10, g10 and h10 to build
    # (three levels each under the first, two more squares), or f8, g8 and h8 the same way
    g9 = 1 << _square(g, "g9")
    walled = vold_ai.path_distance(blocker, 0, g9)
    assert walled == _slow_distance(blocker, 0, frozenset({_square(g, "g9")})) > 3 * STEP
    assert vold_ai._path_distance_pure(blocker, 0, 0) == 3 * STEP
    # the Lord's own square is never a wall
    own = 1 << _square(g, "f9")
    assert vold_ai.path_distance(blocker, 0, own) == 3 * STEP


def test_distance_matches_the_slow_reference():
    rng = random.Random(11)
    g = game()
    checked = slopes = 0
    for _ in range(60):
        state = built_position(g, rng)
        if state.outcome is not None:
            continue
        b = state.board
        slopes += any(m for z in b.slope for m in z)
        for p in (0, 1):
            assert vold_ai.path_distance(state, p) == _slow_distance(state, p), state.to_text()
            checked += 1
    assert checked > 80 and slopes > 10


def test_distance_with_the_other_lord_a_wall_matches_the_slow_reference():
    rng = random.Random(12)
    g = game()
    checked = longer = 0
    for _ in range(60):
        state = built_position(g, rng)
        if state.outcome is not None:
            continue
        for p in (0, 1):
            other = state.lords[1 - p]
            walled = vold_ai.path_distance(state, p, 1 << other)
            assert walled == _slow_distance(state, p, frozenset({other})), state.to_text()
            assert walled >= vold_ai.path_distance(state, p)
            longer += walled > vold_ai.path_distance(state, p)
            checked += 1
    assert checked > 80 and longer > 0, longer


def test_evaluation_prefers_the_lord_nearer_over_built_paths():
    g = game()
    state = play(g.initial_state(), "B113", "B113@h9:1x1x3")
    near = VState(g, state.blocks, state.stairs, (_square(g, "h9"), state.lords[1]), 3)
    far = VState(g, state.blocks, state.stairs, (_square(g, "c3"), state.lords[1]), 3)
    # turn 3 is Black's: Black to move in both
    assert vold_ai.evaluate(near) > vold_ai.evaluate(far)


def test_the_lords_own_squares_count_beside_the_path_distance(monkeypatch):
    # With both path distances held equal, a Lord a square nearer the enemy tower is ahead:
    # the path distance builds where nothing is built as if the pieces were at hand, so in
    # an endgame with empty reserves it can read a put near the enemy tower as progress
    # while the Lord stands still (docs/ai.md, "The Lord's own squares").
    g = game()
    state = play(g.initial_state(), "B113", "B113@h9:1x1x3")
    monkeypatch.setattr(vold_ai, "_path_distance", lambda state, player: 20)
    nearer = VState(g, state.blocks, state.stairs, (_square(g, "d4"), state.lords[1]), 3)
    farther = VState(g, state.blocks, state.stairs, (_square(g, "c3"), state.lords[1]), 3)
    assert vold_ai.lord_distance(nearer, 0) == vold_ai.lord_distance(farther, 0) - 2
    assert vold_ai._evaluate_pure(nearer) > vold_ai._evaluate_pure(farther)
    monkeypatch.setattr(vold_ai, "_LORD", 0.0)
    assert vold_ai._evaluate_pure(nearer) == vold_ai._evaluate_pure(farther)


def test_the_tempo_is_the_side_to_moves_lead_in_both_evaluations():
    # _TEMPO (0 in play) adds to the race of the side to move, in Python and in the compiled
    # core alike (docs/ai.md, "Tempo"); _set_tempo gives the previous value back.
    g = game()
    rng = random.Random(7)
    states = []
    state = g.initial_state()
    while len(states) < 12 and state.outcome is None:
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    previous = vold_ai._set_tempo(2.0)
    try:
        assert previous == 0.0 == vold_ai._set_tempo(2.0) - 2.0
        led = [vold_ai.evaluate(s) for s in states]
        assert led == pytest.approx([vold_ai._evaluate_pure(s) for s in states], abs=1e-9)
        vold_ai._set_tempo(0.0)
        plain = [vold_ai.evaluate(s) for s in states]
        assert plain == pytest.approx([vold_ai._evaluate_pure(s) for s in states], abs=1e-9)
        assert all(a >= b for a, b in zip(led, plain, strict=True))
        assert any(a > b for a, b in zip(led, plain, strict=True))
    finally:
        vold_ai._set_tempo(previous)


def test_a_pillar_is_one_put_when_the_knob_says_so():
    # _PILLAR (none in play) bounds what raising a square to the towers' height adds to a
    # step there: a pillar stood up is one put (docs/ai.md, "A pillar is one put").  On the
    # empty board at 1, Black's Lord walks at the top: 13 squares raised, then the tower.
    g = game()
    start = g.initial_state()
    rng = random.Random(13)
    states = [s for s in (built_position(g, rng) for _ in range(30)) if s.outcome is None]
    previous = vold_ai._set_pillar(1)
    try:
        assert previous == -1.0
        assert vold_ai.path_distance(start, 0) == 13 * (STEP + 1) + STEP
        for state in states:
            for p in (0, 1):
                assert vold_ai.path_distance(state, p) == _slow_distance(state, p, pillar=1)
        assert [vold_ai.evaluate(s) for s in states] == pytest.approx(
            [vold_ai._evaluate_pure(s) for s in states], abs=1e-9
        )
    finally:
        vold_ai._set_pillar(previous)
    assert vold_ai.path_distance(start, 0) == 32


def test_a_pinned_lord_pays_the_pin_in_both_evaluations():
    # _PIN (0 in play): a Lord at the towers' height whose pillars are all blocked (its own
    # under it, the other under the enemy Lord, who stepped onto it) costs its side that much
    # on the race's scale (docs/ai.md, "Pinned pillars").
    g = game()
    pinned = g.parse_position_body("turn=9 lords=e5,f6 black=B113@e5:1x1x3,B123@e6:2x1x3 white=-")
    # the same with White's Lord gone on: the 1x2x3 is free again
    freed = g.parse_position_body("turn=9 lords=e5,g7 black=B113@e5:1x1x3,B123@e6:2x1x3 white=-")
    held = play(freed, "B123")  # the 1x2x3 taken up: in hand, free
    assert vold_ai._pinned(pinned, 0) and not vold_ai._pinned(pinned, 1)
    assert not vold_ai._pinned(freed, 0)
    assert held.hand is not None and not vold_ai._pinned(held, 0)
    states = [pinned, freed, held]
    plain = [vold_ai.evaluate(s) for s in states]
    previous = vold_ai._set_pin(4.0)
    try:
        assert previous == 0.0
        pinning = [vold_ai.evaluate(s) for s in states]
        assert pinning == pytest.approx([vold_ai._evaluate_pure(s) for s in states], abs=1e-9)
    finally:
        vold_ai._set_pin(previous)
    assert pinning[0] < plain[0]  # Black, to move, pinned
    assert pinning[1:] == pytest.approx(plain[1:], abs=1e-12)


def test_a_blocked_lord_is_far_not_lost():
    import math

    g = game()
    start = g.initial_state()
    a1, a2, b1 = (_square(g, x) for x in ("a1", "a2", "b1"))
    # Black's Lord on the ground in the corner a1, between two stairs whose slopes face
    # sideways (a2 rises to the east, b1 to the north): no step leads out, nothing can be
    # built on a slope, so no path exists for now.
    stairs = (tuple(sorted([(a2, 0, 1, 0), (b1, 0, 0, 0)])), ())
    state = VState(g, start.blocks, stairs, (a1, start.lords[1]), 3)
    assert state.lord_paths() == {}
    assert vold_ai.path_distance(state, 0) == vold_ai.BLOCKED
    d_white = vold_ai.path_distance(state, 1)
    assert d_white < vold_ai._CAP
    # Black to move: the race counts Black's distance as 40, not 200, on _near's scale
    # (White's Lord is still on its tower, which the stuck term counts for Black)
    stuck = vold_ai._stuck(state, 1) - vold_ai._stuck(state, 0)
    assert stuck > 0
    race = vold_ai._near(d_white) - vold_ai._near(vold_ai._CAP)
    # beside the path distances, the race counts the Lords' own squares to the enemy tower
    race += vold_ai._LORD * (vold_ai.lord_distance(state, 1) - vold_ai.lord_distance(state, 0))
    expected = 0.5 * math.tanh(vold_ai._SCALE * race + stuck) + 0.5 * race / vold_ai._CAP
    assert vold_ai.evaluate(state) == max(-1.0, expected + 0.5 * stuck)
    assert vold_ai.evaluate(state) > -0.999
