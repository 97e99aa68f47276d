"""Alembic migrations, run programmatically.

The server calls :func:`upgrade` at start-up, so a new version of Tablier brings its database
up to date by itself.  Operators may also run it by hand (for instance before starting
several server processes)::

    python -m tablier.server.migrate --database-url postgresql://user@host/db

On PostgreSQL the upgrade holds an advisory lock, so processes starting together do not
race each other.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

__all__ = ["MIGRATIONS", "alembic_config", "upgrade"]

#: The Alembic script folder shipped inside the package.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

_LOCK_KEY = 0x7AB11E2  # arbitrary constant: Tablier's advisory lock for migrations


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration pointing at the packaged migrations."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database of ``engine`` up to ``revision`` (default: the latest)."""
    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def main(argv: list[str] | None = None) -> None:
    """Command line: upgrade the database named by ``--database-url``."""
    from .settings import Settings
    from .storage import make_engine

    parser = argparse.ArgumentParser(description="Upgrade Tablier's database schema.")
    parser.add_argument("--database-url", default=None, help="SQLAlchemy URL (default: as serve)")
    parser.add_argument("--revision", default="head")
    args = parser.parse_args(argv)
    settings = Settings(database_url=args.database_url) if args.database_url else Settings()
    engine = make_engine(settings.database_url)
    try:
        upgrade(engine, args.revision)
    finally:
        engine.dispose()
    print(f"database schema at {args.revision}")


if __name__ == "__main__":  # pragma: no cover
    main()
