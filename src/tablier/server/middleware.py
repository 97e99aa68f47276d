"""What wraps every request: the body size limit, the security headers, the log filter.

:class:`Limits` is a pure ASGI middleware: it refuses a body over ``max_body`` bytes with
``413 body_too_large`` before the application runs (with or without a ``Content-Length``)
and adds :data:`SECURITY_HEADERS` to every HTTP response.  :class:`RedactQuery` takes query
strings out of uvicorn's log lines (the access log and the WebSocket lines of
``uvicorn.error``), so that a token a client puts in a URL never reaches a log, and drops the
WebSocket frame dumps of the debug level (a ``hello`` frame holds a token).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from .errors import ApiError

__all__ = ["SECURITY_HEADERS", "Limits", "RedactQuery", "install_log_filter", "strip_query"]

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; "
        b"img-src 'self' data: blob:; connect-src 'self' ws: wss:; object-src 'none'; "
        b"base-uri 'none'; frame-ancestors 'none'",
    ),
]

#: The loggers whose lines may hold a request's path.
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


class Limits:
    """Pure ASGI middleware: the body size limit (413) and the security headers."""

    def __init__(self, app: Any, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    length = int(value) if len(value) < 20 else self.max_body + 1
                except ValueError:
                    length = self.max_body + 1
                if length > self.max_body:
                    await _too_large(send, self.max_body)
                    return
        # Read the whole body first (it is small): too large is answered before the app runs.
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                chunks = []
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                await _too_large(send, self.max_body)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> dict:
            if pending:
                return pending.pop()
            return await receive()

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, replay, send_with_headers)


async def _too_large(send: Any, limit: int) -> None:
    body = json.dumps(
        ApiError(413, "body_too_large", f"the request body exceeds {limit} bytes").body()
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def strip_query(text: str) -> str:
    """A request line or path without its query string and fragment.

    >>> strip_query("/ws/games/abc?token=secret")
    '/ws/games/abc'
    >>> strip_query("GET /api/games?limit=3 HTTP/1.1")
    'GET /api/games HTTP/1.1'
    """
    out = []
    for word in text.split(" "):
        if word.startswith("/") or "://" in word:
            word = word.split("?", 1)[0].split("#", 1)[0]
        out.append(word)
    return " ".join(out)


#: The debug lines in which the WebSocket library dumps frames (``websockets``, which uvicorn
#: hands its ``uvicorn.error`` logger).
_FRAME_LINES = frozenset({"< %s", "> %s"})


class RedactQuery(logging.Filter):
    """Drop query strings from uvicorn's log lines: no secret can travel in one anyway."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in _FRAME_LINES:
            return False  # a WebSocket frame's content (debug level): a hello holds a token
        args = record.args
        if isinstance(args, tuple) and args:
            record.args = tuple(strip_query(a) if isinstance(a, str) else a for a in args)
        if isinstance(record.msg, str) and "?" in record.msg:
            record.msg = strip_query(record.msg)
        return True


def install_log_filter() -> None:
    """Install :class:`RedactQuery` on uvicorn's loggers (once each)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactQuery) for f in logger.filters):
            logger.addFilter(RedactQuery())
