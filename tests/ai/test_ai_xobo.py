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


# -- shortest-path cells, threats, prior and playouts ---------------------------------------

# East-West has just played e5: a4-d4, e5 and g6-i6 leave f5 and f6 to join West and East, so
# North-South is under voyna.  c8-e8 is a run of three single cubes that has nothing to do
# with the threat.
_VOYNA = (
    "xobo:stack=any,exhaustion=moves "
    "........./..111..../........./......111/....1..../1111...../........./........./........."
    " ns 25/0/0 v"
)


def _cells(mask):
    out = set()
    for i in GRID.indices:
        if mask >> i & 1:
            out.add(GRID.label(i))
    return out


def test_path_cells_are_the_placements_that_shorten_the_distance():
    from tablier.games.xobo.board import BOARD

    checked = 0
    for state in _positions(25, seed=6):
        for player in (0, 1):
            dist, cells = xobo_ai.path_cells(state.ones, state.stacks, player)
            assert dist == _slow_distance(state, player)
            for i in GRID.indices:
                bit = 1 << i
                if not bit & BOARD & ~(state.ones | state.stacks):
                    assert not cells & bit
                    continue
                after = _slow_distance(
                    type(state)(
                        state.game,
                        state.ones | bit,
                        state.stacks,
                        state.heights,
                        state.common,
                        state.reserves,
                        state.turn,
                    ),
                    player,
                )
                shortens = 0 < dist < xobo_ai.BLOCKED and after == dist - 1
                assert bool(cells & bit) == shortens, (state.to_text(), player, GRID.label(i))
                checked += 1
    assert checked > 1000


def test_prior_ranks_the_moves_that_break_a_voyna_first():
    from tablier.ai.tactics import has_winning_move

    game = get("xobo")
    state = game.parse_position(_VOYNA)
    assert state.voyna and _cells(state.threats(1)) == {"f5", "f6"}
    moves = state.legal_moves()
    prior = xobo_ai.move_prior(state, moves)
    # the reference: a move breaks the voyna when it does not lose at once (f5 and f6 join
    # East-West's edges) and East-West then has no winning move
    breaks = {
        m
        for m in moves
        if state.apply(m).outcome is None and not has_winning_move(state.apply(m), 1)
    }
    assert {str(m) for m in breaks} >= {"a4->c4", "g6->i6"}
    assert "c8->e8" not in {str(m) for m in breaks}
    ranked = sorted(range(len(moves)), key=lambda i: -prior[i])
    assert moves[ranked[0]] in breaks
    worst_breaking = min(prior[i] for i, m in enumerate(moves) if m in breaks)
    best_other = max(prior[i] for i, m in enumerate(moves) if m not in breaks)
    assert worst_breaking > best_other


def test_playout_policy_answers_a_voyna_and_takes_a_win():
    from tablier.ai.tactics import has_winning_move

    game = get("xobo")
    state = game.parse_position(_VOYNA)
    rng = random.Random(1)
    for _ in range(20):
        move = xobo_ai.playout_policy(state, rng)
        assert move is not None and not has_winning_move(state.apply(move), 1)
    # East-West to move with f5 open: the policy and the evaluation see the win in one
    ew = game.parse_position(_VOYNA.replace(" ns 25/0/0 v", " ew 25/0/0 -"))
    assert xobo_ai.winning_cells(ew)
    move = xobo_ai.playout_policy(ew, rng)
    assert ew.apply(move).outcome.winner == 1
    assert xobo_ai.evaluate(ew) > 0.9
    # the same position without e5 (so without the voyna) is better for North-South
    calm = _VOYNA.replace("....1..../", "........./").replace("25/0/0 v", "26/0/0")
    assert xobo_ai.evaluate(state) < xobo_ai.evaluate(game.parse_position(calm))


def test_prior_prefers_own_shortest_path_cells():
    game = get("xobo")
    for state in _positions(15, seed=8):
        if state.outcome is not None or state.voyna or xobo_ai.winning_cells(state):
            continue
        p = state.to_move
        _, mine = xobo_ai.path_cells(state.ones, state.stacks, p)
        _, theirs = xobo_ai.path_cells(state.ones, state.stacks, 1 - p)
        moves = state.legal_moves()
        prior = xobo_ai.move_prior(state, moves)
        for m, w in zip(moves, prior, strict=True):
            if m.kind != "place":
                continue
            bit = 1 << m[1]
            both = (bool(bit & mine), bool(bit & theirs))
            if both == (True, False):
                assert w > 1.5
            elif both == (False, True):
                assert w < 0.7
    assert game is not None


