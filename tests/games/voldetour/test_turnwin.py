"""The win within the mover's own turn (``turnwin.forced_win``, the ``forced_win`` hook)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.ai.knowledge import knowledge_for
from tablier.ai.players import make_player
from tablier.core.geometry import bits
from tablier.games import from_spec, get
from tablier.games.voldetour import ai as vold_ai
from tablier.games.voldetour import turnwin
from tablier.games.voldetour.rules import _orients

_SPEC = "voldetour:pieces=default,repetition=False,max_turns=none "

#: Turn starts of ``hard``–``greedy`` games (benchmarks/level_ladder.py, seed 7) where the
#: mover wins in five decisions: the first three turns ``hard`` won, the last one it missed
#: (it walked away; the game ran to the decision limit).  None is within three decisions.
FIVE = [
    _SPEC + "turn=16 lords=c2,c4 black=B111@i5:1x1x1,B112@i6:1x1x2,B113@c2:1x1x3,"
    "B122@i8:2x1x2,B123@c1:3x1x2,S@e3:s,S@i8+2:n white=B122@f4:1x2x2,B123@c4:3x1x2,"
    "S@d2:e,S@e5:e,S@f7:e",
    _SPEC + "turn=40 lords=c1,c4 black=B111@f5:1x1x1,B112@i5:1x2x1,B113@h5:1x3x1,"
    "B122@i7:1x2x2,B123@c1:1x2x3,S@e2+2:w,S@c3:e,S@f3+1:n,S@i7+2:u,S@i8+2:u "
    "white=B111@e3+1:1x1x1,B112@c4:1x1x2,B113@d3:3x1x1,B122@e2:2x1x2,B123@d4:3x1x2,"
    "S@e2+2:u,S@f3+1:u,S@h7+1:w,S@i7+2:e,S@i8+2:w",
    _SPEC + "turn=19 lords=h8,i8 black=B112@g7:1x1x2,B113@d3:1x1x3,B122@i3:2x2x1,"
    "B123@h7:1x3x2,S@c2+2:n,S@b3+1:e,S@f3+2:s white=B111@b3:1x1x1,B112@c2:1x1x2,"
    "B113@i8:1x1x3,B122@i6:2x2x1,B123@e3:3x1x2,S@b3+1:u,S@i5:n,S@i6+1:n,S@f9:e",
    _SPEC + "turn=447 lords=g10,i8 black=B111@h9+1:1x1x1,B112@g9:2x1x1,B113@g10:3x1x1,"
    "B122@g7:2x2x1,B123@e8:2x3x1,S@c2+1:e,S@c2+2:e,S@b3+2:e,S@h7+1:w,S@i10+1:u "
    "white=B111@b3+1:1x1x1,B112@g7+1:1x1x2,B113@b3:1x3x1,B122@c2:2x2x1,B123@i7:1x2x3,"
    "S@c2+1:u,S@h8+1:e,S@h9+2:s,S@i10+1:s,S@i10+2:e",
]


def _play_turn(state, line):
    """The position after ``line``, checked legal and every decision the mover's."""
    me = state.to_move
    for move in line:
        assert state.to_move == me and state.outcome is None
        state = state.apply(move)  # checks legality
    return state


def _wins(state, line) -> bool:
    """Whether ``line`` is legal from ``state``, all the mover's, and ends with its win."""
    me = state.to_move
    state = _play_turn(state, line)
    return state.outcome is not None and state.outcome.winner == me


@pytest.mark.parametrize("hook", ["forced_win", "threat_turn", "unstoppable"])
def test_the_hooks_are_declared(hook):
    """Voldétour's searches over whole turns are its knowledge hooks; Volo has none of the
    last two (one decision a turn)."""
    assert getattr(knowledge_for(get("voldetour")), hook) is getattr(vold_ai, hook)
    if hook != "forced_win":
        assert getattr(knowledge_for(get("volo")), hook) is None


@pytest.mark.parametrize("text", FIVE)
def test_finds_the_five_decision_wins_beyond_the_proof_search(text):
    game = from_spec(text.split(" ", 1)[0])
    state = game.parse_position(text)
    line = turnwin.forced_win(state, 20_000)
    assert line is not None and len(line) == 5 and _wins(state, line)
    # nothing shorter: the solver's three decisions see no win
    answer = vold_ai.prove(state, state.to_move, 3, 1_000_000, -1.0)
    assert answer is None or answer[0] is False


@pytest.mark.parametrize("text", FIVE)
def test_hard_plays_the_whole_winning_turn_at_a_small_budget(text):
    game = from_spec(text.split(" ", 1)[0])
    state = game.parse_position(text)
    me = state.to_move
    player = make_player("hard:iterations=20,seconds=none")
    while state.to_move == me and state.outcome is None:
        state = state.apply(player.choose(state))
    assert state.outcome is not None and state.outcome.winner == me


