"""The browser's pages: the client's routes (``/``, ``/review``, ``/g/<id>``) and ``/static``.

The client's page (``index.html``) is sent in the request's language (:mod:`..i18n`): its
``<html lang>`` set and the text of its ``data-i18n`` elements translated; the client then
reads its messages from ``/api/i18n/<lang>``.  ``/g/<id>`` answers the client only for a
game that exists; an unknown game gets the server's "Game not found" page (:mod:`..pages`)
with status 404, as does any unknown path outside ``/api/`` (see :mod:`..errors`).
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.staticfiles import StaticFiles

from ..deps import GameId, Service, check_game_id, get_settings
from ..errors import ApiError, json_response
from ..extract import translate_html
from ..i18n import LANGUAGES, client_messages, gettext, language_of
from ..pages import error_page

__all__ = ["mount_static", "router"]

router = APIRouter(include_in_schema=False)

_HTML_LANG = re.compile(r'<html lang="[^"]*"')


def _page_headers(lang: str) -> dict[str, str]:
    # the page differs by language: caches keep one per cookie and Accept-Language
    return {
        "cache-control": "no-cache",
        "content-language": lang,
        "vary": "Accept-Language, Cookie",
    }


def _client(request: Request) -> Response:
    lang = language_of(request)
    page = Path(get_settings(request).web_dir) / "index.html"
    if not page.is_file():
        return Response(error_page(404, "not_found", lang), 404, media_type="text/html")
    html = translate_html(page.read_text(encoding="utf-8"), lambda m: gettext(lang, m))
    html = _HTML_LANG.sub(f'<html lang="{lang}"', html, count=1)
    return Response(html, media_type="text/html", headers=_page_headers(lang))


@router.get("/")
async def lobby(request: Request) -> Response:
    """The lobby (the client)."""
    return _client(request)


@router.get("/review")
async def review(request: Request) -> Response:
    """The review page (the client)."""
    return _client(request)


@router.get("/analysis/{spec}")
async def analysis_page(spec: str, request: Request) -> Response:
    """The analysis board of a game's spec (the client; ``?m=`` moves, ``&ply=`` the position
    shown first)."""
    return _client(request)


@router.get("/@/{username}")
async def profile(username: str, request: Request) -> Response:
    """A player's profile page (the client; it asks ``/api/players/<username>``)."""
    return _client(request)


@router.get("/leaderboard/{game}")
async def leaderboard_page(game: str, request: Request) -> Response:
    """A game's leaderboard (the client; it asks ``/api/leaderboard/<game>``)."""
    return _client(request)


@router.get("/g/{game_id}")
async def game_page(game_id: GameId, request: Request, service: Service) -> Response:
    """A game's page (the client), or "Game not found"."""
    try:
        await service.get(check_game_id(game_id))
    except ApiError as exc:
        if exc.status != 404:
            raise
        lang = language_of(request)
        return Response(
            error_page(404, "no_game", lang, game_id=game_id[:40]),
            404,
            media_type="text/html",
            headers=_page_headers(lang),
        )
    return _client(request)


@router.get("/api/i18n/{lang}")
async def messages(lang: str) -> Response:
    """The client's messages in ``lang``: ``{"lang", "languages", "messages"}``."""
    if lang not in LANGUAGES:
        raise ApiError(
            404, "not_found", f"no language {lang[:20]!r} (known: {', '.join(LANGUAGES)})"
        )
    body = {**client_messages(lang), "languages": LANGUAGES}
    return json_response(body, headers={"cache-control": "no-cache"})


def mount_static(app: FastAPI, web_dir: Path) -> None:
    """Serve the client's folder under ``/static`` (when it is installed)."""
    if Path(web_dir).is_dir():
        app.mount("/static", StaticFiles(directory=web_dir), name="static")
