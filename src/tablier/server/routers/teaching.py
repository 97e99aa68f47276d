"""``/api/teaching``: a game's rules page and tutorial, and ``/rules/<game>``, its page.

``GET /api/teaching/<game>?lang=`` answers the document of :mod:`..teaching` (its shape is
in ``docs/web.md``), built once per game and language, with an ETag (a matching
``If-None-Match`` gets ``304``) and ``Cache-Control: public, max-age=300``, gzip-compressed
for a client that accepts it (a page of board views shrinks about twentyfold).  An unknown game,
or one that declares no teaching, is ``404 not_found``; a language the interface does not
speak is ``422 invalid_request``; a diagram the engine refuses is logged and answered
``500 internal_error`` (the tests replay every diagram, so that never ships).

``/rules/<game>`` is the client's page (``rules.js`` draws it) for a game with teaching,
else the server's "Page not found".
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Query, Request, Response

from ... import games as registry
from ...core.errors import TablierError
from ...core.game import Game
from ..errors import ApiError
from ..i18n import DEFAULT, LANGUAGES, language_of
from ..models import error_responses
from ..pages import error_page
from ..teaching import teaching_body
from .pages import _client, _page_headers

__all__ = ["router"]

log = logging.getLogger("tablier.server")

router = APIRouter(tags=["teaching"])

Lang = Annotated[str | None, Query(description="en, fr or ja (default: the request's)")]


def _game_with_teaching(name: str) -> type[Game[Any, Any]] | None:
    try:
        cls = registry.game_class(name)
    except TablierError:
        return None
    try:
        has = cls.teaching() is not None
    except Exception:  # a teaching module that cannot be imported: no page, and the log says why
        log.exception("the teaching of %s cannot be loaded", name)
        return None
    return cls if has else None


@router.get("/api/teaching/{game}", responses=error_responses(404, 422, 500))
async def teaching(game: str, request: Request, lang: Lang = None) -> Response:
    """The rules page and tutorial of ``game`` in ``lang``, diagrams replayed."""
    if lang is None:
        lang = language_of(request)
    elif lang not in LANGUAGES:
        raise ApiError(
            422, "invalid_request", f"lang: one of {', '.join(LANGUAGES)}, not {lang[:20]!r}"
        )
    cls = _game_with_teaching(game[:40])
    if cls is None:
        raise ApiError(404, "not_found", f"no rules or tutorial for {game[:40]!r}")
    try:
        built = await to_thread.run_sync(teaching_body, cls, lang or DEFAULT)
    except Exception:
        log.exception("the teaching of %s in %s is broken", cls.name, lang)
        raise ApiError(500, "internal_error", f"the rules of {cls.name} cannot be shown") from None
    if built is None:
        raise ApiError(404, "not_found", f"no rules or tutorial for {game[:40]!r}")
    body, compressed, etag = built
    headers = {
        "etag": etag,
        "cache-control": "public, max-age=300",
        "vary": "Accept-Encoding, Accept-Language, Cookie",
    }
    if etag in (request.headers.get("if-none-match") or ""):
        return Response(status_code=304, headers=headers)
    if "gzip" in (request.headers.get("accept-encoding") or "").lower():
        return Response(
            compressed,
            media_type="application/json",
            headers={**headers, "content-encoding": "gzip"},
        )
    return Response(body, media_type="application/json", headers=headers)


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(game: str, request: Request) -> Response:
    """A game's rules page (the client), or "Page not found"."""
    if _game_with_teaching(game[:40]) is None:
        lang = language_of(request)
        return Response(
            error_page(404, "not_found", lang),
            404,
            media_type="text/html",
            headers=_page_headers(lang),
        )
    return _client(request)
