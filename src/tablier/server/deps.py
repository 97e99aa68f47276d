"""The dependencies the routes declare (FastAPI ``Depends``): the service, the settings,
the game named in the path and the seat of the request's token.

The application's lifespan puts its :class:`~.service.GameService` on ``app.state``; the
routes never reach it otherwise, so a test can hand them another one with
``app.dependency_overrides[get_service]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Query
from starlette.requests import HTTPConnection

from .errors import ApiError
from .live import LiveGame
from .service import GameService
from .settings import Settings

__all__ = [
    "GAME_ID",
    "Actor",
    "GameId",
    "Service",
    "check_game_id",
    "get_service",
    "get_settings",
    "seat_of",
]

_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

#: A game id in a path: checked by :func:`check_game_id` (an id that cannot exist is a 404,
#: not a validation error).
GAME_ID = Path(description="the game's id (letters, digits, '-' and '_', at most 32)")


async def get_service(conn: HTTPConnection) -> GameService:
    """The application's game service (``async``: FastAPI runs a plain function dependency
    in a worker thread, two thread hand-offs on every request)."""
    return conn.app.state.service


def get_settings(conn: HTTPConnection) -> Settings:
    """The application's settings."""
    return conn.app.state.settings


Service = Annotated[GameService, Depends(get_service)]


def check_game_id(game_id: str) -> str:
    """``game_id`` if it has the shape of an id, else ``404 not_found``."""
    if not _GAME_ID.match(game_id):
        raise ApiError(404, "not_found", "there is no such game")
    return game_id


GameId = Annotated[str, GAME_ID]


def bearer(conn: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    header = conn.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_authorization", "use 'Authorization: Bearer <token>'")
    return token.strip()


@dataclass
class Actor:
    """A request on a game: the game and the seat its token holds (None: no token)."""

    live: LiveGame
    seat: int | None


#: The ``ply`` of a read: the client has seen that position, the answer is not older.
SeenPly = Annotated[
    int | None,
    Query(
        ge=0,
        le=10**9,
        description="the latest position the client has seen (a ply): the answer is not "
        "older (the process re-reads the game first if it must; `409 ply_ahead` when the "
        "game has not reached it)",
    ),
]


async def _actor(
    conn: HTTPConnection,
    game_id: str,
    service: GameService,
    required: bool,
    ply: int | None = None,
):
    live = await service.get_at(check_game_id(game_id), ply)
    token = bearer(conn)
    if token is None and required:
        raise ApiError(401, "token_required", "this needs the seat's token (Authorization header)")
    seat = live.seat_for(token) if token is not None else None
    if token is not None and seat is None:
        raise ApiError(403, "not_your_seat", "this token holds no seat in this game")
    return Actor(live, seat)


async def viewer(conn: HTTPConnection, game_id: GameId, service: Service) -> Actor:
    """The game, and the seat of the optional token."""
    return await _actor(conn, game_id, service, False)


async def viewer_at(
    conn: HTTPConnection, game_id: GameId, service: Service, ply: SeenPly = None
) -> Actor:
    """The game (at ``ply`` or later, when the query names one: see
    :meth:`~.service.GameService.get_at`), and the seat of the optional token."""
    return await _actor(conn, game_id, service, False, ply)


async def seat_of(conn: HTTPConnection, game_id: GameId, service: Service) -> Actor:
    """The game, and the seat of the token the request must carry."""
    return await _actor(conn, game_id, service, True)


async def game_of(game_id: GameId, service: Service) -> LiveGame:
    """The game of the path (no token needed)."""
    return await service.get(check_game_id(game_id))


async def game_at(game_id: GameId, service: Service, ply: SeenPly = None) -> LiveGame:
    """The game of the path at ``ply`` or later when the query names one (no token needed)."""
    return await service.get_at(check_game_id(game_id), ply)


Viewer = Annotated[Actor, Depends(viewer)]
#: :data:`Viewer`, not older than the ``ply`` of the query.
ViewerAt = Annotated[Actor, Depends(viewer_at)]
Seated = Annotated[Actor, Depends(seat_of)]
Game = Annotated[LiveGame, Depends(game_of)]
#: The game of the path, not older than the ``ply`` of the query (reads after a move).
GameAt = Annotated[LiveGame, Depends(game_at)]
