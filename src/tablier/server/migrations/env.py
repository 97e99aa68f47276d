"""Alembic environment of Tablier's web server.

Run programmatically by :func:`tablier.server.migrate.upgrade` (at every server start-up),
which hands over an open connection in ``config.attributes["connection"]``; when run by the
``alembic`` command instead, the URL comes from ``sqlalchemy.url`` in the configuration or
from ``TABLIER_DATABASE_URL``.  Logging is left as the host program configured it.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine, pool

from tablier.server.settings import normalise_database_url
from tablier.server.tables import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("TABLIER_DATABASE_URL", "")
    if not url:
        raise RuntimeError("no database URL: set sqlalchemy.url or TABLIER_DATABASE_URL")
    return normalise_database_url(url)


def run_offline() -> None:
    """Emit the SQL instead of running it (``alembic upgrade head --sql``)."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Run the migrations on the given connection, or on a new one."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