def test_limits_and_far_lords():
    state = from_spec(FIVE[0].split(" ", 1)[0]).parse_position(FIVE[0])
    assert turnwin.forced_win(state, 20_000) is not None
    assert turnwin.forced_win(state, 3) is None  # out of positions
    assert turnwin.forced_win(state, 20_000, 0.0) is None  # out of time (checked every 64)
    game = get("voldetour")
    assert turnwin.forced_win(game.initial_state(), 20_000) is None  # 14 squares away


def _brute(state, longest: int = turnwin.MAX_DECISIONS) -> int | None:
    """Reference: the length of the mover's shortest winning turn, every decision tried."""
    me = state.to_move

    def wins(s, depth, seen) -> bool:
        if seen.get(s, -1) >= depth:
            return False
        for move in s.legal_moves():
            after = s.apply_unchecked(move)
            if after.outcome is not None:
                if after.outcome.winner == me:
                    return True
            elif (
                depth > 1
                and after.to_move == me
                and move.kind in ("take", "put")
                and wins(after, depth - 1, seen)
            ):
                return True
        seen[s] = depth
        return False

    for depth in range(1, longest + 1):
        if wins(state, depth, {}):
            return depth
    return None


def _near_tower(seed: int):
    """A turn start of Black's on the mini board with its Lord near White's tower and
    pieces of both colours around that tower, or None (random play hardly ever brings a
    Lord there): the Lords on random squares, then random decisions whose puts touch a
    square at most 3 from that tower and whose Lord moves (Black's only) end there too."""
    game = get("voldetour", pieces="mini")
    ps = game.pieceset
    grid, tower = ps.grid, ps.towers[1]

    def far(q: int) -> int:
        (c, r), (tc, tr) = grid.coord(q), grid.coord(tower)
        return abs(c - tc) + abs(r - tr)

    squares = [q for q in bits(grid.board) if q not in ps.towers]
    rng = random.Random(seed)
    black = rng.choice([q for q in squares if far(q) <= 3])
    white = rng.choice([q for q in squares if far(q) >= 3 and q != black])
    state = game.position(lords=(grid.label(black), grid.label(white)), turn=9)
    orients = _orients(ps)

    def keep(move) -> bool:
        if move.kind == "lord":
            end = move[1][-1]
            return state.to_move == 0 and end != tower and far(end) <= 3
        if move.kind == "put":
            cells = [move[2]] if move[1] == "S" else bits(orients[move[3]].base << move[4])
            return min(map(far, cells)) <= 3
        return True

    steps = rng.randrange(4, 60)
    while steps > 0 or state.to_move != 0 or state.hand is not None or state.done:
        moves = [m for m in state.legal_moves() if keep(m)]
        if state.outcome is not None or not moves:
            return None
        state = state.apply_unchecked(moves[rng.randrange(len(moves))])
        steps -= 1
    return state


def _wider(state, slack: int):
    """``forced_win`` with a corridor ``slack`` squares wide."""
    kept = turnwin.SLACK
    turnwin.SLACK = slack
    try:
        return turnwin.forced_win(state, 1_000_000)
    finally:
        turnwin.SLACK = kept


def _agrees(seed: int) -> int | None:
    """The hook finds the shortest winning turn (a legal one) whenever trying every decision
    finds one, except a win whose Lord goes round, off the corridor, which a corridor two
    squares wider finds; its length."""
    state = _near_tower(seed)
    if state is None:
        return None
    line = turnwin.forced_win(state, 1_000_000)
    shortest = _brute(state)
    if line is None and shortest is not None:
        line = _wider(state, turnwin.SLACK + 2)
    assert (line is None) == (shortest is None)
    if line is not None:
        assert len(line) == shortest and _wins(state, line)
    return shortest


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9))
def test_agrees_with_trying_every_decision(seed):
    """On the mini board the corridor loses no win but those whose Lord goes round it
    (most such positions have no win at all)."""
    _agrees(seed)


def test_a_win_round_the_corridor_is_left_to_the_search():
    """Seed 944: Black's Lord beside White's tower finds no way up there; the win lifts a
    block two squares behind, lays it flat as a step and puts a stair before it, and the
    Lord goes round (d5-d3-e3-e5): off the corridor (docs/ai.md, "Winning turns")."""
    state = _near_tower(944)
    assert turnwin.forced_win(state, 1_000_000) is None
    assert _brute(state) == 5
    line = _wider(state, turnwin.SLACK + 2)
    assert line is not None and _wins(state, line)
    assert [str(move) for move in line][-1] == "Ld5-d3-e3-e5"


@pytest.mark.parametrize(("seed", "length"), [(3, 5), (62, 3), (160, 5), (268, 5)])
def test_agrees_where_there_is_a_win(seed, length):
    """The seeds of the first 300 whose positions have a winning turn."""
    assert _agrees(seed) == length
