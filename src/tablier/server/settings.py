"""Settings of the web server: where the database is, how many AI workers, limits.

The defaults make ``tablier serve`` work out of the box: an SQLite file in the user's data
folder (``$XDG_DATA_HOME/tablier/tablier.db``, else ``~/.local/share/tablier/tablier.db``).
``TABLIER_DATABASE_URL`` or ``--database-url`` choose another database; ``postgresql://``
URLs are mapped to SQLAlchemy's psycopg 3 driver (``postgresql+psycopg://``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Settings", "default_database_url", "normalise_database_url"]

#: Where the static client lives (index.html, app.js, games/<name>.js).
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def default_database_url() -> str:
    """``TABLIER_DATABASE_URL`` if set, else the SQLite file in the user's data folder."""
    env = os.environ.get("TABLIER_DATABASE_URL", "").strip()
    if env:
        return normalise_database_url(env)
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    folder = Path(base) if base else Path.home() / ".local" / "share"
    return f"sqlite:///{folder / 'tablier' / 'tablier.db'}"


def normalise_database_url(url: str) -> str:
    """Map ``postgres://`` and ``postgresql://`` to the psycopg 3 driver; keep the rest.

    >>> normalise_database_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    """
    url = url.strip()
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass
class Settings:
    """Everything :func:`tablier.server.create_app` needs to know.

    ``database_url``: an SQLAlchemy URL (SQLite or PostgreSQL).  ``ai_workers``: processes
    that run the AI (0 turns the AI off: games against it cannot be created).
    ``ai_specs``: per level, the :func:`tablier.ai.players.make_player` spec actually used
    (tests map levels to fast players such as ``"random"``); a level not listed uses itself.
    ``max_body``: the largest request body in bytes.  ``public_url``: the base of the links
    handed out when creating a game (by default taken from the request, which behind a
    reverse proxy needs its forwarded headers).  ``web_dir``: the static client.
    ``ai_queue_limit``: the AI searches one client (address) may have queued or running at
    once.  ``migrate``: run the Alembic migrations at start-up.  ``sqlite_inline_writes``: run
    SQLite commits on the event loop (they are short) rather than in a worker thread.
    """

    database_url: str = field(default_factory=default_database_url)
    ai_workers: int = 1
    ai_specs: dict[str, str] = field(default_factory=dict)
    max_body: int = 64 * 1024
    public_url: str | None = None
    web_dir: Path = WEB_DIR
    migrate: bool = True
    ai_progress_interval: float = 0.1
    ai_queue_limit: int = 4
    hello_timeout: float = 10.0
    cache_size: int = 2000
    sqlite_inline_writes: bool = True

    def __post_init__(self) -> None:
        self.database_url = normalise_database_url(self.database_url)
        if self.ai_workers < 0:
            raise ValueError("ai_workers cannot be negative")
        if self.ai_queue_limit < 1:
            raise ValueError("ai_queue_limit must be at least 1")
        self.web_dir = Path(self.web_dir)

    @property
    def is_sqlite(self) -> bool:
        """True for an SQLite database."""
        return self.database_url.startswith("sqlite")
