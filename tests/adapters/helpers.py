"""Shared helpers of the adapter tests: option sets and random games."""

from __future__ import annotations

import random

import pytest

from tablier.core.game import Game, State
from tablier.games import get

# Every registered game with its default options and at least one other set.
OPTION_SETS: list[tuple[str, dict]] = [
    ("volo", {}),
    ("volo", {"board": "mini"}),
    ("volo", {"board": "mini", "setup": "centre", "supply": 12, "edition": "2010"}),
    ("xobo", {}),
    ("xobo", {"stack": "three", "exhaustion": "cubes"}),
    ("voldetour", {}),
    ("voldetour", {"pieces": "mini", "repetition": True, "max_turns": 30}),
]

CASES = [pytest.param(name, opts, id=f"{name}-{opts}") for name, opts in OPTION_SETS]


def random_states(game: Game, seed: int, games: int = 2, limit: int = 120) -> list[State]:
    """Every state of a few random games (cut after ``limit`` decisions)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.initial_state()
        for _ in range(limit):
            out.append(state)
            if state.is_terminal:
                break
            state = state.apply(rng.choice(state.legal_moves()))
    return out


def build(name: str, opts: dict) -> Game:
    return get(name, **opts)
