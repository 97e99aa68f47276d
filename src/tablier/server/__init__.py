"""Tablier's web server: FastAPI on uvicorn, SQLAlchemy storage, the AI in worker processes.

``create_app(settings)`` builds the ASGI application; ``tablier serve`` runs it.  See
``docs/web.md`` for the API, the storage schema and the security model.
"""

from __future__ import annotations

from .settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):
    """Build the web application (see :func:`tablier.server.app.create_app`)."""
    from .app import create_app as _create

    return _create(settings)
