"""The FastAPI application: its routers, lifespan, error handlers and middleware.

:func:`create_app` builds the application from :class:`~.settings.Settings`: the routers of
:mod:`.routers` (games, records, puzzles, puzzle_play, teaching, live, learn, analysis, pages), the
exception handlers of :mod:`.errors` and the :class:`~.middleware.Limits` middleware.  Its
lifespan opens the database (running the Alembic migrations), starts the AI worker processes,
builds the :class:`~.service.GameService` that the routes receive through :func:`.deps.get_service`,
and resumes the AI's turns of unfinished games.  :func:`serve` runs it with uvicorn
(``tablier serve``).  The API is described in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator

from anyio import to_thread
from fastapi import FastAPI

from .. import games as registry
from ..ai.players import LEVELS
from . import errors
from .accounts import ensure_ai_users
from .ai import AIPool, ClientAddress
from .broker import make_broker
from .challenges import sweep_forever
from .middleware import Limits, install_log_filter
from .migrate import upgrade
from .ratelimit import RateLimiter
from .ratings import settle_pending
from .routers import (
    accounts,
    analysis,
    challenges,
    games,
    learn,
    live,
    pages,
    puzzle_play,
    puzzles,
    records,
    teaching,
)
from .routers.chat import router as chat_router
from .routers.conditionals import router as conditionals_router
from .routers.ratings import router as ratings_router
from .service import GameService
from .settings import Settings
from .storage import Storage, make_engine

__all__ = ["create_app", "serve", "warm_up"]

log = logging.getLogger("tablier.server")


def warm_up() -> None:
    """Load every game and build its first views once, so that the first players do not wait
    for imports and tables (start-up takes that time instead)."""
    for name in registry.names():
        try:
            game = registry.get(name)
            state = game.initial_state()
            for _ in range(3):
                game.state_view(state)
                moves = state.legal_moves()
                if not moves:
                    break
                for move in moves:
                    game.move_view(state, move)
                move = moves[len(moves) // 2]
                game.parse_move(state, game.move_text(state, move))
                state = state.apply(move)
        except Exception:  # a broken game must not stop the server
            log.exception("warming up %s failed", name)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the web application (see the module docstring)."""
    settings = settings or Settings()
    install_log_filter()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        if settings.migrate:
            await to_thread.run_sync(upgrade, engine)
        storage = Storage(engine)
        await to_thread.run_sync(ensure_ai_users, engine, LEVELS)  # the AI levels are players
        pool = (
            AIPool(settings.ai_workers, settings.ai_progress_interval)
            if settings.ai_workers > 0
            else None
        )
        service = GameService(settings, storage, pool, make_broker(settings.database_url))
        app.state.service = service
        await service.start()  # joins the other processes of the database (cluster.py)
        await to_thread.run_sync(warm_up)
        gc.collect()
        gc.freeze()  # what start-up built lives on: keep it out of the collector's way
        service.clock_keeper.start()  # settles the flags that fell while it was down
        resumed = await service.resume_ai()
        if resumed:
            log.info("resumed the AI in %d game(s)", resumed)
        settled = await settle_pending(service)  # rated games that ended before a stop
        if settled:
            log.info("settled the ratings of %d game(s)", settled)
        sweeper = asyncio.create_task(sweep_forever(service))  # expiries (challenges.py)
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await service.close()
            if pool is not None:
                await to_thread.run_sync(pool.shutdown)
            storage.dispose()

    app = FastAPI(
        title="Tablier",
        summary="Abstract board games: play over REST and WebSocket, read records.",
        description="The codes of the error answers are listed in docs/web.md.",
        lifespan=lifespan,
        # No interactive page: Swagger UI loads its script from a CDN and inline, which the
        # Content-Security-Policy refuses; the description is at /api/openapi.json.
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.rate_limiter = RateLimiter(settings.rate_limits)
    errors.install(app)
    app.include_router(games.router)
    app.include_router(ratings_router)
    app.include_router(challenges.router)
    app.include_router(accounts.router)
    app.include_router(records.router)
    app.include_router(puzzles.router)
    app.include_router(puzzle_play.router)
    app.include_router(teaching.router)
    app.include_router(chat_router)
    app.include_router(conditionals_router)
    app.include_router(live.router)
    app.include_router(learn.router)
    app.include_router(analysis.router)
    app.include_router(pages.router)
    pages.mount_static(app, settings.web_dir)
    app.add_middleware(Limits, max_body=settings.max_body)
    app.add_middleware(ClientAddress)  # whose AI searches a request starts (ai.py)
    return app


def serve(settings: Settings) -> None:
    """Run the server with uvicorn until interrupted (``tablier serve``)."""
    import uvicorn

    install_log_filter()
    app = create_app(settings)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        access_log=settings.access_log,
        log_level="info",
        proxy_headers=True,
        server_header=False,
    )
