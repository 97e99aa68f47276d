"""The database schema (SQLAlchemy 2 declarative models).

Three tables; the Alembic migrations in ``migrations/versions`` create them.

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
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["BOTH", "Base", "GameRow", "MoveRow", "TokenRow"]

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

    __table_args__ = (
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
