"""Ratings: one Glicko-2 rating per player and pool, settled once when a rated game ends.

A **pool** is a game and its options: the game's spec (``volo:board=mini,…``), so each game
and variant has ratings of its own.  The **players** are the accounts and the AI levels
(their ``users`` rows, id ``ai-<level>``): a game is rated when ``games.rated`` is true and
both seats belong to two different users (``games.users``).

- **When.**  Each game is a rating period of its own, as on lichess: both players are rated
  against each other's rating from before the game (:func:`.glicko2.rate_game`).  A player's
  deviation first grows with the time since their last rated game in the pool (lichess's
  0.21436 rating periods per day, :func:`.glicko2.idle`).  New players start at
  1500 ± 350, volatility 0.06; τ = 0.5.
- **Provisional.**  A rating whose deviation is over :data:`PROVISIONAL_RD` (110, as on
  lichess) is provisional: shown with a "?", and left off the leaderboard unless asked for.
- **Exactly once.**  :meth:`GameService._change` calls :func:`after_change` after every
  change; when a rated game has just finished, a task settles it through ``_change`` itself
  (the game's lock and version check) with :func:`commit_settlement` as the commit: one
  transaction that bumps the game's version only ``WHERE rating_change IS NULL`` (and the
  version is the one checked), locks and updates both ``ratings`` rows and writes
  ``games.rating_change``.  Two processes (or two tasks) racing: the second finds the
  version moved on, reloads the game and sees it settled.  A process that stopped between
  the end of a game and its settlement leaves it to :func:`settle_pending` at the next
  start-up.
- **What is shown.**  ``games.rating_change`` is ``[{before, after, delta, provisional},
  …]`` per seat (whole rating points; ``provisional``: after the game); the snapshot carries
  it with ``rated``.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Engine, Table, Text, and_, func, or_, select, update
from sqlalchemy import cast as sql_cast
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from . import glicko2
from .errors import ApiError
from .live import LiveGame, Prepared
from .storage import Change, now
from .tables import GameRow, RatingRow, UserRow

if TYPE_CHECKING:
    from .service import GameService

__all__ = [
    "LEADERBOARD_MAX",
    "PROVISIONAL_RD",
    "RATING_PERIODS_PER_DAY",
    "PoolRating",
    "after_change",
    "commit_settlement",
    "is_provisional",
    "leaderboard",
    "needs_settlement",
    "prepare_settlement",
    "rated_users",
    "ratings_of",
    "score_of",
    "settle",
    "settle_pending",
    "unsettled_games",
]

log = logging.getLogger("tablier.server.ratings")

_games = cast(Table, GameRow.__table__)
_ratings = cast(Table, RatingRow.__table__)
_users = cast(Table, UserRow.__table__)

#: A rating whose deviation is above this is provisional (lichess's threshold).
PROVISIONAL_RD = 110.0
#: How many rating periods a day of inactivity counts for (lichess's constant).
RATING_PERIODS_PER_DAY = 0.21436
#: The most players one leaderboard request answers.
LEADERBOARD_MAX = 100


def is_provisional(rd: float) -> bool:
    """Whether a rating of deviation ``rd`` is provisional.

    >>> is_provisional(350), is_provisional(110), is_provisional(60)
    (True, False, False)
    """
    return rd > PROVISIONAL_RD


def rated_users(users: list | None) -> tuple[str, str] | None:
    """The two users of a rated game's seats, or None when it cannot be rated (a guest's
    seat, or one user at both seats).

    >>> rated_users(["u1", "ai-hard"]), rated_users(["u1", None]), rated_users(["u1", "u1"])
    (('u1', 'ai-hard'), None, None)
    """
    if not users or len(users) < 2:
        return None
    first, second = users[0], users[1]
    if not first or not second or first == second:
        return None
    return str(first), str(second)


def score_of(result: dict | None) -> float | None:
    """The first seat's score in a finished game's result (None: no result).

    >>> score_of({"winner": 0}), score_of({"winner": 1}), score_of({"winner": None})
    (1.0, 0.0, 0.5)
    """
    if result is None:
        return None
    winner = result.get("winner")
    if winner is None:
        return 0.5
    return 1.0 if winner == 0 else 0.0


def needs_settlement(live: LiveGame) -> bool:
    """Whether ``live`` is a rated game that is over and not yet settled (a game aborted
    before it started, status ``aborted``, is never rated)."""
    return (
        bool(getattr(live, "rated", False))
        and live.status == "finished"
        and getattr(live, "rating_change", None) is None
        and rated_users(live.users) is not None
        and score_of(live.current_result()) is not None
    )


# -- settling --------------------------------------------------------------------------


def prepare_settlement(live: LiveGame) -> Prepared:
    """The settlement's change, for :meth:`GameService._change` (``409 already_settled``
    when there is nothing to settle, e.g. another process did it)."""
    if not needs_settlement(live):
        raise ApiError(409, "already_settled", "the game's ratings are settled")
    return Prepared(Change(values={}), "rating")


def _unsettled() -> Any:
    """``games.rating_change`` is empty: SQL NULL, or the JSON ``null`` that a JSON column
    stores for None."""
    column = _games.c.rating_change
    return or_(column.is_(None), sql_cast(column, Text) == "null")


def _insert(engine: Engine) -> Any:
    return pg_insert if engine.dialect.name == "postgresql" else sqlite_insert


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def commit_settlement(engine: Engine, game_id: str, expected_version: int, change: Change) -> bool:
    """Settle the game in one transaction, if it is at ``expected_version`` and unsettled
    (False otherwise: nothing written).  On success ``change.values`` holds what was
    written to the game (``rating_change``, ``updated``), for the game in memory."""
    stamp = now()
    try:
        with engine.begin() as conn:
            # First the game's row: it takes the write lock, and only one settlement passes.
            claimed = conn.execute(
                update(_games)
                .where(
                    _games.c.id == game_id,
                    _games.c.version == expected_version,
                    _unsettled(),
                    _games.c.rated.is_(True),
                    _games.c.status == "finished",
                )
                .values(version=expected_version + 1, updated=stamp)
            )
            if claimed.rowcount != 1:
                raise _NotNow
            row = conn.execute(
                select(_games.c.users, _games.c.spec, _games.c.result).where(_games.c.id == game_id)
            ).one()
            users = rated_users(row.users)
            score = score_of(row.result)
            if users is None or score is None:
                raise _NotNow
            pool = row.spec
            fresh = [
                {
                    "user_id": user,
                    "pool": pool,
                    "rating": glicko2.DEFAULT_RATING,
                    "rd": glicko2.DEFAULT_RD,
                    "volatility": glicko2.DEFAULT_VOLATILITY,
                    "games": 0,
                    "updated": stamp,
                }
                for user in sorted(set(users))
            ]
            insert = _insert(engine)
            conn.execute(
                insert(_ratings).on_conflict_do_nothing(index_elements=["user_id", "pool"]),
                fresh,
            )
            rows = {
                r.user_id: r
                for r in conn.execute(
                    select(_ratings)
                    .where(_ratings.c.pool == pool, _ratings.c.user_id.in_(users))
                    .order_by(_ratings.c.user_id)
                    .with_for_update()
                )
            }
            before = []
            for user in users:
                r = rows[user]
                days = max(0.0, (stamp - _aware(r.updated)).total_seconds() / 86400)
                rating = glicko2.Rating(r.rating, r.rd, r.volatility)
                before.append(
                    glicko2.idle(rating, days * RATING_PERIODS_PER_DAY) if r.games else rating
                )
            after = glicko2.rate_game(before[0], before[1], score)
            for user, new in zip(users, after, strict=True):
                conn.execute(
                    update(_ratings)
                    .where(_ratings.c.user_id == user, _ratings.c.pool == pool)
                    .values(
                        rating=new.rating,
                        rd=new.rd,
                        volatility=new.volatility,
                        games=_ratings.c.games + 1,
                        updated=stamp,
                    )
                )
            rating_change = [
                {
                    "before": round(old.rating),
                    "after": round(new.rating),
                    "delta": round(new.rating) - round(old.rating),
                    "provisional": is_provisional(new.rd),
                }
                for old, new in zip(before, after, strict=True)
            ]
            conn.execute(
                update(_games).where(_games.c.id == game_id).values(rating_change=rating_change)
            )
    except (_NotNow, IntegrityError):
        return False
    change.values["rating_change"] = rating_change
    change.values["updated"] = stamp
    return True


class _NotNow(Exception):
    """Raised inside the transaction to roll it back: nothing to settle at this version."""


_settling: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def after_change(service: GameService, live: LiveGame) -> None:
    """Called by ``_change`` after every change: start settling a rated game that just
    finished (once per game and process at a time)."""
    if service.closing or not needs_settlement(live):
        return
    pending = _settling.setdefault(service, set())
    if live.id in pending:
        return
    pending.add(live.id)
    task = asyncio.get_running_loop().create_task(settle(service, live.id))
    service._tasks.add(task)
    task.add_done_callback(service._tasks.discard)


async def settle(service: GameService, game_id: str) -> bool:
    """Settle the ratings of a finished rated game and broadcast its snapshot; False when
    there was nothing to settle (not rated, or settled already, here or elsewhere)."""
    try:
        live = await service.get(game_id)
        if not needs_settlement(live):
            return False
        engine = service.storage.engine

        def commit(gid: str, expected: int, change: Change) -> bool:
            return commit_settlement(engine, gid, expected, change)

        try:
            live, _ = await service._change(live, prepare_settlement, commit=commit)
        except ApiError as exc:
            if exc.code != "already_settled":
                log.warning("game %s: the rating settlement failed: %s", game_id, exc.message)
            return False
        service.broadcast_snapshot(live)
        return True
    except Exception:
        log.exception("game %s: the rating settlement failed", game_id)
        return False
    finally:
        pending = _settling.get(service)
        if pending is not None:
            pending.discard(game_id)


def unsettled_games(engine: Engine) -> list[str]:
    """The ids of finished rated games whose ratings are not settled."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(_games.c.id).where(
                _games.c.status == "finished",
                _games.c.rated.is_(True),
                _unsettled(),
            )
        ).all()
    return [r[0] for r in rows]


