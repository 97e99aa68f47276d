"""Exception classes for bad input.

Every error Tablier raises for bad input derives from :class:`TablierError`,
which itself derives from :class:`ValueError`, so callers may catch either.
The message always says what is wrong in words a player understands.

A message is an English template marked for the catalogs with :func:`N_`, its
``{name}`` placeholders filled by keyword arguments: ``str(exc)`` is the English
text, :meth:`TablierError.translate` the same message in another language (the
template translated first, then filled).  A value that is itself a message (a
:class:`Message`, another error) is translated with it; other values (cells, moves,
numbers, quoted input) are shown as they are:

>>> exc = IllegalMoveError(N_("cannot place a cube there: {cell} holds a single cube"), cell="f8")
>>> str(exc)
'cannot place a cube there: f8 holds a single cube'
>>> exc.translate({"cannot place a cube there: {cell} holds a single cube":
...                "impossible de poser un cube ici : {cell} porte un cube seul"}.get)
'impossible de poser un cube ici : f8 porte un cube seul'
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = [
    "N_",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Label",
    "Message",
    "RecordError",
    "TablierError",
    "UnknownGameError",
    "quote",
]

#: A translation function: a message id to its text, or ``None`` for "no translation".
Gettext = Callable[[str], "str | None"]


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalogs; returns it unchanged."""
    return message


class Message:
    """An English template with its ``{name}`` values, translated when shown.

    ``str()`` gives the English text.  Used for the words and phrases that go inside
    another message (a player's name, the reason a piece cannot go somewhere):

    >>> str(Message(N_("{player} has no bird left in supply"), player=Message(N_("Orange"))))
    'Orange has no bird left in supply'
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def translate(self, gettext: Gettext | None = None) -> str:
        """The text with ``gettext`` (``None``: English) applied to it and its message values."""
        text = (gettext(self.template) if gettext is not None else None) or self.template
        if not self.params:
            return text
        values = {
            key: value.translate(gettext) if isinstance(value, Message | TablierError) else value
            for key, value in self.params.items()
        }
        return text.format_map(values)

    def __str__(self) -> str:
        return self.translate()

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)


class Label(Message):
    """A label of the catalogs (``game.volo.player.0``, docs/i18n.md) with its English.

    >>> str(Label("game.volo.player.0", "Orange"))
    'Orange'
    """

    __slots__ = ("english",)

    def __init__(self, key: str, english: str) -> None:
        super().__init__(key)
        self.english = english

    def translate(self, gettext: Gettext | None = None) -> str:
        found = gettext(self.template) if gettext is not None else None
        return found if found and found != self.template else self.english


class TablierError(ValueError):
    """Base class of every error raised for bad input.

    ``TablierError(template, **params)``: ``template`` is the English message, with
    ``{name}`` placeholders when ``params`` are given (see the module's docstring), or a
    :class:`Message` already filled.  ``message`` is the :class:`Message`, ``str(exc)``
    its English text.
    """

    def __init__(self, template: str | Message, /, **params: object) -> None:
        self.message = Message(template, **params) if isinstance(template, str) else template
        super().__init__(str(self.message))

    def translate(self, gettext: Gettext | None = None) -> str:
        """The message in the language of ``gettext`` (:meth:`Message.translate`)."""
        return self.message.translate(gettext)


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

    def __init__(
        self, template: str | Message, /, *, ply: int | None = None, **params: object
    ) -> None:
        super().__init__(template, **params)
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
