"""Hypothesis: playing masked steps through the Stepper is playing Tablier moves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.adapters import Stepper, actions_for
from tablier.games import get

from .helpers import OPTION_SETS

_GAMES = [get(name, **opts) for name, opts in OPTION_SETS]


@settings(max_examples=25, deadline=None)
@given(index=st.integers(0, len(_GAMES) - 1), seed=st.integers(0, 2**32 - 1))
def test_masked_steps_replay_as_moves(index: int, seed: int) -> None:
    game = _GAMES[index]
    stepper = Stepper(game)
    codec = actions_for(game)
    rng = random.Random(seed)
    state = game.initial_state()
    pending: tuple[int, ...] = ()
    for _ in range(60):
        if state.is_terminal:
            assert stepper.next_ids(state, ()) == []
            break
        ids = stepper.next_ids(state, pending)
        assert ids and int(stepper.mask(state, pending).sum()) == len(ids)
        action = rng.choice(ids)
        new_state, new_pending, move = stepper.play(state, pending, action)
        if move is None:
            assert new_state is state and new_pending == (*pending, action)
        else:
            assert new_pending == ()
            assert codec.decode(state, (*pending, action)) == move
            assert new_state == state.apply(move)
        state, pending = new_state, new_pending
