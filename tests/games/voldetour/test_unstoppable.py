"""Unstoppable turns: a turn after which nothing stops the mover's next one from winning
(turnwin.unstoppable), and the safety checks that count them (TurnSafety's ``danger``)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.ai.players import _danger, _prior_order, make_player, safest_move
from tablier.ai.tactics import LOST, SAFE, UNKNOWN, TurnSafety
from tablier.games import get, parse_position
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
    at the enemy tower's height, beside it with the step onto the tower legal were the
    mover to play again (what no answer of the opponent can change: R-9, I-5, R-16), or
    off its ring with every turn of the opponent's answered by a step onto it (a fork,
    checked against each of them by :func:`_every_answer_loses`)."""
    me = state.to_move
    state = _play_turn(state, line)
    if state.outcome is not None:
        return state.outcome.winner == me
    ps = state.game.pieceset
    square, tower = state.lords[me], ps.towers[1 - me]
    assert state.board.height(square) == ps.tower_height
    if not turnwin._ring(state, tower) >> square & 1:
        return _every_answer_loses(state)
    step = [m for m in _again(state).legal_moves() if m[0] == "L" and m[1][-1] == tower]
    return bool(step)


def _every_answer_loses(state) -> bool:
    """The slow reference of the fork proof: whether every turn of the player to move at
    ``state`` (each sequence of its decisions, the positions met twice searched once)
    ends where the other player wins, or walks its Lord onto the tower at once."""
    loser = state.to_move
    seen = set()
    stack = [state]
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        for move in s.legal_moves():
            after = s.apply_unchecked(move)
            if after.outcome is None and after.to_move == loser:
                stack.append(after)
                continue
            if after.outcome is not None:
                if after.outcome.winner != 1 - loser:
                    return False
                continue
            if not any(
                m[0] == "L" and after.apply_unchecked(m).outcome is not None
                for m in after.legal_moves()
            ):
                return False
    return True


def _fork(white_lord: str = "b9", top_of_i8: str = "black", turn: int = 11):
    """Black's Lord on a ridge three high from e8 to h8 (White's blocks under g8, h8 and
    h7), Black's blocks three high on h9 and on i8 beside White's tower (i9); i8's top
    unit is Black's block or White's; Black to move at an odd ``turn``."""
    game = get("voldetour")
    top = "B111@i8+2:1x1x1"
    return game.position(
        black=["B123@e8:2x1x3", "B113@h9:1x1x3", "B112@i8:1x1x2"]
        + ([top] if top_of_i8 == "black" else []),
        white=["B113@g8:1x1x3", "B123@h7:1x2x3"] + ([top] if top_of_i8 == "white" else []),
        lords=("e8", white_lord),
        turn=turn,
    )


def test_a_fork_is_unstoppable():
    """Walking to h8, diagonally beside the tower with h9 and i8 both at its height, leaves
    two ways in: White's Lord may stand on one, not on both."""
    for white_lord in ("b9", "j6"):
        state = _fork(white_lord)
        assert turnwin.forced_win(state, 20_000) is None
        assert [str(m) for m in turnwin.unstoppable(state, 2000).line] == ["Le8-f8-g8-h8"]


def test_not_a_fork_where_one_turn_may_stop_both_ways():
    """White's block on top of i8: White may lift it, and its Lord on h10, beside h9, may
    end there (as far as the proof can tell: White's Lord stands on the board, three
    levels down); from j6 or b9, too far for that, the fork stands."""
    assert turnwin.unstoppable(_fork("h10", top_of_i8="white"), 2000).line is None
    for white_lord in ("j6", "b9"):
        state = _fork(white_lord, top_of_i8="white")
        assert [str(m) for m in turnwin.unstoppable(state, 2000).line] == ["Le8-f8-g8-h8"]


