"""Property tests over random games (hypothesis chooses the games)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tablier.games
from tablier.games import get

from .helpers import random_position

# Every test here runs on the compiled core and on the pure engine (conftest.py).
pytestmark = pytest.mark.usefixtures("engine")

OPTIONS = st.sampled_from(get("xobo").example_options())
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(options: dict, seed: int, plies: int = 200):
    """The states and moves of one random game favouring stackings and distributions."""
    game = get("xobo", **options)
    rng = random.Random(seed)
    state = game.initial_state()
    states, moves = [state], []
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        special = [m for m in legal if m.kind != "place"]
        move = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(legal)
        state = state.apply(move)
        states.append(state)
        moves.append(move)
    return game, states, moves


def conserved(state) -> bool:
    return state.cubes_on_board + state.common + sum(state.reserves) == 36


@settings(max_examples=25, deadline=None)
@given(OPTIONS, SEEDS)
def test_notation_round_trip_for_every_legal_move(options, seed):
    game, states, _ = random_game(options, seed)
    for state in states[::3]:
        for move in state.legal_moves():
            assert game.parse_move(state, str(move)) == move
            assert game.parse_move(state, game.move_text(state, move)) == move


@settings(max_examples=40, deadline=None)
@given(OPTIONS, SEEDS)
def test_cube_conservation_and_immutability(options, seed):
    _, states, moves = random_game(options, seed)
    for state, move in zip(states, moves, strict=False):
        assert conserved(state)
        before = (state.to_text(), hash(state))
        state.apply_unchecked(move)
        assert (state.to_text(), hash(state)) == before
    last = states[-1]
    assert conserved(last)
    assert (last.outcome is None) == bool(last.legal_moves())


@settings(max_examples=40, deadline=None)
@given(OPTIONS, SEEDS)
def test_position_strings_round_trip(options, seed):
    game, states, _ = random_game(options, seed)
    rng = random.Random(seed)
    for state in [*states, random_position(game, rng)]:
        text = state.to_text()
        again = game.parse_position(text)
        assert again == state and hash(again) == hash(state)
        assert tablier.games.parse_position(text) == state
        assert again.voyna == state.voyna and again.outcome == state.outcome
        assert again.to_text() == text


@settings(max_examples=25, deadline=None)
@given(OPTIONS, SEEDS)
def test_record_lines_round_trip(options, seed):
    """Games written as the seed writes them (``1. e5 (v) ; a4->c4``) replay."""
    game, states, moves = random_game(options, seed)
    words = [game.move_text(s, m) for s, m in zip(states, moves, strict=False)]
    lines = [f"{k // 2 + 1}. " + " ; ".join(words[k : k + 2]) for k in range(0, len(words), 2)]
    for word in words:
        assert not set(word) & set(";{}[]")
        assert not any(part.endswith(".") and part[:-1].isdigit() for part in word.split())
    state = game.initial_state()
    for line in lines:
        number, _, rest = line.partition(". ")
        assert number.isdigit()
        for text in rest.split(" ; "):
            state = state.apply(game.parse_move(state, text))
    assert state == states[-1]
