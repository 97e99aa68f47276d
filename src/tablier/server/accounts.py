"""Players with an account: passwords, login sessions, CSRF protection and the AI's users.

A visitor needs no account to play (a guest: a name kept in the browser, seats held by
capability tokens).  An account adds a username, a password (Argon2id, argon2-cffi) and a
login session: the cookie :data:`SESSION_COOKIE` holds a random token whose SHA-256 is a row
of the ``sessions`` table, with its expiry.  :func:`optional_user` is the dependency that
reads it, :func:`require_user` the one that insists on it.

**CSRF.**  A request that the session cookie authenticates could be sent by another site
from the user's browser; every such state change is protected by a double-submit token:
the cookie :data:`CSRF_COOKIE` (random, readable by the page's script, ``SameSite=Lax``) is
sent back by the client in the header :data:`CSRF_HEADER`, and :func:`check_csrf` compares
the two with :func:`hmac.compare_digest`.  Another site can make the browser send the
cookie but can neither read it nor set the header.  A request the browser marks
``Sec-Fetch-Site: cross-site`` is refused as well.  :func:`csrf_protect` is the dependency
for routes that always need it (log in, sign up, log out, claim, seat tokens); a route that
a seat's Bearer token authenticates needs none, unless it also acts for the logged-in user
(:func:`check_csrf` called when there is one).

**The AI levels** are players: :func:`ensure_ai_users` inserts one ``users`` row per level
(id ``ai-<level>``, username ``AI-<level>``, kind ``"ai"``) at start-up, tolerating the
rows another process inserted meanwhile.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Depends
from sqlalchemy import Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection
from starlette.responses import Response

from .deps import Service, get_settings
from .errors import ApiError
from .live import LiveGame, Prepared, hash_token
from .players import AI_ID_PREFIX, ai_user_id, ai_username
from .storage import Change, now
from .tables import SessionRow, UserRow

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "SESSION_COOKIE",
    "CurrentUser",
    "OptionalUser",
    "UserRef",
    "check_csrf",
    "check_password",
    "check_username",
    "csrf_protect",
    "ensure_ai_users",
    "optional_user",
    "prepare_seat_user",
    "require_user",
    "user_of_session",
]

#: The name of the login session's cookie.
SESSION_COOKIE = "tablier_session"
#: The double-submit CSRF cookie (readable by the page's script) and the header echoing it.
CSRF_COOKIE = "tablier_csrf"
CSRF_HEADER = "x-csrf-token"

#: Password lengths accepted (characters): long enough to resist guessing, short enough
#: that hashing one costs a bounded time.
PASSWORD_MIN = 8
PASSWORD_MAX = 256

_USERNAME = re.compile(r"^[A-Za-z0-9_-]{3,20}$")

_users: Table = UserRow.__table__  # type: ignore[assignment]
_sessions: Table = SessionRow.__table__  # type: ignore[assignment]

_hasher = PasswordHasher()
#: Verified when the username is unknown, so that a wrong username costs the time of a
#: wrong password (no telling which usernames exist from the time taken).
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


@dataclass(frozen=True)
class UserRef:
    """A player with an account (``kind == "account"``) or an AI level (``kind == "ai"``)."""

    id: str
    username: str
    kind: str = "account"

    def json(self) -> dict[str, str]:
        """``{"id", "username", "kind"}``."""
        return {"id": self.id, "username": self.username, "kind": self.kind}


# -- checks -------------------------------------------------------------------------


def check_username(username: str) -> str:
    """``username`` if it is 3–20 letters, digits, ``_`` or ``-`` (not ``ai-…``), else
    ``422 bad_username``.

    >>> check_username("ann_lee")
    'ann_lee'
    >>> check_username("a b")
    Traceback (most recent call last):
    ...
    tablier.server.errors.ApiError: a username is 3 to 20 letters, digits, '_' or '-'
    """
    if not _USERNAME.match(username):
        raise ApiError(422, "bad_username", "a username is 3 to 20 letters, digits, '_' or '-'")
    if username.lower().startswith(AI_ID_PREFIX):
        raise ApiError(422, "bad_username", "usernames starting with 'ai-' are the computer's")
    return username


def check_password(password: str) -> str:
    """``password`` if it has 8 to 256 characters, else ``422 bad_password``."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            422,
            "bad_password",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
            min=PASSWORD_MIN,
            max=PASSWORD_MAX,
        )
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (tens of milliseconds: call it off the loop)."""
    return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash (a dummy hash when None)."""
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was hashed with other parameters than today's."""
    return _hasher.check_needs_rehash(stored)


