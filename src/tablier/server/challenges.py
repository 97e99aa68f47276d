"""Challenges: finding an opponent in the lobby, and the expiry of what nobody takes.

A **challenge** is a game offered to anyone (an *open* challenge) or to one player with an
account (a *direct* challenge): the game and its options, a clock, rated or casual, and the
poster's side (``"0"``, ``"1"`` or ``"random"``).  Its life:

- **posted** (``open``): the poster gets the challenge and an *owner token* (192 random bits,
  only its SHA-256 is stored in ``challenges.owner_hash``).  The owner token cancels the
  challenge, and once the challenge is accepted it **is the poster's seat token**: the new
  game's seat of the poster is given that hash, so the poster's browser, which alone holds
  the owner token, learns nothing secret from the server afterwards — it polls
  ``GET /api/challenges/<id>`` until ``game_id`` is set and opens the game with the token it
  already has.  An account may post it with its session cookie too (rated challenges need one).
- **accepted** exactly once: the acceptor's request first claims the row with
  ``UPDATE challenges SET status='accepted' WHERE id=… AND status='open' AND expires > now``
  — the database lets one request (of any server process) match it, the others are answered
  ``409 challenge_taken`` — then creates the game through :meth:`GameService.create
  <tablier.server.service.GameService.create>` with both seats' accounts, the clock and
  ``rated``, and finally writes the game's id on the challenge.  Should the creation fail,
  the challenge is opened again.
- **cancelled** by its poster, **declined** by the target of a direct challenge, or
  **expired**: nobody took it before ``expires`` (``Settings.challenge_expiry`` seconds for
  live and untimed open challenges, ``challenge_expiry_long`` for correspondence and direct
  ones).  Reads check ``expires`` themselves (an expired challenge is never listed nor
  accepted, even before the sweep marks it).

**Unstarted games.**  A game between two people (mode ``online``: a link game, a rematch,
an accepted challenge) is created with ``games.expires`` set ``Settings.game_expiry``
seconds ahead; the first decision of the second seat to decide clears it (both seats have
then played: the game has started).  The sweep aborts an active game past its ``expires``:
status ``"aborted"``, ``decided`` ``"expired"``, no result — a change like any other, through
the game service's version-checked path, so that of several processes one applies it.

:func:`sweep` runs both expiries with bounded queries (:data:`SWEEP_BATCH` rows at a time);
:func:`sweep_forever` calls it every ``Settings.sweep_interval`` seconds in each server
process (the conditional ``UPDATE`` and the version check make concurrent sweeps harmless).
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from anyio import to_thread
from sqlalchemy import Engine, Table, and_, or_, select, update
from sqlalchemy.orm import aliased

from .. import games as registry
from ..core.errors import TablierError
from .errors import ApiError
from .live import LiveGame, hash_token, iso
from .players import clean_name
from .storage import now
from .tables import ChallengeRow, GameRow, RatingRow, UserRow

if TYPE_CHECKING:
    from .accounts import UserRef
    from .service import GameService

__all__ = [
    "LIST_MAX",
    "OPEN_PER_ACCOUNT",
    "SWEEP_BATCH",
    "ChallengeStore",
    "accept",
    "cancel",
    "decline",
    "post",
    "public",
    "read",
    "sweep",
    "sweep_forever",
    "variant_of",
]

log = logging.getLogger("tablier.server")

_challenges = cast(Table, ChallengeRow.__table__)
_games = cast(Table, GameRow.__table__)
_users = cast(Table, UserRow.__table__)
_ratings = cast(Table, RatingRow.__table__)

#: The most challenges one listing answers.
LIST_MAX = 100
#: The most open challenges an account may have at once.
OPEN_PER_ACCOUNT = 10
#: The most rows one sweep query touches.
SWEEP_BATCH = 500


def new_challenge_id() -> str:
    """A fresh challenge id (72 random bits, URL-safe)."""
    return secrets.token_urlsafe(9)


def username_key(username: str) -> str:
    """A username folded for comparisons (``users.username_key``)."""
    return username.strip().lower()


@functools.lru_cache(maxsize=256)
def variant_of(spec: str) -> str | None:
    """The key of the declared variant whose options give ``spec`` (None: none does).

    >>> variant_of("volo:board=mini,edition=current,setup=nests,supply=50")
    'mini'
    """
    try:
        variant = registry.from_spec(spec).variant()
    except TablierError:
        return None
    return None if variant is None else variant.key


@functools.lru_cache(maxsize=256)
def _describe(spec: str) -> tuple[str, dict[str, Any]]:
    """The title and options of a game spec (a game removed since: its name, no options)."""
    try:
        game = registry.from_spec(spec)
    except TablierError:
        return spec.split(":", 1)[0], {}
    return str(game.title), dict(game.options)


class ChallengeStore:
    """The ``challenges`` table (synchronous SQLAlchemy Core: called off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def insert(self, row: dict[str, Any]) -> None:
        """Store a new challenge."""
        with self.engine.begin() as conn:
            conn.execute(_challenges.insert().values(**row))

    def count_open(self, user_id: str, moment: Any) -> int:
        """How many unexpired open challenges account ``user_id`` has."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_challenges.c.id)
                .where(
                    _challenges.c.user_id == user_id,
                    _challenges.c.status == "open",
                    _challenges.c.expires > moment,
                )
                .limit(OPEN_PER_ACCOUNT + 1)
            ).all()
        return len(rows)

    def _select(self) -> Any:
        poster = aliased(_users, name="poster")
        target = aliased(_users, name="target_user")
        return (
            select(
                _challenges,
                poster.c.username.label("poster_username"),
                target.c.username.label("target_username"),
                _ratings.c.rating.label("rating"),
                _ratings.c.rd.label("rd"),
            )
            .outerjoin(poster, poster.c.id == _challenges.c.user_id)
            .outerjoin(target, target.c.id == _challenges.c.target)
            .outerjoin(
                _ratings,
                and_(
                    _ratings.c.user_id == _challenges.c.user_id,
                    _ratings.c.pool == _challenges.c.spec,
                ),
            )
        )

    def get(self, challenge_id: str) -> dict[str, Any] | None:
        """The challenge (with its poster's and target's usernames and rating), or None."""
        with self.engine.connect() as conn:
            row = (
                conn.execute(self._select().where(_challenges.c.id == challenge_id))
                .mappings()
                .first()
            )
        return None if row is None else dict(row)

    def listing(self, user_id: str | None, moment: Any, limit: int) -> list[dict[str, Any]]:
        """Unexpired open challenges: those open to anyone, and those to or from ``user_id``;
        newest first."""
        whose: Any = _challenges.c.target.is_(None)
        if user_id is not None:
            whose = or_(whose, _challenges.c.target == user_id, _challenges.c.user_id == user_id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                self._select()
                .where(_challenges.c.status == "open", _challenges.c.expires > moment, whose)
                .order_by(_challenges.c.created.desc(), _challenges.c.id)
                .limit(limit)
            ).mappings()
            return [dict(r) for r in rows]

    def user_by_name(self, username: str) -> tuple[str, str, str] | None:
        """``(id, username, kind)`` of the user called ``username`` (any case), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_users.c.id, _users.c.username, _users.c.kind).where(
                    _users.c.username_key == username_key(username)
                )
            ).first()
        return None if row is None else (row.id, row.username, row.kind)

    def close(self, challenge_id: str, status: str, moment: Any) -> bool:
        """Set an open challenge's ``status`` (``accepted``, ``cancelled``, ``declined``) if it
        is still open and unexpired; False when another request was first (or it expired)."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(_challenges)
                .where(
                    _challenges.c.id == challenge_id,
                    _challenges.c.status == "open",
                    _challenges.c.expires > moment,
                )
                .values(status=status)
            )
        return bool(result.rowcount == 1)

    def reopen(self, challenge_id: str) -> None:
        """Open again a challenge whose game could not be created."""
        with self.engine.begin() as conn:
            conn.execute(
                update(_challenges)
                .where(
                    _challenges.c.id == challenge_id,
                    _challenges.c.status == "accepted",
                    _challenges.c.game_id.is_(None),
                )
                .values(status="open")
            )

    def settle(self, challenge_id: str, game_id: str, poster_seat: int) -> None:
        """Write the accepted challenge's game and the poster's side (``random`` resolved)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(_challenges)
                .where(_challenges.c.id == challenge_id)
                .values(game_id=game_id, colour=str(poster_seat))
            )

    def expire(self, moment: Any) -> int:
        """Mark up to :data:`SWEEP_BATCH` open challenges past their expiry ``expired``."""
        with self.engine.begin() as conn:
            ids = [
                r[0]
                for r in conn.execute(
                    select(_challenges.c.id)
                    .where(_challenges.c.status == "open", _challenges.c.expires <= moment)
                    .limit(SWEEP_BATCH)
                )
            ]
            if not ids:
                return 0
            result = conn.execute(
                update(_challenges)
                .where(_challenges.c.id.in_(ids), _challenges.c.status == "open")
                .values(status="expired")
            )
        return int(result.rowcount)

    def expired_games(self, moment: Any) -> list[str]:
        """Up to :data:`SWEEP_BATCH` active games past their ``expires`` (unstarted)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_games.c.id)
                .where(_games.c.status == "active", _games.c.expires <= moment)
                .limit(SWEEP_BATCH)
            ).all()
        return [r[0] for r in rows]


def _store(service: GameService) -> ChallengeStore:
    return ChallengeStore(service.storage.engine)


def _status(row: dict[str, Any], moment: Any) -> str:
    """The challenge's status, ``expired`` when it is open past its expiry (lazy check)."""
    expires = row["expires"]
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=moment.tzinfo)
    if row["status"] == "open" and expires <= moment:
        return "expired"
    return str(row["status"])