def _mini_fork(white_lord: str, e4: str, *extra: str):
    """The mini board: Black's Lord on its block two high at b4 (c4 too), Black's block two
    high on d5, White's block two high on d4, e4 two high with a unit of Black's and one of
    White's (``e4``: whose is on top), White's Lord on ``white_lord``, and White's
    ``extra`` pieces; White's others in its reserve.  Black's walk to d4 (diagonally
    beside White's tower, e5) leaves two ways in, d5 and e4."""
    game = get("voldetour", pieces="mini")
    low, high = ("B111@e4:1x1x1", "B111@e4+1:1x1x1")
    black = ["B122@b4:2x1x2", "B112@d5:1x1x2", high if e4 == "black" else low]
    white = ["B112@d4:1x1x2", low if e4 == "black" else high, *extra]
    return game.position(black=black, white=white, lords=("b4", white_lord), turn=11)


@pytest.mark.parametrize(
    ("white_lord", "e4", "extra", "proved"),
    [
        ("f1", "black", (), True),  # one way for White's Lord to stand on, the other stays
        ("f1", "white", (), True),  # e4's top lifted, d5 too far for White's Lord
        ("f3", "white", (), False),  # near enough to d5 for the proof (not over the heights)
        ("a1", "white", ("S@f2:n",), True),  # too far from d5 even over a slope or two
        ("f6", "black", ("S@f2:n",), True),
        # on its block two high at c6, White's Lord walks to d5 and e4's top is lifted
        ("c6", "white", ("B122@c5:1x2x2",), False),
    ],
)
def test_the_fork_proof_holds_against_every_turn(white_lord, e4, extra, proved):
    """Where the proof says that no turn of White's breaks both ways, none does, each of
    White's turns tried (the slow reference); where White's block is on top of e4 and
    its Lord near enough, it says nothing, and in the last case a turn of White's does
    stop both."""
    state = _mini_fork(white_lord, e4, *extra)
    after = state.apply(state.game.parse_move(state, "Lb4-c4-d4"))
    walks = turnwin._walks(after, 0, state.game.pieceset.towers[1])
    assert len(walks) == 2
    assert turnwin._unbreakable(after, walks) is proved
    if proved:
        assert _every_answer_loses(after)
    if white_lord == "c6":
        assert not _every_answer_loses(after)


def test_no_fork_proof_where_the_game_may_end_first():
    game = get("voldetour", repetition=True)
    state = game.position(
        black=["B123@e8:2x1x3", "B113@h9:1x1x3", "B112@i8:1x1x2", "B111@i8+2:1x1x1"],
        white=["B113@g8:1x1x3", "B123@h7:1x2x3"],
        lords=("e8", "b9"),
        turn=11,
    )
    assert turnwin.unstoppable(state, 2000).line is None


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


def test_the_checks_count_an_ending_that_allows_a_fork_as_lost():
    """White to move in the fork's position, its stair put on a1: ending the turn lets
    Black's Lord walk to h8 and fork; lifting White's block from g8, under the ridge,
    breaks the walk. Without forks the question sees nothing."""
    game = get("voldetour")
    state = _fork("j6", turn=12)
    for text in ("S", "S@a1:n"):
        state = state.apply(game.parse_move(state, text))
    end, lift = game.parse_move(state, "end"), game.parse_move(state, "B113")
    checks = _checks(state, 1000)
    assert checks.fate(state, end) == LOST
    assert [str(m) for m in checks.threat[1]] == ["Le8-f8-g8-h8"]
    assert checks.fate(state, lift) == SAFE
    line = turnwin.unstoppable(state.apply(end), 1000, forks=False).line
    assert line is None


def test_the_checks_are_bounded():
    """Past ``danger_calls`` questions for one position, endings go by the solver alone."""
    state = _guarded()
    end = state.game.parse_move(state, "end")
    checks = TurnSafety(3, 20_000, danger=_danger(state, 1000), danger_calls=0)
    assert checks.fate(state, end) == SAFE


def test_a_stop_ends_the_unstoppable_question():
    """The checks' ``stop`` reaches the question (its budgets count CPU time, which a
    starved process spends slowly: the stop keeps the wall clock)."""
    after = parse_position(LOW_SQUARE)
    for text in ["Sc2", "S@i8:e", "B123", "B123@d4:1x2x3", "Le5-d5-d4"]:
        after = after.apply(after.game.parse_move(after, text))
    assert turnwin.unstoppable(after, 20_000).line is not None  # (past 1,000 positions)
    asked = []

    def stop():
        asked.append(True)
        return True

    cut = turnwin.unstoppable(after, 20_000, stop=stop)
    assert cut.line is None and cut.limited and cut.nodes == 64 and len(asked) == 1
    assert vold_ai.unstoppable(after, 20_000, None, stop) is None


