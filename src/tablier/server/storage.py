"""The storage layer: every database access of the server, synchronous SQLAlchemy Core.

The server calls these functions in worker threads (``anyio.to_thread``), never on the event
loop.  Every change to a game is one transaction that first bumps the game's ``version``
with ``UPDATE ... WHERE version = <expected>``: when another request or another server
process changed the game in between, no row matches and :meth:`Storage.commit` returns
False (the caller answers with a conflict) — and the ``(game_id, ply)`` primary key of
``moves`` makes the database itself refuse a second move for the same ply.

SQLite runs in WAL mode with ``synchronous=NORMAL`` and a busy timeout; PostgreSQL goes
through psycopg 3 with a connection pool.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    Engine,
    Integer,
    String,
    Table,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from .tables import AIClaimRow, GameRow, MoveRow, TokenRow

__all__ = ["Change", "Checkpointer", "NewGame", "Storage", "make_engine", "now"]

log = logging.getLogger("tablier.server.storage")

# Declared as FromClause by SQLAlchemy's typing; a mapped class's table is a Table.
_games = cast(Table, GameRow.__table__)
_moves = cast(Table, MoveRow.__table__)
_tokens = cast(Table, TokenRow.__table__)
_claims = cast(Table, AIClaimRow.__table__)


def now() -> datetime:
    """The current time (UTC, second precision kept to microseconds)."""
    return datetime.now(UTC)


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine for ``url``; an SQLite file's folder is created if needed."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=8
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            # Commits leave checkpoints to the Checkpointer thread, unless the log grows
            # past ~40 MB (a safety net should that thread stop).
            cur.execute("PRAGMA wal_autocheckpoint=10000")
            cur.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


@dataclass
class NewGame:
    """A game to insert with its token hashes ``(seat, sha256 hex)``."""

    row: dict[str, Any]
    tokens: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Change:
    """One transaction on a game: new column values, moves to drop and to add, and a game to
    create with it (a rematch: the new game and the old one's link to it commit together)."""

    values: dict[str, Any] = field(default_factory=dict)
    drop_from_ply: int | None = None
    moves: list[tuple[int, str, int]] = field(default_factory=list)  # (ply, notation, seat)
    new_game: NewGame | None = None
    #: per ply of ``moves``, the mover's clock after it and the time it took (ms; clocks.py)
    move_times: dict[int, tuple[int, int]] = field(default_factory=dict)


def _insert_game(conn: Any, game: NewGame) -> None:
    conn.execute(insert(_games).values(**game.row))
    for seat, digest in game.tokens:
        conn.execute(
            insert(_tokens).values(
                game_id=game.row["id"], seat=seat, token_hash=digest, created=game.row["created"]
            )
        )


class _Conflict(Exception):
    """Raised inside a transaction to roll it back: the game's version moved on."""


class Checkpointer:
    """A thread that copies SQLite's write-ahead log into the database file every second.

    With it, commits never pay for a checkpoint (which writes many pages and syncs the
    file): a PASSIVE checkpoint runs beside readers and writers without blocking them.
    """

    def __init__(self, engine: Engine, interval: float = 1.0) -> None:
        self.engine = engine
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablier-wal", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # pragma: no cover - retried next time
                log.debug("WAL checkpoint failed", exc_info=True)

    def stop(self) -> None:
        """Stop the thread (a last checkpoint is left to SQLite on close)."""
        self._stop.set()
        self._thread.join(timeout=5)


class Storage:
    """The server's database: games, moves and token hashes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._checkpointer = Checkpointer(engine) if engine.dialect.name == "sqlite" else None

    def dispose(self) -> None:
        """Stop the checkpoint thread and close every pooled connection."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.engine.dispose()

    # -- writing ------------------------------------------------------------------

    def create_game(self, row: dict[str, Any], tokens: Iterable[tuple[int, str]]) -> None:
        """Insert a new game and its token hashes (one transaction)."""
        with self.engine.begin() as conn:
            _insert_game(conn, NewGame(row, list(tokens)))

    def commit(self, game_id: str, expected_version: int, change: Change) -> bool:
        """Apply ``change`` if the game is still at ``expected_version``; False on conflict.

        The version is bumped by one.  A conflict (another writer was first, or a move for
        the same ply exists already) rolls everything back.
        """
        stamp = change.values.get("updated") or now()
        values = {**change.values, "updated": stamp, "version": expected_version + 1}
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    update(_games)
                    .where(_games.c.id == game_id, _games.c.version == expected_version)
                    .values(**values)
                )
                if result.rowcount != 1:
                    raise _Conflict
                if change.new_game is not None:
                    _insert_game(conn, change.new_game)
                if change.drop_from_ply is not None:
                    conn.execute(
                        delete(_moves).where(
                            _moves.c.game_id == game_id, _moves.c.ply >= change.drop_from_ply
                        )
                    )
                if change.moves:
                    conn.execute(
                        insert(_moves),
                        [
                            {
                                "game_id": game_id,
                                "ply": ply,
                                "notation": notation,
                                "seat": seat,
                                "created": stamp,
                                "clock_ms": change.move_times.get(ply, (None, None))[0],
                                "spent_ms": change.move_times.get(ply, (None, None))[1],
                            }
                            for ply, notation, seat in change.moves
                        ],
                    )
        except (IntegrityError, _Conflict):
            return False
        return True

    def add_token(self, game_id: str, seat: int, digest: str) -> None:
        """Store one more token hash for a seat (a rematch hands out tokens one by one)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(_tokens).values(game_id=game_id, seat=seat, token_hash=digest, created=now())
            )

    # -- reading ------------------------------------------------------------------

    def load(
        self, game_id: str
    ) -> tuple[dict, list[tuple[int, str, int, int | None]], list] | None:
        """The game's row, its moves ``(ply, notation, seat, clock_ms)`` in order and its
        tokens."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_games).where(_games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            moves = conn.execute(
                select(_moves.c.ply, _moves.c.notation, _moves.c.seat, _moves.c.clock_ms)
                .where(_moves.c.game_id == game_id)
                .order_by(_moves.c.ply)
            ).all()
            tokens = conn.execute(
                select(_tokens.c.seat, _tokens.c.token_hash).where(_tokens.c.game_id == game_id)
            ).all()
        return dict(row), [tuple(m) for m in moves], [tuple(t) for t in tokens]

    def list_games(self, limit: int, offset: int) -> list[dict]:
        """The most recently updated games first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_games)
                .order_by(_games.c.updated.desc(), _games.c.id)
                .limit(limit)
                .offset(offset)
            ).mappings()
            return [dict(r) for r in rows]

    def count_games(self) -> int:
        """How many games are stored."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(_games)).scalar_one())

    def deadlines(self, limit: int) -> list[tuple[str, datetime, int]]:
        """The active games with a running clock, the earliest deadline first (``limit``
        of them; the ``deadline`` column is indexed): ``(id, deadline, version)``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_games.c.id, _games.c.deadline, _games.c.version)
                .where(_games.c.deadline.is_not(None), _games.c.status == "active")
                .order_by(_games.c.deadline)
                .limit(limit)
            ).all()
        return [(r[0], r[1], r[2]) for r in rows]

    def move_times(self, game_id: str) -> list[tuple[int | None, int | None]]:
        """Each decision's ``(clock_ms, spent_ms)``, in order (tests and records)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_moves.c.clock_ms, _moves.c.spent_ms)
                .where(_moves.c.game_id == game_id)
                .order_by(_moves.c.ply)
            ).all()
        return [(r[0], r[1]) for r in rows]

    def unfinished_ai_games(self) -> list[str]:
        """The ids of active games against the AI (to resume their AI turns at start-up)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_games.c.id).where(_games.c.status == "active", _games.c.mode == "ai")
            ).all()
        return [r[0] for r in rows]

    # -- AI claims (several processes: each AI turn is searched by one of them) ----------

    def claim_ai(self, game_id: str, version: int, owner: str, stale_before: datetime) -> bool:
        """Claim the AI's turn at ``version`` of a game for ``owner``; False when another
        owner holds it, or when the game is not at ``version`` any more (its claim may have
        been deleted once played).  The ``(game_id, version)`` primary key admits one claim;
        a claim of ``owner`` itself, or one not renewed since ``stale_before`` (its process
        died), is taken over by a conditional update."""
        stamp = now()
        current = (
            select(_games.c.id)
            .where(_games.c.id == game_id, _games.c.version == version, _games.c.status == "active")
            .exists()
        )
        row = select(
            literal(game_id, String()),
            literal(version, Integer()),
            literal(owner, String()),
            literal(stamp, DateTime(timezone=True)),
        ).where(current)
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    insert(_claims)
                    .from_select(["game_id", "version", "owner", "claimed"], row)
                    .returning(_claims.c.game_id)  # psycopg gives no rowcount for this
                )
                return result.first() is not None
        except IntegrityError:
            pass
        with self.engine.begin() as conn:
            result = conn.execute(
                update(_claims)
                .where(
                    _claims.c.game_id == game_id,
                    _claims.c.version == version,
                    (_claims.c.owner == owner) | (_claims.c.claimed < stale_before),
                    current,
                )
                .values(owner=owner, claimed=stamp)
            )
            return result.rowcount == 1

    def renew_ai_claims(self, owner: str, game_ids: list[str]) -> None:
        """Mark the claims of ``owner`` on these games as alive now."""
        if not game_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(_claims)
                .where(_claims.c.owner == owner, _claims.c.game_id.in_(game_ids))
                .values(claimed=now())
            )

    def release_ai_claims(self, game_id: str, below: int) -> None:
        """Forget the claims of a game's versions before ``below`` (their turn is played)."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(_claims).where(_claims.c.game_id == game_id, _claims.c.version < below)
            )

    def abandon_ai_claims(self, owner: str) -> list[tuple[str, int]]:
        """Make every claim of ``owner`` stale at once (it stops: another process, or its
        successor, may take them over); return their ``(game_id, version)``."""
        epoch = datetime(2000, 1, 1, tzinfo=UTC)
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(_claims.c.game_id, _claims.c.version).where(_claims.c.owner == owner)
            ).all()
            conn.execute(update(_claims).where(_claims.c.owner == owner).values(claimed=epoch))
        return [(r[0], r[1]) for r in rows]

    def stale_ai_claims(self, stale_before: datetime, limit: int) -> list[tuple[str, int]]:
        """Claims not renewed since ``stale_before`` on the current version of an active
        game: AI turns whose process died before playing them."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_claims.c.game_id, _claims.c.version)
                .join(
                    _games,
                    (_games.c.id == _claims.c.game_id) & (_games.c.version == _claims.c.version),
                )
                .where(_games.c.status == "active", _claims.c.claimed < stale_before)
                .order_by(_claims.c.claimed)
                .limit(limit)
            ).all()
        return [(r[0], r[1]) for r in rows]

    def tidy_ai_claims(self) -> int:
        """Delete the claims of versions that are not a game's current one any more."""
        current = (
            select(_games.c.id)
            .where(
                _games.c.id == _claims.c.game_id,
                _games.c.version == _claims.c.version,
                _games.c.status == "active",
            )
            .exists()
        )
        with self.engine.begin() as conn:
            return int(conn.execute(delete(_claims).where(~current)).rowcount or 0)

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The current ``version`` of each of these games (those that exist)."""
        found: dict[str, int] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(game_ids), 500):
                rows = conn.execute(
                    select(_games.c.id, _games.c.version).where(
                        _games.c.id.in_(game_ids[i : i + 500])
                    )
                ).all()
                found.update((r[0], r[1]) for r in rows)
        return found
