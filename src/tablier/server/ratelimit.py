"""Per-client rate limits against abuse, named and configured from the settings.

Each limit has a name (:data:`DEFAULT_RATE_LIMITS`: ``create_game``, ``ai_game``,
``challenge``, ``chat``, ``login``, ``signup``) and a value in the notation of the
`limits <https://limits.readthedocs.io>`_ library (``"20/minute"``, ``"10/10seconds"``,
several joined by ``;``: ``"5/minute;50/day"``), or ``"off"``.  ``Settings.rate_limits``
overrides the defaults name by name (a name it does not give keeps its default).

- **Counting.**  A *moving window* (the limits library's ``MovingWindowRateLimiter``): at
  most N hits in any period of the window's length, so a burst at the edge of a fixed window
  cannot double the rate.
- **Whose hits.**  The client's address, as :class:`~.ai.ClientAddress` sees it (the peer;
  behind a reverse proxy, the address uvicorn reads from ``X-Forwarded-For``, its
  ``proxy_headers`` being on): the address whose AI searches are counted too.  A caller may
  pass another key (a username for ``login``, say).
- **Where they are kept.**  In each server process's memory (the library's
  ``MemoryStorage``): nothing to set up, nothing shared.  With N processes behind a proxy
  that spreads requests, a client may get up to N times each limit; that is accepted, as
  these limits stop floods rather than count quotas.
- **The answer.**  :func:`rate_limit` makes a FastAPI dependency that answers
  ``429 rate_limited`` with a ``Retry-After`` header (whole seconds) and ``retry_after`` in
  the error body; :func:`hit` is the plain check for WebSocket messages (``None``: allowed;
  else the seconds to wait).

>>> limiter = RateLimiter({"chat": "2/minute"})
>>> limiter.hit("chat", "198.51.100.7") is None, limiter.hit("chat", "198.51.100.7") is None
(True, True)
>>> 59 < limiter.hit("chat", "198.51.100.7") <= 60
True
>>> limiter.hit("chat", "203.0.113.9") is None  # another client counts apart
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from .ai import current_client
from .errors import ApiError

__all__ = [
    "DEFAULT_RATE_LIMITS",
    "OFF",
    "RateLimiter",
    "check_limit",
    "client_key",
    "enforce",
    "hit",
    "limiter_of",
    "rate_limit",
    "rate_limited",
]

#: The named limits and their defaults (``Settings.rate_limits`` overrides them by name).
DEFAULT_RATE_LIMITS: dict[str, str] = {
    "create_game": "20/minute",  # POST /api/games (any mode) and rematches
    "ai_game": "10/minute",  # games against the AI, counted on top of create_game
    "challenge": "10/minute",  # posting a challenge
    "chat": "10/10seconds",  # chat messages
    "login": "10/minute",  # login attempts
    "signup": "5/hour",  # accounts created
}

#: The value that turns a named limit off.
OFF = "off"


def check_limit(text: str) -> list[RateLimitItem]:
    """The limits of one value (``[]`` for ``"off"``); ValueError when unreadable.

    >>> [str(item) for item in check_limit("5/minute; 50/day")]
    ['5 per 1 minute', '50 per 1 day']
    >>> check_limit("off")
    []
    >>> check_limit("often")
    Traceback (most recent call last):
    ...
    ValueError: couldn't parse rate limit string 'often'
    """
    text = text.strip()
    if text.lower() == OFF:
        return []
    return parse_many(text)


class RateLimiter:
    """The named limits of one server process and their counts (see the module docstring).

    ``limits`` overrides :data:`DEFAULT_RATE_LIMITS` by name; a name unknown to both is a
    ValueError when hit (a programming error, not a client's).
    """

    def __init__(self, limits: Mapping[str, str] | None = None) -> None:
        merged = {**DEFAULT_RATE_LIMITS, **(limits or {})}
        self.items: dict[str, list[RateLimitItem]] = {
            name: check_limit(text) for name, text in merged.items()
        }
        self.storage = MemoryStorage()
        self.strategy = MovingWindowRateLimiter(self.storage)

    def hit(self, name: str, key: str) -> float | None:
        """Count one hit of ``key`` against the limit ``name``.

        Answers None when it is allowed (and counted), else the seconds until it would be
        (the hit is not counted: a refused request does not push the wait further).
        """
        items = self.items.get(name)
        if items is None:
            raise ValueError(f"no rate limit is named {name!r}")
        # On the event loop, nothing runs between the tests and the hits below.
        wait = 0.0
        for item in items:
            if not self.strategy.test(item, name, key):
                stats = self.strategy.get_window_stats(item, name, key)
                wait = max(wait, stats.reset_time - time.time(), 0.001)
        if wait > 0:
            return wait
        for item in items:
            self.strategy.hit(item, name, key)
        return None

    def reset(self) -> None:
        """Forget every count (tests)."""
        self.storage.reset()


def limiter_of(conn: HTTPConnection) -> RateLimiter:
    """The application's limiter (``app.state.rate_limiter``; made from its settings at the
    first use when the application did not make one)."""
    state = conn.app.state
    limiter = getattr(state, "rate_limiter", None)
    if limiter is None:
        settings = getattr(state, "settings", None)
        limiter = RateLimiter(settings.rate_limits if settings is not None else None)
        state.rate_limiter = limiter
    return limiter


def client_key(conn: HTTPConnection) -> str:
    """The client's address: the one :class:`~.ai.ClientAddress` set for this request (the
    peer, or behind a proxy the forwarded address), else the connection's own."""
    client = current_client.get()
    if client is None and conn.client is not None:
        client = conn.client.host
    return client or "-"


def rate_limited(name: str, wait: float) -> ApiError:
    """The ``429 rate_limited`` error for a wait of ``wait`` seconds."""
    seconds = max(1, math.ceil(wait))
    return ApiError(
        429,
        "rate_limited",
        f"too many requests ({name}): try again in {seconds} s",
        headers={"Retry-After": str(seconds)},
        limit=name,
        retry_after=seconds,
    )


def hit(conn: HTTPConnection, name: str, key: str | None = None) -> float | None:
    """Count a hit of the limit ``name`` for ``key`` (default: the client's address) in the
    application of ``conn`` (a request or a WebSocket).  None: allowed; else seconds to wait.

    A WebSocket message that is refused is answered with the ``error`` message of
    :func:`rate_limited` (``code`` ``rate_limited``, ``retry_after``).
    """
    return limiter_of(conn).hit(name, client_key(conn) if key is None else key)


def enforce(conn: HTTPConnection, name: str, key: str | None = None) -> None:
    """:func:`hit`, raising ``429 rate_limited`` (:func:`rate_limited`) past the limit."""
    wait = hit(conn, name, key)
    if wait is not None:
        raise rate_limited(name, wait)


def rate_limit(name: str) -> Callable[[HTTPConnection], Coroutine[Any, Any, None]]:
    """A FastAPI dependency that counts a hit of ``name`` for the request's client and
    refuses it with ``429 rate_limited`` and ``Retry-After`` past the limit.

    Use it as ``dependencies=[Depends(rate_limit("create_game"))]``.
    """
    if name not in DEFAULT_RATE_LIMITS:
        raise ValueError(f"no rate limit is named {name!r}")

    async def dependency(conn: HTTPConnection) -> None:
        enforce(conn, name)

    dependency.__name__ = f"rate_limit_{name}"
    return dependency
