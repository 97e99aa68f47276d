"""``/api/games/<id>/chat``: a game's chat rooms over REST (the WebSocket carries the same
messages, see :mod:`.live`); what the rooms are and who reads them: :mod:`..chat`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Response

from .. import chat
from ..accounts import OptionalUser
from ..deps import Seated, Service, Viewer
from ..errors import json_response
from ..models import ChatBody, ChatSettingsBody, error_responses
from ..ratelimit import rate_limit

__all__ = ["router"]

router = APIRouter(prefix="/api/games", tags=["chat"])

_JSON: dict[str, Any] = {"content": {"application/json": {}}}


@router.get(
    "/{game_id}/chat",
    responses={200: _JSON, **error_responses(401, 403, 404)},
    response_class=Response,
)
async def read_chat(actor: Viewer, service: Service) -> Response:
    """The messages the caller reads now (its room; both rooms once the game is over), the
    last 100 of each room, oldest first."""
    live = actor.live
    messages = await chat.history(service, live, actor.seat)
    body = chat.history_message(live, actor.seat, messages)
    body.update(chat_off=live.chat_off, muted=list(live.mutes))
    del body["type"]
    return json_response(body)


@router.post(
    "/{game_id}/chat",
    status_code=201,
    responses={201: _JSON, **error_responses(401, 403, 404, 409, 422, 429)},
    response_class=Response,
    dependencies=[Depends(rate_limit("chat"))],
)
async def post_chat(
    body: ChatBody, actor: Viewer, service: Service, user: OptionalUser
) -> Response:
    """Say something: a seat of a game between people in the players' room, anyone else in
    the spectators' room (a guest spectator may give a ``name``)."""
    account = (user.id, user.username) if user is not None else None
    message = await chat.post(service, actor.live.id, actor.seat, body.text, body.name, account)
    return json_response({"message": message}, 201)


@router.post(
    "/{game_id}/chat/settings",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 422, 429)},
    response_class=Response,
    dependencies=[Depends(rate_limit("chat"))],
)
async def chat_settings(body: ChatSettingsBody, actor: Seated, service: Service) -> Response:
    """Turn the players' chat off or on, mute or unmute the other seat → SNAPSHOT (counted
    against the ``chat`` rate limit: each change is sent to every socket)."""
    live = await chat.change_settings(service, actor.live.id, actor.seat, body.chat_off, body.mute)
    return json_response(service.snapshot(live, actor.seat))
