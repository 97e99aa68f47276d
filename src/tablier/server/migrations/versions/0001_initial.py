"""Initial schema: games, moves, seat_tokens.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("spec", sa.String(400), nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("ai_seat", sa.Integer(), nullable=True),
        sa.Column("ai_level", sa.String(20), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("decided", sa.String(20), nullable=True),
        sa.Column("draw_offer", sa.Integer(), nullable=True),
        sa.Column("undo_offer", sa.Integer(), nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
        sa.Column("rematch_of", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_updated", "games", ["updated"])
    op.create_index("ix_games_status_mode", "games", ["status", "mode"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("notation", sa.String(400), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_moves_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "ply", name="pk_moves"),
    )
    op.create_table(
        "seat_tokens",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seat_tokens_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_seat_tokens"),
        sa.UniqueConstraint("token_hash", name="uq_seat_tokens_token_hash"),
    )
    op.create_index("ix_seat_tokens_game_id", "seat_tokens", ["game_id"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_index("ix_seat_tokens_game_id", table_name="seat_tokens")
    op.drop_table("seat_tokens")
    op.drop_table("moves")
    op.drop_index("ix_games_status_mode", table_name="games")
    op.drop_index("ix_games_updated", table_name="games")
    op.drop_table("games")