async def settle_pending(service: GameService) -> int:
    """Settle every finished rated game left unsettled (at start-up); how many were."""
    from anyio import to_thread

    ids = await to_thread.run_sync(unsettled_games, service.storage.engine)
    settled = 0
    for game_id in ids:
        settled += await settle(service, game_id)
    return settled


# -- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolRating:
    """A player's rating in one pool, as shown (whole points)."""

    user: str
    username: str
    kind: str
    pool: str
    rating: int
    rd: int
    games: int
    provisional: bool
    updated: datetime

    def to_json(self) -> dict[str, Any]:
        """The JSON of a leaderboard row or a profile's rating."""
        game = self.pool.split(":", 1)[0]
        return {
            "user": self.user,
            "username": self.username,
            "kind": self.kind,
            "game": game,
            "pool": self.pool,
            "rating": self.rating,
            "rd": self.rd,
            "games": self.games,
            "provisional": self.provisional,
            "updated": _aware(self.updated).isoformat(timespec="seconds").replace("+00:00", "Z"),
        }


def _pool_rating(row: Any) -> PoolRating:
    return PoolRating(
        user=row.user_id,
        username=row.username,
        kind=row.kind,
        pool=row.pool,
        rating=round(row.rating),
        rd=round(row.rd),
        games=row.games,
        provisional=is_provisional(row.rd),
        updated=row.updated,
    )


