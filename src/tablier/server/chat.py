"""A game's chat: the players' room and the spectators' room.

Two rooms per game, as on lichess:

- ``players``: the two seats of a game between people.  While the game runs only they read
  it; once it is over anyone viewing the game reads it (the finished game's page is its
  review), the spectators included.
- ``spectators``: everyone else viewing the game (no token, or a seat of a game against the
  AI or on one screen, where there is nobody to talk to).  While the game runs the players do
  not read it (nothing said about the game reaches them); once it is over, they do.

Who writes where follows from the token, never from the request: a seat of a game between
people writes in ``players``, anyone else in ``spectators``, before and after the end.

A message is at most :data:`MAX_TEXT` characters once cleaned (:func:`clean_text`: control
and format characters removed, runs of spaces and line breaks made one space, trimmed) and
stored as such; it is sent as a JSON string and the client inserts it as text.  Sending is
rate-limited per client (the ``chat`` limit of :mod:`.ratelimit`).

A seat may **mute** the other (``games.mutes[seat]``): the other's messages are no longer
delivered to it, live or in the history (they are still stored, and shown to anyone else).
Either player may **turn the players' room off** (``games.chat_off``) and on again: while it
is off nobody writes in it; what was said stays.  The spectators' room is not affected.
Both settings change through :meth:`~.service.GameService._change` (the game's version
check) and reach the browsers in the snapshot (``chat_off``, ``muted``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from anyio import to_thread
from sqlalchemy import Engine, Table, insert, select

from .errors import ApiError
from .live import LiveGame, Prepared, iso
from .players import clean_name
from .storage import Change, now
from .tables import ChatRow

if TYPE_CHECKING:
    from .service import GameService

__all__ = [
    "HISTORY",
    "MAX_TEXT",
    "ROOMS",
    "audience",
    "clean_text",
    "history",
    "post",
    "prepare_settings",
    "readable_rooms",
    "room_of",
    "visible",
]

#: The rooms of a game.
ROOMS = ("players", "spectators")

#: The longest message kept (characters, once cleaned).
MAX_TEXT = 300

#: The most recent messages of each room sent on joining (older ones are not sent).
HISTORY = 100

_chat = cast(Table, ChatRow.__table__)

# Format characters kept: the zero-width joiner and non-joiner (emoji sequences, scripts
# that need them); the others (bidirectional overrides, invisible marks) are dropped.
_KEEP_FORMAT = {"\u200c", "\u200d"}


def clean_text(text: str) -> str:
    """A chat message as stored: control and format characters removed, white space runs
    made one space, trimmed.

    >>> clean_text("  hi\\n\\tthere\\u202e\\x00 ")
    'hi there'
    >>> clean_text("<script>alert(1)</script>")
    '<script>alert(1)</script>'
    """
    kept = []
    for c in text:
        if c.isspace():
            kept.append(" ")
            continue
        category = unicodedata.category(c)
        if category in ("Cc", "Cs", "Co", "Cn") or (category == "Cf" and c not in _KEEP_FORMAT):
            continue
        kept.append(c)
    return " ".join("".join(kept).split())


def room_of(live: LiveGame, seat: int | None) -> str:
    """The room ``seat`` writes in (see the module docstring)."""
    if live.mode == "online" and seat in (0, 1):
        return "players"
    return "spectators"


def readable_rooms(live: LiveGame, seat: int | None) -> tuple[str, ...]:
    """The rooms the holder of ``seat`` reads now."""
    if live.status != "active":
        return ROOMS
    return (room_of(live, seat),)


def _muted_by(live: LiveGame, seat: int | None) -> int | None:
    """The seat whose messages ``seat`` does not get (it muted it), or None."""
    if live.mode == "online" and seat in (0, 1) and live.mutes[seat]:
        return 1 - seat
    return None


def visible(live: LiveGame, seat: int | None, message: dict[str, Any]) -> bool:
    """Whether the holder of ``seat`` gets ``message`` (its room, the mutes)."""
    if message["room"] not in readable_rooms(live, seat):
        return False
    return not (message["room"] == "players" and message["seat"] == _muted_by(live, seat))


def audience(live: LiveGame, message: dict[str, Any]) -> set[int | None]:
    """The seats of the connections that get ``message`` (None: spectators)."""
    seats: list[int | None] = [0, 1, 2, None]
    return {s for s in seats if visible(live, s, message)}


def _message(row: Mapping[Any, Any]) -> dict[str, Any]:
    """A stored message as sent: ``{"id", "room", "seat", "name", "text", "time"}``."""
    return {
        "id": row["id"],
        "room": row["room"],
        "seat": row["seat"],
        "name": row["name"],
        "text": row["text"],
        "time": iso(row["created"]),
    }


def _store(engine: Engine, values: dict[str, Any]) -> dict[str, Any]:
    with engine.begin() as conn:
        key = conn.execute(insert(_chat).values(**values)).inserted_primary_key
    assert key is not None
    return _message({**values, "id": key[0]})


def _recent(engine: Engine, game_id: str, rooms: tuple[str, ...], limit: int) -> list[dict]:
    """The last ``limit`` messages of each of ``rooms``, oldest first."""
    out: list[dict] = []
    with engine.connect() as conn:
        for room in rooms:
            rows = conn.execute(
                select(_chat)
                .where(_chat.c.game_id == game_id, _chat.c.room == room)
                .order_by(_chat.c.id.desc())
                .limit(limit)
            ).mappings()
            out.extend(_message(r) for r in rows)
    out.sort(key=lambda m: m["id"])
    return out


async def history(service: GameService, live: LiveGame, seat: int | None) -> list[dict]:
    """The messages the holder of ``seat`` reads now (the last :data:`HISTORY` of each
    room), oldest first."""
    rooms = readable_rooms(live, seat)
    messages = await to_thread.run_sync(_recent, service.storage.engine, live.id, rooms, HISTORY)
    return [m for m in messages if visible(live, seat, m)]


def history_message(live: LiveGame, seat: int | None, messages: list[dict]) -> dict[str, Any]:
    """The ``chat_history`` message a connection gets on joining."""
    return {
        "type": "chat_history",
        "room": room_of(live, seat),
        "rooms": list(readable_rooms(live, seat)),
        "messages": messages,
    }


async def post(
    service: GameService,
    game_id: str,
    seat: int | None,
    text: str,
    name: str | None = None,
    user: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Store a message of ``seat`` in its room and send it to who reads it; answer it.

    ``user`` is the logged-in account ``(id, username)`` of a spectator (its username is
    the name shown); a guest spectator's ``name`` is its own choice (40 characters).
    """
    live = await service.get(game_id)
    room = room_of(live, seat)
    if room == "players" and live.chat_off:
        raise ApiError(409, "chat_off", "the players' chat is turned off in this game")
    cleaned = clean_text(text)
    if not cleaned:
        raise ApiError(422, "chat_empty", "the message is empty")
    if len(cleaned) > MAX_TEXT:
        raise ApiError(
            422, "chat_too_long", f"a message has at most {MAX_TEXT} characters", limit=MAX_TEXT
        )
    user_id = None
    if room == "players":
        assert seat is not None
        shown = live.names[seat]
        users = getattr(live, "users", None)
        user_id = users[seat] if users else None
    elif user is not None:
        user_id, shown = user
    else:
        shown = clean_name(name or "")
    values = {
        "game_id": live.id,
        "room": room,
        "seat": seat if room == "players" else None,
        "user_id": user_id,
        "name": shown,
        "text": cleaned,
        "created": now(),
    }
    message = await service.write(_store, service.storage.engine, values)
    live = service.current(live)
    service.broadcast(live.id, {"type": "chat", "message": message}, seats=audience(live, message))
    return message


def prepare_settings(
    live: LiveGame, seat: int | None, chat_off: bool | None, mute: bool | None
) -> Prepared:
    """The change of ``chat_off`` and of ``seat``'s mute (None: left as it is)."""
    if seat is None:
        raise ApiError(403, "not_your_seat", "this link does not hold a seat in this game")
    if live.mode != "online" or seat not in (0, 1):
        raise ApiError(409, "not_allowed", "the players' chat is for games between two people")
    values: dict[str, Any] = {}
    if chat_off is not None:
        values["chat_off"] = chat_off
    if mute is not None:
        mutes = list(live.mutes)
        mutes[seat] = mute
        values["mutes"] = mutes
    return Prepared(Change(values=values), "chat")


async def change_settings(
    service: GameService, game_id: str, seat: int | None, chat_off: bool | None, mute: bool | None
) -> LiveGame:
    """Turn the players' room off or on, mute or unmute the other seat; send the snapshot."""
    live = await service.get(game_id)
    live, _ = await service._change(live, lambda g: prepare_settings(g, seat, chat_off, mute))
    service.broadcast_snapshot(live)
    return live
