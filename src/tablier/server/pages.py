"""The pages the server writes itself: "not found", "no such game", other errors.

Everything else a browser sees is the client (``src/tablier/web/``).  Every string of these
pages is in :data:`TEXT`, in one place, so that they can be translated; :func:`error_page`
fills the template, escaping whatever comes from the request.

>>> body = error_page(404, "no_game", game_id="<x>").decode()
>>> "There is no game &lt;x&gt;" in body and "<title>Game not found" in body
True
"""

from __future__ import annotations

from html import escape

__all__ = ["TEXT", "error_page"]

#: Every string of the server's own pages, by page and part.  ``{game_id}`` and
#: ``{status}`` are filled in (escaped).
TEXT: dict[str, dict[str, str]] = {
    "not_found": {
        "title": "Page not found",
        "heading": "Page not found",
        "message": "There is no page at this address.",
    },
    "no_game": {
        "title": "Game not found",
        "heading": "Game not found",
        "message": "There is no game {game_id} on this server: the link may be mistyped, "
        "or the game was made on another server.",
    },
    "method_not_allowed": {
        "title": "Method not allowed",
        "heading": "Method not allowed",
        "message": "This page cannot be requested that way.",
    },
    "error": {
        "title": "Error {status}",
        "heading": "Something went wrong",
        "message": "The server could not answer this request (error {status}).",
    },
    "common": {
        "site": "Tablier",
        "home": "Back to the lobby",
    },
}

_TEMPLATE = """<!doctype html>
<html lang="en" data-theme="auto">
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


def error_page(status: int, page: str, **values: object) -> bytes:
    """The HTML of the server's page ``page`` (a key of :data:`TEXT`) for ``status``."""
    fields = {k: escape(str(v)) for k, v in values.items()}
    fields["status"] = str(int(status))
    text = TEXT.get(page, TEXT["error"])
    filled = {key: value.format(**fields) for key, value in text.items()}
    return _TEMPLATE.format(
        **{key: value for key, value in TEXT["common"].items()},
        **filled,
        status=fields["status"],
    ).encode()
