"""The game registry.

Games are looked up by name and built with their options::

    >>> import tablier.games
    >>> tablier.games.names()  # doctest: +SKIP
    ['volo', ...]
    >>> game = tablier.games.get("volo", board="mini")

Built-in games are imported lazily, the first time they are asked for.
Other code may add games with :func:`register`.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..core.errors import InvalidPositionError, TablierError, UnknownGameError
from ..core.game import Game, State
from ..core.position import parse_spec, split_position

__all__ = [
    "from_spec",
    "game_class",
    "get",
    "names",
    "parse_position",
    "register",
    "start_state",
]

# name -> "module:Class"; each game package adds its own line.
_BUILTIN: dict[str, str] = {
    "volo": "tablier.games.volo:Volo",
    "xobo": "tablier.games.xobo:XoBo",
    "voldetour": "tablier.games.voldetour:Voldetour",
}

_loaded: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a Game subclass under ``cls.name`` (usable as a decorator)."""
    _loaded[cls.name] = cls
    return cls


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (used by tests)."""
    _loaded.pop(name, None)


def names() -> list[str]:
    """The names of every registered game, sorted."""
    return sorted(set(_BUILTIN) | set(_loaded))


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under ``name``."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key in _loaded:
        return _loaded[key]
    if key not in _BUILTIN:
        raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(names())})")
    module_name, _, attr = _BUILTIN[key].partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    _loaded[key] = cls
    return cls


def get(name: str, **options: Any) -> Game:
    """Build the game ``name`` with ``options`` (e.g. ``get("volo", board="mini")``)."""
    return game_class(name)(**options)


def from_spec(spec: str) -> Game:
    """Build a game from its spec string, ``name:opt=value,...`` (see :attr:`Game.spec`)."""
    try:
        name, options = parse_spec(spec)
    except InvalidPositionError as exc:
        raise TablierError(str(exc)) from None
    return get(name, **options)


def start_state(text: str) -> State:
    """A full position string, or a game spec alone (``volo:board=mini``) for its start."""
    text = text.strip()
    if not text:
        raise InvalidPositionError("empty position")
    if len(text.split()) == 1:
        return from_spec(text).initial_state()
    return parse_position(text)


def parse_position(text: str) -> State:
    """Read a full position string (spec and body), whatever the game."""
    spec, body = split_position(text)
    if spec is None:
        raise InvalidPositionError(
            "a position string must start with the game spec, e.g. 'volo:board=standard,...'"
        )
    name, options = spec
    return get(name, **options).parse_position_body(body)
