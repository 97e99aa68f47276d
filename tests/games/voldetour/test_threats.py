"""Threat turns: a turn after which the mover would win at its next one (turnwin.threat)."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.ai import players
from tablier.ai.players import make_player
from tablier.games import get
from tablier.games.voldetour import ai as vold_ai
from tablier.games.voldetour import turnwin
from tablier.games.voldetour.ai import path_distance
from tablier.games.voldetour.turnwin import _again

from .test_turnwin import _near_tower, _play_turn


def _pillars():
    """White's Lord on its 1×2×3 pillar four squares from Black's tower (the docstring's)."""
    game = get("voldetour")
    return game.position(white=["B113@f6:1x1x3", "B123@d3:1x2x3"], lords=("h8", "d4"), turn=10)


def _is_threat(state, line) -> bool:
    """Whether ``line`` is the mover's whole turn, legal, not a win, and leaves it a
    winning turn were it to move again; the opponent has no winning turn found there."""
    me = state.to_move
    state = _play_turn(state, line)
    assert state.to_move != me and state.outcome is None
    win = turnwin.forced_win(_again(state), 1_000_000)
    if win is None:
        return False
    after = _again(state)
    for move in win:
        after = after.apply(move)
    return after.outcome is not None and after.outcome.winner == me


def test_finds_the_pillar_threat():
    state = _pillars()
    assert turnwin.forced_win(state, 1_000_000) is None  # no win this turn
    line = turnwin.threat(state, 2000)
    assert line is not None and _is_threat(state, line)
    for move in line:
        state = state.apply(move)
    assert turnwin.search(state, 2000).line is None  # and Black has no winning turn


def test_the_threat_goes_on_within_the_turn():
    """Each decision of the threat played, the rest of the turn is still a threat."""
    state = _pillars()
    me = state.to_move
    while state.to_move == me:
        line = turnwin.threat(state, 2000)
        assert line is not None and _is_threat(state, line)
        state = state.apply(line[0])


def test_none_far_from_the_tower_or_out_of_time():
    game = get("voldetour")
    assert turnwin.threat(game.initial_state(), 2000) is None  # 14 squares away
    assert turnwin.threat(_pillars(), 2000, 0.0) is None  # no time left
    assert turnwin.threat(_pillars(), 1) is None  # no positions to find the next win
    assert turnwin.threat(_pillars(), 2000, stop=lambda: True) is None  # told to stop


def test_a_stop_is_asked_and_ends_the_searches():
    """``stop`` (the levels' wall clock) ends the threat and winning-turn searches; asked
    and answering False, it changes nothing."""
    asked = []

    def never() -> bool:
        asked.append(1)
        return False

    state = _pillars()
    assert turnwin.threat(state, 2000, stop=never) == turnwin.threat(state, 2000)
    assert asked
    # no win within the turn here: the search runs to its depth, asking now and then
    asked.clear()
    plain = turnwin.search(state, 20_000)
    assert plain.line is None and plain.nodes > 64
    assert turnwin.search(state, 20_000, stop=never).nodes == plain.nodes and asked
    cut = turnwin.search(state, 20_000, stop=lambda: True)
    assert cut.limited and cut.nodes == 64


def _guarded():
    """Black's Lord on its 1×1×3 block at i7, White's on its own at i8, beside White's tower
    (i9): the way in crosses White's Lord, which need never step aside; White's Lord is far
    from Black's tower."""
    return _beside_the_guard("B113@i7:1x1x3", "i7")


def _beside_the_guard(block: str, lord: str):
    """Black's Lord on its ``block`` at ``lord``, White's on its 1×1×3 block at i8, beside
    White's tower, Black to move; nothing else on the board."""
    game = get("voldetour")
    return game.position(black=[block], white=["B113@i8:1x1x3"], lords=(lord, "i8"), turn=9)


def test_a_progress_turn_where_no_threat_is_found(monkeypatch):
    state = _guarded()
    wall = 1 << state.lords[1]
    now = path_distance(state, 0, wall)
    assert path_distance(state, 0) == 2 < now  # crossing White's Lord it looks two steps off
    # no next-turn win found anywhere (the searches answer none): not a threat
    monkeypatch.setattr(turnwin, "search", lambda *args: turnwin.TurnWin(None, 1, False))
    assert turnwin.threat(state, 2000) is None
    line = turnwin.threat(state, 2000, progress=True)
    assert line is not None
    after = _play_turn(state, line)
    assert after.to_move == 1 and after.outcome is None
    # the nearest of the endings tried, by the path distance with White's Lord a wall
    corridor = turnwin._corridor(state, state.lords[0], state.game.pieceset.towers[1])
    nearest = min(
        path_distance(end, 0, wall)
        for _, end in turnwin._endings(state, corridor)
        if end.outcome is None and vold_ai.lord_distance(end, 0) <= turnwin.MAX_DISTANCE
    )
    assert path_distance(after, 0, wall) == nearest < now
    # the levels' hook asks for it
    assert vold_ai.threat_turn(state, 2000) == line
    # not where White's Lord is less than PROGRESS_MARGIN farther from Black's tower
    far = path_distance(state, 1)
    monkeypatch.setattr(turnwin, "PROGRESS_MARGIN", far - now + 1)
    assert turnwin.threat(state, 2000, progress=True) is None
    monkeypatch.setattr(turnwin, "PROGRESS_MARGIN", far - now)
    assert turnwin.threat(state, 2000, progress=True) == line
    # time that runs out while the endings are gathered leaves nothing (more endings here
    # than the 64 gathered between two looks at the clock), nor does a stop
    assert sum(1 for _ in turnwin._endings(state, corridor)) > 64
    assert turnwin.threat(state, 2000, 0.0, progress=True) is None
    assert turnwin.threat(state, 2000, progress=True, stop=lambda: True) is None
    # time that runs out among the threats still leaves it: a clock that the first
    # threat's search moves past the deadline
    clock = [0.0]
    searched = []

    def slow_search(*args):
        searched.append(1)
        clock[0] += 10.0
        return turnwin.TurnWin(None, 1, False)

    monkeypatch.setattr(turnwin, "time", SimpleNamespace(process_time=lambda: clock[0]))
    monkeypatch.setattr(turnwin, "search", slow_search)
    assert turnwin.threat(state, 2000, 1.0, progress=True) == line
    assert searched == [1]
    # a stop that comes among the threats leaves nothing
    stopped = [False]

    def stopping_search(*args):
        stopped[0] = True
        return turnwin.TurnWin(None, 1, False)

    monkeypatch.setattr(turnwin, "search", stopping_search)
    assert turnwin.threat(state, 2000, progress=True, stop=lambda: stopped[0]) is None
    assert stopped[0]


def _ledge():
    """Black's Lord on its 1×1×2 block at h9, beside White's 3-high tower (i9), White's Lord
    on its 1×1×3 block at i8: one level short, and no room for a slope between h9 and i9."""
    return _beside_the_guard("B112@h9:1x1x2", "h9")


def test_a_two_turn_plan_where_no_turn_brings_the_lord_on(monkeypatch):
    state = _ledge()
    wall = 1 << state.lords[1]
    now = path_distance(state, 0, wall)
    assert path_distance(state, 1) >= now + turnwin.PROGRESS_MARGIN
    corridor = turnwin._corridor(state, state.lords[0], state.game.pieceset.towers[1])
    endings = [
        (path_distance(end, 0), order, line, end)
        for order, (line, end) in enumerate(turnwin._endings(state, corridor))
        if end.outcome is None and vold_ai.lord_distance(end, 0) <= turnwin.MAX_DISTANCE
    ]
    # no ending tried brings Black's Lord nearer, White's Lord a wall
    assert min(path_distance(end, 0, wall) for *_, end in endings) >= now
    monkeypatch.setattr(turnwin, "search", lambda *args: turnwin.TurnWin(None, 1, False))
    line = turnwin.threat(state, 2000, progress=True)
    assert line is not None
    after = _play_turn(state, line)
    assert after.to_move == 1 and after.outcome is None
    assert path_distance(after, 0, wall) >= now  # no nearer by itself...
    monkeypatch.undo()
    # ...but were Black to play again, it would have a winning turn (a real search)
    win = turnwin.forced_win(_again(after), 50_000)
    assert win is not None and _play_turn(_again(after), win).outcome.winner == 0
    # the first such ending in the order they were made
    assert turnwin._plan(state, endings, now) == line
    first = next(i for i, ending in enumerate(endings) if ending[2] == line)
    assert first > 0 and turnwin._plan(state, endings[:first], now) is None
    # bounded: no time, or a stop, leaves nothing (more than 64 endings are tried)
    assert turnwin._plan(state, endings, now, 0.0) is None
    assert turnwin._plan(state, endings, now, stop=lambda: True) is None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9))
