"""The messages of the web API: REST bodies, WebSocket messages and the error body.

One set of pydantic models for both transports: a WebSocket ``move`` message is a REST
:class:`MoveBody` with a ``type`` and a ``ref``.  Every model forbids unknown fields and
checks types strictly (``"1"`` is no ply, ``true`` is no number); :func:`read_message` reads
one WebSocket text frame whatever it holds, raising :class:`~.errors.ApiError`
(``bad_message``) for anything that is not a valid message.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pydantic_core
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from .errors import ApiError, describe

__all__ = [
    "MAX_MESSAGE",
    "AcceptBody",
    "AnyMessage",
    "ChallengeBody",
    "ChatBody",
    "ChatMessage",
    "ChatSettingsBody",
    "ChatSettingsMessage",
    "ClaimBody",
    "ClientMessage",
    "ClockSpec",
    "ConditionalsBody",
    "CorrespondenceClock",
    "CreateGame",
    "Credentials",
    "ErrorBody",
    "GameSeat",
    "HelloMessage",
    "JoinBody",
    "LiveClock",
    "MoveBody",
    "MoveMessage",
    "OfferBody",
    "PingMessage",
    "RecordBody",
    "TurnsBody",
    "error_responses",
    "parse_json",
    "read_message",
    "read_ref",
    "validate_message",
]

#: The largest WebSocket message read (characters); uvicorn refuses larger frames.
MAX_MESSAGE = 65536

Text = Annotated[StrictStr, Field(max_length=100)]
OptionValue = (
    StrictBool
    | StrictInt
    | Annotated[StrictFloat, Field(allow_inf_nan=False)]
    | Annotated[StrictStr, Field(max_length=100)]
    | None
)
#: A client's tag for a WebSocket request, echoed on the answer.
Ref = (
    Annotated[StrictInt, Field(ge=-(2**53), le=2**53)]
    | Annotated[StrictFloat, Field(allow_inf_nan=False)]
    | Annotated[StrictStr, Field(max_length=100)]
    | None
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class LiveClock(_Strict):
    """A live time control: ``base`` seconds each, ``increment`` seconds added per turn."""

    kind: Literal["live"]
    base: Annotated[StrictInt, Field(ge=0, le=10_800)]
    increment: Annotated[StrictInt, Field(ge=0, le=180)] = 0


class CorrespondenceClock(_Strict):
    """A correspondence time control: ``days`` for each turn."""

    kind: Literal["correspondence"]
    days: Annotated[StrictInt, Field(ge=1, le=14)]


#: A game's time control (``docs/web.md``, Clocks).
ClockSpec = Annotated[LiveClock | CorrespondenceClock, Field(discriminator="kind")]


class CreateGame(_Strict):
    """``POST /api/games``."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"game": "volo", "mode": "online", "names": ["Ann", "Bob"]},
                {"game": "xobo", "mode": "local", "options": {}},
                {
                    "game": "volo",
                    "mode": "online",
                    "clock": {"kind": "live", "base": 300, "increment": 3},
                },
            ]
        }
    )

    game: Annotated[str, Field(min_length=1, max_length=40)]
    options: Annotated[
        dict[Annotated[str, Field(min_length=1, max_length=40)], OptionValue],
        Field(max_length=20),
    ] = {}
    mode: Literal["online", "ai", "local"] = "online"
    seat: Annotated[StrictInt, Field(ge=0, le=1)] = 0
    ai_level: Annotated[str, Field(max_length=20)] | None = None
    names: Annotated[list[Annotated[str, Field(max_length=100)]], Field(max_length=2)] = []
    clock: ClockSpec | None = None
    # the players' chat turned off from the start (a game between people; either may reopen it)
    chat_off: StrictBool = False


class MoveBody(_Strict):
    """``POST /api/games/<id>/moves``: the decision ``move`` at ``ply``."""

    ply: Annotated[int, Field(ge=0, le=1_000_000)]
    move: Annotated[str, Field(min_length=1, max_length=200)]


