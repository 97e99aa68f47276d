"""``/ws/games/<id>``: one WebSocket per game for live moves, presence and the AI.

Every message the client sends is read by :func:`~..models.read_message` (the pydantic
models shared with the REST bodies); every error, whatever its cause, goes back through
:func:`ws_error` as ``{"type": "error", "code", "message", "ref"}`` and the connection is
kept, except before a valid ``hello`` (``hello_required``, closed with 1008) and for an
unknown game (``not_found``, closed with 4404).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ...core.errors import TablierError
from .. import chat
from ..accounts import SESSION_COOKIE, user_of_session
from ..deps import GameId, Service, check_game_id, get_settings
from ..errors import ApiError
from ..i18n import language_of
from ..models import (
    ChatMessage,
    ChatSettingsMessage,
    HelloMessage,
    MoveMessage,
    PingMessage,
    parse_json,
    read_message,
    read_ref,
    validate_message,
)
from ..ratelimit import hit, rate_limited
from ..service import Connection, GameService, dumps

__all__ = ["error_frame", "router", "ws_error"]

log = logging.getLogger("tablier.server")

router = APIRouter(tags=["live"])


def error_frame(code: str, message: str, ref: Any = None, **extra: Any) -> str:
    """The text of an ``error`` message."""
    return dumps({"type": "error", "code": code, "message": message, "ref": ref, **extra})


def ws_error(conn: Connection, exc: ApiError, ref: Any = None) -> None:
    """Queue ``exc`` as an ``error`` message to ``conn`` (the one path for every error), in
    the language of the connection's request."""
    conn.send(error_frame(exc.code, exc.text(language_of(conn.ws)), ref, **exc.extra))


async def _refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(error_frame(code, message))
        await ws.close(code=close_code)


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: GameId, service: Service) -> None:
    """Live moves, presence and the AI's progress (see docs/web.md)."""
    await ws.accept()
    try:
        live = await service.get(check_game_id(game_id))
    except ApiError as exc:
        await _refuse(ws, exc.code, exc.message, 4404)
        return
    try:
        first = await asyncio.wait_for(_receive(ws), get_settings(ws).hello_timeout)
        hello = read_message(_text(first))
    except (TimeoutError, WebSocketDisconnect, ApiError, KeyError):
        await _refuse(ws, "hello_required", "send hello first", 1008)
        return
    if not isinstance(hello, HelloMessage):
        await _refuse(ws, "hello_required", "the first message must be hello", 1008)
        return
    conn = Connection(ws)
    if hello.token is not None:
        conn.seat = live.seat_for(hello.token)
        if conn.seat is None:
            refused = ApiError(403, "not_your_seat", "this token holds no seat: watching only")
            ws_error(conn, refused)
    pump = asyncio.create_task(conn.pump())
    service.join(live, conn)
    await _send_chat(service, live.id, conn)
    try:
        while True:
            receive = asyncio.ensure_future(_receive(ws))
            done, _ = await asyncio.wait({receive, pump}, return_when=asyncio.FIRST_COMPLETED)
            if pump in done:
                receive.cancel()
                break
            await _handle(service, live.id, conn, receive.result())
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # pragma: no cover - a broken connection
        log.debug("websocket closed: %s", type(exc).__name__)
    finally:
        pump.cancel()
        service.leave(service.current(live), conn)


async def _receive(ws: WebSocket) -> str | bytes:
    """The next frame's text (or bytes: a binary frame); raises on disconnection."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else (message.get("bytes") or b"")


def _text(frame: str | bytes) -> str:
    if isinstance(frame, bytes):
        raise ApiError(422, "bad_message", "messages are JSON in text frames, not binary ones")
    return frame


async def _send_chat(service: GameService, game_id: str, conn: Connection) -> None:
    """Send the chat messages the connection reads (after its snapshot)."""
    live = await service.get(game_id)
    messages = await chat.history(service, live, conn.seat)
    conn.send(dumps(chat.history_message(live, conn.seat, messages)))


def _count_chat(conn: Connection) -> None:
    """Count a chat message or setting against the client's ``chat`` rate limit."""
    wait = hit(conn.ws, "chat")
    if wait is not None:
        raise rate_limited("chat", wait)


async def _account(service: GameService, conn: Connection) -> tuple[str, str] | None:
    """The logged-in account ``(id, username)`` of the connection's session cookie."""
    token = conn.ws.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 128 or conn.seat is not None:
        return None
    user = await service.write(user_of_session, service.storage.engine, token)
    return None if user is None else (user.id, user.username)


async def _handle(service: GameService, game_id: str, conn: Connection, frame: str | bytes) -> None:
    """Answer one message of a joined connection; errors become error frames."""
    ref = None
    try:
        raw = parse_json(_text(frame))
        ref = read_ref(raw)
        message = validate_message(raw)
        if isinstance(message, PingMessage):
            conn.send(dumps({"type": "pong"}))
        elif isinstance(message, HelloMessage):
            live = await service.get(game_id)
            conn.send(dumps({"type": "snapshot", "game": service.snapshot(live, conn.seat)}))
            await _send_chat(service, game_id, conn)
        elif isinstance(message, MoveMessage):
            await service.move(game_id, conn.seat, message.ply, message.move, message.ref, conn)
        elif isinstance(message, ChatMessage):
            _count_chat(conn)
            user = await _account(service, conn)
            await chat.post(service, game_id, conn.seat, message.text, message.name, user)
        elif isinstance(message, ChatSettingsMessage):
            _count_chat(conn)
            await chat.change_settings(service, game_id, conn.seat, message.chat_off, message.mute)
    except ApiError as exc:
        ws_error(conn, exc, ref)
    except TablierError as exc:  # what no route translated: as over REST, 422 bad_input
        ws_error(conn, ApiError(422, "bad_input", exc if str(exc) else type(exc).__name__), ref)
    except Exception as exc:  # a bug: answered like REST's 500, the socket kept
        log.error("internal error in a WebSocket message: %s", type(exc).__name__, exc_info=exc)
        ws_error(conn, ApiError(500, "internal_error", "internal server error"), ref)