def public(row: dict[str, Any], me: str | None = None, moment: Any = None) -> dict[str, Any]:
    """A challenge as the API answers it (never its owner hash)."""
    moment = moment or now()
    spec = row["spec"]
    title, options = _describe(spec)
    rating = None
    if row.get("rating") is not None:
        rating = {"value": round(row["rating"]), "rd": round(row["rd"])}
    accepted = row["status"] == "accepted" and row["game_id"] is not None
    return {
        "id": row["id"],
        "game": row["game"],
        "title": title,
        "spec": spec,
        "options": dict(options),
        "variant": variant_of(spec),
        "clock": row["clock"],
        "rated": bool(row["rated"]),
        "colour": row["colour"],
        "name": row["name"],
        "user": row.get("poster_username"),
        "rating": rating,
        "target": row.get("target_username"),
        "status": _status(row, moment),
        "game_id": row["game_id"],
        "seat": int(row["colour"]) if accepted else None,
        "mine": me is not None and row["user_id"] == me,
        "created": iso(row["created"]),
        "expires": iso(row["expires"]),
    }


def _owns(row: dict[str, Any], user: UserRef | None, token: str | None) -> bool:
    """Whether the request comes from the challenge's poster (account or owner token)."""
    if user is not None and row["user_id"] is not None and user.id == row["user_id"]:
        return True
    if token is None or len(token) > 200:
        return False
    return hmac.compare_digest(hash_token(token), str(row["owner_hash"]))