def _joined() -> Any:
    return select(
        _ratings.c.user_id,
        _ratings.c.pool,
        _ratings.c.rating,
        _ratings.c.rd,
        _ratings.c.games,
        _ratings.c.updated,
        _users.c.username,
        _users.c.kind,
    ).join(_users, _users.c.id == _ratings.c.user_id)


def ratings_of(engine: Engine, user_id: str) -> list[PoolRating]:
    """Every rating of a player, one per pool they played rated games in, most games
    first (call it off the event loop: it reads the database)."""
    with engine.connect() as conn:
        rows = conn.execute(
            _joined()
            .where(_ratings.c.user_id == user_id, _ratings.c.games > 0)
            .order_by(_ratings.c.games.desc(), _ratings.c.pool)
        ).all()
    return [_pool_rating(r) for r in rows]


def leaderboard(
    engine: Engine, pool: str, limit: int, *, provisional: bool = False
) -> list[PoolRating]:
    """The best ``limit`` (at most :data:`LEADERBOARD_MAX`) ratings of a pool, highest
    first (ties: more games first, then the username); provisional ones only when asked."""
    limit = max(1, min(limit, LEADERBOARD_MAX))
    conditions = [_ratings.c.pool == pool, _ratings.c.games > 0]
    if not provisional:
        conditions.append(_ratings.c.rd <= PROVISIONAL_RD)
    with engine.connect() as conn:
        rows = conn.execute(
            _joined()
            .where(and_(*conditions))
            .order_by(_ratings.c.rating.desc(), _ratings.c.games.desc(), _users.c.username)
            .limit(limit)
        ).all()
    return [_pool_rating(r) for r in rows]


def count_rated(engine: Engine, pool: str) -> int:
    """How many players have a rating in ``pool`` (provisional ones included)."""
    with engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(_ratings)
                .where(_ratings.c.pool == pool, _ratings.c.games > 0)
            ).scalar_one()
        )
