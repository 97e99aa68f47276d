"""perft and divide, checked against a brute-force enumeration of move paths."""

from __future__ import annotations

import random

import pytest

from tablier.core.errors import TablierError
from tablier.core.perft import divide, perft

from .conformance import game_params, make_game
from .toygame import Toy


def all_paths(state, depth):
    """Every path of ``depth`` decisions, built as explicit lists of move texts."""
    paths = [([], state)]
    for _ in range(depth):
        longer = []
        for path, s in paths:
            for move in s.legal_moves():
                longer.append(([*path, str(move)], s.apply(move)))
        paths = longer
    return [p for p, _ in paths]


def count_by_rules(pile, passed, depth):
    """Count toy paths from the rules alone: takes of 1..3, pass unless just passed."""
    if depth == 0:
        return 1
    if pile == 0:
        return 0
    total = sum(count_by_rules(pile - k, False, depth - 1) for k in range(1, min(3, pile) + 1))
    if not passed:
        total += count_by_rules(pile, True, depth - 1)
    return total


@pytest.mark.parametrize("options", [{}, {"pile": 4}, {"pile": 1}])
@pytest.mark.parametrize("depth", [0, 1, 2, 3, 5])
def test_perft_matches_brute_force(options, depth):
    state = Toy(**options).initial_state()
    expected = len(all_paths(state, depth))
    assert perft(state, depth) == expected
    assert perft(state, depth) == count_by_rules(state.pile, state.passed, depth)


def test_divide_sums_to_perft_and_follows_legal_order():
    game = Toy(pile=6)
    state = game.parse_position("toy:pile=6,rule=normal 5/1/0 1 p")
    counts = divide(state, 4)
    assert list(counts) == [str(m) for m in state.legal_moves()]
    assert "pass" not in counts
    assert sum(counts.values()) == perft(state, 4)
    for text, n in counts.items():
        after = state.apply(game.parse_move(state, text))
        assert n == len(all_paths(after, 3))


def test_finished_game_has_no_paths():
    start = Toy(pile=1).initial_state()
    state = start.apply(start.game.parse_move(start, "take 1"))
    assert perft(state, 0) == 1
    assert perft(state, 1) == 0 and perft(state, 3) == 0
    assert divide(state, 2) == {}


@pytest.mark.parametrize("depth", [-1, 1.5, "2", True])
def test_bad_depth(depth):
    state = Toy().initial_state()
    with pytest.raises(TablierError, match="depth"):
        perft(state, depth)
    with pytest.raises(TablierError, match="depth"):
        divide(state, depth)
    with pytest.raises(TablierError, match="at least 1"):
        divide(state, 0)


def mid_game(game, seed, plies):
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(rng.choice(moves))
    return state


@pytest.mark.parametrize(("cls", "options"), game_params())
def test_perft_of_every_game_matches_brute_force(cls, options):
    game = make_game(cls, options)
    for state in (game.initial_state(), mid_game(game, 1, 12)):
        assert perft(state, 1) == len(state.legal_moves())
        assert perft(state, 2) == len(all_paths(state, 2))
        counts = divide(state, 2)
        assert sum(counts.values()) == perft(state, 2)
