"""``/api/games/<id>/conditionals``: a seat's conditional moves (see :mod:`..conditionals`)."""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Response

from .. import conditionals
from ..deps import Seated, Service
from ..errors import ApiError, json_response
from ..models import ConditionalsBody, error_responses

__all__ = ["router"]

router = APIRouter(prefix="/api/games", tags=["conditionals"])

_JSON: dict[str, Any] = {"content": {"application/json": {}}}
_ERRORS = error_responses(401, 403, 404, 409, 410, 422)


def _seat(actor: Any) -> int:
    if actor.seat not in (0, 1):
        raise ApiError(409, "not_allowed", "conditional moves are for a seat of the game")
    return int(actor.seat)


@router.get("/{game_id}/conditionals", responses={200: _JSON, **_ERRORS}, response_class=Response)
async def read_conditionals(actor: Seated, service: Service) -> Response:
    """The seat's own lines → ``{"ply", "lines", "allowed"}`` (the opponent's stay hidden)."""
    seat = _seat(actor)
    live = actor.live
    stored = await to_thread.run_sync(conditionals.read, service.storage.engine, live.id, seat)
    body = conditionals.lines_of(live, stored)
    body["allowed"] = conditionals.allowed(live)
    return json_response(body)


@router.put("/{game_id}/conditionals", responses={200: _JSON, **_ERRORS}, response_class=Response)
async def set_conditionals(body: ConditionalsBody, actor: Seated, service: Service) -> Response:
    """Replace the seat's lines (checked from the position at ``ply``) → ``{"ply", "lines"}``
    in the engine's notation; an empty list drops them."""
    live = service.current(actor.live)
    seat = actor.seat
    async with live.lock:
        live = service.current(live)
        lines = conditionals.check_lines(live, seat, body.ply, [list(x) for x in body.lines])
        assert seat is not None
        ok = await service.write(
            conditionals.store, service.storage.engine, live.id, seat, body.ply, lines
        )
    if not ok:
        raise ApiError(409, "stale_ply", "the game moved on meanwhile: look again")
    return json_response({"ply": body.ply, "lines": lines})


@router.delete(
    "/{game_id}/conditionals", responses={200: _JSON, **_ERRORS}, response_class=Response
)
async def drop_conditionals(actor: Seated, service: Service) -> Response:
    """Drop the seat's lines → ``{"ply", "lines": []}``."""
    seat = _seat(actor)
    await service.write(conditionals.remove, service.storage.engine, actor.live.id, seat)
    return json_response({"ply": actor.live.ply, "lines": []})