# -- users and sessions (synchronous: run them through service.write) ---------------


def create_user(engine: Any, username: str, password_hash: str) -> UserRef:
    """Insert an account; ``409 username_taken`` when the username (any case) exists."""
    user = UserRef(secrets.token_urlsafe(12), username)
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(_users).values(
                    id=user.id,
                    username=username,
                    username_key=username.lower(),
                    password_hash=password_hash,
                    kind="account",
                    created=now(),
                )
            )
    except IntegrityError:
        raise ApiError(409, "username_taken", "this username is taken") from None
    return user


def find_user(engine: Any, username: str) -> tuple[UserRef, str | None, datetime] | None:
    """The user named ``username`` (any case), its password hash and creation time."""
    with engine.connect() as conn:
        row = conn.execute(
            select(
                _users.c.id,
                _users.c.username,
                _users.c.kind,
                _users.c.password_hash,
                _users.c.created,
            ).where(_users.c.username_key == username.lower())
        ).first()
    if row is None:
        return None
    return UserRef(row.id, row.username, row.kind), row.password_hash, row.created


def set_password_hash(engine: Any, user_id: str, password_hash: str) -> None:
    """Replace a user's password hash (a rehash with today's parameters)."""
    with engine.begin() as conn:
        conn.execute(
            update(_users).where(_users.c.id == user_id).values(password_hash=password_hash)
        )


def create_session(engine: Any, user_id: str, days: float) -> str:
    """A new login session of ``user_id``: its cookie token (the database keeps its hash).

    The user's expired sessions are deleted on the way.
    """
    token = secrets.token_urlsafe(32)
    stamp = now()
    with engine.begin() as conn:
        conn.execute(
            delete(_sessions).where(_sessions.c.user_id == user_id, _sessions.c.expires <= stamp)
        )
        conn.execute(
            insert(_sessions).values(
                token_hash=hash_token(token),
                user_id=user_id,
                created=stamp,
                expires=stamp + timedelta(days=days),
            )
        )
    return token


def delete_session(engine: Any, token: str) -> None:
    """Forget the login session of cookie ``token`` (logging out)."""
    with engine.begin() as conn:
        conn.execute(delete(_sessions).where(_sessions.c.token_hash == hash_token(token)))


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


def ensure_ai_users(engine: Any, levels: Iterable[str]) -> int:
    """Insert the ``users`` row of every AI level that has none; return how many were added.

    Idempotent, and safe with several processes starting together: a row another process
    inserted first (the primary key or the username's unique key refusing ours) is fine.
    """
    added = 0
    for level in levels:
        user_id, username = ai_user_id(level), ai_username(level)
        with engine.connect() as conn:
            found = conn.execute(select(_users.c.id).where(_users.c.id == user_id)).first()
        if found is not None:
            continue
        try:
            with engine.begin() as conn:
                conn.execute(
                    insert(_users).values(
                        id=user_id,
                        username=username,
                        username_key=username.lower(),
                        password_hash=None,
                        kind="ai",
                        created=now(),
                    )
                )
            added += 1
        except IntegrityError:
            pass  # another process was first
    return added


# -- cookies and CSRF -----------------------------------------------------------------