class OfferBody(_Strict):
    """``POST /api/games/<id>/offers``."""

    kind: Literal["draw", "undo"]
    action: Literal["offer", "accept", "decline"]


class JoinBody(_Strict):
    """``POST /api/games/<id>/join``: the name of the seat's player (a guest's)."""

    name: Annotated[str, Field(max_length=100)] = ""


class Credentials(_Strict):
    """``POST /api/account/signup`` and ``/login`` (lengths checked by the routes, which
    answer ``bad_username`` / ``bad_password``)."""

    username: Annotated[str, Field(max_length=100)]
    password: Annotated[str, Field(max_length=1000)]


class ClaimSeat(_Strict):
    """One seat a browser holds: its game and token."""

    game: Annotated[str, Field(min_length=1, max_length=32)]
    token: Annotated[str, Field(min_length=1, max_length=200)]


class ClaimBody(_Strict):
    """``POST /api/account/claim``: the seats to link to the logged-in account."""

    seats: Annotated[list[ClaimSeat], Field(max_length=200)]


class ChallengeBody(_Strict):
    """``POST /api/challenges``: a game offered to anyone, or to the player ``target``."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game": "volo",
                    "options": {"board": "mini"},
                    "clock": {"kind": "live", "base": 300, "increment": 3},
                    "rated": False,
                    "colour": "random",
                    "name": "Ann",
                }
            ]
        }
    )

    game: Annotated[str, Field(min_length=1, max_length=40)]
    options: Annotated[
        dict[Annotated[str, Field(min_length=1, max_length=40)], OptionValue],
        Field(max_length=20),
    ] = {}
    clock: ClockSpec | None = None
    rated: StrictBool = False
    colour: Literal["0", "1", "random"] = "random"
    target: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    name: Annotated[str, Field(max_length=100)] = ""


class AcceptBody(_Strict):
    """``POST /api/challenges/<id>/accept``: the acceptor's name (a guest's)."""

    name: Annotated[str, Field(max_length=100)] = ""


class GameSeat(_Strict):
    """A game and, optionally, the token of a seat held in it."""

    id: Annotated[str, Field(min_length=1, max_length=32)]
    token: Annotated[str, Field(min_length=1, max_length=200)] | None = None


class TurnsBody(_Strict):
    """``POST /api/turns``: the games of a browser's list (whose turn in each)."""

    games: Annotated[list[GameSeat], Field(max_length=50)]


class RecordBody(_Strict):
    """``POST /api/records/parse``."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"text": '[Game "xobo"]\n\n1. a1 ; b1\n*\n'}]}
    )

    text: Annotated[str, Field(min_length=1, max_length=60_000)]


class ChatBody(_Strict):
    """``POST /api/games/<id>/chat``: a message (its room follows from the token; ``name``
    is a guest spectator's)."""

    text: Annotated[StrictStr, Field(min_length=1, max_length=1000)]
    name: Annotated[StrictStr, Field(max_length=100)] | None = None


class ChatSettingsBody(_Strict):
    """``POST /api/games/<id>/chat/settings``: turn the players' chat off or on, mute or
    unmute the other seat (a field left out is left as it is)."""

    chat_off: StrictBool | None = None
    mute: StrictBool | None = None


#: One decision of a conditional line, in notation.
Decision = Annotated[StrictStr, Field(min_length=1, max_length=200)]


class ConditionalsBody(_Strict):
    """``PUT /api/games/<id>/conditionals``: the seat's lines from the position at ``ply``
    (their decision(s), my reply, theirs…); at most 20 lines of 2 to 10 decisions."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"ply": 3, "lines": [["c3", "d4"], ["b2", "b3"]]}]}
    )

    ply: Annotated[int, Field(ge=0, le=1_000_000)]
    lines: Annotated[
        list[Annotated[list[Decision], Field(min_length=2, max_length=10)]], Field(max_length=20)
    ]


class HelloMessage(_Strict):
    """WebSocket: the first message (and a request for a fresh snapshot later)."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)] | None = None
    ref: Ref = None


class MoveMessage(MoveBody):
    """WebSocket: a move, with the same fields and checks as :class:`MoveBody`."""

    type: Literal["move"]
    ref: Ref = None


class PingMessage(_Strict):
    """WebSocket: answered ``pong``."""

    type: Literal["ping"]
    ref: Ref = None


class ChatMessage(ChatBody):
    """WebSocket: a chat message, the fields and checks of :class:`ChatBody`."""

    type: Literal["chat"]
    ref: Ref = None


class ChatSettingsMessage(ChatSettingsBody):
    """WebSocket: the chat settings, the fields and checks of :class:`ChatSettingsBody`."""

    type: Literal["chat_settings"]
    ref: Ref = None


#: Every message a client may send.
AnyMessage = HelloMessage | MoveMessage | PingMessage | ChatMessage | ChatSettingsMessage
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]

