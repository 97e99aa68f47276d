"""Volo's AI knowledge: features against a slow reference, evaluation and prior sanity."""

from __future__ import annotations

import random

import pytest

from tablier.ai.knowledge import knowledge_for
from tablier.games import get
from tablier.games.volo import ai as volo_ai

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


def _slow_groups(cells: set[tuple[int, int]]) -> int:
    """Connected groups of a set of axial cells, by breadth-first search."""
    left = set(cells)
    groups = 0
    while left:
        groups += 1
        todo = [left.pop()]
        while todo:
            q, r = todo.pop()
            for dq, dr in STEPS:
                nb = (q + dq, r + dr)
                if nb in left:
                    left.remove(nb)
                    todo.append(nb)
    return groups


def _slow_features(state, player):
    game = state.game
    grid = game.grid
    board = {grid.coord(grid.parse_label(c)) for c in game.cells}
    mine = {grid.coord(grid.parse_label(c)) for c in state.birds(player)}
    theirs = {grid.coord(grid.parse_label(c)) for c in state.birds(1 - player)}
    grown = set(mine)
    for q, r in mine:
        for dq, dr in STEPS:
            nb = (q + dq, r + dr)
            if nb in board and nb not in theirs:
                grown.add(nb)
    free = board - theirs
    reach = set(mine)
    todo = list(mine)
    while todo:
        q, r = todo.pop()
        for dq, dr in STEPS:
            nb = (q + dq, r + dr)
            if nb in free and nb not in reach:
                reach.add(nb)
                todo.append(nb)
    return _slow_groups(mine), _slow_groups(grown), len(reach) / len(free)


def _random_positions(game, count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(1, 60)):
            if state.outcome is not None:
                break
            moves = state.legal_moves()
            state = state.apply_unchecked(moves[rng.randrange(len(moves))])
        if state.outcome is None:
            out.append(state)
    return out


@pytest.mark.parametrize("board", ["mini", "standard"])
def test_features_match_slow_reference(board):
    game = get("volo", board=board)
    for state in _random_positions(game, 25, seed=len(board)):
        for player in (0, 1):
            fast = volo_ai.features(state, player)
            slow = _slow_features(state, player)
            assert fast[:2] == slow[:2]
            assert fast[2] == pytest.approx(slow[2])


def test_evaluation_is_antisymmetric_and_bounded():
    game = get("volo", board="mini")
    for state in _random_positions(game, 20, seed=5):
        v = volo_ai.evaluate(state)
        assert -1.0 < v < 1.0
        flipped = (
            game.make_state(
                state.bitboard(0),
                state.bitboard(1),
                1 - state.to_move,
                state.supply(0),
                state.supply(1),
                0,
            )
            if state.passes == 0
            else None
        )
        if flipped is not None and flipped.outcome is None:
            assert volo_ai.evaluate(flipped) == pytest.approx(-v)


def test_evaluation_prefers_gathered_birds():
    game = get("volo", board="mini")
    gathered = game.position(["e5", "e6", "j9"], ["b2", "f2", "j6"], to_move=0)
    scattered = game.position(["e5", "b5", "j9"], ["b2", "f2", "j6"], to_move=0)
    assert volo_ai.evaluate(gathered) > volo_ai.evaluate(scattered)
    assert volo_ai.evaluate(gathered) > 0


def test_prior_orders_flights_placements_and_pass():
    game = get("volo", board="mini")
    state = game.position(["e5", "e6", "e9"], ["b2", "j9"], to_move=0)
    moves = state.legal_moves()
    prior = dict(zip(map(str, moves), volo_ai.move_prior(state, moves), strict=True))
    assert prior["e9-e7"] == 1.0
    near = [p for m, p in prior.items() if "-" not in m and m != "pass"]
    assert set(near) <= {0.6, 0.35} and max(near) == 0.6


def test_knowledge_is_found_generically():
    k = knowledge_for(get("volo"))
    assert k.source == "tablier.games.volo.ai"
    assert k.evaluate is volo_ai.evaluate and k.playout_depth == volo_ai.PLAYOUT_DEPTH
    state = get("volo", board="mini").initial_state()
    assert k.value(state, 0) == pytest.approx(-k.value(state, 1))
