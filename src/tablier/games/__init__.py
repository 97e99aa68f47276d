"""The game registry.

Games are looked up by name and built with their options::

    >>> import tablier.games
    >>> tablier.games.names()
    ['voldetour', 'volo', 'xobo']
    >>> game = tablier.games.get("volo", board="mini")
    >>> game.spec
    'volo:board=mini,edition=current,setup=nests,supply=50'

Where games come from, first match wins:

1. games added by code with :func:`register` (tests, notebooks, plug-ins
   that register on import);
2. the entry-point group ``tablier.games`` of every installed distribution:
   a package that ships a game declares, in its ``pyproject.toml``::

       [project.entry-points."tablier.games"]
       mygame = "mypackage.mygame:MyGame"

   and the game is then known by that name without Tablier naming it;
3. the built-in games, also when the package metadata is missing (a source
   tree put on ``sys.path`` without installing it).

A game class is imported the first time it is asked for.
"""

from __future__ import annotations

import importlib
from importlib import metadata
from typing import Any

from ..core.errors import InvalidOptionError, InvalidPositionError, TablierError, UnknownGameError
from ..core.game import Game, State
from ..core.position import parse_spec, split_position

__all__ = [
    "ENTRY_POINT_GROUP",
    "from_spec",
    "game_class",
    "get",
    "names",
    "parse_position",
    "register",
    "start_state",
    "unregister",
]

#: The entry-point group through which installed packages declare their games.
ENTRY_POINT_GROUP = "tablier.games"

# The built-in games as pyproject.toml declares them, used when the metadata is missing.
_FALLBACK: dict[str, str] = {
    "volo": "tablier.games.volo:Volo",
    "xobo": "tablier.games.xobo:XoBo",
    "voldetour": "tablier.games.voldetour:Voldetour",
}

_registered: dict[str, type[Game[Any, Any]]] = {}
_loaded: dict[str, type[Game[Any, Any]]] = {}
_declared: dict[str, str] | None = None


def _entry_points() -> dict[str, str]:
    """Name -> ``"module:Class"`` for every declared game, the fallback filled in."""
    global _declared
    if _declared is None:
        found: dict[str, str] = {}
        try:
            points = metadata.entry_points(group=ENTRY_POINT_GROUP)
        except Exception:  # broken metadata of some distribution: keep the built-ins
            points = metadata.EntryPoints(())
        for point in points:
            found.setdefault(point.name.strip().lower(), point.value)
        for name, value in _FALLBACK.items():
            found.setdefault(name, value)
        _declared = found
    return _declared


def register(cls: type[Game[Any, Any]]) -> type[Game[Any, Any]]:
    """Register a Game subclass under ``cls.name`` (usable as a decorator).

    A registered game is used like a built-in one, in worker processes too: a
    game pickles by its class (which must be importable by its module and
    name), so the workers need not register it again.
    """
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TablierError(f"only a Game subclass can be registered, not {cls!r}")
    _registered[cls.name] = cls
    return cls


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (used by tests)."""
    _registered.pop(name, None)


def names() -> list[str]:
    """The names of every known game, sorted."""
    return sorted(set(_entry_points()) | set(_registered))


def game_class(name: str) -> type[Game[Any, Any]]:
    """The Game subclass known under ``name``.

    Raises UnknownGameError for a name no game has, TablierError for a
    declared game that cannot be imported.
    """
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name is text, not {type(name).__name__}")
    key = name.strip().lower()
    if key in _registered:
        return _registered[key]
    if key in _loaded:
        return _loaded[key]
    target = _entry_points().get(key)
    if target is None:
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise UnknownGameError(f"unknown game {shown!r} (known: {', '.join(names())})")
    module_name, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module_name.strip())
        for part in attr.strip().split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise TablierError(f"the game {key!r} ({target}) cannot be loaded: {exc}") from None
    if not (isinstance(obj, type) and issubclass(obj, Game)):
        raise TablierError(f"the game {key!r} ({target}) is not a Game subclass")
    if getattr(obj, "name", None) != key:
        raise TablierError(f"the game {key!r} ({target}) is named {getattr(obj, 'name', None)!r}")
    _loaded[key] = obj
    return obj


def get(name: str, /, **options: Any) -> Game[Any, Any]:
    """Build the game ``name`` with ``options`` (e.g. ``get("volo", board="mini")``)."""
    return game_class(name)(**options)


def from_spec(spec: str) -> Game[Any, Any]:
    """Build a game from its spec string, ``name:opt=value,...`` (see :attr:`Game.spec`)."""
    name, options = parse_spec(spec, error=InvalidOptionError)
    return get(name, **options)


def start_state(text: str) -> State[Any]:
    """A full position string, or a game spec alone (``volo:board=mini``) for its start."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position must be text, not {type(text).__name__}")
    text = text.strip()
    if not text:
        raise InvalidPositionError("empty position")
    if len(text.split()) == 1:
        start: State[Any] = from_spec(text).initial_state()
        return start
    return parse_position(text)


def parse_position(text: str) -> State[Any]:
    """Read a full position string (spec and body), whatever the game.

    The spec of a game without options is its bare name (``name body``).
    """
    spec, body = split_position(
        text, is_name=lambda word: word in _registered or word in _entry_points()
    )
    if spec is None:
        raise InvalidPositionError(
            "a position string must start with the game spec, e.g. 'volo:board=standard,...'"
        )
    name, options = spec
    state: State[Any] = get(name, **options).parse_position_body(body)
    return state
