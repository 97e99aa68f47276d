"""Hypothesis property tests over random games, generic over every registered game (+ toy).

Moves are chosen with ``st.data()`` so that hypothesis explores (and
shrinks) the move sequences themselves.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import tablier.games

from .conformance import check_record, fingerprint, game_params, make_game

CAP = 150  # decisions per example
PARAMS = game_params()
SETTINGS = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    database=None,
    # No shrinking: shrinking long random games costs minutes; the failing draws are printed.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def drive(game, data, cap=CAP):
    """Play moves drawn by hypothesis; check each step; return moves and states."""
    state = game.initial_state()
    states, moves = [state], []
    while len(moves) < cap:
        legal = state.legal_moves()
        assert state.is_terminal == (not legal)
        if not legal:
            break
        move = legal[data.draw(st.integers(0, len(legal) - 1), label="move index")]
        assert game.parse_move(state, str(move)) == move
        before = fingerprint(state)
        after = state.apply(move)
        assert fingerprint(state) == before
        assert after.to_move in (0, 1)
        moves.append(move)
        states.append(after)
        state = after
    return moves, states


@pytest.mark.parametrize(("cls", "options"), PARAMS)
@SETTINGS
@given(data=st.data())
def test_random_games_round_trip(cls, options, data):
    game = make_game(cls, options)
    moves, states = drive(game, data)
    for state in states:
        text = state.to_text()
        assert game.parse_position(text) == state
        assert tablier.games.parse_position(text) == state
    check_record(game, states[0], moves, states[-1])


@pytest.mark.parametrize(("cls", "options"), PARAMS)
@SETTINGS
@given(data=st.data())
def test_position_strings_are_canonical(cls, options, data):
    game = make_game(cls, options)
    _, states = drive(game, data, cap=60)
    by_text = {}
    for state in states:
        by_text.setdefault(state.to_text(), []).append(state)
    for group in by_text.values():
        assert all(s == group[0] and hash(s) == hash(group[0]) for s in group)
    texts = list(by_text)
    firsts = [by_text[t][0] for t in texts]
    for i, a in enumerate(firsts):
        for b in firsts[i + 1 :]:
            assert a != b, "equal states print different position strings"


@pytest.mark.parametrize(("cls", "options"), PARAMS)
@SETTINGS
@given(data=st.data())
def test_undoing_by_replay_reaches_every_earlier_state(cls, options, data):
    game = make_game(cls, options)
    moves, states = drive(game, data, cap=60)
    cut = data.draw(st.integers(0, len(moves)), label="cut")
    state = game.initial_state()
    for move in moves[:cut]:
        state = state.apply(game.parse_move(state, str(move)))
    assert state == states[cut]
    assert state.to_text() == states[cut].to_text()
