"""Position strings (``<spec> <body>``), game specs and the numbers written in them.

The spec names the game and its options, ``name:opt=value,opt=value``
(the same text as :attr:`Game.spec`); the body is game-specific.  The same
``name:key=value,...`` mini-language names AI players (``hard:iterations=300``):
:func:`parse_spec` is its only reader.

Every number Tablier reads from text goes through :func:`parse_int` or
:func:`parse_float`: they accept the ASCII digits ``0``-``9`` only (Python's
``int()`` would also read Arabic-Indic or fullwidth digits, and refuses
strings of more than 4,300 digits with a ValueError of its own) and a
bounded number of them, and raise the caller's TablierError otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .errors import N_, InvalidPositionError, Message, TablierError, quote

__all__ = ["MAX_DIGITS", "parse_float", "parse_int", "parse_spec", "split_position"]

#: The most digits a number read from text may have (up to 10**18 - 1).
MAX_DIGITS = 18

_NAME = re.compile(r"[a-z][a-z0-9_]*", re.ASCII)
_INT = re.compile(r"-?[0-9]+", re.ASCII)
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[-+]?[0-9]{1,3})?", re.ASCII)
#: Specs longer than this are refused before anything else is looked at.
_MAX_SPEC = 1000
_GAME_SPEC = Message(N_("game spec"))


def parse_spec(
    text: str, *, error: type[TablierError] = InvalidPositionError, what: str | Message = _GAME_SPEC
) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and a dict of value texts.

    Names, keys and values are lower-cased; spaces around them are dropped
    and ``-`` in a key reads as ``_``.  A key given twice, a part without
    ``=``, or any character outside ASCII raises ``error`` (by default
    :class:`~tablier.core.errors.InvalidPositionError`) naming ``what`` is read.

    >>> parse_spec("volo:board=mini,edition=2010")
    ('volo', {'board': 'mini', 'edition': '2010'})
    >>> parse_spec("hard: iterations=300, max-playout=40", what="player spec")
    ('hard', {'iterations': '300', 'max_playout': '40'})
    >>> parse_spec("volo:board")
    Traceback (most recent call last):
    ...
    tablier.core.errors.InvalidPositionError: 'board' in the game spec 'volo:board' is not key=value
    """
    if not isinstance(text, str):
        raise error(N_("a {what} must be text, not {kind}"), what=what, kind=type(text).__name__)
    if len(text) > _MAX_SPEC:
        raise error(
            N_("the {what} is too long ({n} characters; at most {limit})"),
            what=what,
            n=len(text),
            limit=_MAX_SPEC,
        )
    text = text.strip()
    if not text.isascii():
        raise error(
            N_("the {what} {text} holds characters other than ASCII"), what=what, text=quote(text)
        )
    name, colon, rest = text.lower().partition(":")
    name = name.strip()
    if not _NAME.fullmatch(name):
        raise error(
            N_(
                "cannot read the {what} {text}: it starts with a name (a letter, then "
                "letters, digits or _), then optionally :key=value,..."
            ),
            what=what,
            text=quote(text),
        )
    options: dict[str, str] = {}
    if colon:
        for part in rest.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, value = part.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or not _NAME.fullmatch(key):
                raise error(
                    N_("{part} in the {what} {text} is not key=value"),
                    part=quote(part),
                    what=what,
                    text=quote(text),
                )
            if key in options:
                raise error(
                    N_("{key} is given twice in the {what} {text}"),
                    key=repr(key),
                    what=what,
                    text=quote(text),
                )
            options[key] = value.strip()
    return name, options


def parse_int(
    text: str, what: str | Message, *, error: type[TablierError] = InvalidPositionError
) -> int:
    """Read a whole number written with the ASCII digits 0-9 (and an optional ``-``).

    >>> parse_int("42", "the supply")
    42
    >>> parse_int("٣", "n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablier.core.errors.InvalidPositionError: n must be a whole number written with ... not '٣'
    """
    if not isinstance(text, str):
        raise error(
            N_("{what} must be a whole number, not {kind}"), what=what, kind=type(text).__name__
        )
    text = text.strip()
    if not _INT.fullmatch(text):
        raise error(
            N_("{what} must be a whole number written with the digits 0-9, not {text}"),
            what=what,
            text=quote(text),
        )
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise error(
            N_("{what} is too large ({n} digits; at most {limit})"),
            what=what,
            n=len(text.lstrip("-")),
            limit=MAX_DIGITS,
        )
    return int(text)


def parse_float(
    text: str, what: str | Message, *, error: type[TablierError] = InvalidPositionError
) -> float:
    """Read a decimal number (``2``, ``0.5``, ``.5``, ``1e-3``) in ASCII; no NaN or infinity.

    >>> parse_float("0.25", "seconds")
    0.25
    """
    if not isinstance(text, str):
        raise error(N_("{what} must be a number, not {kind}"), what=what, kind=type(text).__name__)
    text = text.strip().lower()
    if len(text) > 2 * MAX_DIGITS or not _FLOAT.fullmatch(text):
        raise error(
            N_("{what} must be a decimal number such as 2 or 0.5, not {text}"),
            what=what,
            text=quote(text),
        )
    return float(text)


def split_position(
    text: str, is_name: Callable[[str], bool] | None = None
) -> tuple[tuple[str, dict[str, str]] | None, str]:
    """Split a position string into its spec (or ``None`` if absent) and its body.

    The first word is taken as a spec when it contains a colon.  A game
    without options has its bare name as spec (``name body``): with
    ``is_name``, a first word (lower-cased) it accepts, followed by a body,
    is read as such a spec.

    >>> split_position("plain x o", is_name=lambda word: word == "plain")
    (('plain', {}), 'x o')
    >>> split_position("plain x o")
    (None, 'plain x o')
    """
    if not isinstance(text, str):
        raise InvalidPositionError(
            N_("a position must be text, not {kind}"), kind=type(text).__name__
        )
    text = text.strip()
    words = text.split(None, 1)
    if words and ":" in words[0]:
        return parse_spec(words[0]), words[1] if len(words) > 1 else ""
    if is_name is not None and len(words) == 2 and is_name(words[0].lower()):
        return (words[0].lower(), {}), words[1]
    return None, text
