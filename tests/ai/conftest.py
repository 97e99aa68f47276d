"""Fixtures for the AI tests: the random tree game is registered for each test."""

from __future__ import annotations

import pytest

import tablier.games

from .aitoys import TreeGame


@pytest.fixture(autouse=True)
def tree_registered():
    """Register the tree game for the duration of a test."""
    tablier.games.register(TreeGame)
    yield TreeGame
    tablier.games.unregister(TreeGame.name)
