"""Fixtures for the command-line tests: the toy game (tests/core/toygame.py) is registered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))

from toygame import Toy

import tablier.games


@pytest.fixture(autouse=True)
def toy_registered():
    """Register the toy game for the duration of a test."""
    tablier.games.register(Toy)
    yield Toy
    tablier.games.unregister(Toy.name)
