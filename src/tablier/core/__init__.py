"""Game-agnostic core: the game protocol, errors, positions, records and geometry."""

from .errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    RecordError,
    TablierError,
    UnknownGameError,
)
from .game import Game, Move, Option, Outcome, State

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
]
