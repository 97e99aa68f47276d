"""Exception classes for bad input.

Every error Tablier raises for bad input derives from :class:`TablierError`,
which itself derives from :class:`ValueError`, so callers may catch either.
The message always says what is wrong in words a player understands.
"""

from __future__ import annotations


class TablierError(ValueError):
    """Base class of every error raised for bad input."""


class UnknownGameError(TablierError, LookupError):
    """No game of that name is registered."""


class InvalidOptionError(TablierError):
    """An option name or value that the game does not accept."""


class InvalidMoveError(TablierError):
    """A move text that cannot be read at all (syntax, unknown cell...)."""


class IllegalMoveError(TablierError):
    """A well-formed move that the rules forbid in this position."""


class InvalidPositionError(TablierError):
    """A position string that cannot be read or describes an impossible position."""


class RecordError(TablierError):
    """A game record that cannot be read, or whose moves do not replay.

    ``ply`` is the 1-based number of the offending decision when the problem
    lies in a move, otherwise ``None``.
    """

    def __init__(self, message: str, *, ply: int | None = None) -> None:
        super().__init__(message)
        self.ply = ply


class GameOverError(IllegalMoveError):
    """A move was asked of a position whose game has already ended."""


def quote(text: object, limit: int = 60) -> str:
    """``repr(text)`` for an error message, cut to about ``limit`` characters.

    Messages echo the input they refuse; a long input (a pasted file, a
    megabyte of digits) is shown by its start and its length:

    >>> quote("e5")
    "'e5'"
    >>> quote("9" * 5000)
    "'99999999999999999999999999999999999999999999999999999999999'… (5000 characters)"
    """
    if isinstance(text, str) and len(text) > limit:
        return f"{text[: limit - 1]!r}… ({len(text)} characters)"
    shown = repr(text)
    return shown if len(shown) <= limit + 2 else shown[:limit] + "…"