def test_every_threat_found_is_one(seed):
    """On the mini board, near the enemy tower: what it answers is a real threat."""
    state = _near_tower(seed)
    if state is None:
        return
    line = turnwin.threat(state, 2000)
    assert line is None or _is_threat(state, line)


def test_hard_makes_the_threat_and_can_be_told_not_to():
    state = _pillars()
    line = turnwin.threat(state, 2000)
    assert line is not None
    hard = make_player("hard:iterations=20,seconds=none")
    assert hard.level.threat_turn_nodes == 2000
    assert players.threat_turn(state, hard.level) == line[0]
    assert hard.choose(state) == line[0]
    # a timed level's threat turn stops at 60% of its budget, wall clock (a budget long
    # enough that the threat is found within its CPU share on a loaded machine too)
    timed = make_player("hard:seconds=100").level
    assert players.threat_turn(state, timed, time.perf_counter() + 60) == line[0]
    assert players.threat_turn(state, timed, time.perf_counter() - 0.6 * timed.seconds) is None
    off = make_player("hard:iterations=20,seconds=none,threat_turn_nodes=0")
    assert off.level.threat_turn_nodes == 0
    assert players.threat_turn(get("volo").initial_state(), hard.level) is None


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_lower_levels_do_not_look(level):
    assert make_player(level).level.threat_turn_nodes == 0
