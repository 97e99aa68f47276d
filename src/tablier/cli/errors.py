"""How the ``tablier`` command reports bad input: one line on standard error, exit status 2.

Every command reads text it did not write (game specs, position strings,
moves, records, player specs, numbers).  When that text is refused, the
command prints ``Error: <what is wrong>`` on one line and exits with status 2,
the status click gives usage errors; it never shows a traceback.  Commands
raise :class:`InputError` themselves where they add context ("bad position:
…"); :class:`TablierGroup` turns any other
:class:`~tablier.core.errors.TablierError` that escapes a command into one.
Numbers on the command line are read like numbers in position strings: the
ASCII digits 0-9 only, at most 18 of them (:data:`INT`, :data:`FLOAT`).
"""

from __future__ import annotations

from typing import Any

import click

from ..core.errors import TablierError
from ..core.position import parse_float, parse_int

__all__ = ["FILE", "FLOAT", "INT", "InputError", "TablierGroup"]


class InputError(click.UsageError):
    """Bad input: ``Error: message`` on one line of standard error, exit status 2.

    A :class:`click.UsageError` (so callers that catch those catch it too)
    shown without the usage lines: the message says what is wrong.
    """

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()) or "bad input")

    def show(self, file: Any = None) -> None:
        """Print ``Error: message`` alone."""
        click.ClickException.show(self, file)


class TablierGroup(click.Group):
    """A command group whose commands report a stray TablierError as an :class:`InputError`."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a TablierError becomes a one-line error with exit status 2."""
        try:
            return super().invoke(ctx)
        except TablierError as exc:
            raise InputError(str(exc)) from None


class _Number(click.ParamType):
    """A number in ASCII digits (click's own types pass the text to ``int()``/``float()``)."""

    def __init__(self, kind: str) -> None:
        self.name = kind
        self._read = parse_int if kind == "integer" else parse_float

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # a default given in the code
        try:
            return self._read(value, "it", error=TablierError)
        except TablierError as exc:
            self.fail(str(exc), param, ctx)


#: A whole number written with the digits 0-9 (at most 18 of them).
INT = _Number("integer")
#: A decimal number such as ``2``, ``0.5`` or ``1e-3``, in ASCII, not NaN or infinite.
FLOAT = _Number("number")


class _File(click.Path):
    """A file name (not a folder); a NUL character is refused before the system is asked."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and "\x00" in value:
            self.fail("a file name cannot hold a NUL character", param, ctx)
        return super().convert(value, param, ctx)


#: A file name (click.Path(dir_okay=False) raises ValueError for a NUL in the name).
FILE = _File(dir_okay=False)
