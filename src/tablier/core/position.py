"""Position strings: ``<spec> <body>``.

The spec names the game and its options, ``name:opt=value,opt=value``
(the same text as :attr:`Game.spec`); the body is game-specific.
"""

from __future__ import annotations

import re

from .errors import InvalidPositionError

_SPEC = re.compile(r"^([a-z][a-z0-9_]*)(?::(\S*))?$")

__all__ = ["parse_spec", "split_position"]


def parse_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split ``name:opt=value,...`` into the name and a dict of option texts."""
    text = text.strip()
    m = _SPEC.match(text.lower())
    if not m:
        raise InvalidPositionError(f"cannot read the game spec {text!r}")
    name, rest = m.group(1), m.group(2)
    options: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            if not part:
                continue
            key, sep, value = part.partition("=")
            if not sep or not key:
                raise InvalidPositionError(f"option {part!r} in {text!r} is not key=value")
            options[key] = value
    return name, options


def split_position(text: str) -> tuple[tuple[str, dict[str, str]] | None, str]:
    """Split a position string into its spec (or ``None`` if absent) and its body.

    The first word is taken as a spec when it contains a colon or is
    followed by a body (a position string always has a body).
    """
    text = text.strip()
    first, _, rest = text.partition(" ")
    if ":" in first:
        return parse_spec(first), rest.strip()
    return None, text
