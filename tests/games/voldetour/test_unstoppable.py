"""Unstoppable turns: a turn after which nothing stops the mover's next one from winning
(turnwin.unstoppable), and the safety checks that count them (TurnSafety's ``danger``)."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.ai.players import _danger, _prior_order, make_player, safest_move
from tablier.ai.tactics import LOST, SAFE, TurnSafety
from tablier.games import get
from tablier.games.voldetour import ai as vold_ai
from tablier.games.voldetour import turnwin
from tablier.games.voldetour.turnwin import _again

from .test_turnwin import _near_tower, _play_turn


def _ridge(turn: int = 9, white_lord: str = "j5"):
    """Black's Lord on a block three high at e9, a ridge of White's blocks at that height
    from f9 to h9 beside White's tower (i9): the docstring's position."""
    game = get("voldetour")
    return game.position(
        black=["B113@e9:1x1x3"],
        white=["B123@f9:2x1x3", "B113@h9:1x1x3"],
        lords=("e9", white_lord),
        turn=turn,
    )


def _wins_next(state, line) -> bool:
    """Whether ``line`` is the mover's turn, legal, and either wins or ends with its Lord
    beside the enemy tower at the tower's height, the step onto the tower legal were the
    mover to play again (what no answer of the opponent can change: R-9, I-5, R-16)."""
    me = state.to_move
    state = _play_turn(state, line)
    if state.outcome is not None:
        return state.outcome.winner == me
    ps = state.game.pieceset
    square, tower = state.lords[me], ps.towers[1 - me]
    assert state.board.height(square) == ps.tower_height
    assert turnwin._ring(state, tower) >> square & 1
    step = [m for m in _again(state).legal_moves() if m[0] == "L" and m[1][-1] == tower]
    return bool(step)


def test_the_ridge_walk_is_unstoppable():
    state = _ridge()
    assert turnwin.forced_win(state, 100_000) is None  # no win this turn
    found = turnwin.unstoppable(state, 2000)
    assert [str(m) for m in found.line] == ["Le9-f9-g9-h9"]
    assert _wins_next(state, found.line)
    # after it, whatever White's turn (each decision it may take): the step stays
    after = state.apply(found.line[0])
    for move in after.legal_moves():
        if move[0] in ("L", "E"):
            end = after.apply_unchecked(move)
            assert any(
                m[1][-1] == state.game.pieceset.towers[1] for m in end.legal_moves() if m[0] == "L"
            )


def test_a_win_this_turn_is_one_too():
    game = get("voldetour")
    state = game.position(black=["B112@i7:1x1x2"], lords=("i7", "e5"), turn=9)
    win = turnwin.forced_win(state, 20_000)
    assert turnwin.unstoppable(state, 20_000).line == win


def test_not_where_the_opponent_wins_first():
    """White's Lord beside Black's tower at its height: Black's walk to h9 stops nothing."""
    game = get("voldetour")
    state = game.position(
        black=["B113@e9:1x1x3", "B123@f9:2x1x3"],
        white=["B113@h9:1x1x3", "B123@b3:1x2x3"],
        lords=("e9", "b3"),
        turn=9,
    )
    assert turnwin.search(state.apply(game.parse_move(state, "Le9-f9-g9-h9")), 2000).line
    assert turnwin.unstoppable(state, 2000).line is None


def test_none_far_from_the_tower_or_out_of_time():
    game = get("voldetour")
    assert turnwin.unstoppable(game.initial_state(), 2000).line is None
    assert turnwin.unstoppable(_ridge(), 2000, 0.0).line is None
    assert turnwin.unstoppable(_ridge(), 0).limited


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9))
def test_every_line_found_is_one(seed):
    """On the mini board, near the enemy tower: what it answers wins or ends beside the
    tower at its height with the step onto it legal."""
    state = _near_tower(seed)
    if state is None:
        return
    found = turnwin.unstoppable(state, 2000)
    assert found.line is None or _wins_next(state, found.line)


def _guarded():
    """White to move, mid-turn (a block just put on a1): Black's Lord on a block three high
    at e9, Black's ridge on to g9, White's pillar (h9, h10) beside White's tower with
    White's Lord on h10.  Ending the turn lets Black walk to h9; White's Lord stepping
    onto h9 (or farther along the ridge) stands in the way."""
    game = get("voldetour")
    state = game.position(
        black=["B113@e9:1x1x3", "B123@f9:2x1x3"],
        white=["B123@h9:1x2x3"],
        lords=("e9", "h10"),
        turn=10,
    )
    for text in ("B111", "B111@a1:1x1x1"):
        state = state.apply(game.parse_move(state, text))
    return state


def _checks(state, nodes: int) -> TurnSafety:
    return TurnSafety(
        3, 20_000, clock=time.process_time, defences=vold_ai.defences, danger=_danger(state, nodes)
    )


def test_the_checks_count_the_unstoppable_turn_as_lost():
    state = _guarded()
    game = state.game
    end, block = game.parse_move(state, "end"), game.parse_move(state, "Lh10-h9")
    assert TurnSafety(3, 20_000).fate(state, end) == SAFE  # no win within three decisions
    checks = _checks(state, 1000)
    assert checks.fate(state, end) == LOST
    assert [str(m) for m in checks.threat[1]] == ["Le9-f9-g9-h9"]
    assert checks.fate(state, block) == SAFE
    assert _danger(state, 0) is None


def test_the_checks_are_bounded():
    """Past ``danger_calls`` questions for one position, endings go by the solver alone."""
    state = _guarded()
    end = state.game.parse_move(state, "end")
    checks = TurnSafety(3, 20_000, danger=_danger(state, 1000), danger_calls=0)
    assert checks.fate(state, end) == SAFE


def test_the_safest_move_steps_in_the_way():
    state = _guarded()
    game = state.game
    end = game.parse_move(state, "end")
    order = _prior_order(state)
    blind = safest_move(state, [end], 3, 20_000, order, None)
    assert blind == end
    seen = safest_move(state, [end], 3, 20_000, order, None, danger=_danger(state, 1000))
    assert str(seen).startswith("Lh10-h9")
    assert turnwin.unstoppable(state.apply(seen), 20_000).line is None


def test_hard_asks_and_can_be_told_not_to():
    assert make_player("hard").level.unstoppable_nodes == 1000
    assert make_player("expert").level.unstoppable_nodes == 1000
    assert make_player("medium").level.unstoppable_nodes == 0
    off = make_player("hard:iterations=20,seconds=none,unstoppable_nodes=0")
    assert off.level.unstoppable_nodes == 0


def test_master_asks_too():
    game = get("voldetour")
    master = make_player("master:simulations=2,seconds=none", game, seed=0)
    assert master.level.unstoppable_nodes == 1000
    off = make_player("master:simulations=2,seconds=none,unstoppable_nodes=0", game, seed=0)
    assert off.level.unstoppable_nodes == 0
