"""Fixtures for the generic core tests: the toy game is registered for each test."""

from __future__ import annotations

import pytest
from toygame import Toy

import tablier.games


@pytest.fixture(autouse=True)
def toy_registered():
    """Register the toy game for the duration of a test."""
    tablier.games.register(Toy)
    yield Toy
    tablier.games.unregister(Toy.name)
