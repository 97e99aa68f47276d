"""The pages the server writes itself: "not found", "no such game", other errors.

Everything else a browser sees is the client (``src/tablier/web/``).  Every string of these
pages is in :data:`TEXT`, in one place, marked for the message catalogs (:mod:`.i18n`);
:func:`error_page` fills the template in the request's language, escaping whatever comes
from the request.

>>> body = error_page(404, "no_game", game_id="<x>").decode()
>>> "There is no game &lt;x&gt;" in body and "<title>Game not found" in body
True
>>> body = error_page(404, "no_game", lang="fr", game_id="x").decode()
>>> '<html lang="fr"' in body and "Partie introuvable" in body
True
"""

from __future__ import annotations

from html import escape

from .i18n import DEFAULT, N_, gettext

__all__ = ["TEXT", "error_page"]

#: Every string of the server's own pages, by page and part.  ``{game_id}`` and
#: ``{status}`` are filled in (escaped).
TEXT: dict[str, dict[str, str]] = {
    "not_found": {
        "title": N_("Page not found"),
        "heading": N_("Page not found"),
        "message": N_("There is no page at this address."),
    },
    "no_game": {
        "title": N_("Game not found"),
        "heading": N_("Game not found"),
        "message": N_(
            "There is no game {game_id} on this server: the link may be mistyped, "
            "or the game was made on another server."
        ),
    },
    "method_not_allowed": {
        "title": N_("Method not allowed"),
        "heading": N_("Method not allowed"),
        "message": N_("This page cannot be requested that way."),
    },
    "error": {
        "title": N_("Error {status}"),
        "heading": N_("Something went wrong"),
        "message": N_("The server could not answer this request (error {status})."),
    },
    "common": {
        "site": "Tablier",  # the name, never translated
        "home": N_("Back to the lobby"),
    },
}

_TEMPLATE = """<!doctype html>
<html lang="{lang}" data-theme="auto">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>{title} · {site}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body>
  <header class="top"><a href="/" class="brand">{site}</a></header>
  <main id="app">
    <section class="panel" data-testid="error-page" data-status="{status}">
      <h1>{heading}</h1>
      <p>{message}</p>
      <p><a href="/">{home}</a></p>
    </section>
  </main>
</body>
</html>
"""


def error_page(status: int, page: str, lang: str = DEFAULT, **values: object) -> bytes:
    """The HTML of the server's page ``page`` (a key of :data:`TEXT`) for ``status``, in
    ``lang``."""
    fields = {k: escape(str(v)) for k, v in values.items()}
    fields["status"] = str(int(status))
    text = TEXT.get(page, TEXT["error"])
    common = {key: escape(gettext(lang, value)) for key, value in TEXT["common"].items()}
    common["site"] = TEXT["common"]["site"]
    filled = {key: escape(gettext(lang, value)).format(**fields) for key, value in text.items()}
    return _TEMPLATE.format(**common, **filled, status=fields["status"], lang=lang).encode()
