"""Hypothesis properties over random Voldetour games and positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablier.core.record import Record
from tablier.games.voldetour.rules import Board

from .helpers import built_position, eager_move, game
from .reference import floating_or_too_high

pytestmark = pytest.mark.usefixtures("engine")

GAMES = [game(), game(pieces="mini"), game(repetition=True, max_turns=60)]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def counts(state, player):
    """(reserve, on the board, in hand) for blocks and stairs of ``player``."""
    ps = state.game.pieceset
    nb = len(ps.blocks)
    on_blocks = sum(pl is not None for pl in state.blocks[player * nb : (player + 1) * nb])
    held = state.hand if state.to_move == player else None
    hand_b = int(held is not None and held[0] == "B")
    hand_s = int(held is not None and held[0] == "S")
    return (
        len(state.reserve_blocks(player)) + on_blocks + hand_b,
        state.reserve_stairs(player) + len(state.stairs[player]) + hand_s,
    )


def walk(g, seed, plies, start=None):
    """States of an eager random game (or one continued from a built position)."""
    rng = random.Random(seed)
    state = start if start is not None else g.initial_state()
    states = [state]
    moves = []
    for _ in range(plies):
        if state.outcome is not None:
            break
        move = eager_move(state, rng) if rng.random() < 0.7 else rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
        states.append(state)
    return states, moves


@SETTINGS
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(1, 80))
def test_no_floating_piece_nothing_above_the_tower_counts_conserved(g, seed, plies):
    ps = g.pieceset
    start = built_position(g, random.Random(seed))
    states, _ = walk(g, seed, plies, start)
    for state in states:
        assert floating_or_too_high(state) == []
        b = state.board
        # every column's top is at most the tower's height: nothing at or above it
        assert all(b.occ[z] >> t & 1 == 0 for z in range(ps.tower_height) for t in ps.towers)
        for p in (0, 1):
            assert counts(state, p) == (len(ps.blocks), ps.stairs)
        rebuilt = Board(ps, state.blocks, state.stairs, state.lords)  # incremental == fresh
        assert [getattr(b, f) for f in Board.__slots__] == [
            getattr(rebuilt, f) for f in Board.__slots__
        ]
        assert b.height(state.lords[0]) is not None and b.height(state.lords[1]) is not None
        assert state.lords[0] != state.lords[1]


@SETTINGS
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(1, 60))
def test_notation_and_positions_round_trip_and_states_never_change(g, seed, plies):
    states, moves = walk(g, seed, plies, built_position(g, random.Random(seed ^ 77)))
    for state, move in zip(states, moves, strict=False):
        text = state.to_text()
        assert g.parse_position(text) == state
        assert g.parse_move(state, str(move)) == move
        after = state.apply(move)
        assert state.to_text() == text  # applying never mutates
        assert after == state.apply_unchecked(move)


@SETTINGS
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(1, 80))
def test_records_round_trip(g, seed, plies):
    states, moves = walk(g, seed, plies)
    record = Record.from_moves(g, moves)
    assert Record.from_text(record.to_text()) == record
    assert Record.from_json(record.to_json()) == record
    assert record.replay()[-1] == states[-1]
