"""Players, clocks, challenges, chat, ratings, conditional moves, AI claims.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Add the new columns of games and moves and the new tables."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("users", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("clock_left", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("turn_since", _TS, nullable=True))
        batch.add_column(sa.Column("deadline", _TS, nullable=True))
        batch.add_column(sa.Column("rating_change", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("chat_off", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("mutes", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("expires", _TS, nullable=True))
        batch.add_column(sa.Column("hints", sa.JSON(), nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.create_index("ix_games_expires", "games", ["expires"])
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("clock_ms", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("spent_ms", sa.Integer(), nullable=True))
    op.create_table(
        "users",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("username_key", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("created", _TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("username_key", name="uq_users_username_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("created", _TS, nullable=False),
        sa.Column("expires", _TS, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_sessions_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("spec", sa.String(400), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("owner_hash", sa.String(64), nullable=False),
        sa.Column("target", sa.String(32), nullable=True),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("colour", sa.String(10), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", _TS, nullable=False),
        sa.Column("expires", _TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index("ix_challenges_status_expires", "challenges", ["status", "expires"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created", _TS, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_chat_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat"),
    )
    op.create_index("ix_chat_game_id", "chat", ["game_id"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("pool", sa.String(400), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", _TS, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_ratings_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "pool", name="pk_ratings"),
    )
    op.create_index("ix_ratings_pool_rating", "ratings", ["pool", "rating"])
    op.create_table(
        "conditionals",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("updated", _TS, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_conditionals_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_conditionals"),
    )
    op.create_table(
        "ai_claims",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("claimed", _TS, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_ai_claims_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "version", name="pk_ai_claims"),
    )


def downgrade() -> None:
    """Drop what upgrade added."""
    for table in ("ai_claims", "conditionals", "ratings", "chat", "challenges", "sessions"):
        op.drop_table(table)
    op.drop_table("users")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("spent_ms")
        batch.drop_column("clock_ms")
    op.drop_index("ix_games_expires", table_name="games")
    op.drop_index("ix_games_deadline", table_name="games")
    with op.batch_alter_table("games") as batch:
        for column in (
            "hints",
            "expires",
            "mutes",
            "chat_off",
            "rating_change",
            "deadline",
            "turn_since",
            "clock_left",
            "clock",
            "rated",
            "users",
        ):
            batch.drop_column(column)