async def post(
    service: GameService,
    *,
    game: str,
    options: dict[str, Any],
    clock: dict[str, Any] | None,
    rated: bool,
    colour: str,
    target: str | None,
    name: str,
    user: UserRef | None,
) -> tuple[dict[str, Any], str]:
    """Post a challenge; return it (as :func:`public` shows it) and its owner token."""
    try:
        chosen = registry.get(game, **options)
    except TablierError as exc:
        code = "unknown_game" if isinstance(exc, LookupError) else "bad_option"
        raise ApiError(422, code, exc) from None
    spec = chosen.spec
    if rated and user is None:
        raise ApiError(403, "account_required", "a rated challenge needs an account: log in")
    store = _store(service)
    moment = now()
    target_id = None
    if target is not None:
        found = await to_thread.run_sync(store.user_by_name, target)
        if found is None or found[2] != "account":
            raise ApiError(404, "unknown_player", f"there is no player called {target!r}")
        if user is not None and found[0] == user.id:
            raise ApiError(422, "bad_target", "you cannot challenge yourself")
        target_id = found[0]
    if (
        user is not None
        and await to_thread.run_sync(store.count_open, user.id, moment) >= OPEN_PER_ACCOUNT
    ):
        raise ApiError(
            429, "too_many_challenges", f"you have {OPEN_PER_ACCOUNT} open challenges: cancel one"
        )
    settings = service.settings
    long = target_id is not None or (clock is not None and clock.get("kind") == "correspondence")
    lifetime = settings.challenge_expiry_long if long else settings.challenge_expiry
    token = secrets.token_urlsafe(24)
    row: dict[str, Any] = {
        "id": new_challenge_id(),
        "game": chosen.name,
        "spec": spec,
        "user_id": None if user is None else user.id,
        "name": user.username if user is not None else clean_name(name),
        "owner_hash": hash_token(token),
        "target": target_id,
        "clock": clock,
        "rated": rated,
        "colour": colour,
        "status": "open",
        "game_id": None,
        "created": moment,
        "expires": moment + timedelta(seconds=lifetime),
    }
    await service.write(store.insert, row)
    shown = await to_thread.run_sync(store.get, row["id"])
    assert shown is not None
    return public(shown, None if user is None else user.id, moment), token