_client_message: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)
_ref: TypeAdapter[Any] = TypeAdapter(Ref)


class ErrorDetail(BaseModel):
    """The error object: a stable ``code`` and a message for people."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str
    ply: int | None = Field(None, description="where it applies: the game's or the record's")


class ErrorBody(BaseModel):
    """Every error answer: ``{"error": {"code", "message", ...}}``."""

    error: ErrorDetail


def read_ref(raw: Any) -> Any:
    """The ``ref`` of a raw message if it is a valid one, else None (for error frames)."""
    if not isinstance(raw, dict):
        return None
    try:
        return _ref.validate_python(raw.get("ref"))
    except ValidationError:
        return None


def parse_json(text: str) -> Any:
    """The JSON value of a WebSocket text frame (``bad_message`` if it is none)."""
    if len(text) > MAX_MESSAGE:
        raise ApiError(413, "message_too_large", "the message exceeds 64 KiB")
    try:
        return pydantic_core.from_json(text)
    except (ValueError, TypeError) as exc:
        reason = str(exc).split(" at line", 1)[0][:100]
        raise ApiError(422, "bad_message", f"the message is not JSON ({reason})") from None


def validate_message(raw: Any) -> AnyMessage:
    """The client message that the JSON value ``raw`` is (``bad_message`` if it is none)."""
    if not isinstance(raw, dict):
        raise ApiError(422, "bad_message", "a message is a JSON object with a 'type'")
    try:
        return _client_message.validate_python(raw)
    except ValidationError as exc:
        raise ApiError(422, "bad_message", describe(exc)) from None


def read_message(text: str) -> AnyMessage:
    """Read one WebSocket text frame as a client message, whatever it holds.

    >>> read_message('{"type": "ping", "ref": 3}')
    PingMessage(type='ping', ref=3)
    >>> read_message('[' * 5000)
    Traceback (most recent call last):
    ...
    tablier.server.errors.ApiError: the message is not JSON (recursion limit exceeded)
    """
    return validate_message(parse_json(text))


#: What each error status means, for the OpenAPI description (the codes: docs/web.md).
_STATUS_TEXT = {
    401: "no token, or an Authorization header that is not 'Bearer <token>'; not logged in; "
    "a wrong username or password",
    403: "the token holds no seat of this game, or not the seat to decide; a CSRF check failed",
    404: "no such game",
    409: "the game moved on, or the request does not fit its state; a username taken",
    410: "the game is over",
    413: "the body (or the record) is too large",
    422: "the body or query fails validation, or the engine refuses it",
    429: "the client already has as many AI searches under way as it may",
    500: "the server failed (a game's rules that the engine refuses, …); the log says why",
    503: "the AI is off on this server",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may answer the error ``statuses`` (and 413, which
    the body limit answers on every route)."""
    return {
        status: {"model": ErrorBody, "description": _STATUS_TEXT[status]}
        for status in sorted({*statuses, 413})
    }
