"""Players with an account: who a request's session cookie belongs to.

A visitor needs no account to play (a guest: a name kept in the browser, seats held by
capability tokens).  An account adds a username, a password (Argon2) and a login session:
the cookie :data:`SESSION_COOKIE` holds a random token whose SHA-256 is a row of the
``sessions`` table.  :func:`optional_user` is the dependency that reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends
from sqlalchemy import Table, select
from starlette.requests import HTTPConnection

from .deps import Service
from .live import hash_token
from .tables import SessionRow, UserRow

__all__ = ["SESSION_COOKIE", "OptionalUser", "UserRef", "optional_user", "user_of_session"]

#: The name of the login session's cookie.
SESSION_COOKIE = "tablier_session"

_users: Table = UserRow.__table__  # type: ignore[assignment]
_sessions: Table = SessionRow.__table__  # type: ignore[assignment]


@dataclass(frozen=True)
class UserRef:
    """A player with an account (``kind == "account"``) or an AI level (``kind == "ai"``)."""

    id: str
    username: str
    kind: str = "account"


def user_of_session(engine: Any, token: str) -> UserRef | None:
    """The user whose unexpired session has cookie ``token``, or None."""
    with engine.connect() as conn:
        row = conn.execute(
            select(_users.c.id, _users.c.username, _users.c.kind, _sessions.c.expires)
            .join(_sessions, _sessions.c.user_id == _users.c.id)
            .where(_sessions.c.token_hash == hash_token(token))
        ).first()
    if row is None:
        return None
    expires = row.expires if row.expires.tzinfo else row.expires.replace(tzinfo=UTC)
    if expires <= datetime.now(UTC):
        return None
    return UserRef(row.id, row.username, row.kind)


async def optional_user(conn: HTTPConnection, service: Service) -> UserRef | None:
    """The logged-in user of the request (its session cookie), or None for a guest."""
    token = conn.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 128:
        return None
    return await service.write(user_of_session, service.storage.engine, token)


OptionalUser = Annotated[UserRef | None, Depends(optional_user)]
