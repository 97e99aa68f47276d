"""Every built-in game's states are frozen slotted dataclasses: no assignment from outside.

States are shared between the AI's tree, the server's live games and records, so
a state changed after it was built would corrupt all of them at once.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

import tablier.games
from tablier.core.game import State

BUILT_IN = ("volo", "xobo", "voldetour")
CASES = [
    pytest.param(name, options, id=f"{name}-{i}")
    for name in BUILT_IN
    for i, options in enumerate(tablier.games.game_class(name).example_options())
]


def _states(name: str, options: dict[str, object], plies: int = 12) -> list[State]:
    """The start and the states of a short seeded random game (every field set by apply)."""
    game = tablier.games.get(name, **options)
    rng = random.Random(12)
    state = game.initial_state()
    states = [state]
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply_unchecked(rng.choice(moves))
        states.append(state)
    return states


@pytest.mark.parametrize(("name", "options"), CASES)
def test_assigning_or_deleting_any_attribute_raises(name, options):
    for state in _states(name, options):
        cls = type(state)
        assert dataclasses.is_dataclass(cls), f"{cls.__name__} is not a dataclass"
        assert not hasattr(state, "__dict__"), f"{cls.__name__} has a __dict__ (not slotted)"
        text, key = state.to_text(), hash(state)
        names = [f.name for f in dataclasses.fields(cls)] + ["game", "anything_else"]
        for attr in names:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(state, attr, None)
            with pytest.raises(AttributeError):  # FrozenInstanceError is one
                delattr(state, attr)
        assert state.to_text() == text and hash(state) == key, "a refused assignment changed it"


@pytest.mark.parametrize(("name", "options"), CASES)
def test_states_from_apply_equal_those_built_by_the_constructor(name, options):
    # apply_unchecked uses a private fast constructor: what it builds must be a
    # complete state, equal (and hashing alike) to the one read from its text.
    game = tablier.games.get(name, **options)
    for state in _states(name, options):
        again = game.parse_position(state.to_text())
        assert again == state and hash(again) == hash(state)
        assert again.legal_moves() == state.legal_moves()
        assert again.outcome == state.outcome


@pytest.mark.parametrize(("name", "options"), CASES)
def test_copies_stay_frozen(name, options):
    state = _states(name, options)[-1]
    for other in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
        assert other == state and hash(other) == hash(state)
        with pytest.raises(dataclasses.FrozenInstanceError):
            other.game = None


def test_replace_gives_a_changed_copy_and_leaves_the_original():
    game = tablier.games.get("voldetour", repetition=True)
    state = game.initial_state()
    changed = dataclasses.replace(state, history=())
    assert changed.history == () and state.history == (state.repetition_key(),)
    assert changed != state
