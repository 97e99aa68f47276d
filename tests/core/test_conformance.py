"""The generic conformance suite: every registered game, every example option set, + the toy.

Seeded random games are played to the end (or a cap), checking at every
step the protocol's promises: notation round trips, states never mutated,
position strings round-trip (through the game and the registry), terminal
iff no legal move, consistent outcomes, hashing; then the whole game as a
record in both formats; and bad input (garbage and truncated moves and
positions) raises a TablierError subclass and nothing else.
"""

from __future__ import annotations

import random

import pytest

from .conformance import (
    check_game_over,
    check_garbage,
    check_record,
    game_params,
    make_game,
    random_game,
)

# Fixed seeds; counts tuned so that one game's whole run (this file and
# test_protocol_properties.py) stays under a minute of CPU: measured with
# `pytest tests/core/test_conformance.py tests/core/test_protocol_properties.py -k volo`,
# Volo (5 option sets) 37 s, XoBo 9 s, Voldetour 5 s, toy 2 s of user time.
SEEDS = (11, 23, 37, 41, 59, 67, 71, 83)
CAP = 400  # decisions per game
GARBAGE_EVERY = 15  # run the garbage checks on every 15th position

PARAMS = game_params()


@pytest.mark.parametrize(("cls", "options"), PARAMS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_keep_the_protocol(cls, options, seed):
    game = make_game(cls, options)
    rng = random.Random(seed)
    moves, states = random_game(game, rng, CAP)
    final = states[-1]
    if final.outcome is not None:
        check_game_over(final, moves[-1])
    check_record(game, states[0], moves, final)
    # replaying the moves from the start gives the same states
    state = game.initial_state()
    for move, expected in zip(moves, states[1:], strict=True):
        state = state.apply_unchecked(move)
        assert state == expected


@pytest.mark.parametrize(("cls", "options"), PARAMS)
def test_bad_input_raises_tablier_errors(cls, options):
    game = make_game(cls, options)
    rng = random.Random(5)
    _moves, states = random_game(game, random.Random(8), CAP, all_moves=False)
    for state in states[::GARBAGE_EVERY] + states[-1:]:
        check_garbage(game, state, rng)


@pytest.mark.parametrize(("cls", "options"), PARAMS)
def test_records_of_games_started_from_a_later_position(cls, options):
    game = make_game(cls, options)
    rng = random.Random(99)
    moves, states = random_game(game, rng, CAP, all_moves=False)
    middle = len(states) // 2
    start = states[middle]
    rest = moves[middle:]
    check_record(game, start, rest, states[-1])


def test_every_registered_game_is_covered():
    names = {p.values[0].name for p in PARAMS if p.values[0] is not None}
    import tablier.games

    loadable = set()
    for name in tablier.games.names():
        try:
            tablier.games.game_class(name)
        except Exception:
            continue
        loadable.add(name)
    assert loadable | {"toy"} <= names
