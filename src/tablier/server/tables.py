"""The database schema (SQLAlchemy 2 declarative models).

The Alembic migrations in ``migrations/versions`` create these tables (0001: the first three;
0002: players, clocks, challenges, chat, ratings, conditional moves, AI claims).

``games``
    one row per game: its spec (game name and options), mode, the player names, the AI's seat
    and level, ``ply`` (moves played), ``version`` (incremented by every change: the
    optimistic-concurrency check of every write), ``status``, ``result`` and how it was
    ``decided`` off the board (``resignation``, ``agreement``), pending offers, rematch links.
``moves``
    one row per decision: primary key ``(game_id, ply)``, so that the database itself accepts
    exactly one move for each ply of a game.
``seat_tokens``
    the SHA-256 of each seat's capability token (never the token itself); ``seat`` is 0, 1,
    or 2 for the single token of a same-screen game that plays both seats.
``users``
    players with an account (Argon2 password hash) and the AI levels (``kind`` ``"ai"``, no
    password); ``games.users`` names the account (or ``None``: a guest) of each seat.
``sessions``
    the SHA-256 of each login session's cookie, its user and expiry.
``challenges``
    open or direct challenges (game, clock, rated, colour) until accepted, cancelled or expired.
``chat``
    the messages of a game's two rooms (``players`` and ``spectators``).
``ratings``
    one Glicko-2 rating per player and pool (a game and its variant, ``games.spec``).
``conditionals``
    a correspondence player's "if they play X, I play Y" lines, per game and seat.
``ai_claims``
    which server process runs the AI's search for a game at a version: the primary key lets
    exactly one process claim it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "BOTH",
    "AIClaimRow",
    "Base",
    "ChallengeRow",
    "ChatRow",
    "ConditionalRow",
    "GameRow",
    "MoveRow",
    "RatingRow",
    "SessionRow",
    "TokenRow",
    "UserRow",
]

#: The ``seat`` of a token that plays both seats (same-screen games).
BOTH = 2

_NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with stable constraint names (for migrations)."""

    metadata = MetaData(naming_convention=_NAMING)


class GameRow(Base):
    """A game (see the module docstring)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    spec: Mapped[str] = mapped_column(String(400))
    mode: Mapped[str] = mapped_column(String(10))
    status: Mapped[str] = mapped_column(String(10), default="active")
    ply: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    names: Mapped[list] = mapped_column(JSON)
    ai_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    ai_level: Mapped[str | None] = mapped_column(String(20), nullable=True)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    decided: Mapped[str | None] = mapped_column(String(20), nullable=True)
    draw_offer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    undo_offer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # -- 0002: players, clocks, ratings, chat --
    #: the account id of each seat, or None (a guest, or the AI: see ai_seat)
    users: Mapped[list | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the time control: {"kind": "live", "base": s, "increment": s} or
    #: {"kind": "correspondence", "days": n}; None: no clock
    clock: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    #: each seat's time left (milliseconds) when the current turn started
    clock_left: Mapped[list | None] = mapped_column(JSON, nullable=True)
    #: when the current mover's clock started running (None: not running)
    turn_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: when the current mover's flag falls (None: no clock running); indexed for the sweeps
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: the rating change of each seat once a rated game is over
    rating_change: Mapped[list | None] = mapped_column(JSON, nullable=True)
    chat_off: Mapped[bool] = mapped_column(Boolean, default=False)
    #: per seat, True when that seat muted the other's chat
    mutes: Mapped[list | None] = mapped_column(JSON, nullable=True)
    #: an online game nobody joined expires then (None: started, or no expiry)
    expires: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: hints asked for (games against the AI), per seat
    hints: Mapped[list | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (
        Index("ix_games_deadline", "deadline"),
        Index("ix_games_expires", "expires"),
        Index("ix_games_updated", "updated"),
        Index("ix_games_status_mode", "status", "mode"),
    )


class MoveRow(Base):
    """One decision of a game; ``(game_id, ply)`` is unique (the primary key)."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(400))
    seat: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: the mover's time left after this move, increment included (milliseconds; None: no clock)
    clock_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the time the move took (milliseconds; None: no clock)
    spent_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (PrimaryKeyConstraint("game_id", "ply", name="pk_moves"),)


class TokenRow(Base):
    """The hash of one seat's capability token."""

    __tablename__ = "seat_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class UserRow(Base):
    """A player with an account, or an AI level (``kind == "ai"``, no password)."""

    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    #: the username folded for comparisons (case-insensitive uniqueness)
    username_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    kind: Mapped[str] = mapped_column(String(10), default="account")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A login session: the SHA-256 of its cookie."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(Base):
    """A challenge: open to anyone (``target`` None) or to one player."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    spec: Mapped[str] = mapped_column(String(400))
    #: the account that posted it, or None (a guest: ``owner_hash`` lets them cancel it)
    user_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    owner_hash: Mapped[str] = mapped_column(String(64))
    target: Mapped[str | None] = mapped_column(String(32), nullable=True)
    clock: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the poster's side: "0", "1" or "random"
    colour: Mapped[str] = mapped_column(String(10), default="random")
    #: "open", "accepted", "cancelled", "declined", "expired"
    status: Mapped[str] = mapped_column(String(10), default="open")
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_challenges_status_expires", "status", "expires"),)


class ChatRow(Base):
    """One chat message of a game (room ``players`` or ``spectators``)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    room: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    user_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's Glicko-2 rating in one pool (a game and variant: its spec)."""

    __tablename__ = "ratings"

    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    pool: Mapped[str] = mapped_column(String(400))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        PrimaryKeyConstraint("user_id", "pool", name="pk_ratings"),
        Index("ix_ratings_pool_rating", "pool", "rating"),
    )


class ConditionalRow(Base):
    """A seat's conditional lines in a correspondence game (lists of notations)."""

    __tablename__ = "conditionals"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    #: the ply the lines start from (they are dropped when the game moves elsewhere)
    ply: Mapped[int] = mapped_column(Integer)
    lines: Mapped[list] = mapped_column(JSON)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (PrimaryKeyConstraint("game_id", "seat", name="pk_conditionals"),)


class AIClaimRow(Base):
    """One AI turn claimed by one server process (the primary key admits one claim)."""

    __tablename__ = "ai_claims"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    owner: Mapped[str] = mapped_column(String(64))
    claimed: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (PrimaryKeyConstraint("game_id", "version", name="pk_ai_claims"),)