async def listing(service: GameService, user: UserRef | None, limit: int) -> list[dict[str, Any]]:
    """The open challenges a visitor may see (see :meth:`ChallengeStore.listing`)."""
    me = None if user is None else user.id
    moment = now()
    rows = await to_thread.run_sync(_store(service).listing, me, moment, limit)
    return [public(r, me, moment) for r in rows]


async def _row(service: GameService, challenge_id: str) -> dict[str, Any]:
    row = None
    if 0 < len(challenge_id) <= 32:
        row = await to_thread.run_sync(_store(service).get, challenge_id)
    if row is None:
        raise ApiError(404, "not_found", "there is no such challenge")
    return row


def _may_see(row: dict[str, Any], user: UserRef | None, token: str | None) -> bool:
    """Open challenges are public; a direct one only to its poster and its target."""
    if row["target"] is None:
        return True
    return _owns(row, user, token) or (user is not None and user.id == row["target"])


async def read(
    service: GameService, challenge_id: str, user: UserRef | None, token: str | None
) -> dict[str, Any]:
    """One challenge (a direct one: only for its poster and target, else 404)."""
    row = await _row(service, challenge_id)
    if not _may_see(row, user, token):
        raise ApiError(404, "not_found", "there is no such challenge")
    return public(row, None if user is None else user.id)


def _refuse_closed(row: dict[str, Any]) -> None:
    """Answer why a challenge that is not open (any more) cannot be acted on."""
    status = _status(row, now())
    if status == "accepted":
        raise ApiError(409, "challenge_taken", "someone else accepted this challenge first")
    if status != "open":
        raise ApiError(410, "challenge_closed", f"this challenge is {status}", state=status)


