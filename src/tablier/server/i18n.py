"""The interface's languages: the message catalogs, the choice of a language, the lookups.

The catalogs are gettext ``.po`` files in ``tablier/locale/<lang>/LC_MESSAGES/messages.po``,
managed with Babel (``docs/i18n.md``): one catalog per language for everything a player
reads, the server's own pages and the browser client alike, with each game's own catalog
merged in (its rules and tutorial).  They are read by :mod:`tablier.core.i18n`, which the
terminal uses too, and compiled in memory when first used, so an install needs no build
step.  English is the source language: the messages of the code are English sentences and
need no English translation, except the *labels* — messages named by a key such as
``game.volo.option.board`` (see :mod:`.labels`), which every catalog spells out.

A request's language (:func:`language_of`): the ``tablier_lang`` cookie when it names a
language of :data:`LANGUAGES` (the choice made in the page), else the best match of the
browser's ``Accept-Language`` (Babel's negotiation), else English.

>>> negotiate("fr-CH, fr;q=0.9, en;q=0.8")
'fr'
>>> negotiate("de-DE, ja;q=0.5")
'ja'
>>> negotiate("de") , negotiate(None)
('en', 'en')
>>> gettext("fr", "Page not found")
'Page introuvable'
"""

from __future__ import annotations

import functools
from typing import Any

from babel import Locale, negotiate_locale

from ..core.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR, catalog, gettext, translations

__all__ = [
    "COOKIE",
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "client_messages",
    "gettext",
    "language_of",
    "negotiate",
    "parse_accept_language",
    "translations",
]

#: The cookie that remembers the language chosen in the page.
COOKIE = "tablier_lang"


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (translated when shown)."""
    return message


def parse_accept_language(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (``q=0`` dropped).

    >>> parse_accept_language("en;q=0.5, fr-FR, ja;q=0, *;q=0.1")
    ['fr-FR', 'en', '*']
    """
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:1000].split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or len(tag) > 35:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            ranked.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(ranked)]


def negotiate(header: str | None) -> str:
    """The language of :data:`LANGUAGES` that best answers an ``Accept-Language`` header."""
    wanted = [tag.replace("_", "-") for tag in parse_accept_language(header)]
    # Babel matches whole tags first, then their language alone ("fr-CH" -> "fr"), in order
    for tag in wanted:
        found = negotiate_locale([tag], list(LANGUAGES), sep="-")
        if found:
            return found
    return DEFAULT


def language_of(request: Any) -> str:
    """The language of a request (anything with ``cookies`` and ``headers``)."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return str(chosen)
    return negotiate(request.headers.get("accept-language"))


@functools.cache
def client_messages(lang: str) -> dict[str, Any]:
    """What the browser client needs to speak ``lang``: ``{"lang", "messages"}``.

    ``messages`` maps each translated message to its text; a message with plural forms maps
    its singular to ``{category: text}``, with the categories of the Unicode plural rules
    that the browser's ``Intl.PluralRules`` gives (``one``, ``other``…).
    """
    if lang not in LANGUAGES:
        lang = DEFAULT
    locale = Locale.parse(lang)
    plural = translations(lang).plural
    # which gettext form each CLDR category takes, read on sample numbers
    forms: dict[str, int] = {}
    for n in range(0, 201):
        forms.setdefault(locale.plural_form(n), int(plural(n)))
    messages: dict[str, Any] = {}
    # the interface's messages only: a game's rules and tutorial come translated from the
    # server (GET /api/teaching/<game>), so every page load does not carry them
    for message in catalog(lang, games=False):
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms_of = message.string
            strings: list[str] = (
                [str(x) for x in forms_of] if isinstance(forms_of, tuple | list) else []
            )
            if strings and all(strings):
                messages[message.id[0]] = {cat: strings[i] for cat, i in forms.items()}
        elif message.string:
            messages[message.id] = message.string
    return {"lang": lang, "messages": messages}
