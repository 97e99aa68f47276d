"""Lasting threats: a turn that threatens a win at the next one and that no turn of the
opponent's was found to answer (turnwin.lasting), and the checks of ``expert`` that ask it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.ai import players
from tablier.ai.players import _danger, make_player
from tablier.ai.tactics import LOST, SAFE, TurnSafety
from tablier.games import get
from tablier.games.voldetour import ai as vold_ai
from tablier.games.voldetour import turnwin
from tablier.games.voldetour.notation import _cell
from tablier.games.voldetour.turnwin import _again, _answered, lasting

# White's Lord on a block three high at d2, c2 on the ground between it and Black's tower
# (b2), White's 1x1x1 and 1x1x2 blocks in reserve; Black's Lord far off at h7 (a game of
# the 2026-12-01 match, before the turn `hard` played to win it)
BLACK = ["B111@c3:1x1x1", "B113@h5:1x1x3", "B123@h6:1x2x3", "S@a1:n", "S@c1:s", "S@f4:w"]
WHITE = ["B113@d2:1x1x3", "B123@d3:2x1x3"]


def _low_square(black_lord: str = "h7", turn: int = 18):
    return get("voldetour").position(black=BLACK, white=WHITE, lords=(black_lord, "d2"), turn=turn)


def _play(state, texts):
    for text in texts:
        state = state.apply(state.game.parse_move(state, text))
    return state


def test_the_block_on_the_low_square_is_a_lasting_threat():
    state = _low_square()
    assert turnwin.forced_win(state, 20_000) is None
    assert turnwin.unstoppable(state, 20_000).line is None
    line = lasting(state, 2000)
    assert [str(m) for m in line] == ["B112", "B112@c2:1x1x2", "end"]
    after = _play(state, ["B112", "B112@c2:1x1x2", "end"])
    # the threat: White, were it to play again, wins; Black has no winning turn of its own
    win = turnwin.search(_again(after), 2000).line
    assert [str(m) for m in win] == ["B111", "B111@c2+2:1x1x1", "Ld2-c2-b2"]
    assert turnwin.search(after, 20_000).line is None
    assert _answered(after, win, 2000, None, None) is False


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_no_turn_of_black_answers_the_lasting_threat(rng: random.Random):
    """An independent look at the claim: Black's turns drawn at random (whole turns, each
    decision among the legal ones, a put on c2, b3 or c1 or a Lord's move onto them
    where there is one, seven times in ten) each leave White a winning turn found by the
    plain search."""
    state = _play(_low_square(), ["B112", "B112@c2:1x1x2", "end"])
    near = sum(1 << _cell(state.game, text) for text in ("c2", "b3", "c1"))
    while state.outcome is None and state.to_move == 0:
        moves = state.legal_moves()
        close = [m for m in moves if vold_ai.move_squares(state, m) & near]
        state = state.apply(rng.choice(close if close and rng.random() < 0.7 else moves))
    assert state.outcome is None
    assert turnwin.search(state, 20_000).line is not None


def test_an_answered_threat_is_not_lasting():
    """The 1x1x1 block put on c2 instead threatens the same walk (the 1x1x2 on it next
    turn), but Black has a turn that breaks it and every other win found."""
    state = _low_square()
    after = _play(state, ["B111", "B111@c2:1x1x1", "end"])
    win = turnwin.search(_again(after), 2000).line
    assert [str(m) for m in win] == ["B112", "B112@c2+1:1x1x2", "Ld2-c2-b2"]
    assert turnwin.search(after, 20_000).line is None
    assert _answered(after, win, 2000, None, None) is True


def test_no_threat_no_answer():
    """Black to move in the same position (its turn): its Lord is far from White's tower,
    White's threats are not its; nothing is found, and nothing when the game is over."""
    state = _low_square(turn=17)
    assert lasting(state, 2000) is None


def test_the_time_and_the_stop_end_the_question():
    state = _low_square()
    assert lasting(state, 2000, seconds=0.0) is None
    asked = []

    def stop():
        asked.append(True)
        return True

    assert lasting(state, 2000, stop=stop) is None and asked
    after = _play(state, ["B112", "B112@c2:1x1x2", "end"])
    win = turnwin.search(_again(after), 2000).line
    assert _answered(after, win, 2000, None, stop) is None


def test_the_checks_ask_it_where_unstoppable_finds_nothing(monkeypatch: pytest.MonkeyPatch):
    state = _low_square()
    assert _danger(state, 1000)(state, None, None) is None  # hard's question: nothing
    ask = _danger(state, 1000, 2000)
    assert [str(m) for m in ask(state, None, None)] == ["B112", "B112@c2:1x1x2", "end"]
    assert ask(state, 0.0, None) is None  # no time left: not asked
    monkeypatch.setattr(players, "LASTING_CALLS", 1)
    once = _danger(state, 1000, 2000)
    assert once(state, None, None) is not None
    assert once(state, None, None) is None  # past its calls for this decision
    assert _danger(state, 0, 2000) is None


def test_the_whole_turn_check_counts_the_ending_as_lost():
    """Black's Lord walks from h6 to h7 on its own block: the ending of the position above.
    With the lasting question the move is lost (its only other ending, none: the Lord's
    move ends the turn); without it, safe."""
    before = _low_square(black_lord="h6", turn=17)
    walk = before.game.parse_move(before, "Lh6-h7")
    assert before.apply(walk) == _low_square()
    assert TurnSafety(3, 20_000, danger=_danger(before, 1000)).fate(before, walk) == SAFE
    checks = TurnSafety(3, 20_000, danger=_danger(before, 1000, 2000))
    assert checks.fate(before, walk) == LOST


def test_expert_asks_it_and_can_be_told_not_to():
    assert make_player("expert").level.lasting_nodes == 2000
    assert make_player("hard").level.lasting_nodes == 0
    assert make_player("expert:lasting_nodes=0").level.lasting_nodes == 0
