"""The browser's pages: the client's routes (``/``, ``/review``, ``/g/<id>``) and ``/static``.

``/g/<id>`` answers the client only for a game that exists; an unknown game gets the
server's "Game not found" page (:mod:`..pages`) with status 404, as does any unknown path
outside ``/api/`` (see :mod:`..errors`).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from ..deps import GameId, Service, check_game_id, get_settings
from ..errors import ApiError
from ..pages import error_page

__all__ = ["mount_static", "router"]

router = APIRouter(include_in_schema=False)


def _client(request: Request) -> Response:
    page = Path(get_settings(request).web_dir) / "index.html"
    if not page.is_file():
        return Response(error_page(404, "not_found"), 404, media_type="text/html")
    return FileResponse(page, media_type="text/html", headers={"cache-control": "no-cache"})


@router.get("/")
async def lobby(request: Request) -> Response:
    """The lobby (the client)."""
    return _client(request)


@router.get("/review")
async def review(request: Request) -> Response:
    """The review page (the client)."""
    return _client(request)


@router.get("/g/{game_id}")
async def game_page(game_id: GameId, request: Request, service: Service) -> Response:
    """A game's page (the client), or "Game not found"."""
    try:
        await service.get(check_game_id(game_id))
    except ApiError as exc:
        if exc.status != 404:
            raise
        return Response(
            error_page(404, "no_game", game_id=game_id[:40]),
            404,
            media_type="text/html",
            headers={"cache-control": "no-cache"},
        )
    return _client(request)


def mount_static(app: FastAPI, web_dir: Path) -> None:
    """Serve the client's folder under ``/static`` (when it is installed)."""
    if Path(web_dir).is_dir():
        app.mount("/static", StaticFiles(directory=web_dir), name="static")