def _secure(conn: HTTPConnection) -> bool:
    return bool(get_settings(conn).secure_cookies) or conn.url.scheme in ("https", "wss")


def set_session_cookie(response: Response, conn: HTTPConnection, token: str) -> None:
    """Set the login session's cookie (HttpOnly, SameSite=Lax, Secure over https)."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(get_settings(conn).session_days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(conn),
    )


def clear_session_cookie(response: Response, conn: HTTPConnection) -> None:
    """Delete the login session's cookie."""
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(conn)
    )


def csrf_token(conn: HTTPConnection) -> tuple[str, bool]:
    """The request's CSRF token and whether it is new (to be set as the cookie)."""
    token = conn.cookies.get(CSRF_COOKIE) or ""
    if re.fullmatch(r"[A-Za-z0-9_-]{32,64}", token):
        return token, False
    return secrets.token_urlsafe(32), True


def set_csrf_cookie(response: Response, conn: HTTPConnection, token: str) -> None:
    """Set the CSRF cookie (readable by the page's script: not HttpOnly)."""
    response.set_cookie(
        CSRF_COOKIE,
        token,
        max_age=365 * 86400,
        path="/",
        httponly=False,
        samesite="lax",
        secure=_secure(conn),
    )


def check_csrf(conn: HTTPConnection) -> None:
    """Refuse (``403 csrf_failed``) a request whose CSRF header does not match its cookie,
    or that the browser says comes from another site."""
    if conn.headers.get("sec-fetch-site", "").lower() == "cross-site":
        raise ApiError(403, "csrf_failed", "a request from another site")
    cookie = conn.cookies.get(CSRF_COOKIE) or ""
    header = conn.headers.get(CSRF_HEADER) or ""
    if not cookie or not header or len(header) > 128:
        raise ApiError(
            403,
            "csrf_failed",
            f"this needs the {CSRF_HEADER} header echoing the {CSRF_COOKIE} cookie",
        )
    if not hmac.compare_digest(cookie.encode(), header.encode()):
        raise ApiError(403, "csrf_failed", f"the {CSRF_HEADER} header does not match the cookie")


async def csrf_protect(conn: HTTPConnection) -> None:
    """Dependency: the CSRF check of :func:`check_csrf` (cookie-authenticated changes)."""
    check_csrf(conn)


# -- who is asking --------------------------------------------------------------------


def _session_token(conn: HTTPConnection) -> str | None:
    token = conn.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 128:
        return None
    return token


async def optional_user(conn: HTTPConnection, service: Service) -> UserRef | None:
    """The logged-in user of the request (its session cookie), or None for a guest."""
    token = _session_token(conn)
    if token is None:
        return None
    return await service.write(user_of_session, service.storage.engine, token)


async def require_user(user: Annotated[UserRef | None, Depends(optional_user)]) -> UserRef:
    """The logged-in user, else ``401 login_required``."""
    if user is None:
        raise ApiError(401, "login_required", "log in first")
    return user


OptionalUser = Annotated[UserRef | None, Depends(optional_user)]
CurrentUser = Annotated[UserRef, Depends(require_user)]


# -- seats ------------------------------------------------------------------------------


def prepare_seat_user(
    live: LiveGame, seat: int, user: UserRef | None, name: str
) -> Prepared | None:
    """The change that names ``seat`` (an account: links it and names it by its username);
    None when there is nothing to change.  ``409 seat_taken`` when another account holds it.
    """
    users = list(live.users)
    names = list(live.names)
    current = users[seat]
    if user is not None:
        if current is not None and current != user.id:
            raise ApiError(409, "seat_taken", "another player's account holds this seat")
        users[seat], names[seat] = user.id, user.username
    elif current is not None:
        return None  # an account's seat keeps its username
    else:
        names[seat] = name
    if users == live.users and names == live.names:
        return None
    return Prepared(Change(values={"users": users, "names": names}), "players")