async def accept(
    service: GameService,
    challenge_id: str,
    user: UserRef | None,
    token: str | None,
    name: str,
) -> tuple[LiveGame, dict[str, str], int]:
    """Accept a challenge: the new game, the acceptor's token ``{seat: token}`` and seat."""
    row = await _row(service, challenge_id)
    if not _may_see(row, user, token):
        raise ApiError(404, "not_found", "there is no such challenge")
    _refuse_closed(row)
    if _owns(row, user, token):
        raise ApiError(409, "own_challenge", "you cannot accept your own challenge")
    if row["target"] is not None and (user is None or user.id != row["target"]):
        raise ApiError(403, "not_your_challenge", "this challenge is for another player")
    if row["rated"] and user is None:
        raise ApiError(403, "account_required", "a rated game needs an account: log in")
    store = _store(service)
    if not await service.write(store.close, challenge_id, "accepted", now()):
        _refuse_closed(await _row(service, challenge_id))
        raise ApiError(409, "challenge_taken", "someone else accepted this challenge first")
    colour = row["colour"]
    poster = secrets.randbelow(2) if colour == "random" else int(colour)
    seat = 1 - poster
    names = ["", ""]
    names[poster], names[seat] = row["name"], clean_name(name)
    users: list[tuple[str, str] | None] = [None, None]
    if row["user_id"] is not None and row.get("poster_username"):
        users[poster] = (row["user_id"], row["poster_username"])
    if user is not None:
        users[seat] = (user.id, user.username)
    try:
        game = registry.from_spec(row["spec"])
        live, tokens = await service.create(
            game.name,
            dict(game.options),
            "online",
            seat,
            None,
            names,
            users=users,
            clock=row["clock"],
            rated=bool(row["rated"]),
        )
        # The poster's seat takes the owner token, which only the poster holds.
        await service.add_token(live, poster, str(row["owner_hash"]))
    except Exception:
        await service.write(store.reopen, challenge_id)
        raise
    await service.write(store.settle, challenge_id, live.id, poster)
    return live, {str(seat): tokens[str(seat)]}, seat


async def cancel(
    service: GameService, challenge_id: str, user: UserRef | None, token: str | None
) -> dict[str, Any]:
    """Cancel one's own open challenge."""
    row = await _row(service, challenge_id)
    if not _owns(row, user, token):
        if not _may_see(row, user, token):
            raise ApiError(404, "not_found", "there is no such challenge")
        raise ApiError(403, "not_your_challenge", "only its poster may cancel a challenge")
    return await _close(service, row, "cancelled", user)


async def decline(service: GameService, challenge_id: str, user: UserRef | None) -> dict[str, Any]:
    """Decline a direct challenge addressed to the logged-in player."""
    row = await _row(service, challenge_id)
    if row["target"] is None or user is None or user.id != row["target"]:
        if not _may_see(row, user, None):
            raise ApiError(404, "not_found", "there is no such challenge")
        raise ApiError(403, "not_your_challenge", "only its target may decline a challenge")
    return await _close(service, row, "declined", user)


async def _close(
    service: GameService, row: dict[str, Any], status: str, user: UserRef | None
) -> dict[str, Any]:
    store = _store(service)
    if not await service.write(store.close, row["id"], status, now()):
        _refuse_closed(await _row(service, row["id"]))
    fresh = await _row(service, row["id"])
    return public(fresh, None if user is None else user.id)


async def sweep(service: GameService) -> tuple[int, int]:
    """Expire the challenges nobody took and abort the unstarted games past their expiry;
    return how many of each."""
    moment = now()
    store = _store(service)
    expired = await service.write(store.expire, moment)
    aborted = 0
    for game_id in await to_thread.run_sync(store.expired_games, moment):
        try:
            if await service.abort_unstarted(game_id):
                aborted += 1
        except ApiError as exc:  # another process changed it meanwhile: next sweep
            log.debug("game %s not aborted: %s", game_id, exc.message)
    return expired, aborted


async def sweep_forever(service: GameService) -> None:
    """Run :func:`sweep` every ``settings.sweep_interval`` seconds until cancelled."""
    while True:
        await asyncio.sleep(service.settings.sweep_interval)
        try:
            expired, aborted = await sweep(service)
            if expired or aborted:
                log.info("expired %d challenge(s), aborted %d unstarted game(s)", expired, aborted)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the expiry sweep failed")