def test_search_is_deterministic_for_a_seed():
    from tablier.ai.players import make_player

    game = get("xobo")
    state = game.parse_position(_VOYNA)
    runs = []
    for _ in range(2):
        player = make_player("hard:iterations=120,seconds=none,solver_nodes=300", game, seed=5)
        move = player.choose(state)
        runs.append((str(move), [(str(s.move), s.visits) for s in player.last_analysis[:5]]))
    assert runs[0] == runs[1]


# -- a threat made by a distribution (option voyna) ------------------------------------------

# North-South threatens d5, e5, f5 (e1-e4, e6-e9); the stack on g9 can answer it: distributed
# south-west (g9xf8) it captures e7 and leaves no winning cell, distributed west (g9xf9) it
# does not.
# Under voyna=placement the threat came from a distribution and is silent ('-'): no stacking.
_THREAT = (
    "....1.3../....1..../....1..../....1..../........./....1..../....1..../....1..../....1...."
    " ew 25/0/0"
)


def test_knowledge_answers_a_silent_threat_like_a_voyna():
    silent = get("xobo", voyna="placement").parse_position_body(_THREAT + " -")
    announced = get("xobo", voyna="any-move").parse_position_body(_THREAT + " v")
    assert silent.silent and not silent.voyna and announced.voyna
    assert _cells(silent.threats(0)) == {"d5", "e5", "f5"}
    assert not any(m.kind == "stack" for m in silent.legal_moves())
    # the playouts answer it with the one move that breaks it
    assert str(xobo_ai.playout_policy(silent, random.Random(1))) == "g9xf8"
    moves = silent.legal_moves()
    prior = dict(zip(map(str, moves), xobo_ai.move_prior(silent, moves), strict=True))
    assert max(prior, key=prior.get) == "g9xf8"
    assert prior["g9xf8"] > 100 * max(w for m, w in prior.items() if m != "g9xf8")
    # a threat that cannot be answered by stacking weighs more on the defender
    assert xobo_ai.evaluate(silent) < xobo_ai.evaluate(announced)
    # under the broad reading the stackings answer it too
    answer = xobo_ai.playout_policy(announced, random.Random(1))
    assert answer.kind in ("stack", "distribute")
    assert not announced.apply(answer).threats(0)


def test_prior_prefers_a_threat_the_opponent_may_not_stack_against():
    # b4xc4 makes the threat on d5/e5/f5 by a distribution (see tests/games/xobo)
    board = (
        "....1..../....1..../....1..../....1..../........./.31....../....1..../....1..../....1...."
        " ns 25/0/0"
    )
    weights = {}
    for voyna in ("placement", "any-move"):
        state = get("xobo", voyna=voyna).parse_position_body(board)
        moves = state.legal_moves()
        prior = dict(zip(map(str, moves), xobo_ai.move_prior(state, moves), strict=True))
        weights[voyna] = prior["b4xc4"] / sum(prior.values())
        assert state.apply(state.game.parse_move(state, "b4xc4")).silent == (voyna == "placement")
    assert weights["placement"] > weights["any-move"]


def test_the_threat_search_stops_when_told():
    """``stop``, asked every 64 positions, ends the threat-space search; answering False it
    changes nothing (over the shipped voyna puzzles)."""
    from tablier.ai.puzzles import load_shipped
    from tablier.games.xobo.threats import forced_win

    game = get("xobo")
    cut = 0
    for puzzle in load_shipped(game):
        state = puzzle.state()
        asked: list[int] = []
        line = forced_win(state, 3000)
        assert forced_win(state, 3000, stop=lambda box=asked: bool(box.append(1))) == line
        stopped = forced_win(state, 3000, stop=lambda: True)
        if asked:
            assert stopped is None
            cut += line is not None
        else:
            assert stopped == line
    assert cut >= 2  # proofs of more than 64 positions (two of the shipped ones), cut short
