"""XoBo's AI knowledge: connection distance against a slow Dijkstra reference."""

from __future__ import annotations

import heapq
import random

import pytest

from tablier.ai.knowledge import knowledge_for
from tablier.games import get
from tablier.games.xobo import ai as xobo_ai
from tablier.games.xobo.board import GRID


def _slow_distance(state, player):
    """Dijkstra over cells: one cube costs 0, empty costs 1, a stack is a wall."""
    size = 9
    cost = {}
    for c in range(size):
        for r in range(size):
            h = state.height_of(GRID.index(c, r))
            cost[(c, r)] = 0 if h == 1 else 1 if h == 0 else None
    if player == 0:  # North-South: rows 1 and 9
        start = [(c, 0) for c in range(size)]
        goal = {(c, size - 1) for c in range(size)}
    else:
        start = [(0, r) for r in range(size)]
        goal = {(size - 1, r) for r in range(size)}
    dist = {}
    heap = [(cost[x], x) for x in start if cost[x] is not None]
    heapq.heapify(heap)
    while heap:
        d, x = heapq.heappop(heap)
        if x in dist:
            continue
        dist[x] = d
        if x in goal:
            return d
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                y = (x[0] + dc, x[1] + dr)
                if y != x and y in cost and cost[y] is not None and y not in dist:
                    heapq.heappush(heap, (d + cost[y], y))
    return xobo_ai.BLOCKED


def _positions(count, seed):
    game = get("xobo")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 70)):
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            state = state.apply_unchecked(moves[rng.randrange(len(moves))])
        out.append(state)
    return out


def test_distance_matches_dijkstra():
    for state in _positions(40, seed=3):
        for player in (0, 1):
            fast = xobo_ai.connection_distance(state.ones, state.stacks, player)
            assert fast == _slow_distance(state, player)


def test_evaluation_sign_and_discovery():
    game = get("xobo")
    start = game.initial_state()
    assert xobo_ai.evaluate(start) > 0  # equal distances: the tempo favours the side to move
    assert knowledge_for(game).evaluate is xobo_ai.evaluate
    for state in _positions(20, seed=4):
        if state.outcome is None:
            assert -1 < xobo_ai.evaluate(state) < 1


@pytest.mark.parametrize("player", [0, 1])
def test_distance_of_a_connected_player_is_zero(player):
    for state in _positions(60, seed=5):
        if state.connected(player):
            assert xobo_ai.connection_distance(state.ones, state.stacks, player) == 0
