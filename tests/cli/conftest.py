"""Fixtures for the command-line tests: the toy game (tests/core/toygame.py) is registered."""

from __future__ import annotations

import pytest

import tablier.games
from core.toygame import Toy


@pytest.fixture(autouse=True)
def toy_registered():
    """Register the toy game for the duration of a test."""
    tablier.games.register(Toy)
    yield Toy
    tablier.games.unregister(Toy.name)
