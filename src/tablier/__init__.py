"""Tablier: a platform for abstract board games (Volo, XoBo, Voldetour).

>>> import tablier
>>> game = tablier.games.get("volo")
>>> state = game.initial_state()
>>> len(state.legal_moves()) > 0
True
"""

from . import games
from .core import (
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Move,
    Option,
    Outcome,
    RecordError,
    State,
    TablierError,
    UnknownGameError,
)

__version__ = "0.1.0"

__all__ = [
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Move",
    "Option",
    "Outcome",
    "RecordError",
    "State",
    "TablierError",
    "UnknownGameError",
    "__version__",
    "games",
]
