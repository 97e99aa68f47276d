"""The routers of the application, one per part of the API (FastAPI "bigger applications"):

- :mod:`.games` — ``/api``: the catalog and the games (create, list, read, play, records);
- :mod:`.records` — ``/api/records``: reading an imported record for review;
- :mod:`.live` — ``/ws/games/<id>``: the WebSocket of a game;
- :mod:`.pages` — the browser's pages and ``/static``;
- :mod:`.teaching` — ``/api/teaching/<game>``: a game's rules and tutorial; ``/rules/<game>``.
"""

from __future__ import annotations

from . import games, live, pages, records, teaching

__all__ = ["games", "live", "pages", "records", "teaching"]