def test_the_checks_stop_asking_once_told_to():
    """A stop that comes while the question runs ends it (the ending stays safe, as past
    any limit) and no question is asked after it."""
    state = parse_position(LOW_SQUARE)
    for text in ["Sc2", "S@i8:e", "B123", "B123@d4:1x2x3"]:
        state = state.apply(state.game.parse_move(state, text))
    end = state.game.parse_move(state, "Le5-d5-d4")  # (Black's five-decision win then)
    assert TurnSafety(3, 20_000, danger=_danger(state, 20_000)).fate(state, end) == LOST
    stopped = [False]
    asked = []
    ask = _danger(state, 20_000)
    assert ask is not None

    def danger(s, seconds, stop):
        asked.append(stop)
        stopped[0] = True  # the wall clock runs out while the question runs
        return ask(s, seconds, stop)

    checks = TurnSafety(3, 20_000, stop=lambda: stopped[0], danger=danger)
    assert checks.fate(state, end) == SAFE
    assert len(asked) == 1 and asked[0] is checks.stop
    again = TurnSafety(3, 20_000, stop=lambda: stopped[0], danger=danger)
    assert again.fate(state, end) == UNKNOWN
    assert len(asked) == 1


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
    assert make_player("expert").level.unstoppable_nodes == 20_000
    assert make_player("medium").level.unstoppable_nodes == 0
    off = make_player("hard:iterations=20,seconds=none,unstoppable_nodes=0")
    assert off.level.unstoppable_nodes == 0


def test_master_asks_too():
    game = get("voldetour")
    master = make_player("master:simulations=2,seconds=none", game, seed=0)
    assert master.level.unstoppable_nodes == 1000
    off = make_player("master:simulations=2,seconds=none,unstoppable_nodes=0", game, seed=0)
    assert off.level.unstoppable_nodes == 0


#: Game 2 of the recorded `expert`-`hard` match of 2026-11-30 (benchmarks/records), the loser
#: `hard`'s last turn start: Black's Lord three high at i7, two squares below White's tower
#: (i9), with i8 low between them.  Black wins at its next turn unless White stops it: a
#: stair stood up on i8, its 1x1x2 block put on that stair, the Lord up over i8 (five
#: decisions, past the three of the solver's checks).
LOW_SQUARE = (
    "voldetour:pieces=default,repetition=False,max_turns=none turn=12 lords=i7,e5"
    " black=B113@e5:1x1x3,B123@h7:2x1x3,S@d2+2:n,S@j6:w"
    " white=B113@f6:1x1x3,B122@c2:2x1x2,B123@g6:2x1x3,S@a1:e,S@d1:n,S@c2+2:w"
)


def test_the_winning_turn_over_a_low_square_needs_more_than_a_thousand_positions():
    state = parse_position(LOW_SQUARE)
    # hard's turn as played: a stair moved to i8 lying down, its block to d4, the Lord on
    after = state
    for text in ["Sc2", "S@i8:e", "B123", "B123@d4:1x2x3", "Le5-d5-d4"]:
        assert after.to_move == 1
        after = after.apply(after.game.parse_move(after, text))
    assert after.to_move == 0 and after.outcome is None
    assert turnwin.unstoppable(after, 1000).line is None
    line = turnwin.unstoppable(after, 20_000).line
    assert line is not None and [str(m) for m in line][-1] == "Li7-i8-i9"
    assert _play_turn(after, line).outcome.winner == 0


@pytest.mark.parametrize("seed", [0, 1])
def test_expert_sees_it_and_stops_it(seed):
    """``expert`` asks the question with 20,000 positions: from that turn start, at a fixed
    small budget, it ends its turn where Black has no winning turn (found within 200,000
    positions)."""
    state = parse_position(LOW_SQUARE)
    player = make_player("expert:iterations=100,seconds=none", state.game, seed=seed)
    while state.to_move == 1 and state.outcome is None:
        state = state.apply(player.choose(state))
    assert state.outcome is None and state.to_move == 0
    assert turnwin.search(state, 200_000).line is None
