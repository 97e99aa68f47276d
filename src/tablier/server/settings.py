"""Settings of the web server: where it listens, the database, the AI workers, the limits.

Every field of :class:`Settings` is read, in this order of precedence, from the keyword
arguments (``tablier serve`` passes the flags it was given), from an environment variable
``TABLIER_<FIELD>`` (``TABLIER_DATABASE_URL``, ``TABLIER_AI_WORKERS``…; ``TABLIER_AI_SPECS``
is JSON), and from the default.  The defaults make ``tablier serve`` work out of the box: an
SQLite file in the user's data folder (``$XDG_DATA_HOME/tablier/tablier.db``, else
``~/.local/share/tablier/tablier.db``); ``postgresql://`` URLs are mapped to SQLAlchemy's
psycopg 3 driver (``postgresql+psycopg://``).  ``docs/web.md`` lists every setting.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["HISTORY_PAGE_MAX", "Settings", "default_database_url", "normalise_database_url"]

#: Where the static client lives (index.html, app.js, games/<name>.js).
WEB_DIR = Path(__file__).resolve().parent.parent / "web"

#: The most decisions one page of a game's history may hold (``GET …/history?limit=``).
HISTORY_PAGE_MAX = 50


def default_database_url() -> str:
    """The SQLite file in the user's data folder (``TABLIER_DATABASE_URL`` overrides it)."""
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


class Settings(BaseSettings):
    """Everything :func:`tablier.server.create_app` and ``tablier serve`` need to know.

    >>> Settings(database_url="postgres://u@h/db", ai_workers=0).database_url
    'postgresql+psycopg://u@h/db'
    """

    model_config = SettingsConfigDict(
        env_prefix="TABLIER_",
        extra="forbid",
        validate_assignment=True,
        env_ignore_empty=True,
    )

    host: str = Field("127.0.0.1", description="address to listen on")
    port: Annotated[int, Field(ge=0, le=65535, description="port to listen on")] = 8000
    database_url: str = Field(
        default_factory=default_database_url,
        description="SQLAlchemy URL (sqlite:///FILE or postgresql://…)",
    )
    ai_workers: Annotated[
        int, Field(ge=0, le=64, description="processes that run the AI (0: no AI games)")
    ] = 1
    ai_specs: dict[str, str] = Field(
        default_factory=dict,
        description="per AI level, the player spec actually used (JSON), e.g. "
        '{"easy": "random"}; a level not listed plays itself',
    )
    ai_progress_interval: Annotated[
        float, Field(ge=0, le=60, description="seconds between the AI's progress reports")
    ] = 0.1
    ai_queue_limit: Annotated[
        int,
        Field(
            ge=1,
            le=1000,
            description="AI searches one client (address) may have queued or running at once",
        ),
    ] = 4
    rate_limits: dict[str, str] = Field(
        default_factory=lambda: _default_rate_limits(),
        description="per named limit (create_game, ai_game, challenge, chat, login, signup), "
        'its value as in "20/minute" or "off" (JSON); a name not given keeps its default',
    )
    max_body: Annotated[
        int, Field(ge=1024, le=16 * 1024 * 1024, description="largest request body (bytes)")
    ] = 64 * 1024
    max_record_plies: Annotated[
        int, Field(ge=1, le=100_000, description="most decisions in a record read for review")
    ] = 500
    history_page: Annotated[
        int,
        Field(
            ge=1,
            le=HISTORY_PAGE_MAX,
            description="most decisions in one page of a game's history (GET …/history)",
        ),
    ] = HISTORY_PAGE_MAX
    public_url: str | None = Field(
        None, description="base of the links handed out (default: the request's own)"
    )
    web_dir: Path = Field(WEB_DIR, description="folder of the browser client")
    migrate: bool = Field(True, description="run the database migrations at start-up")
    hello_timeout: Annotated[
        float, Field(gt=0, le=3600, description="seconds a WebSocket has to say hello")
    ] = 10.0
    cache_size: Annotated[int, Field(ge=1, le=1_000_000, description="games kept in memory")] = 2000
    sqlite_inline_writes: bool = Field(
        True, description="run SQLite commits on the event loop (they are short)"
    )
    access_log: bool = Field(True, description="write uvicorn's access log")
    process_id: str | None = Field(
        None,
        max_length=64,
        description="this process's name among the site's (AI claims, events); default "
        "host:pid:random",
    )
    ai_claim_timeout: Annotated[
        float,
        Field(
            ge=1,
            le=3600,
            description="seconds after which an AI turn claimed by a process that stopped "
            "renewing its claim (it died) is taken over by another",
        ),
    ] = 30.0
    clock_sweep: Annotated[
        float,
        Field(
            gt=0,
            le=60,
            description="most seconds between two looks for flag falls (deadlines set by "
            "other processes are seen then; this process's own are kept exactly)",
        ),
    ] = 1.0
    challenge_expiry: Annotated[
        float,
        Field(
            ge=10,
            le=30 * 86400,
            description="seconds an open challenge (live or untimed) waits for an opponent",
        ),
    ] = 600.0
    challenge_expiry_long: Annotated[
        float,
        Field(
            ge=10,
            le=30 * 86400,
            description="seconds a correspondence or direct challenge waits for an answer",
        ),
    ] = 3 * 86400.0
    game_expiry: Annotated[
        float,
        Field(
            ge=10,
            le=365 * 86400,
            description="seconds a game between two people may wait for both sides' first "
            "decisions before it is aborted",
        ),
    ] = 86400.0
    sweep_interval: Annotated[
        float,
        Field(gt=0, le=3600, description="seconds between two expiry sweeps"),
    ] = 30.0
    session_days: Annotated[
        float, Field(gt=0, le=3650, description="days a login session lasts")
    ] = 30.0
    secure_cookies: bool = Field(
        False, description="mark the cookies Secure even on plain http (they are over https)"
    )

    @field_validator("database_url")
    @classmethod
    def _normalise(cls, url: str) -> str:
        return normalise_database_url(url)

    @field_validator("rate_limits")
    @classmethod
    def _check_rate_limits(cls, limits: dict[str, str]) -> dict[str, str]:
        from .ratelimit import DEFAULT_RATE_LIMITS, check_limit

        for name, text in limits.items():
            if name not in DEFAULT_RATE_LIMITS:
                known = ", ".join(DEFAULT_RATE_LIMITS)
                raise ValueError(f"no rate limit is named {name!r} (limits: {known})")
            check_limit(text)
        return {**DEFAULT_RATE_LIMITS, **limits}


def _default_rate_limits() -> dict[str, str]:
    from .ratelimit import DEFAULT_RATE_LIMITS

    return dict(DEFAULT_RATE_LIMITS)
