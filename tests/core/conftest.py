"""Fixtures for the generic core tests: the toy games are registered for each test."""

from __future__ import annotations

import pytest

import tablier.games

from .toygame import PlainToy, Toy


@pytest.fixture(autouse=True)
def toy_registered():
    """Register the toy games for the duration of a test."""
    tablier.games.register(Toy)
    tablier.games.register(PlainToy)
    yield Toy
    tablier.games.unregister(Toy.name)
    tablier.games.unregister(PlainToy.name)
