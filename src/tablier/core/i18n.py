"""The message catalogs: the interface's and each game's, merged per language.

Everything a player reads is an English message translated through gettext catalogs managed
with Babel (``docs/i18n.md``):

- the interface's catalog, ``tablier/locale/<lang>/LC_MESSAGES/messages.po`` (the web
  client, the server's pages, the labels of every game);
- each game's own catalog, whose domain is the game's name, in the ``locale/`` folder beside
  the module of the game's class: ``<that folder>/locale/<lang>/LC_MESSAGES/<name>.po`` (a
  game's rules page and tutorial, :mod:`tablier.core.teaching`).

:func:`translations` merges them, the interface's message winning where both have one, and
compiles the result in memory the first time a language is used: the catalogs ship as
``.po`` files, with no build step.  The web server and the terminal both read them here.
English is the source language: a message without a translation is shown as written.

>>> gettext("fr", "Page not found")
'Page introuvable'
>>> gettext("xx", "Page not found")
'Page not found'
"""

from __future__ import annotations

import functools
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

__all__ = [
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "catalog",
    "game_catalog_path",
    "game_locale_dir",
    "gettext",
    "translations",
]

#: Where the interface's catalogs live (``<lang>/LC_MESSAGES/messages.po``, ``messages.pot``).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The interface's gettext domain.
DOMAIN = "messages"

#: The languages of the interface, each with its name in its own language (the selector).
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "ja": "日本語"}
DEFAULT = "en"


def game_locale_dir(cls: type) -> Path:
    """The ``locale/`` folder beside the module that defines the game class ``cls``."""
    module = sys.modules.get(cls.__module__)
    source = getattr(module, "__file__", None) or ""
    return Path(source).resolve().parent / "locale"


def game_catalog_path(cls: type, lang: str) -> Path:
    """Where the game class ``cls`` keeps its catalog for ``lang`` (it may not exist)."""
    name = str(getattr(cls, "name", ""))
    return game_locale_dir(cls) / lang / "LC_MESSAGES" / f"{name}.po"


def _read(path: Path, lang: str, domain: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=domain)


def _game_classes() -> list[type]:
    """Every registered game that can be imported (one that cannot is left out)."""
    from .. import games as registry
    from .errors import TablierError

    found: list[type] = []
    for name in registry.names():
        try:
            found.append(registry.game_class(name))
        except TablierError:
            continue
    return found


def catalog(lang: str, *, games: bool = True) -> Catalog:
    """The interface's catalog of ``lang`` with every registered game's merged in.

    A language the interface does not speak gives English.  A message in both the interface
    and a game's catalog keeps the interface's translation; an untranslated or fuzzy
    message of a game's catalog is left out (it shows in English).  ``games=False``: the
    interface's catalog alone.
    """
    if lang not in LANGUAGES:
        lang = DEFAULT
    return _catalog(lang, _names() if games else None)


def _names() -> tuple[str, ...]:
    from .. import games as registry

    return tuple(registry.names())


@functools.cache
def _catalog(lang: str, names: tuple[str, ...] | None) -> Catalog:
    # ``names`` is part of the cache key: a game registered later gets a fresh merge
    merged = _read(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", lang, DOMAIN)
    for cls in _game_classes() if names is not None else ():
        path = game_catalog_path(cls, lang)
        if not path.is_file():
            continue
        for message in _read(path, lang, str(getattr(cls, "name", ""))):
            if not message.id or message.fuzzy or message.id in merged:
                continue
            strings = (
                message.string if isinstance(message.string, tuple | list) else [message.string]
            )
            if not all(strings):
                continue
            merged[message.id] = message
    return merged


def translations(lang: str) -> Translations:
    """The merged catalog of ``lang`` (:func:`catalog`), compiled once in memory."""
    if lang not in LANGUAGES:
        lang = DEFAULT
    return _translations(lang, _names())


@functools.cache
def _translations(lang: str, names: tuple[str, ...]) -> Translations:
    buffer = io.BytesIO()
    write_mo(buffer, _catalog(lang, names), use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def gettext(lang: str, message: str) -> str:
    """``message`` in ``lang`` (the message itself when it has no translation)."""
    return translations(lang).gettext(message)
